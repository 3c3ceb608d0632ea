"""The part of a filled shape of lines and curves inside a rectangle (Django-free).

`fills.py` keeps a filled shape a mark lies on by drawing it again as its pieces
around the mark, each a path of its own that the mark does not touch. For a shape with
curves (a banner or a box with round corners) a piece is the shape clipped to a
rectangle beside the mark, clipped edge by edge (Sutherland and Hodgman's method, one
side of the rectangle at a time): a straight side is cut where it crosses, and a curve
is kept or left out whole, which is exact when the box of its points lies on one side.
A curve that the side passes through is not cut: there is no piece then.
"""

from __future__ import annotations

Point = tuple[float, float]
# A side of a path: its two ends, or a curve's four points (start, two controls, end).
Segment = tuple[Point, ...]
# A piece's outline: where it starts, then each side's points after its start.
Outline = list[Segment]


def clipped(sides: list[Segment], rect: tuple[float, float, float, float]) -> Outline | None:
    """The closed outline `sides` (each side starting where the last ended) clipped to
    `rect` (x0, y0, x1, y1), as sides in the same form; [] when nothing of it is inside;
    None when a side of `rect` passes through a curve."""
    x0, y0, x1, y1 = rect
    for axis, bound, keep_above in ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False)):
        result = _clipped_to_half(sides, axis, bound, keep_above)
        if not result:
            return result
        sides = result
    return sides


def _clipped_to_half(
    sides: list[Segment], axis: int, bound: float, keep_above: bool
) -> Outline | None:
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
            kept = [inside(point) for point in side]
            if any(kept) and not all(kept):
                return None
            if all(kept):
                ends.append(side[1:])
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
