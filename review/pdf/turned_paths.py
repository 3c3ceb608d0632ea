"""Paths drawn through a turn other than a quarter turn, split in default user space
(Django-free).

`fills.split_rectangle_fills` cuts a fill or an outline around a box in the space the
path is drawn in, where a box stays a rectangle only if the transformation keeps the
axes (`user_space.boxes_in`); MuPDF's redaction bounds what a path paints by its box in
default space. So a turned path went whole when a box came near it: fpdf2's SVG logo,
drawn at 45 degrees, lost the outlines of two petals to a mark 40 pt below them. Where
a fill is turned or skewed, or an outline turned and scaled evenly (`turn_scale`),
`in_default_space` writes the path in default user space, to be split there with its
line width and dash pattern scaled alike (`level_state`), and `drawn_level` draws the
result from there: inside "q ... Q", with "M⁻¹ cm" undoing the transformation.
"""

from __future__ import annotations

import math

from review.pdf.content_tokens import Operation
from review.pdf.user_space import (
    IDENTITY,
    PATH_OPERANDS,
    Matrix,
    PathState,
    axis_scales,
    numbers_of,
    pdf_number,
)

# How far from turning and scaling evenly a transformation may be for an outline drawn
# through it to be drawn from default space with one line width: its width along one
# axis and the other then differ by under half a percent (a scan's page, skewed by
# 0.7 degrees and stretched by 0.08%: a Chinese invoice in pdf2docx's test files).
_EVEN = 0.01


def turn_scale(ctm: Matrix, *, stroked: bool) -> float | None:
    """The scale of a transformation that turns other than by quarter turns (or skews),
    None for one that keeps the axes or is degenerate. A fill's points map exactly; an
    outline's width is one number, so a stroked path's transformation must turn and
    scale evenly (a similarity, mirrored or not), give or take `_EVEN`."""
    if axis_scales(ctm) is not None:
        return None  # keeps the axes: split where it is drawn
    a, b, c, d, _, _ = ctm
    det = a * d - b * c
    if det == 0:
        return None
    size = abs(a) + abs(b) + abs(c) + abs(d)
    turned = abs(a - d) <= _EVEN * size and abs(b + c) <= _EVEN * size
    mirrored = abs(a + d) <= _EVEN * size and abs(b - c) <= _EVEN * size
    if stroked and not (turned or mirrored):
        return None
    return math.sqrt(abs(det))


def in_default_space(path: list[Operation], ctm: Matrix) -> bytes | None:
    """The path's operators with their points in default user space ("re" as its four
    corners); None where an operator's operands are not its numbers."""
    a, b, c, d, e, f = ctm
    out: list[bytes] = []
    for op in path:
        if op.operator == b"re":
            numbers = numbers_of(op.operands, 4)
            if numbers is None:
                return None
            x, y, width, height = numbers
            corners = [(x, y), (x + width, y), (x + width, y + height), (x, y + height)]
            points = [(px * a + py * c + e, px * b + py * d + f) for px, py in corners]
            out += [_numbers(points[0]) + b" m"]
            out += [_numbers(point) + b" l" for point in points[1:]]
            out += [b"h"]
            continue
        count = PATH_OPERANDS.get(op.operator)
        numbers = numbers_of(op.operands, count) if count is not None else None
        if numbers is None:
            return None
        pairs = zip(numbers[::2], numbers[1::2], strict=True)
        mapped = [_numbers((x * a + y * c + e, x * b + y * d + f)) for x, y in pairs]
        out.append(b" ".join([*mapped, op.operator]))
    return b" ".join(out)


def level_state(state: PathState, scale: float) -> PathState:
    """The state a path in default user space is split in: no transformation, the line
    width and the dash pattern as long as they were drawn."""
    lengths, phase = state.dash
    return state._replace(
        ctm=IDENTITY,
        width=state.width * scale,
        dash=(tuple(length * scale for length in lengths), phase * scale),
    )


def drawn_level(split: bytes, state: PathState, level: PathState) -> bytes:
    """`split` (drawn in default user space, in `level`) drawn where the path was, in
    `state`: its line width and dash pattern set, the transformation undone."""
    a, b, c, d, e, f = state.ctm
    det = a * d - b * c
    inverse = (d / det, -b / det, -c / det, a / det, (c * f - d * e) / det, (b * e - a * f) / det)
    settings = b"%s cm %s w" % (b" ".join(map(_exact, inverse)), pdf_number(level.width))
    lengths, phase = level.dash
    if lengths:
        settings += b" [%s] %s d" % (b" ".join(map(pdf_number, lengths)), pdf_number(phase))
    return b"q " + settings + b" " + split + b" Q"


def _numbers(point: tuple[float, float]) -> bytes:
    return pdf_number(point[0]) + b" " + pdf_number(point[1])


def _exact(value: float) -> bytes:
    """A matrix entry with ten decimals: a tenth of a millipoint in a turn's inverse
    moves what it draws by less than that."""
    return (b"%.10f" % value).rstrip(b"0").rstrip(b".") or b"0"
