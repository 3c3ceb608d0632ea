"""Keep the background and the borders a mark lies on (Django-free).

Burn-in removes every vector graphic a box touches, so that no line of a signature or
a chart survives under the black fill. A filled rectangle the box lies on went with
it: a footer band, a shaded table row or header cell. The white text on it was left on
the white page: the release no longer showed what the reviewer saw, and sanitize then
cut that text as hidden (PyMuPDF's test_4412.pdf, camelot's column_span_1.pdf).

A plain rectangle fill carries nothing but its colour, which shows around the box
anyway. `split_fills` rewrites each one a box touches but does not contain as the
pieces of it around the boxes, drawn where it was drawn, each clear of every box by
`GAP` (and by half the line width when it is outlined too, "re B": each piece gets its
own outline); the redaction then finds nothing of it to remove. Likewise an outline of
straight sides that is only stroked (a paragraph's border, a rectangle) becomes its
sides, each a path of its own: the redaction takes those the box meets and leaves the
others, where it took the whole border. Anything else a box touches (a path with
curves, a clip, a path the transformation turns, anything inside a form XObject) is
left to the redaction.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from review.pdf.content import Operation, operations
from review.pdf.geometry import pdf_to_page

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in a content stream's space
Matrix = tuple[float, float, float, float, float, float]

# Points between a piece and the box it makes way for: MuPDF counts a touch as a hit.
GAP = 0.05
FILLS = (b"f", b"F", b"f*")
FILL_AND_STROKES = (b"B", b"B*", b"b", b"b*")  # the outline drawn around each piece
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
    ctm, width = IDENTITY, 1.0  # the line width, for an outline around the pieces
    saved: list[tuple[Matrix, float]] = []
    path: list[Operation] = []  # the path under construction: its operations
    for op in operations(data):
        name = op.operator
        if name in PATH_OPERATORS:
            path.append(op)
        elif name in FILLS + FILL_AND_STROKES and _one_rectangle(path):
            # An outline reaches half its width (at least a device pixel) past a piece.
            reach = max(width, 1.0) / 2 if name in FILL_AND_STROKES else 0.0
            pieces = _pieces(path[0], ctm, boxes, reach)
            if pieces:
                # Each piece a rectangle painted on its own, as the whole was (one path
                # of several would no longer be a plain rectangle fill to the hidden-
                # content analysis), with what lay between the path and its painting
                # (MuPDF writes the colour there).
                between = data[path[-1].end : op.end]
                out.append(data[cursor : path[0].start])
                out.append(b" ".join(_re(piece) + between for piece in pieces))
                cursor = op.end
            path = []
        elif name in STROKES and (corners := _corners(path, closed=name == b"s")):
            edges = _edges(corners, ctm, boxes, max(width, 1.0) / 2)
            if edges:
                between = data[path[-1].end : op.end]
                out.append(data[cursor : path[0].start])
                # Square caps close each corner of a closed outline as its join did.
                caps = b"q 2 J " if corners[0] == corners[-1] else b"q "
                out.append(caps + b" ".join(edge + between for edge in edges) + b" Q")
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


def _one_rectangle(path: list[Operation]) -> bool:
    """The path is one rectangle ("re", perhaps closed again with "h")."""
    return [op.operator for op in path] in ([b"re"], [b"re", b"h"])


def _pieces(op: Operation, ctm: Matrix, boxes: Sequence[Rect], reach: float) -> list[Rect] | None:
    """The pieces of the rectangle `op` draws around `boxes`, in its own space, clear
    of each box by the gap and `reach` (in the same space); None when it stays as it
    is (no box touches it, one holds it whole, or the transformation turns or skews
    it)."""
    numbers = _numbers(op.operands, 4)
    if not numbers:
        return None
    x, y, width, height = numbers
    rect = _rect((x, y, x + width, y + height))
    touching = _touching(rect, ctm, boxes, reach)
    if not touching:
        return None
    pieces = [rect]
    for box in touching:
        pieces = [part for piece in pieces for part in _minus(piece, box)]
    return pieces


def _corners(path: list[Operation], *, closed: bool) -> list[tuple[float, float]] | None:
    """The corners of a path of straight sides ("re", or "m" then "l"s, perhaps closed
    by "h" or by painting with "s"), the first repeated last when it is closed."""
    names = [op.operator for op in path]
    if names in ([b"re"], [b"re", b"h"]):
        numbers = _numbers(path[0].operands, 4)
        if not numbers:
            return None
        x, y, width, height = numbers
        return [(x, y), (x + width, y), (x + width, y + height), (x, y + height), (x, y)]
    if len(names) < 2 or names[0] != b"m" or any(n != b"l" for n in names[1:-1]):
        return None
    if names[-1] == b"h":
        closed, path = True, path[:-1]
    elif names[-1] != b"l":
        return None
    corners = []
    for op in path:
        numbers = _numbers(op.operands, 2)
        if not numbers:
            return None
        corners.append((numbers[0], numbers[1]))
    return corners + corners[:1] if closed and corners[0] != corners[-1] else corners


def _edges(
    corners: list[tuple[float, float]], ctm: Matrix, boxes: Sequence[Rect], reach: float
) -> list[bytes] | None:
    """The sides of a stroked outline through `corners` as paths of their own, when a
    box touches the outline's box but holds none of it whole; None when it stays as it
    is. Redaction takes the sides the box meets and leaves the others, where it took
    the whole outline (a paragraph's border around a redacted phone number,
    pdfplumber's cupertino_usd_4-6-16.pdf)."""
    xs, ys = [x for x, _ in corners], [y for _, y in corners]
    if not _touching((min(xs), min(ys), max(xs), max(ys)), ctm, boxes, reach):
        return None
    return [
        b"%s %s m %s %s l" % (*map(_number, start), *map(_number, end))
        for start, end in zip(corners, corners[1:], strict=False)
    ]


def _touching(rect: Rect, ctm: Matrix, boxes: Sequence[Rect], reach: float) -> list[Rect]:
    """The `boxes` (default user space) that touch `rect` (drawn with `ctm`), in its own
    space and grown by the gap and `reach`; none when one of them holds it whole, or
    the transformation turns or skews it."""
    a, b, c, d, e, f = ctm
    if b or c or not a or not d:
        return []
    gap_x, gap_y = GAP / abs(a) + reach, GAP / abs(d) + reach
    grown = []
    for bx0, by0, bx1, by1 in boxes:
        x0, y0, x1, y1 = _rect(((bx0 - e) / a, (by0 - f) / d, (bx1 - e) / a, (by1 - f) / d))
        grown.append((x0 - gap_x, y0 - gap_y, x1 + gap_x, y1 + gap_y))
    touching = [box for box in grown if _overlap(rect, box)]
    return [] if any(_inside(rect, box) for box in touching) else touching


def _minus(rect: Rect, box: Rect) -> list[Rect]:
    """`rect` without `box`: up to four rectangles, above, below, left and right."""
    if not _overlap(rect, box):
        return [rect]
    x0, y0, x1, y1 = rect
    bx0, by0, bx1, by1 = box
    parts = [
        (x0, y0, x1, by0),  # below the box (y grows upward in user space)
        (x0, by1, x1, y1),  # above
        (x0, max(y0, by0), bx0, min(y1, by1)),  # left, beside it
        (bx1, max(y0, by0), x1, min(y1, by1)),  # right
    ]
    return [part for part in parts if part[2] > part[0] and part[3] > part[1]]


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(a: Rect, b: Rect) -> bool:
    return b[0] <= a[0] and b[1] <= a[1] and a[2] <= b[2] and a[3] <= b[3]


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
