"""The sides of a stroked path a box comes near, each a path of its own (Django-free).

MuPDF's redaction takes a whole path when a box touches its bounds, and it bounds a
stroke with mitred corners (the default) by its width times the miter limit, as if
every corner were a spike. So a paragraph's border, a table's grid drawn as one path,
a signature rule or a callout went whole when a box came near any of it. `stroke_sides`
rewrites such a path as its sides, each a path of one segment with bevelled joins (no
corner to join, so nothing changes on the page, and MuPDF bounds it by half its width):
a straight side a box crosses is cut around it (Liang and Barsky's clip), a curve is
halved (de Casteljau) until each piece's points lie clear of the box or the piece is
too small to matter, and what lay under the box is left out. Where two sides met, a
square cap closes the corner (a straight side with butt caps is lengthened by half its
width there instead, so the path's own ends keep their caps)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

from review.pdf.geometry import intersects
from review.pdf.shape_pieces import Point, Segment
from review.pdf.user_space import (
    PathState,
    Rect,
    axis_scales,
    bounds_of,
    boxes_in,
    inside_any,
    meets_any,
    pdf_number,
)

# Strokes at least this wide are painted as fills would paint them (`stroke_band`): a
# thinner one is drawn at least a pixel wide, and its fill would look fainter.
BAND_PT = 2.0
# Halvings of a curve a box comes near before what is left of it near the box is taken
# as under it: a 2,000-point curve down to half a point.
CURVE_HALVINGS = 12


def redaction_reach(width: float, join: int, miter: float) -> float:
    """How far past a stroked path MuPDF's redaction finds it, as MuPDF bounds a stroke:
    half its width with bevelled or round joins; with mitred joins (the default), its
    width times the miter limit once the path has a corner or a curve, as if every
    corner were a spike. A callout's outline 14 points from a box, stroked 3 wide with
    a limit of 8, went whole (pdf-lib's with_cropbox.pdf)."""
    if join == 0 and miter > 1:
        return max(width, 1.0) * miter
    return max(width, 1.0) / 2


class Piece(NamedTuple):
    """A stretch of a side as a path of its own, and how far along its subpath it starts
    (where a dash pattern continues from)."""

    path: bytes
    along: float


def stroke_sides(
    subpaths: list[list[Segment]], state: PathState, boxes: Sequence[Rect]
) -> tuple[list[Piece], list[Piece]] | None:
    """The sides of a stroked path, each a path of its own, what the boxes cover of
    them cut away, when a box comes within `redaction_reach` of the path's box (the
    redaction would take the path) but holds none of its ink whole (a side whose ink
    stays clear of every box is drawn whole); None when it stays as it is (or the
    transformation skews it: `boxes_in`). Redaction then takes only what lies under a box,
    where it took the whole path: a border around a redacted phone number (pdfplumber's
    cupertino_usd_4-6-16.pdf), one with round corners (pdf.js's pr12564.pdf), a grid as
    one path, a callout pointing at an address. The sides come in two lists: the sides
    of subpaths of one side, which keep their caps (a cut end lies clear of the box by
    more than any cap reaches), and sides that met another, whose corners square caps
    close."""
    ctm, width = state.ctm, state.width
    reach = max(width, 1.0) / 2  # of the ink
    grown = boxes_in(boxes, ctm, reach)
    if not grown:
        return None
    whole = bounds_of(
        [bounds_of([(x, y, x, y) for x, y in side]) for sides in subpaths for side in sides]
    )
    # MuPDF widens a stroke by its width at the largest scale of the transformation, in
    # every direction: a line scaled 3 across and 0.75 down went whole for a box its ink
    # stays clear of (an SVG in iText's html2pdf tests).
    widest = max(axis_scales(ctm) or (1.0, 1.0))
    taken = redaction_reach(width, state.join, state.miter) * widest
    taken_within = boxes_in(boxes, ctm, 0.0, page_reach=taken)
    if inside_any(whole, grown) or not meets_any(whole, taken_within):
        return None
    # A cut end's cap reaches past it: keep the pieces clear of the boxes by twice as much.
    cut_around = boxes_in(boxes, ctm, 0.0, page_reach=2 * reach * widest)
    bounded = boxes_in(boxes, ctm, 0.0, page_reach=reach * widest)
    alone: list[Piece] = []
    joined: list[Piece] = []
    # Butt caps (the default), undashed: a straight piece is lengthened by half the width
    # where its side met another, which draws the square cap that closes the corner, and
    # keeps butt caps where the path ends or a box cut it (an open polyline's ends grew
    # half its width each, iText's flattenPolyLineAnnotationTest).
    lengthen = state.cap == 0 and not state.dash[0]
    for sides in subpaths:
        group = alone if len(sides) == 1 else joined
        closed = len(sides) > 1 and sides[0][0] == sides[-1][-1]
        along = 0.0  # a dash pattern runs on along a subpath, side after side
        for index, side in enumerate(sides):
            pieces: Sequence[tuple[Segment, float]]
            # Only a box the side's ink meets, as MuPDF bounds it, cuts it: one that
            # merely comes within the cut's margin (a heading's box 3 points above a rule
            # 6 wide) takes nothing from a side of its own, and the rule stays whole.
            bounds = bounds_of([(x, y, x, y) for x, y in side])
            cutters = [
                cut for cut, ink in zip(cut_around, bounded, strict=True) if intersects(bounds, ink)
            ]
            if not cutters:
                pieces = [(side, 0.0)]  # its ink stays clear of every box: drawn whole
            elif len(side) == 2:
                pieces = _outside(side[0], side[1], cutters)
            else:
                pieces = _curve_outside(side, cutters)
            joints = (closed or index > 0, closed or index < len(sides) - 1)
            for piece, start in pieces:
                if group is joined and lengthen and len(piece) == 2:
                    alone.append(Piece(_path_of(_lengthened(piece, side, joints, width / 2)), 0))
                else:
                    group.append(Piece(_path_of(piece), along + start))
            along += _length(side)
    return alone, joined


def _lengthened(piece: Segment, side: Segment, joints: tuple[bool, bool], by: float) -> Segment:
    """`piece` of `side` lengthened by `by` past each end where the side met another."""
    (x0, y0), (x1, y1) = piece
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return piece
    dx, dy = (x1 - x0) / length * by, (y1 - y0) / length * by
    if joints[0] and piece[0] == side[0]:
        x0, y0 = x0 - dx, y0 - dy
    if joints[1] and piece[-1] == side[-1]:
        x1, y1 = x1 + dx, y1 + dy
    return ((x0, y0), (x1, y1))


def _path_of(piece: Segment) -> bytes:
    """A segment (two points) or a curve (four) as a path of its own."""
    numbers = [pdf_number(v) for point in piece for v in point]
    if len(piece) == 2:
        return b"%s %s m %s %s l" % tuple(numbers)
    return b"%s %s m %s %s %s %s %s %s c" % tuple(numbers)


def stroked(edges: tuple[list[Piece], list[Piece]], paint: bytes, state: PathState) -> bytes:
    """The sides, each a path of one segment: no corner to join, so bevelled joins draw
    them as before and keep MuPDF's redaction from looking past them as far as a
    mitred corner could reach (`redaction_reach`). A dashed path's pattern is started
    on each piece where it stood there. The line join, the cap and the dash pattern in
    force are set again after them, not restored with "Q": `paint` may set a colour
    later painting relies on (MuPDF's filter writes it between a path and its
    painting)."""
    lengths, phase = state.dash

    def dash(offset: float) -> bytes:
        return b"[%s] %s d " % _dash_from(lengths, phase, offset)

    alone, joined = (
        [(dash(piece.along) if lengths else b"") + piece.path + paint for piece in group]
        for group in edges
    )
    if joined and not lengths:
        # Square caps close each corner the sides met at, as the join did (on a dashed
        # path they would lengthen every dash).
        alone.append(b"2 J " + b" ".join(joined) + b" %d J" % state.cap)
    else:
        alone += joined
    restored = b" %d j" % state.join
    if lengths:  # as it was set, for the paths after these
        restored += b" [%s] %s d" % (b" ".join(map(pdf_number, lengths)), pdf_number(phase))
    return b"2 j " + b" ".join(alone) + restored


def _dash_from(lengths: tuple[float, ...], phase: float, along: float) -> tuple[bytes, bytes]:
    """The operands of "d" for the pattern `lengths` set with `phase`, started `along`
    the path, in a form every viewer reads alike and as MuPDF drew the path: an odd
    count of lengths written out twice, as the pattern runs, with the phase MuPDF takes
    ("[2] 2 d" is "[2 2] 0 d" to MuPDF: it takes the phase modulo 2, not 4; a table of
    contents' dotted leaders moved by a dot), and the phase within one period."""
    if len(lengths) % 2:
        if sum(lengths) > 0:
            phase %= sum(lengths)
        lengths += lengths
    phase += along
    period = sum(lengths)
    if period > 0:
        phase %= period
    return b" ".join(map(pdf_number, lengths)), pdf_number(phase)


def _curve_outside(
    curve: Segment, boxes: list[Rect], depth: int = 0, before: float = 0.0
) -> list[tuple[Segment, float]]:
    """The pieces of the curve (start, two controls, end) whose points' box misses every
    box, found by halving it (de Casteljau) where its points' box meets one: a piece
    that still does so after `CURVE_HALVINGS` lies under or at a box and is left out.
    Each with how far along the curve it starts (`before`: along the first half)."""
    if not meets_any(bounds_of([(x, y, x, y) for x, y in curve]), boxes):
        return [(curve, before)]
    if depth == CURVE_HALVINGS:
        return []
    p0, p1, p2, p3 = curve
    a, b, c = _middle(p0, p1), _middle(p1, p2), _middle(p2, p3)
    d, e = _middle(a, b), _middle(b, c)
    m = _middle(d, e)
    first = (p0, a, d, m)
    return _curve_outside(first, boxes, depth + 1, before) + _curve_outside(
        (m, e, c, p3), boxes, depth + 1, before + _length(first)
    )


def _length(side: Segment) -> float:
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


def _outside(start: Point, end: Point, boxes: list[Rect]) -> list[tuple[Segment, float]]:
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

    length = math.dist(start, end)
    return [piece for a, b in spans for piece in _bounds_clear(at(a), at(b), boxes, a * length)]


def _bounds_clear(
    start: Point, end: Point, boxes: list[Rect], before: float, depth: int = 0
) -> list[tuple[Segment, float]]:
    """A straight piece clear of every box, halved until its bounds are too: MuPDF takes
    a path by its bounds, and a slanted arrow passing a box's corner went whole (a
    figure in docling's test files). Halving stops as for curves."""
    if not meets_any(bounds_of([(*start, *start), (*end, *end)]), boxes):
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


def stroke_band(subpaths: list[list[Segment]], state: PathState) -> Rect | None:
    """The rectangle a stroke paints, in its path's space, when it is one level or
    upright segment at least `BAND_PT` wide with butt or square caps, no dash, and
    strokes paint as fills would (the same opacity): a band under a heading, which the
    Pennsylvania and Virginia tax instructions draw as a rule 16 points wide. Split as
    a fill, it stays up to the box; as a stroke, each cut end had to stay clear of it by
    twice the width (the cap, and how far MuPDF's redaction looks past a stroke), and
    the white heading left on the bare page beside the box went as hidden content.
    None for any other stroke."""
    if len(subpaths) != 1 or len(subpaths[0]) != 1 or len(subpaths[0][0]) != 2:
        return None
    if state.width < BAND_PT or state.cap == 1 or state.dash[0]:
        return None
    if state.opacities[0] != state.opacities[1]:
        return None
    (x0, y0), (x1, y1) = subpaths[0][0]
    half = state.width / 2
    cap = half if state.cap == 2 else 0.0
    if y0 == y1:
        return (min(x0, x1) - cap, y0 - half, max(x0, x1) + cap, y0 + half)
    if x0 == x1:
        return (x0 - half, min(y0, y1) - cap, x0 + half, max(y0, y1) + cap)
    return None
