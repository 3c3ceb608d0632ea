"""Whether a fill of lines and curves covers a point (Django-free), for `painters`:
its subpaths closed and its curves taken as chords wherever the point lies outside
their control points' hull, by the fill's own rule.
"""

from __future__ import annotations

import math

import pymupdf

from review.pdf.clip_shapes import Point, holds


def fill_holds(drawing: dict, point: tuple[float, float]) -> bool | None:
    """Whether a fill covers `point`, each subpath closed, by the fill's own rule; None
    for a point on an edge or next to a curve (`_chords`: a pie chart's slice under its
    white label)."""
    subpaths: list[list[Point]] = []
    for item in drawing["items"]:
        if item[0] in ("re", "qu"):
            corners = _corners(item)
            subpaths.append([(p.x, p.y) for p in corners])
            continue
        if item[0] == "l":
            line = [(item[1].x, item[1].y), (item[2].x, item[2].y)]
        else:
            chords = _chords([(p.x, p.y) for p in item[1:5]], point)
            if chords is None:
                return None
            line = chords
        if not subpaths or math.dist(subpaths[-1][-1], line[0]) > 1e-6:  # a new subpath
            subpaths.append([line[0]])
        subpaths[-1].extend(line[1:])
    edges = [
        (a, b)
        for points in subpaths
        for a, b in zip(points, [*points[1:], points[0]], strict=True)
        if a != b
    ]
    return holds(edges, bool(drawing.get("even_odd")), point)


# Halvings of a curve before a point still within its control points' hull counts as
# on its edge (a curve halved six times lies within a 64th of its size of its chords).
CURVE_HALVINGS = 6


def _chords(curve: list[Point], point: Point, depth: int = 0) -> list[Point] | None:
    """The points of a polyline that a curve (start, two controls, end) can stand for
    when asking whether a fill holds `point`: the curve bends away from its chord only
    within the hull of its control points, so where `point` lies outside that hull the
    chord winds round it as the curve does. A curve whose hull holds the point is
    halved (de Casteljau) until its halves' hulls do not; None if they still do after
    `CURVE_HALVINGS`."""
    if not _in_hull(curve, point):
        return [curve[0], curve[3]]
    if depth == CURVE_HALVINGS:
        return None
    p0, p1, p2, p3 = curve
    a, b, c = _middle(p0, p1), _middle(p1, p2), _middle(p2, p3)
    d, e = _middle(a, b), _middle(b, c)
    m = _middle(d, e)
    first = _chords([p0, a, d, m], point, depth + 1)
    second = _chords([m, e, c, p3], point, depth + 1)
    return None if first is None or second is None else first + second[1:]


def _middle(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _in_hull(points: list[Point], point: Point) -> bool:
    """`point` lies in the convex hull of four points (the union of the triangles of
    any three), its edges included."""
    for skipped in range(4):
        a, b, c = (p for i, p in enumerate(points) if i != skipped)
        sides = [_cross(a, b, point), _cross(b, c, point), _cross(c, a, point)]
        if all(side >= 0 for side in sides) or all(side <= 0 for side in sides):
            return True
    return False


def _cross(a: Point, b: Point, p: Point) -> float:
    return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])


def _corners(item: tuple) -> list[pymupdf.Point]:
    """A rectangle's or a quad's corners in the order the path visits them, as its
    lines and curves are: with them, a frame drawn as a rectangle and an inner outline
    the other way round is a ring, not a filled box (a court order's "JS-6" box). PyMuPDF
    makes a quad of a path's points as ul, ll, lr, ur; a rectangle (orientation -1) of a
    path from its top left rightwards, or (1) from its bottom left rightwards."""
    if item[0] == "qu":
        q = item[1]
        return [q.ul, q.ll, q.lr, q.ur]
    r = item[1]
    return [r.tl, r.tr, r.br, r.bl] if item[2] == -1 else [r.bl, r.br, r.tr, r.tl]
