"""What of a side of a stroked path lies clear of the boxes (Django-free): a segment
cut around each box (Liang and Barsky's clip), a curve halved (de Casteljau) until each
piece's points lie clear of them or the piece is too small to matter; each piece with
how far along its side it starts, where a dash pattern continues from."""

from __future__ import annotations

import itertools
import math

from review.pdf.shape_pieces import Point, Segment
from review.pdf.user_space import Rect, bounds_of, inside_any, meets_any

# Halvings of a curve a box comes near before what is left of it near the box is taken
# as under it: a 2,000-point curve down to half a point.
CURVE_HALVINGS = 12
# User-space units by which a cut piece may reach into a box: float noise.
_NOISE = 1e-6


def curve_outside(
    curve: Segment, boxes: list[Rect], depth: int = 0, before: float | None = 0.0
) -> list[tuple[Segment, float]]:
    """The pieces of the curve (start, two controls, end) whose points' box misses every
    box, found by halving it (de Casteljau) where its points' box meets one: a piece
    that still does so after `CURVE_HALVINGS` lies under or at a box and is left out.
    Each with how far along the curve it starts (`before`: along the first half), or 0
    where `before` is None: measuring each half took a claim form whose curves came near
    70 marks six minutes (PdfPig's Motor_Insurance_claim_form.pdf), and only a dash
    pattern needs it."""
    xs, ys = [x for x, _ in curve], [y for _, y in curve]
    bounds = (min(xs), min(ys), max(xs), max(ys))
    if not meets_any(bounds, boxes):
        return [(curve, before or 0.0)]
    if depth == CURVE_HALVINGS or inside_any(bounds, boxes):
        return []  # and every half of a piece inside a box is inside it too
    p0, p1, p2, p3 = curve
    a, b, c = _middle(p0, p1), _middle(p1, p2), _middle(p2, p3)
    d, e = _middle(a, b), _middle(b, c)
    m = _middle(d, e)
    first = (p0, a, d, m)
    after = None if before is None else before + length(first)
    return curve_outside(first, boxes, depth + 1, before) + curve_outside(
        (m, e, c, p3), boxes, depth + 1, after
    )


def length(side: Segment) -> float:
    """A segment's length, or a curve's, along 16 chords (enough to place a dash)."""
    if len(side) == 2:
        return math.dist(side[0], side[1])
    p0, p1, p2, p3 = side
    points = [
        tuple(
            (1 - t) ** 3 * a + 3 * (1 - t) ** 2 * t * b + 3 * (1 - t) * t**2 * c + t**3 * d
            for a, b, c, d in zip(p0, p1, p2, p3, strict=True)
        )
        for t in (i / 16 for i in range(17))
    ]
    return sum(math.dist(p, q) for p, q in itertools.pairwise(points))


def _middle(p: Point, q: Point) -> Point:
    return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)


def outside(start: Point, end: Point, boxes: list[Rect]) -> list[tuple[Segment, float]]:
    """The pieces of the segment from `start` to `end` outside every box, each with how
    far from `start` it starts; a slanted piece whose bounds still meet a box is cut
    further (`_bounds_clear`)."""
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

    span = math.dist(start, end)
    return [piece for a, b in spans for piece in _bounds_clear(at(a), at(b), boxes, a * span)]


def _bounds_clear(
    start: Point, end: Point, boxes: list[Rect], before: float, depth: int = 0
) -> list[tuple[Segment, float]]:
    """A straight piece clear of every box, halved until its bounds are too: MuPDF takes
    a path by its bounds, and a slanted arrow passing a box's corner went whole (a
    figure in docling's test files). Halving stops as for curves."""
    x0, y0, x1, y1 = bounds_of([(*start, *start), (*end, *end)])
    # Where the clip ended it at a box's edge, it meets the box by float noise at most:
    # halved again and again, it came out as a dozen pieces ever nearer the box.
    if not meets_any((x0 + _NOISE, y0 + _NOISE, x1 - _NOISE, y1 - _NOISE), boxes):
        return [((start, end), before)]
    if depth == CURVE_HALVINGS:
        return []  # at the box: what a cut end's clearance leaves out anyway
    middle = _middle(start, end)
    return _bounds_clear(start, middle, boxes, before, depth + 1) + _bounds_clear(
        middle, end, boxes, before + math.dist(start, middle), depth + 1
    )


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
