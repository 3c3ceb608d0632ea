"""The part of a filled shape of lines and curves inside a rectangle (Django-free).

`fills.py` keeps a filled shape a mark lies on by drawing it again as its pieces
around the mark, each a path of its own that the mark does not touch. For a shape with
curves (a banner or a box with round corners) a piece is the shape clipped to a
rectangle beside the mark, clipped edge by edge (Sutherland and Hodgman's method, one
side of the rectangle at a time): a straight side is cut where it crosses, and a curve
is cut (de Casteljau) where it crosses, each part kept or left out by its middle. A
filled circle with a mark inside went whole before curves were cut: its white words
were then cut by sanitize as hidden (a Korean report's diagram in docling's tests).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from review.pdf.content_tokens import Operation
from review.pdf.user_space import PATH_OPERANDS, bounds_of, meets_any, numbers_of

# Halvings of a curve whose control points reach a box: a 2,000-point curve to 8.
HUG_HALVINGS = 8

Point = tuple[float, float]
# A side of a path: its two ends, or a curve's four points (start, two controls, end).
Segment = tuple[Point, ...]
# A piece's outline: where it starts, then each side's points after its start.
Outline = list[Segment]


def clipped(sides: list[Segment], rect: tuple[float, float, float, float]) -> Outline:
    """The closed outline `sides` (each side starting where the last ended) clipped to
    `rect` (x0, y0, x1, y1), as sides in the same form; [] when nothing of it is inside.
    A kept curve's control points may lie outside `rect`: the caller checks the
    pieces' bounds."""
    x0, y0, x1, y1 = rect
    for axis, bound, keep_above in ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False)):
        result = _clipped_to_half(sides, axis, bound, keep_above)
        if not result:
            return result
        sides = result
    return sides


def hugging(outline: Outline, boxes: Sequence[tuple[float, float, float, float]]) -> Outline:
    """The outline with each curve whose points (its control points too) reach into a
    box halved (de Casteljau) until every part's points stay clear of the boxes, or
    `HUG_HALVINGS` times: MuPDF bounds a path by its points, and a piece of a butterfly
    beside a mark went whole with its wing's control point in the box (fpdf2's Escher
    drawing). A part of a curve that lies clear of a box has points ever closer to it."""
    out: Outline = []
    for side in outline:
        out.extend(_halved_clear(side, boxes, 0) if len(side) == 4 else [side])
    return out


def _halved_clear(
    curve: Segment, boxes: Sequence[tuple[float, float, float, float]], depth: int
) -> list[Segment]:
    if not meets_any(bounds_of([(x, y, x, y) for x, y in curve]), boxes) or depth == HUG_HALVINGS:
        return [curve]
    first, second = _halves(curve, 0.5)
    return _halved_clear(first, boxes, depth + 1) + _halved_clear(second, boxes, depth + 1)


def _clipped_to_half(sides: list[Segment], axis: int, bound: float, keep_above: bool) -> Outline:
    def inside(point: Point) -> bool:
        return point[axis] >= bound if keep_above else point[axis] <= bound

    def crossing(start: Point, end: Point) -> Point:
        t = (bound - start[axis]) / (end[axis] - start[axis])
        point = [start[0] + (end[0] - start[0]) * t, start[1] + (end[1] - start[1]) * t]
        point[axis] = bound  # exactly on the side, whatever the rounding
        return (point[0], point[1])

    ends: list[tuple[Point, ...]] = []  # each: the points after the side's start
    for side in sides:
        start, end = side[0], side[-1]
        if len(side) == 4:
            for part in _cut(side, _crossings(side, axis, bound)):
                if inside(_at(part, 0.5)):
                    ends += [(part[0],), part[1:]]  # from where it enters, if it does
            continue
        if inside(end):
            if not inside(start):
                ends.append((crossing(start, end),))
            ends.append((end,))
        elif inside(start):
            ends.append((crossing(start, end),))
    if len(ends) < 2:
        return []
    out: Outline = []
    at = ends[-1][-1]
    for after in ends:
        if after[-1] != at or len(after) == 3:
            out.append((at, *after))
        at = after[-1]
    return out


def _crossings(curve: Segment, axis: int, bound: float) -> list[float]:
    """Where (0 < t < 1) the curve crosses the line `axis` = `bound`: the sign changes
    of its coordinate's cubic, found by bisection between its turning points."""
    p0, p1, p2, p3 = (point[axis] - bound for point in curve)
    a, b, c = -p0 + 3 * p1 - 3 * p2 + p3, 3 * p0 - 6 * p1 + 3 * p2, -3 * p0 + 3 * p1

    def value(t: float) -> float:
        return ((a * t + b) * t + c) * t + p0

    # Turning points: roots of 3a t^2 + 2b t + c.
    turns = []
    if abs(a) > 1e-12:
        discriminant = b * b - 3 * a * c
        if discriminant > 0:
            root = math.sqrt(discriminant)
            turns = [(-b - root) / (3 * a), (-b + root) / (3 * a)]
    elif abs(b) > 1e-12:
        turns = [-c / (2 * b)]
    edges = [0.0, *sorted(t for t in turns if 0 < t < 1), 1.0]
    found = []
    for low, high in itertools.pairwise(edges):
        if value(low) * value(high) >= 0:
            continue
        for _ in range(60):
            middle = (low + high) / 2
            if value(low) * value(middle) <= 0:
                high = middle
            else:
                low = middle
        found.append((low + high) / 2)
    return found


def _cut(curve: Segment, ts: list[float]) -> list[Segment]:
    """The curve in parts, cut at each of `ts` (ascending, of the whole curve)."""
    parts, done = [], 0.0
    for t in ts:
        left, curve = _halves(curve, (t - done) / (1 - done))
        parts.append(left)
        done = t
    return [*parts, curve]


def _halves(curve: Segment, t: float) -> tuple[Segment, Segment]:
    """The curve cut at `t` (de Casteljau)."""
    p0, p1, p2, p3 = curve
    a, b, c = _between(p0, p1, t), _between(p1, p2, t), _between(p2, p3, t)
    d, e = _between(a, b, t), _between(b, c, t)
    m = _between(d, e, t)
    return (p0, a, d, m), (m, e, c, p3)


def _between(p: Point, q: Point, t: float) -> Point:
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def _at(curve: Segment, t: float) -> Point:
    return _halves(curve, t)[0][3]


def rectangle_sides(rect: tuple[float, float, float, float]) -> list[Segment]:
    """A rectangle's (x0, y0, x1, y1) outline as sides, closed."""
    x0, y0, x1, y1 = rect
    corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
    return list(zip(corners, corners[1:], strict=False))


def path_subpaths(path: list[Operation], *, closed: bool) -> list[list[Segment]] | None:
    """The subpaths of a path of sides ("re"s, or "m" then "l"s and curves, each perhaps
    closed by "h", the last perhaps by painting with "s"), a closed one ending with a
    side back to its start; None for any other path. A moveto that only moves the pen,
    followed by another, by "re" or ending a path left open, outlines nothing and is
    dropped (PDFBox's sign_me.pdf ends a page's background fill with one; fpdf2 starts
    a rectangle with "0 0 m")."""
    subpaths: list[list[Segment]] = []
    start = point = (0.0, 0.0)
    lone_move = False
    for op in path:
        name = op.operator
        if name == b"h" and not subpaths:
            # A close with no path begun ("B h", then the next shape: UniDoc's charts)
            # closes nothing: MuPDF passes it over. Read as a start, a pie chart's slice
            # with a mark on it went whole.
            continue
        count = PATH_OPERANDS.get(name)
        numbers = numbers_of(op.operands, count) if count is not None else None
        if numbers is None or (name not in (b"re", b"m") and not subpaths):
            return None
        points = list(zip(numbers[::2], numbers[1::2], strict=True))
        if name in (b"m", b"re") and lone_move:
            subpaths.pop()
        lone_move = name == b"m"
        if name == b"re":
            x, y, width, height = numbers
            subpaths.append(rectangle_sides((x, y, x + width, y + height)))
            start = point = (x, y)
            continue
        if name == b"m":
            subpaths.append([])
            start = points[0]
        elif name == b"h":
            # A closed lone point ("x y m h") is a side of no length: a dot under round
            # caps, else nothing (a figure's frame drawn with one at its corner went
            # whole, camelot's us-015.pdf; eu-014.pdf ends its boxes with "x y m s").
            if point != start or not subpaths[-1]:
                subpaths[-1].append((point, start))
            points = [start]
        elif name == b"v":  # the first control is the current point
            subpaths[-1].append((point, point, *points))
        elif name == b"y":  # the second control is the end
            subpaths[-1].append((point, *points, points[-1]))
        else:  # "l", "c"
            subpaths[-1].append((point, *points))
        point = points[-1]
    if lone_move and not closed:
        subpaths.pop()
    if closed and subpaths and (point != start or not subpaths[-1]):
        subpaths[-1].append((point, start))  # "x y m s" too closes a lone point
    if not subpaths or not all(subpaths):
        return None
    return subpaths
