"""The sides of a stroked path a box comes near, each a path of its own (Django-free).

MuPDF's redaction takes a whole path when a box touches its bounds, and it bounds a
stroke with mitred corners (the default) by its width times the miter limit, as if
every corner were a spike. So a paragraph's border, a table's grid drawn as one path,
a signature rule or a callout went whole when a box came near any of it. `stroke_sides`
rewrites such a path as its sides, each a path of one segment with bevelled joins (no
corner to join, so nothing changes on the page, and MuPDF bounds it by half its width):
a straight side a box crosses is cut around it (Liang and Barsky's clip), a curve is
halved (de Casteljau) until each piece's points lie clear of the box or the piece is
too small to matter, and what lay under the box is left out. The path's own ends keep
their caps; where two sides drawn apart met at a corner, the path's stretch a point
either side of it is drawn joined as the path joined it (a mitre MuPDF's redaction
would take with the box is bevelled, and its spike filled), and where a curve runs on
smoothly nothing is added."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import NamedTuple

from review.pdf.geometry import intersects
from review.pdf.shape_pieces import Point, Segment
from review.pdf.side_cuts import curve_outside, length, outside
from review.pdf.user_space import (
    GAP,
    PathState,
    Rect,
    axis_scales,
    bounds_of,
    boxes_in,
    comes_near,
    inside_any,
    meets_any,
    pdf_number,
)

# Sides meeting at less than a degree run on smoothly: their butt caps meet flush.
CORNER_COS = math.cos(math.radians(1))


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
    (where a dash pattern continues from); or a run of whole sides joined as the path
    joined them, through the miter limit `joined` (None for a stretch). A corner's
    stretch (`_corner_pieces`) is drawn with butt caps, which end inside its sides (a
    cap would reach past the dash there, or out of the join), and may carry a mitred
    corner's spike past its bevel, filled in the stroke's colour."""

    path: bytes
    along: float
    joined: float | None = None
    butt: bool = False
    spike: bytes | None = None


def stroke_sides(
    subpaths: list[list[Segment]], state: PathState, boxes: Sequence[Rect]
) -> list[Piece] | None:
    """The sides of a stroked path, each a path of its own, what the boxes cover of
    them cut away, when a box comes within `redaction_reach` of the path's box (the
    redaction would take the path) but holds none of its ink whole (a side whose ink
    stays clear of every box is drawn whole); None when it stays as it is (or the
    transformation skews it: `boxes_in`). Redaction then takes only what lies under a box,
    where it took the whole path: a border around a redacted phone number (pdfplumber's
    cupertino_usd_4-6-16.pdf), one with round corners (pdf.js's pr12564.pdf), a grid as
    one path, a callout pointing at an address. A cut end lies clear of the box by half
    the width: its butt or round end reaches no further."""
    ctm, width = state.ctm, state.width
    axes = axis_scales(ctm)
    if axes is None:
        return None  # skewed or turned (`boxes_in`)
    whole = bounds_of(
        [bounds_of([(x, y, x, y) for x, y in side]) for sides in subpaths for side in sides]
    )
    # MuPDF widens a stroke by its width at the largest scale of the transformation, in
    # every direction: a line scaled 3 across and 0.75 down went whole for a box its ink
    # stays clear of (an SVG in iText's html2pdf tests).
    widest = max(axes)
    taken = redaction_reach(width, state.join, state.miter) * widest
    if not comes_near(whole, ctm, 2 * GAP + taken, boxes):  # a gap to spare: the test follows
        return None
    reach = max(width, 1.0) / 2  # of the ink
    grown = boxes_in(boxes, ctm, reach)
    taken_within = boxes_in(boxes, ctm, 0.0, page_reach=taken)
    if inside_any(whole, grown) or not meets_any(whole, taken_within):
        return None
    # A piece is cut where its path comes within half the width of a box: its ink,
    # butt or round ends included (a cut end is never square), lies within that of its
    # path, and so does the box MuPDF's redaction finds it by (bevelled, one segment).
    # Clear by the whole width, a disc drawn as a circle stroked 50 wide lost half of
    # itself to a caption's box over its rim (Syncfusion's layer sample).
    bounded = boxes_in(boxes, ctm, 0.0, page_reach=reach * widest)
    sides_out: list[Piece] = []
    # Square caps, undashed: each piece is drawn with butt caps, and lengthened by half
    # the width where the path itself ends (square caps on every piece drew an open
    # arc's ends 4 points long, gofpdf's Circle_figures.pdf). A box's cut keeps a butt
    # end; where two sides drawn apart met at a corner, `_corner_pieces` draws the join.
    dashed = bool(state.dash[0])  # where a piece starts along its path matters
    squared = state.cap == 2 and not dashed
    # Whole sides in a row clear of the boxes stay one path. Drawn apart, they overlap
    # where they meet, darker on a translucent stroke (a stamp's frame at 78%), and meet
    # flush where a curve runs on: a hairline across a wide one (a disc drawn as a
    # circle stroked 50 wide, in Syncfusion's layer sample).
    for sides in subpaths:
        closed = len(sides) > 1 and sides[0][0] == sides[-1][-1]
        starts = list(itertools.accumulate(map(length, sides), initial=0.0)) if dashed else None
        # Only a box the side's ink meets, as MuPDF bounds it, cuts it.
        cutting = [
            [ink for ink in bounded if intersects(bounds_of([(x, y, x, y) for x, y in side]), ink)]
            for side in sides
        ]
        in_runs: set[int] = set()
        joined_at: set[int] = set()  # corners a run's path joins, by the side before them
        for run in _whole_runs([bool(c) for c in cutting], closed, dashed):
            joined = _run_piece(sides, run, closed, squared, state)
            reach = redaction_reach(width, state.join, joined.joined or 1.0) * widest
            bounds = bounds_of([(x, y, x, y) for i in run for x, y in sides[i]])
            if not meets_any(bounds, boxes_in(boxes, ctm, 0.0, page_reach=reach)):
                sides_out.append(joined._replace(along=starts[run[0]] if starts else 0.0))
                in_runs.update(run)
                joined_at.update(run if len(run) == len(sides) and closed else run[:-1])
        for index, side in enumerate(sides):
            if index in in_runs:
                continue
            pieces: Sequence[tuple[Segment, float]]
            cutters = cutting[index]
            if not cutters:
                pieces = [(side, 0.0)]  # its ink stays clear of every box: drawn whole
            elif len(side) == 2:
                pieces = outside(side[0], side[1], cutters)
            else:
                pieces = curve_outside(side, cutters, before=0.0 if dashed else None)
            ends = _squared_ends(sides, index, index, closed, squared)
            for piece, start in pieces:
                path = _lengthened(piece, side, ends, width / 2)
                sides_out.append(Piece(path, (starts[index] if starts else 0.0) + start))
        for corner, bounds, spike in _corner_pieces(sides, closed, joined_at, starts, state):
            reach = redaction_reach(width, state.join, corner.joined or 1.0) * widest
            if meets_any(bounds, boxes_in(boxes, ctm, 0.0, page_reach=reach)):
                # Bevelled, MuPDF's redaction looks past it by half its width only; the
                # spike past the bevel is filled, where a fill paints as the stroke did
                # and clears the boxes (a fill is taken by its own bounds).
                if spike and state.opacities[0] == state.opacities[1]:
                    if not meets_any(_bounds(spike), boxes_in(boxes, ctm, 0.0)):
                        corner = corner._replace(spike=_polygon(spike))
                corner = corner._replace(joined=None)
                reach = redaction_reach(width, 2, 1.0) * widest
            if not meets_any(bounds, boxes_in(boxes, ctm, 0.0, page_reach=reach)):
                sides_out.append(corner)
    return sides_out


def _whole_runs(cut: list[bool], closed: bool, dashed: bool) -> list[list[int]]:
    """The runs of two or more sides in a row no box cuts, by index (on a closed
    subpath past its last side to its first, unless a dash pattern starts again there;
    one run of every side where no box cuts it)."""
    count = len(cut)
    if closed and not any(cut):
        return [list(range(count))]
    first = next((i + 1 for i in range(count) if cut[i]), 0) if closed and not dashed else 0
    runs: list[list[int]] = [[]]
    for index in (i % count for i in range(first, first + count)):
        if cut[index]:
            runs.append([])
        else:
            runs[-1].append(index)
    return [run for run in runs if len(run) >= 2]


def _run_piece(
    sides: list[Segment], run: list[int], closed: bool, squared: bool, state: PathState
) -> Piece:
    """The sides of `run` as one path joined as the path joined them, its ends
    lengthened as a side's (`_squared_ends`). Mitred through the least limit that
    mitres every corner the path's limit did: MuPDF's redaction looks past a mitred
    path by its width times the limit (60 points for a line 6 wide at the default 10).
    Where every side runs on smoothly into the next, no join draws anything: bevelled
    like a stretch, it is looked past by half its width."""
    loop = len(run) == len(sides) and closed
    pairs = [(sides[i], sides[(i + 1) % len(sides)]) for i in (run if loop else run[:-1])]
    ratios = [r for a, b in pairs if (r := _miter_ratio(a, b)) <= state.miter]
    limit: float | None = max([1.0, *ratios]) * 1.0001 if state.join == 0 else state.miter
    if not any(_corner(a, b) for a, b in pairs):
        limit = None
    if loop:
        return Piece(_path_of_sides([sides[i] for i in run]) + b" h", 0.0, limit)
    first, last = sides[run[0]], sides[run[-1]]
    at_head, at_tail = _squared_ends(sides, run[0], run[-1], closed, squared)
    head = _past(first, state.width / 2) if at_head else None
    tail = _past(last[::-1], state.width / 2) if at_tail else None
    return Piece(_path_of_sides([sides[i] for i in run], head, tail), 0.0, limit)


def _squared_ends(
    sides: list[Segment], first: int, last: int, closed: bool, squared: bool
) -> tuple[bool, bool]:
    """Whether sides `first` to `last` are lengthened past their start and end: where
    they start or end an open path with square caps (`squared`), drawn butt."""
    if closed or not squared:
        return (False, False)
    return (first == 0, last == len(sides) - 1)


def _corner_pieces(
    sides: list[Segment],
    closed: bool,
    joined_at: set[int],
    starts: list[float] | None,
    state: PathState,
) -> list[tuple[Piece, Rect, list[Point] | None]]:
    """The joins the path drew where sides now drawn apart met at a corner: its own
    stretch a point either side of the corner, joined as the path joined it, each with
    the bounds of its points and a mitred corner's outline (the corner, the outer
    edges' ends and the spike's tip). Drawn apart, the sides' butt ends left a mitred
    corner's spike out, and lengthened by half the width in its place, they stood out
    of an acute corner as squares (iText's dashedClosedRotatedTriangles.pdf). A
    see-through stroke's stretch is a hundredth of a point, painted twice; an opaque
    one's covers the seam its sides' ends would leave, and reaches no further than half
    the width along them: a point of a table's rule half a point wide, painted twice,
    came out darker at every corner of the grid (PyMuPDF's test_4114.pdf). Where a dash
    pattern is off at the corner, or starts again there (a closed dashed subpath's
    start), the path drew no join."""
    if state.cap == 1 and state.join == 1:
        return []  # the pieces' round ends draw the round join
    see_through = state.opacities[0] < 1 or state.blends or state.masked
    widest = max(axis_scales(state.ctm) or (1.0, 1.0))
    stretch = 0.01 / widest if see_through else min(1.0 / widest, state.width / 2)
    limit = state.miter if state.join == 1 else None
    corners: list[tuple[Piece, Rect, list[Point] | None]] = []
    for index in range(len(sides) if closed and starts is None else len(sides) - 1):
        first, then = sides[index], sides[(index + 1) % len(sides)]
        back, ahead = _direction(first[::-1]), _direction(then)
        if index in joined_at or not _corner(first, then) or not (any(back) and any(ahead)):
            continue
        along = starts[index + 1] if starts else 0.0
        room = min(stretch, length(first) / 2, length(then) / 2)
        if starts:
            room = min(room, _dash_left(state.dash, along))
        if room <= 0:
            continue
        spike = None
        if state.join == 0:  # with room for the rounding of a stretch a point long
            ratio = _miter_ratio(first, then)
            limit = ratio * 1.01 if ratio <= state.miter else None
            spike = _spike(first[-1], back, ahead, state.width / 2, ratio) if limit else None
        (x, y) = first[-1]
        points = [(x + back[0] * room, y + back[1] * room), (x, y)]
        points.append((x + ahead[0] * room, y + ahead[1] * room))
        path = b"%s %s m %s %s l %s %s l" % tuple(pdf_number(v) for point in points for v in point)
        corners.append((Piece(path, along - room, limit, butt=True), _bounds(points), spike))
    return corners


def _spike(corner: Point, back: Point, ahead: Point, half: float, ratio: float) -> list[Point]:
    """A mitred join's outline: the corner, the outer edge's end on the side before,
    the mitre's tip `ratio` half widths out along the bisector, and the outer edge's
    start on the side after (`back` and `ahead`: the sides' directions from the corner)."""
    (x, y), (bx, by), (ax, ay) = corner, back, ahead
    size = math.hypot(bx + ax, by + ay)
    out_x, out_y = -(bx + ax) / size, -(by + ay) / size  # away from the turn's inside

    def outer_edge(dx: float, dy: float) -> Point:
        nx, ny = (-dy, dx) if -dy * out_x + dx * out_y > 0 else (dy, -dx)
        return (x + nx * half, y + ny * half)

    tip = (x + out_x * half * ratio, y + out_y * half * ratio)
    return [(x, y), outer_edge(bx, by), tip, outer_edge(ax, ay)]


def _polygon(points: list[Point]) -> bytes:
    """Points as a closed path."""
    at = [b"%s %s" % (pdf_number(x), pdf_number(y)) for x, y in points]
    return b"%s m " % at[0] + b" ".join(b"%s l" % point for point in at[1:]) + b" h"


def _bounds(points: list[Point]) -> Rect:
    return bounds_of([(x, y, x, y) for x, y in points])


def _miter_ratio(first: Segment, then: Segment) -> float:
    """How long a mitre is where side `first` ends and side `then` starts, in line
    widths (1 / sin of half the angle between them); infinite where the path turns back
    on itself."""
    (ax, ay), (bx, by) = _direction(first[::-1]), _direction(then)
    half_sine = math.sqrt(max(0.0, (1 - (ax * bx + ay * by)) / 2))
    return 1 / half_sine if half_sine > 0 else math.inf


def _path_of_sides(
    sides: list[Segment], head: Point | None = None, tail: Point | None = None
) -> bytes:
    """Sides in a row as one path, with a straight stretch from `head` to its start and
    from its end to `tail` where given."""
    path = _path_of(sides[0], head)
    for side in sides[1:]:
        at = [b"%s %s" % (pdf_number(x), pdf_number(y)) for x, y in side[1:]]
        path += b" %s l" % at[0] if len(side) == 2 else b" %s %s %s c" % tuple(at)
    if tail is not None:
        path += b" %s %s l" % tuple(map(pdf_number, tail))
    return path


def _corner(first: Segment, then: Segment) -> bool:
    """Whether the path turns where side `first` ends and side `then` starts (a join
    draws there); a curve running on smoothly into the next needs nothing between them."""
    ax, ay = _direction(first[::-1])
    bx, by = _direction(then)
    return not (ax or ay) or not (bx or by) or ax * -bx + ay * -by < CORNER_COS


def _direction(side: Segment) -> Point:
    """The unit vector from the side's first point toward the next point apart from it
    (its tangent there), or (0, 0) when every point is the first."""
    x0, y0 = side[0]
    for x, y in side[1:]:
        length = math.hypot(x - x0, y - y0)
        if length > 0:
            return ((x - x0) / length, (y - y0) / length)
    return (0.0, 0.0)


def _lengthened(piece: Segment, side: Segment, corners: tuple[bool, bool], by: float) -> bytes:
    """`piece` of `side` as a path of its own, lengthened by `by` along its tangent past
    each end that is a corner of the path: a segment's ends move, a curve gains a
    straight stretch there."""
    head = _past(piece, by) if corners[0] and piece[0] == side[0] else None
    tail = _past(piece[::-1], by) if corners[1] and piece[-1] == side[-1] else None
    if len(piece) == 2:  # still one segment: its ends move
        return _path_of((head or piece[0], tail or piece[1]))
    return _path_of(piece, head, tail)


def _past(piece: Segment, by: float) -> Point:
    """The point `by` back from the piece's first point, along its tangent there."""
    dx, dy = _direction(piece)
    return (piece[0][0] - dx * by, piece[0][1] - dy * by)


def _path_of(piece: Segment, head: Point | None = None, tail: Point | None = None) -> bytes:
    """A segment (two points) or a curve (four) as a path of its own, with a straight
    stretch from `head` to its start and from its end to `tail` where given."""
    at = [b"%s %s" % (pdf_number(x), pdf_number(y)) for x, y in piece]
    path = b"%s m " % at[0] if head is None else b"%s %s m %s l " % (*map(pdf_number, head), at[0])
    path += b"%s l" % at[1] if len(piece) == 2 else b"%s %s %s c" % tuple(at[1:])
    if tail is not None:
        path += b" %s %s l" % tuple(map(pdf_number, tail))
    return path


def stroked(pieces: list[Piece], between: bytes, state: PathState) -> bytes:
    """The sides, each a path of its own, stroked: no corner to join, so bevelled joins
    draw them as before and keep MuPDF's redaction from looking past them as far as a
    mitred corner could reach (`redaction_reach`). A dashed path's pattern is started
    on each piece where it stood there. `between`, what the content sets between the
    path and its painting, is set once before them, and the line join and the dash
    pattern in force again after them, not restored with "Q": it may set a colour
    later painting relies on (MuPDF's filter writes one there). Set on each piece, a
    mitred join set there (dart_pdf writes the line state so) undid the bevel, and the
    redaction took the far half of a circle 14 points from the box."""
    lengths, phase = state.dash
    paint = b" S"
    capped = 0 if state.cap == 2 and not lengths else state.cap  # the pieces' caps

    def dash(offset: float) -> bytes:
        return b"[%s] %s d " % _dash_from(lengths, phase, offset)

    def joined(piece: Piece) -> bytes:
        if piece.joined is None:
            return b""
        limit, restored = pdf_number(piece.joined), pdf_number(state.miter)
        return b"%d j %s M %s%s 2 j %s M" % (state.join, limit, piece.path, paint, restored)

    def butt(piece: Piece, drawn: bytes) -> bytes:
        return b"0 J %s %d J" % (drawn, capped) if piece.butt and capped else drawn

    def spike(piece: Piece) -> bytes:
        return b" q %s %s f Q" % (state.stroke_fill, piece.spike) if piece.spike else b""

    drawn = [
        (dash(piece.along) if lengths else b"")
        + butt(piece, joined(piece) or piece.path + paint)
        + spike(piece)
        for piece in pieces
    ]
    restored = b" %d j" % state.join
    if state.cap == 2 and not lengths:  # lengthened in place of their square caps
        drawn.insert(0, b"0 J")
        restored += b" 2 J"
    if lengths:  # as it was set, for the paths after these
        restored += b" [%s] %s d" % (b" ".join(map(pdf_number, lengths)), pdf_number(phase))
    state_set = between.strip()
    return (state_set + b" " if state_set else b"") + b"2 j " + b" ".join(drawn) + restored


def _dash_from(lengths: tuple[float, ...], phase: float, along: float) -> tuple[bytes, bytes]:
    """The operands of "d" for the pattern `lengths` set with `phase`, started `along`
    the path (`_dash_at`)."""
    lengths, phase = _dash_at(lengths, phase, along)
    return b" ".join(map(pdf_number, lengths)), pdf_number(phase)


def _dash_at(
    lengths: tuple[float, ...], phase: float, along: float
) -> tuple[tuple[float, ...], float]:
    """The pattern `lengths` set with `phase`, started `along` the path, in a form every
    viewer reads alike and as MuPDF drew the path: an odd count of lengths written out
    twice, as the pattern runs, with the phase MuPDF takes ("[2] 2 d" is "[2 2] 0 d" to
    MuPDF: it takes the phase modulo 2, not 4; a table of contents' dotted leaders moved
    by a dot), and the phase within one period."""
    if len(lengths) % 2:
        if sum(lengths) > 0:
            phase %= sum(lengths)
        lengths += lengths
    phase += along
    period = sum(lengths)
    if period > 0:
        phase %= period
    return lengths, phase


def _dash_left(dash: tuple[tuple[float, ...], float], along: float) -> float:
    """How far the dash pattern stays on either side of `along` the path (to the nearer
    end of the dash there), or 0 in a gap."""
    lengths, phase = _dash_at(*dash, along)
    start = 0.0
    for index, span in enumerate(lengths):
        if start <= phase < start + span:
            return min(phase - start, start + span - phase) if index % 2 == 0 else 0.0
        start += span
    return 0.0
