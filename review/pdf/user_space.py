"""Rectangles and matrices in a content stream's user space (Django-free): the boxes
of marks brought into the space a path is drawn in, bounds and touch tests, numbers as
content streams write them. Shared by `fills.py` and `stroke_pieces.py`."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import NamedTuple

from review.pdf.geometry import BoxGrid, intersects, within

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in a content stream's space
Matrix = tuple[float, float, float, float, float, float]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
# Points between a piece and the box it makes way for: MuPDF counts a touch as a hit.
GAP = 0.05
# How many numbers each path operator takes ("re": x, y, width, height; the others
# their points' coordinates).
PATH_OPERANDS = {b"re": 4, b"m": 2, b"l": 2, b"c": 6, b"v": 4, b"y": 4, b"h": 0}
# The operators that paint a path.
FILLS = (b"f", b"F", b"f*")
FILL_AND_STROKES = (b"B", b"B*", b"b", b"b*")
STROKES = (b"S", b"s")
PAINTS = (*FILLS, *FILL_AND_STROKES, *STROKES)
# A matrix entry this small against the others is float noise (`axis_scales`).
_NOISE = 1e-6


def boxes_in(
    boxes: Sequence[Rect], ctm: Matrix, reach: float, page_reach: float = 0.0
) -> tuple[Rect, ...]:
    """`boxes` (default user space) in the space `ctm` draws from, grown by the gap,
    `reach` (in that space) and `page_reach` (in points); none when the transformation
    skews it or turns it other than by quarter turns (a landscape page drawn through "0
    -1 1 0 0 612 cm", qpdf's annotations-rotated-90.pdf, whose border went whole under
    marks inside it). Remembered: a drawing's paths share a few transformations, and an
    architect's sheet of 146,000 strokes brought 114 boxes into each one's space twice,
    minutes of the burn-in."""
    return _boxes_in(tuple(boxes), tuple(ctm), reach, page_reach)


@functools.lru_cache(maxsize=1024)
def _boxes_in(
    boxes: tuple[Rect, ...], ctm: Matrix, reach: float, page_reach: float
) -> tuple[Rect, ...]:
    a, b, c, d, e, f = ctm
    axes = axis_scales(ctm)
    if axes is None:
        return ()
    scale_x, scale_y = axes
    det = a * d - b * c
    gap_x = (GAP + page_reach) / scale_x + reach
    gap_y = (GAP + page_reach) / scale_y + reach
    grown = []
    for bx0, by0, bx1, by1 in boxes:
        corners = [
            ((d * (x - e) - c * (y - f)) / det, (a * (y - f) - b * (x - e)) / det)
            for x, y in ((bx0, by0), (bx1, by1))
        ]
        x0, y0, x1, y1 = ordered((*corners[0], *corners[1]))
        grown.append((x0 - gap_x, y0 - gap_y, x1 + gap_x, y1 + gap_y))
    return tuple(grown)


def comes_near(rect: Rect, ctm: Matrix, reach: float, boxes: Sequence[Rect]) -> bool:
    """`rect`, drawn through `ctm`, comes within `reach` points of one of `boxes` (all
    in default user space): asked before bringing the boxes into its space, as most
    paths of a drawing lie far from every box."""
    a, b, c, d, e, f = ctm
    xs = [a * x + c * y + e for x in (rect[0], rect[2]) for y in (rect[1], rect[3])]
    ys = [b * x + d * y + f for x in (rect[0], rect[2]) for y in (rect[1], rect[3])]
    near = (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)
    boxes = tuple(boxes)
    return any(intersects(near, boxes[i]) for i in _grid(boxes).near(near))


@functools.lru_cache(maxsize=16)
def _grid(boxes: tuple[Rect, ...]) -> BoxGrid:
    return BoxGrid.over(boxes)


def axis_scales(ctm: Matrix) -> tuple[float, float] | None:
    """How much a transformation that keeps the axes (perhaps swapping them: a quarter
    turn) scales user x and y; None for any other. Entries under a millionth of the
    others count as 0: a page's frame drawn through "1.98591 -0.0000000281225
    -0.0000000729889 2.28705 ..." went whole (a Chinese invoice in pdf2docx's tests)."""
    a, b, c, d, _, _ = ctm
    noise = _NOISE * (abs(a) + abs(b) + abs(c) + abs(d))
    if abs(b) <= noise and abs(c) <= noise and abs(a) > noise and abs(d) > noise:
        return abs(a), abs(d)
    if abs(a) <= noise and abs(d) <= noise and abs(b) > noise and abs(c) > noise:
        return abs(b), abs(c)  # user x runs along the page's y, and y along x
    return None


def meets_any(rect: Rect, boxes: Sequence[Rect]) -> bool:
    return any(intersects(rect, box) for box in boxes)


def inside_any(rect: Rect, boxes: Sequence[Rect]) -> bool:
    return any(within(rect, box) for box in boxes)


def bounds_of(rects: Sequence[Rect]) -> Rect:
    x0s, y0s, x1s, y1s = zip(*rects, strict=True)
    return min(x0s), min(y0s), max(x1s), max(y1s)


def ordered(r: Sequence[float]) -> Rect:
    x0, y0, x1, y1 = r
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def pdf_number(value: float) -> bytes:
    return (b"%.4f" % value).rstrip(b"0").rstrip(b".") or b"0"


def numbers_of(operands: list[bytes], count: int) -> list[float] | None:
    """The operands as numbers, or None unless they are `count` numbers."""
    if len(operands) != count:
        return None
    try:
        return [float(operand) for operand in operands]
    except ValueError:
        return None


def concat(m: Sequence[float], ctm: Matrix) -> Matrix:
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


class PathState(NamedTuple):
    """What of the graphics state splitting a path needs: the CTM; the line width (how
    far past its path a stroke reaches); the line join and the miter limit (how far
    MuPDF's redaction looks past it: `stroke_pieces.redaction_reach`); the cap; the dash
    pattern (its lengths, and the phase it starts at); the stroking colour, as the
    operators that would fill in it (`stroke_bands.stroke_band`), and its colour space;
    the stroking and filling opacities a graphics state sets ("CA", "ca"), and whether
    it sets a blend mode that mixes colours or a soft mask ("BM", "SMask"). As a
    content stream starts."""

    ctm: Matrix = IDENTITY
    width: float = 1.0
    join: int = 0
    miter: float = 10.0
    cap: int = 0
    dash: tuple[tuple[float, ...], float] = ((), 0.0)
    stroke_fill: bytes = b"0 g"
    stroke_space: bytes = b"/DeviceGray"
    opacities: tuple[float, float] = (1.0, 1.0)
    blends: bool = False
    masked: bool = False

    def after(self, operator: bytes, operands: list[bytes]) -> PathState:
        """The state once the operator has run ("cm", "w", "j", "J", "M", "d", the
        stroking colour's, and "CA", "ca", "BM" and "SMask" as a graphics state sets
        them); as it was for any other, or for operands that make no sense."""
        if operator == b"BM":  # a name, or an array of names of which the first is used
            mode = next((o for o in operands if o.startswith(b"/")), b"/Normal")
            return self._replace(blends=mode not in (b"/Normal", b"/Compatible"))
        if operator == b"SMask":
            return self._replace(masked=operands != [b"/None"])
        if operator in _DEVICE_STROKES:
            fill, space = _DEVICE_STROKES[operator]
            return self._replace(stroke_fill=b" ".join([*operands, fill]), stroke_space=space)
        if operator == b"CS" and operands:
            return self._replace(stroke_fill=operands[-1] + b" cs", stroke_space=operands[-1])
        if operator in (b"SC", b"SCN"):
            painted = b" ".join([self.stroke_space, b"cs", *operands, operator.lower()])
            return self._replace(stroke_fill=painted)
        if operator == b"cm":
            matrix = numbers_of(operands, 6)
            return self._replace(ctm=concat(matrix, self.ctm)) if matrix else self
        if operator == b"d":
            numbers = numbers_of([o for o in operands if o not in (b"[", b"]")], len(operands) - 2)
            if not numbers or operands[0] != b"[" or operands[-2] != b"]":
                return self
            return self._replace(dash=(tuple(numbers[:-1]), numbers[-1]))
        number = numbers_of(operands, 1)
        if number is None:
            return self
        if operator == b"w":
            return self._replace(width=abs(number[0]))
        if operator == b"j":
            return self._replace(join=int(number[0]))
        if operator == b"J":
            return self._replace(cap=int(number[0]))
        if operator == b"M":
            return self._replace(miter=number[0])
        if operator == b"CA":
            return self._replace(opacities=(number[0], self.opacities[1]))
        if operator == b"ca":
            return self._replace(opacities=(self.opacities[0], number[0]))
        return self


# The stroking colour operators of the device colour spaces: the filling operator that
# sets the same colour, and the space.
_DEVICE_STROKES = {
    b"G": (b"g", b"/DeviceGray"),
    b"RG": (b"rg", b"/DeviceRGB"),
    b"K": (b"k", b"/DeviceCMYK"),
}
