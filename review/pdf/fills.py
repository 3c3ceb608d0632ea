"""Keep the background and the borders a mark lies on (Django-free).

Burn-in removes every vector graphic a box touches, so that no line of a signature or
a chart survives under the black fill. A filled rectangle the box lies on went with
it: a footer band, a shaded table row or header cell. The white text on it was left on
the white page: the release no longer showed what the reviewer saw, and sanitize then
cut that text as hidden (PyMuPDF's test_4412.pdf, camelot's column_span_1.pdf).

A plain rectangle fill carries nothing but its colour, which shows around the box
anyway. `split_fills` rewrites each one a box touches but does not contain as the
pieces of it around the boxes, drawn where it was drawn, each clear of every box by
`GAP`; the redaction then finds nothing of it to remove. One filled and outlined too
("re B", or a shape below) becomes its fill's pieces and its outline's sides, as below.
A path of several rectangles that do not overlap (a table's shaded rows) is split the
same way, and so is a filled shape of lines and curves (a banner, a box with round
corners, a frame filled as a ring): into the shape clipped to each piece
(`shape_pieces.py`), unless a piece's edge would pass through a curve (then columns are
tried instead of rows). Likewise a path of sides that is only stroked (a paragraph's
border, with round corners or not, a table's grid drawn as one path, a signature rule)
becomes its sides, each a path of its own, the straight ones a box crosses cut around
it: MuPDF takes a whole path when a box touches any line of it, and now takes only what
lay under the box. A curve is never cut: a box near one (within the box of its points)
leaves its path whole to the redaction, as is anything else a box touches (a clip, a
path the transformation turns, anything inside a form XObject)."""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from review.pdf.content import Operation, operations
from review.pdf.geometry import intersects, minus, pdf_to_page, within
from review.pdf.shape_pieces import Outline, Point, Segment, clipped

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in a content stream's space
Matrix = tuple[float, float, float, float, float, float]

# Points between a piece and the box it makes way for: MuPDF counts a touch as a hit.
GAP = 0.05
FILLS = (b"f", b"F", b"f*")
FILL_AND_STROKES = (b"B", b"B*", b"b", b"b*")
FILL_OF = {b"B": b"f", b"B*": b"f*", b"b": b"f", b"b*": b"f*"}
STROKES = (b"S", b"s")
# What ends a path: painting it (or not: "n"), or making it the clip ("W n").
PAINTS_AND_CLIPS = (*FILLS, *FILL_AND_STROKES, b"S", b"s", b"n", b"W", b"W*")
PATH_OPERATORS = (b"m", b"l", b"c", b"v", b"y", b"h", b"re")
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def split_fills(page: pymupdf.Page, boxes: Sequence[pymupdf.Rect]) -> None:
    """Rewrite the page's rectangle fills that `boxes` (page rectangles) touch but do
    not contain as their pieces around the boxes (see the module's docstring)."""
    if not any(
        _split_wanted(bbox, boxes)
        for kind, bbox in page.get_bboxlog()
        if kind in ("fill-path", "stroke-path")
    ):
        return  # the usual page: read in C, not lexed in Python
    doc = page.parent
    to_pdf = ~pdf_to_page(page)
    targets = [_rect(pymupdf.Rect(box) * to_pdf) for box in boxes]
    xrefs = page.get_contents()
    data = b"\n".join(doc.xref_stream(xref) for xref in xrefs)
    split = split_rectangle_fills(data, targets)
    if split == data:
        return
    # A stream of its own: another page may draw the same content stream.
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, split)
    doc.xref_set_key(page.xref, "Contents", f"{xref} 0 R")


def _split_wanted(bbox: Sequence[float], boxes: Sequence[pymupdf.Rect]) -> bool:
    """A fill drawn over `bbox` (page space) meets a box but lies not wholly in it."""
    fill = pymupdf.Rect(bbox)
    return any(fill.intersects(box) and fill not in box for box in boxes)


def split_rectangle_fills(data: bytes, boxes: Sequence[Rect]) -> bytes:
    """`data` with each plain rectangle fill (one "re", then "f", "F" or "f*") that a
    box in `boxes` (default user space) touches but does not contain written as its
    pieces around the boxes."""
    out: list[bytes] = []
    cursor = 0
    ctm, width = IDENTITY, 1.0  # the line width: how far past its path a stroke reaches
    saved: list[tuple[Matrix, float]] = []
    path: list[Operation] = []  # the path under construction: its operations
    for op in operations(data):
        name = op.operator
        if name in PATH_OPERATORS:
            path.append(op)
        elif name in FILLS and (rects := _rectangles(path)):
            pieces = _pieces(rects, ctm, boxes)
            if pieces is not None:
                out += [data[cursor : path[0].start], _filled(pieces, data[path[-1].end : op.end])]
                cursor = op.end
            path = []
        elif name in FILLS and (subpaths := _subpaths(path, closed=False)):
            shapes = _shape_pieces(subpaths, ctm, boxes)
            if shapes is not None:
                paint = data[path[-1].end : op.end]
                out += [data[cursor : path[0].start], b" ".join(_path(s) + paint for s in shapes)]
                cursor = op.end
            path = []
        elif name in FILL_AND_STROKES and (rects := _rectangles(path)):
            # Filled, then outlined: the fill's pieces, then the outline's sides (an
            # outline around each piece would draw lines across the fill).
            outlines = [_sides(_corners(rect)) for rect in rects]
            edges = _edges(outlines, ctm, boxes, max(width, 1.0) / 2)
            if edges is not None:
                paint = data[path[-1].end : op.start]
                fill = paint + FILL_OF[name]
                pieces = _pieces(rects, ctm, boxes)
                filled = (
                    _filled(pieces, fill)
                    if pieces is not None
                    else b" ".join(map(_re, rects)) + fill  # as it was, for the redaction
                )
                out += [data[cursor : path[0].start], filled, b" ", _stroked(edges, paint + b"S")]
                cursor = op.end
            path = []
        elif name in FILL_AND_STROKES and (shape := _subpaths(path, closed=name in (b"b", b"b*"))):
            # Filled and outlined: the fill's pieces, then the sides ("B" strokes no closing
            # side; filling closes every outline).
            edges = _edges(shape, ctm, boxes, max(width, 1.0) / 2)
            shapes = _shape_pieces(shape, ctm, boxes)
            if edges is not None and shapes is not None:
                paint = data[path[-1].end : op.start]
                filled = b" ".join(_path(piece) + paint + FILL_OF[name] for piece in shapes)
                out += [data[cursor : path[0].start], filled, b" ", _stroked(edges, paint + b"S")]
                cursor = op.end
            path = []
        elif name in STROKES and (subpaths := _subpaths(path, closed=name == b"s")):
            edges = _edges(subpaths, ctm, boxes, max(width, 1.0) / 2)
            if edges is not None:
                # "s" closed the path, whose closing side is an edge: "s" again drew chords.
                paint = data[path[-1].end : op.start] + b"S"
                out += [data[cursor : path[0].start], _stroked(edges, paint)]
                cursor = op.end
            path = []
        elif name in PAINTS_AND_CLIPS:
            path = []
        elif name == b"q":
            saved.append((ctm, width))
        elif name == b"Q":
            ctm, width = saved.pop() if saved else (IDENTITY, 1.0)
        elif name == b"cm":
            matrix = _numbers(op.operands, 6)
            ctm = _concat(matrix, ctm) if matrix else ctm
        elif name == b"w":
            number = _numbers(op.operands, 1)
            width = abs(number[0]) if number else width
    out.append(data[cursor:])
    return b"".join(out)


def _filled(pieces: list[Rect], paint: bytes) -> bytes:
    """Each piece a rectangle painted on its own, as the whole was (one path of several
    would no longer be a plain rectangle fill to the hidden-content analysis), with what
    lay between the path and its painting (MuPDF writes the colour there)."""
    return b" ".join(_re(piece) + paint for piece in pieces)


def _stroked(edges: tuple[list[bytes], list[bytes]], paint: bytes) -> bytes:
    alone, joined = ([edge + paint for edge in group] for group in edges)
    if joined:
        # Square caps close each corner the sides met at, as the join did.
        alone.append(b"q 2 J " + b" ".join(joined) + b" Q")
    return b" ".join(alone)


def _rectangles(path: list[Operation]) -> list[Rect] | None:
    """The rectangles of a path of "re"s alone (each perhaps closed again with "h")."""
    rects: list[Rect] = []
    for op in path:
        if op.operator == b"h" and rects:
            continue
        numbers = _numbers(op.operands, 4) if op.operator == b"re" else None
        if not numbers:
            return None
        x, y, width, height = numbers
        rects.append(_rect((x, y, x + width, y + height)))
    return rects


def _pieces(rects: list[Rect], ctm: Matrix, boxes: Sequence[Rect]) -> list[Rect] | None:
    """The pieces of the rectangles `rects` around `boxes`, in their own space, clear of
    each box by the gap; None when they stay as they are (no box touches them, one
    holds them all, the transformation turns or skews them, or two overlap: painted one
    by one they would not paint what the path did under the even-odd rule, nor a
    translucent colour)."""
    grown = _grown(boxes, ctm, 0.0)
    if not grown or _held(_bounds(rects), grown) or not _touch(_bounds(rects), grown):
        return None
    if not _disjoint(rects):
        return None
    pieces = []
    for rect in rects:
        parts = [rect]
        for box in grown:
            parts = [part for piece in parts for part in minus(piece, box)]
        pieces.extend(parts)
    return pieces


def _shape_pieces(
    subpaths: list[list[Segment]], ctm: Matrix, boxes: Sequence[Rect]
) -> list[list[Outline]] | None:
    """The pieces of a filled shape around `boxes`, each the shape clipped to a
    rectangle around them (`shape_pieces.py`), every outline (a ring's two) clipped
    alike, so a point in the rectangle is filled as before under either fill rule; None
    when it stays as it is (no box touches it, one holds it all, the transformation
    turns or skews it, or a box comes near a curve). Filling closes each outline."""
    outlines = [[*sides, (sides[-1][-1], sides[0][0])] for sides in subpaths]
    grown = _grown(boxes, ctm, 0.0)
    whole = _bounds([(x, y, x, y) for sides in outlines for side in sides for x, y in side])
    if not grown or _held(whole, grown) or not _touch(whole, grown):
        return None
    # Rows around a box, else columns: a mark near a round bottom corner leaves the
    # columns beside it clear of the curve.
    for columns in (False, True):
        regions = [whole]
        for box in grown:
            regions = [part for region in regions for part in minus(region, box, columns=columns)]
        pieces = [[clipped(sides, region) for sides in outlines] for region in regions]
        if all(outline is not None for piece in pieces for outline in piece):
            return [kept for piece in pieces if (kept := [o for o in piece if o])]
    return None


def _path(outlines: list[Outline]) -> bytes:
    """Closed outlines as the subpaths of one path."""
    ops = []
    for outline in outlines:
        ops.append(b"%s %s m" % tuple(_number(v) for v in outline[0][0]))
        for side in outline:
            numbers = [_number(v) for point in side[1:] for v in point]
            ops.append(b" ".join(numbers) + (b" l" if len(side) == 2 else b" c"))
        ops.append(b"h")
    return b" ".join(ops) + b" "


def _disjoint(rects: list[Rect]) -> bool:
    """No two of `rects` overlap (each compared with those starting left of its end)."""
    ordered = sorted(rects)
    for i, rect in enumerate(ordered):
        for other in ordered[i + 1 :]:
            if other[0] >= rect[2]:
                break
            if intersects(rect, other):
                return False
    return True


def _corners(rect: Rect) -> list[Point]:
    """A rectangle's outline, closed."""
    x0, y0, x1, y1 = rect
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]


def _sides(corners: list[Point]) -> list[Segment]:
    return list(zip(corners, corners[1:], strict=False))


def _subpaths(path: list[Operation], *, closed: bool) -> list[list[Segment]] | None:
    """The subpaths of a path of sides ("re"s, or "m" then "l"s and curves, each perhaps
    closed by "h", the last perhaps by painting with "s"), a closed one ending with a
    side back to its start; None for any other path, or one with a lone point (a dot,
    drawn by a round cap)."""
    subpaths: list[list[Segment]] = []
    start = point = (0.0, 0.0)
    for op in path:
        name = op.operator
        count = {b"re": 4, b"m": 2, b"l": 2, b"c": 6, b"v": 4, b"y": 4, b"h": 0}.get(name)
        numbers = _numbers(op.operands, count) if count is not None else None
        if numbers is None or (name not in (b"re", b"m") and not subpaths):
            return None
        points = list(zip(numbers[::2], numbers[1::2], strict=True))
        if name == b"re":
            x, y, width, height = numbers
            subpaths.append(_sides(_corners((x, y, x + width, y + height))))
            start = point = (x, y)
            continue
        if name == b"m":
            subpaths.append([])
            start = points[0]
        elif name == b"h":
            if point != start:
                subpaths[-1].append((point, start))
            points = [start]
        elif name == b"v":  # the first control is the current point
            subpaths[-1].append((point, point, *points))
        elif name == b"y":  # the second control is the end
            subpaths[-1].append((point, *points, points[-1]))
        else:  # "l", "c"
            subpaths[-1].append((point, *points))
        point = points[-1]
    if not subpaths or not all(subpaths):
        return None
    if closed and point != start:
        subpaths[-1].append((point, start))
    return subpaths


def _edges(
    subpaths: list[list[Segment]], ctm: Matrix, boxes: Sequence[Rect], reach: float
) -> tuple[list[bytes], list[bytes]] | None:
    """The sides of a stroked path, each a path of its own and the straight ones cut
    around the boxes, when a box touches the path's box but holds none of it whole;
    None when it stays as it is, or a box comes near a curve (a curve is never cut).
    Redaction then takes only what lies under a box, where it took the whole path: a
    border around a redacted phone number (pdfplumber's cupertino_usd_4-6-16.pdf), one
    with round corners (pdf.js's pr12564.pdf), a grid as one path. The sides come in
    two lists: the sides of subpaths of one side, which keep their caps (a cut end lies
    clear of the box by more than any cap reaches), and sides that met another, whose
    corners square caps close."""
    grown = _grown(boxes, ctm, reach)
    if not grown:
        return None
    whole = _bounds(
        [_bounds([(x, y, x, y) for x, y in side]) for sides in subpaths for side in sides]
    )
    if _held(whole, grown) or not _touch(whole, grown):
        return None
    # A cut end's cap reaches past it: keep the pieces clear of the boxes by twice as much.
    cut_around = _grown(boxes, ctm, 2 * reach)
    alone: list[bytes] = []
    joined: list[bytes] = []
    for sides in subpaths:
        group = alone if len(sides) == 1 else joined
        for side in sides:
            if len(side) == 2:
                for a, b in _outside(side[0], side[1], cut_around):
                    group.append(b"%s %s m %s %s l" % (*map(_number, a), *map(_number, b)))
            elif _touch(_bounds([(x, y, x, y) for x, y in side]), cut_around):
                return None  # the curve lies within its points' box
            else:
                numbers = [_number(v) for point in side for v in point]
                group.append(b"%s %s m %s %s %s %s %s %s c" % tuple(numbers))
    return alone, joined


def _outside(start: Point, end: Point, boxes: list[Rect]) -> list[tuple[Point, Point]]:
    """The pieces of the segment from `start` to `end` outside every box."""
    spans = [(0.0, 1.0)]
    for box in boxes:
        inside = _clipped(start, end, box)
        if inside is None:
            continue
        t0, t1 = inside
        spans = [
            part
            for a, b in spans
            for part in ((a, min(b, t0)), (max(a, t1), b))
            if part[1] - part[0] > 1e-9
        ]
    (x0, y0), (x1, y1) = start, end

    def at(t: float) -> Point:
        return start if t == 0 else end if t == 1 else (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)

    return [(at(a), at(b)) for a, b in spans]


def _clipped(start: Point, end: Point, box: Rect) -> tuple[float, float] | None:
    """The stretch (of 0..1) of the segment inside `box` (Liang and Barsky's clip), or
    None when it misses the box."""
    (x0, y0), (x1, y1) = start, end
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    return (t0, t1) if t0 < t1 else None


def _grown(boxes: Sequence[Rect], ctm: Matrix, reach: float) -> list[Rect]:
    """`boxes` (default user space) in the space `ctm` draws from, grown by the gap and
    `reach` (in that space); none when the transformation turns or skews it."""
    a, b, c, d, e, f = ctm
    if b or c or not a or not d:
        return []
    gap_x, gap_y = GAP / abs(a) + reach, GAP / abs(d) + reach
    grown = []
    for bx0, by0, bx1, by1 in boxes:
        x0, y0, x1, y1 = _rect(((bx0 - e) / a, (by0 - f) / d, (bx1 - e) / a, (by1 - f) / d))
        grown.append((x0 - gap_x, y0 - gap_y, x1 + gap_x, y1 + gap_y))
    return grown


def _touch(rect: Rect, boxes: list[Rect]) -> bool:
    return any(intersects(rect, box) for box in boxes)


def _held(rect: Rect, boxes: list[Rect]) -> bool:
    return any(within(rect, box) for box in boxes)


def _bounds(rects: Sequence[Rect]) -> Rect:
    x0s, y0s, x1s, y1s = zip(*rects, strict=True)
    return min(x0s), min(y0s), max(x1s), max(y1s)


def _rect(r: Sequence[float]) -> Rect:
    x0, y0, x1, y1 = r
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _re(rect: Rect) -> bytes:
    x0, y0, x1, y1 = rect
    return b"%s %s %s %s re" % tuple(_number(v) for v in (x0, y0, x1 - x0, y1 - y0))


def _number(value: float) -> bytes:
    return (b"%.4f" % value).rstrip(b"0").rstrip(b".") or b"0"


def _numbers(operands: list[bytes], count: int) -> list[float] | None:
    """The operands as numbers, or None unless they are `count` numbers."""
    if len(operands) != count:
        return None
    try:
        return [float(operand) for operand in operands]
    except ValueError:
        return None


def _concat(m: Sequence[float], ctm: Matrix) -> Matrix:
    """`m` then `ctm`: the matrix "cm" makes current."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = ctm  # noqa: N806 - the two matrices' names in the PDF reference
    return (
        a * A + b * C,
        a * B + b * D,
        c * A + d * C,
        c * B + d * D,
        e * A + f * C + E,
        e * B + f * D + F,
    )
