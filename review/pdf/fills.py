"""Keep the background and the borders a mark lies on (Django-free).

Burn-in removes every vector graphic a box touches, so that no line of a signature or
a chart survives under the black fill. A filled rectangle the box lies on went with
it: a footer band, a shaded table row or header cell. The white text on it was left on
the white page: the release no longer showed what the reviewer saw, and sanitize then
cut that text as hidden (PyMuPDF's test_4412.pdf, camelot's column_span_1.pdf).

A plain rectangle fill carries nothing but its colour, which shows around the box
anyway. `split_fills` rewrites each one a box touches but does not contain as the
pieces of it around the boxes, drawn where it was drawn, each clear of every box by
`user_space.GAP`; the redaction then finds nothing of it to remove. One filled and outlined too
("re B", or a shape below) becomes its fill's pieces and its outline's sides, as below.
A path of several rectangles (a table's shaded rows) is split the same way, and so is
a filled shape of lines and curves (a banner, a box with round corners, a frame filled
as a circle or a ring): into the shape clipped to each piece
(`shape_pieces.py`, its curves cut where a piece's edge crosses them), in rows around
the boxes, or in columns where a row's piece would reach a box. Likewise a path that is
only stroked (a paragraph's border, with round corners or not, a table's grid drawn as
one path, a signature rule, a callout) becomes its sides, each a path of its own, what
a box covers of them cut away (`stroke_pieces.py`): MuPDF takes a whole path when a box
comes near any of it, and now takes only what lay under the box. Inside a form XObject
the same is done in a copy of the form for the place that draws it (`form_fills.py`).
A path turned other than by quarter turns is split the same way in default user space
(`turned_paths.py`). Anything else a box touches goes whole with the redaction (a clip,
a path the transformation skews or stretches unevenly: `user_space.boxes_in`)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import pymupdf

from review.pdf.content_tokens import Operation, operations
from review.pdf.form_fills import StreamOwner, strokes_a_form_may_reach
from review.pdf.geometry import minus, painted_rectangles, pdf_to_page
from review.pdf.seams import opaque_painting, overlapped, paints_opaque
from review.pdf.shape_pieces import (
    Outline,
    Segment,
    clipped,
    hugging,
    path_subpaths,
    rectangle_sides,
)
from review.pdf.stroke_bands import stroke_band
from review.pdf.stroke_pieces import stroke_sides, stroked
from review.pdf.turned_paths import drawn_level, in_default_space, level_state, turn_scale
from review.pdf.user_space import (
    FILL_AND_STROKES,
    FILLS,
    PAINTS,
    STROKES,
    PathState,
    Rect,
    bounds_of,
    boxes_in,
    inside_any,
    meets_any,
    numbers_of,
    ordered,
    pdf_number,
)

FILL_OF = {b"B": b"f", b"B*": b"f*", b"b": b"f", b"b*": b"f*"}
# What ends a path: painting it (or not: "n"), or making it the clip ("W n").
PAINTS_AND_CLIPS = (*PAINTS, b"n", b"W", b"W*")
PATH_OPERATORS = (b"m", b"l", b"c", b"v", b"y", b"h", b"re")
# Points two rectangles of one path may overlap by and still be taken as side by side.
ROUNDING = 1e-6
_RESOURCES = pymupdf.mupdf.PdfObj(pymupdf.mupdf.PDF_ENUM_NAME_Resources)
_PATTERN = pymupdf.mupdf.PdfObj(pymupdf.mupdf.PDF_ENUM_NAME_Pattern)


def split_fills(
    page: pymupdf.Page, boxes: Sequence[pymupdf.Rect], log: Sequence[tuple[str, Sequence[float]]]
) -> None:
    """Rewrite the page's rectangle fills that `boxes` (page rectangles) touch but do
    not contain as their pieces around the boxes (see the module's docstring). `log`:
    the page's bbox log (`get_bboxlog`)."""
    if not (
        _paints_with_patterns(page)
        or any(
            _split_wanted(bbox, boxes) for kind, bbox in log if kind in ("fill-path", "stroke-path")
        )
        or (page.get_xobjects() and strokes_a_form_may_reach(log, boxes))
    ):
        return  # the usual page: read in C, not lexed in Python
    doc = page.parent
    to_pdf = ~pdf_to_page(page)
    targets = tuple(ordered(pymupdf.Rect(box) * to_pdf) for box in boxes)
    xrefs = page.get_contents()
    data = b"\n".join(doc.xref_stream(xref) for xref in xrefs)
    splitter = functools.partial(split_rectangle_fills, opaque=opaque_painting(page))
    split = splitter(data, targets, PathState(), StreamOwner(doc, page.xref, targets, splitter))
    if split == data:
        return
    # A stream of its own: another page may draw the same content stream.
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, split)
    doc.xref_set_key(page.xref, "Contents", f"{xref} 0 R")


def _paints_with_patterns(page: pymupdf.Page) -> bool:
    """The resources of the page, or of a form it draws, hold patterns. The bbox log has
    a pattern's cells, drawn once, or its shading, not the shape it fills: a page filled
    with a tiling pattern went whole under a mark (veraPDF's 6-2-4-3 colour space
    tests), and so did a gradient a form fills its box with (iText's background
    images)."""
    pdf_page = pymupdf.mupdf.pdf_page_from_fz_page(page.this)
    resources = [pymupdf.mupdf.pdf_dict_get_inheritable(pdf_page.obj(), _RESOURCES)]
    for xref, *_ in page.get_xobjects():
        form = pymupdf.mupdf.pdf_load_object(pdf_page.doc(), xref)
        resources.append(pymupdf.mupdf.pdf_dict_get(form, _RESOURCES))
    return any(
        pymupdf.mupdf.pdf_dict_len(pymupdf.mupdf.pdf_dict_get(held, _PATTERN)) > 0
        for held in resources
    )


def _split_wanted(bbox: Sequence[float], boxes: Sequence[pymupdf.Rect]) -> bool:
    """A fill drawn over `bbox` (page space) meets a box but lies not wholly in it."""
    fill = pymupdf.Rect(bbox)
    return any(fill.intersects(box) and fill not in box for box in boxes)


def split_rectangle_fills(
    data: bytes,
    boxes: Sequence[Rect],
    start: PathState = PathState(),  # noqa: B008 - immutable
    owner: StreamOwner | None = None,
    *,
    opaque: bool = False,
) -> bytes:
    """`data` with each plain rectangle fill (one "re", then "f", "F" or "f*") that a
    box in `boxes` (default user space) touches but does not contain written as its
    pieces around the boxes, and so on (module docstring). `start`: the graphics state
    the stream starts in; `owner`: the page or form whose resources it names (the forms
    it draws are split too, the graphics states it sets are followed: `form_fills`);
    `opaque`: nothing the stream draws is translucent (`seams.opaque_painting`)."""
    out: list[bytes] = []
    cursor = 0
    state = start
    saved: list[PathState] = []
    path: list[Operation] = []  # the path under construction: its operations
    for op in operations(data):
        name = op.operator
        if name in PATH_OPERATORS:
            path.append(op)
        elif (
            name in PAINTS
            and path
            and (scale := turn_scale(state.ctm, stroked=name not in FILLS))
            and (level_path := in_default_space(path, state.ctm)) is not None
        ):
            # Split where MuPDF bounds it: in default user space (`turned_paths.py`).
            between = data[path[-1].end : op.start]  # the colour MuPDF's filter writes
            level_data = level_path + b" " + data[path[-1].end : op.end]
            level = level_state(state, scale)
            split = split_rectangle_fills(level_data, boxes, level, opaque=opaque)
            if split != level_data:
                out += [_up_to(data, cursor, path), drawn_level(split, state, level), between]
                cursor = op.end
            path = []
        elif name in FILLS and (found := _rectangles(path)):
            rects, windings = found
            even_odd = name == b"f*"
            pieces = _pieces(rects, windings, state, boxes, even_odd=even_odd, opaque=opaque)
            if pieces is not None:
                out += [_up_to(data, cursor, path), _between(data, path, op)]
                out.append(_filled(pieces, b" " + name))
                cursor = op.end
            path = []
        elif name in FILLS and (subpaths := path_subpaths(path, closed=False)):
            shapes = _shape_pieces(subpaths, state, boxes, opaque=opaque)
            if shapes is not None:
                out += [_up_to(data, cursor, path), _between(data, path, op)]
                out.append(b" ".join(_path(s) + b" " + name for s in shapes))
                cursor = op.end
            path = []
        elif name in FILL_AND_STROKES and (found := _rectangles(path)):
            rects, windings = found
            # Filled, then outlined: the fill's pieces, then the outline's sides (an
            # outline around each piece would draw lines across the fill).
            outlines = [rectangle_sides(rect) for rect in rects]
            edges = stroke_sides(outlines, state, boxes)
            if edges is not None:
                fill = b" " + FILL_OF[name]
                even_odd = name in (b"B*", b"b*")
                pieces = _pieces(rects, windings, state, boxes, even_odd=even_odd, opaque=opaque)
                filled = (
                    _filled(pieces, fill)
                    if pieces is not None
                    else data[path[0].start : path[-1].end] + fill  # as it was, for the redaction
                )
                out += [
                    _up_to(data, cursor, path),
                    _between(data, path, op),
                    filled,
                    b" ",
                    stroked(edges, b"", state),
                ]
                cursor = op.end
            path = []
        elif name in FILL_AND_STROKES and (
            shape := path_subpaths(path, closed=name in (b"b", b"b*"))
        ):
            # Filled and outlined: the fill's pieces, then the sides ("B" strokes no closing
            # side; filling closes every outline).
            edges = stroke_sides(shape, state, boxes)
            if edges is not None:
                fill = b" " + FILL_OF[name]
                shapes = _shape_pieces(shape, state, boxes, opaque=opaque)
                filled = (
                    b" ".join(_path(piece) + fill for piece in shapes)
                    if shapes is not None
                    # As it was, for the redaction: an outline's ink may reach a box its
                    # fill stays clear of (a clock face above a redacted caption).
                    else data[path[0].start : path[-1].end] + fill
                )
                out += [
                    _up_to(data, cursor, path),
                    _between(data, path, op),
                    filled,
                    b" ",
                    stroked(edges, b"", state),
                ]
                cursor = op.end
            path = []
        elif name in STROKES and (subpaths := path_subpaths(path, closed=name == b"s")):
            band = stroke_band(subpaths, state)
            pieces = band and _pieces([band], [1], state, boxes, even_odd=False, opaque=opaque)
            if pieces:
                # The colour MuPDF's filter writes stays set for what follows.
                filled = _filled(pieces, b" f")
                out += [_up_to(data, cursor, path), data[path[-1].end : op.start]]
                out += [b" q ", state.stroke_fill, b" ", filled, b" Q"]
                cursor = op.end
            elif (edges := stroke_sides(subpaths, state, boxes)) is not None:
                # "s" closed the path, whose closing side is an edge: "s" again drew chords.
                between = data[path[-1].end : op.start]
                out += [_up_to(data, cursor, path), stroked(edges, between, state)]
                cursor = op.end
            path = []
        elif name in PAINTS_AND_CLIPS:
            path = []
        elif name == b"q":
            saved.append(state)
        elif name == b"Q":
            state = saved.pop() if saved else start
        elif name == b"gs" and owner is not None and op.operands:
            for setting, operands in owner.line_settings(op.operands[-1]):
                state = state.after(setting, operands)
        elif name == b"Do" and owner is not None and op.operands:
            drawn = owner.split_form(op.operands[-1], state)
            if drawn is not None:
                out += [data[cursor : op.start], drawn, b" Do"]
                cursor = op.end
        else:
            state = state.after(name, op.operands)
    out.append(data[cursor:])
    return b"".join(out)


def _up_to(data: bytes, cursor: int, path: list[Operation]) -> bytes:
    """What lies from `cursor` to the path, then what was set while the path was built:
    MuPDF strokes in a width set before its "h" (PyMuPDF-Utilities' cardioid)."""
    start, end = path[0].start, path[-1].end
    ops = operations(data[start:end])
    settings = [
        data[start + op.start : start + op.end] for op in ops if op.operator not in PATH_OPERATORS
    ]
    return b" ".join([data[cursor:start], *settings, b""]) if settings else data[cursor:start]


def _between(data: bytes, path: list[Operation], paint: Operation) -> bytes:
    """What the content sets between a path and its painting (MuPDF's filter writes the
    colour there), set once before the pieces drawn for it: set again with each, a
    "q .1 0 0 .1 0 0 cm" there (a CAD drawing's content opens so) was nested once per
    piece, and all that followed was drawn ten and a hundred times smaller, off the
    page (pymupdf's test_2907.pdf)."""
    between = data[path[-1].end : paint.start].strip()
    return between + b" " if between else b""


def _filled(pieces: list[Rect], paint: bytes) -> bytes:
    """Each piece a rectangle painted on its own, as the whole was (one path of several
    would no longer be a plain rectangle fill to the hidden-content analysis)."""
    return b" ".join(_re(piece) + paint for piece in pieces)


def _rectangles(path: list[Operation]) -> tuple[list[Rect], list[int]] | None:
    """The rectangles of a path of "re"s alone (each perhaps closed again with "h"), and
    the way each is drawn round (+1 or -1: a negative width or height turns it)."""
    rects: list[Rect] = []
    windings: list[int] = []
    for op in path:
        if op.operator == b"h" and rects:
            continue
        numbers = numbers_of(op.operands, 4) if op.operator == b"re" else None
        if not numbers:
            return None
        x, y, width, height = numbers
        rects.append(ordered((x, y, x + width, y + height)))
        windings.append(-1 if (width < 0) != (height < 0) else 1)
    return (rects, windings) if rects else None


def _pieces(
    rects: list[Rect],
    windings: list[int],
    state: PathState,
    boxes: Sequence[Rect],
    *,
    even_odd: bool,
    opaque: bool,
) -> list[Rect] | None:
    """The pieces of what the rectangles `rects` paint by their fill rule around
    `boxes`, in their own space, clear of each box by the gap; None when they stay as
    they are (no box touches them, one holds them all, the transformation skews them:
    `boxes_in`). What they paint is first made disjoint rectangles (`painted_rectangles`),
    so the pieces painted one by one paint what the path did, in a translucent colour
    too: a header row's cells drawn as one path, two of them overlapping by a thousandth
    of a point, went whole (camelot's EU food-safety tables). Where the page paints
    nothing translucent (`opaque`), or the fill in `state` is opaque, the pieces overlap
    where they meet (`seams`)."""
    ctm = state.ctm
    grown = boxes_in(boxes, ctm, 0.0)
    if not grown or inside_any(bounds_of(rects), grown) or not meets_any(bounds_of(rects), grown):
        return None
    pieces = []
    painted = painted_rectangles(rects, even_odd=even_odd, windings=windings)
    for rect in painted:
        if rect[2] - rect[0] < ROUNDING or rect[3] - rect[1] < ROUNDING:
            continue  # the sliver between two cells that meet give or take the last digit
        parts = [rect]
        for box in grown:
            parts = [part for piece in parts for part in minus(piece, box)]
        pieces.extend(parts)
    return overlapped(pieces, painted, grown, ctm) if opaque or paints_opaque(state) else pieces


def _shape_pieces(
    subpaths: list[list[Segment]], state: PathState, boxes: Sequence[Rect], *, opaque: bool
) -> list[list[Outline]] | None:
    """The pieces of a filled shape around `boxes`, each the shape clipped to a
    rectangle around them (`shape_pieces.py`), every outline (a ring's two) clipped
    alike, so a point in the rectangle is filled as before under either fill rule; None
    when it stays as it is (no box touches it, one holds it all, the transformation
    skews it (`boxes_in`), or a piece's curve has a control point at a box: MuPDF
    bounds a path by its points). Filling closes each outline. Where the page paints
    nothing translucent (`opaque`), or the fill in `state` is opaque, the rectangles
    overlap where they meet (`seams`): a page's frame drawn as a ring of lines showed a
    hairline beside every row of marks down its margins (dart_pdf's watermark test)."""
    ctm = state.ctm
    outlines = [[*sides, (sides[-1][-1], sides[0][0])] for sides in subpaths]
    grown = boxes_in(boxes, ctm, 0.0)
    whole = bounds_of([(x, y, x, y) for sides in outlines for side in sides for x, y in side])
    if not grown or inside_any(whole, grown) or not meets_any(whole, grown):
        return None
    # Rows around a box, else columns: a mark near a round bottom corner leaves the
    # columns beside it clear of the curve.
    for columns in (False, True):
        regions = [whole]
        for box in grown:
            regions = [part for region in regions for part in minus(region, box, columns=columns)]
        if opaque or paints_opaque(state):
            regions = overlapped(regions, [whole], grown, ctm)
        pieces = [
            [hugging(outline, grown) for outline in kept]
            for region in regions
            if (kept := _clipped_all(outlines, region))
        ]
        if not any(meets_any(_bounds(piece), grown) for piece in pieces):
            return pieces
    return None


def _clipped_all(outlines: list[Outline], region: Rect) -> list[Outline]:
    return [outline for sides in outlines if (outline := clipped(sides, region))]


def _bounds(piece: list[Outline]) -> Rect:
    """The bounds of the piece's points, less rounding: its sides cut at a region's edge
    end on that edge, give or take the last digit."""
    return _inset(
        bounds_of([(x, y, x, y) for outline in piece for side in outline for x, y in side])
    )


def _inset(rect: Rect) -> Rect:
    x0, y0, x1, y1 = rect
    return (x0 + ROUNDING, y0 + ROUNDING, x1 - ROUNDING, y1 - ROUNDING)


def _path(outlines: list[Outline]) -> bytes:
    """Closed outlines as the subpaths of one path."""
    ops = []
    for outline in outlines:
        ops.append(b"%s %s m" % tuple(pdf_number(v) for v in outline[0][0]))
        for side in outline:
            numbers = [pdf_number(v) for point in side[1:] for v in point]
            ops.append(b" ".join(numbers) + (b" l" if len(side) == 2 else b" c"))
        ops.append(b"h")
    return b" ".join(ops) + b" "


def _re(rect: Rect) -> bytes:
    x0, y0, x1, y1 = rect
    return b"%s %s %s %s re" % tuple(pdf_number(v) for v in (x0, y0, x1 - x0, y1 - y0))
