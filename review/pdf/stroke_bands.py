"""What a wide stroke paints (Django-free), for the hidden-content analysis: a line
drawn 16 points wide over a name hides it as a black box does, and white words on a
badge drawn as a thick red line with round caps stand on red, not on the white page.

From a drawing of `Page.get_drawings` (its width and items in page space): `bands`
are the upright rectangles its straight upright sides paint for certain (what covers a
glyph); `holder` says whether it paints a point: yes inside such a band, perhaps near
any other side or curve (its caps, its joins, a slanted side), no away from all. For
burn-in, `stroke_band` is the rectangle a wide level or upright line paints, in its
path's space, which `fills` splits around a box as a fill.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import pymupdf

from review.pdf.clip_shapes import segment_distance
from review.pdf.geometry import Quad
from review.pdf.shape_pieces import Segment
from review.pdf.user_space import PathState, Rect

# Strokes at least this wide are painted as fills would paint them (`stroke_band`): a
# thinner one is drawn at least a pixel wide, and its fill would look fainter.
BAND_PT = 2.0
# Pieces each curve is taken as, to find how near it a point lies.
_CURVE_STEPS = 8
_ROUND_CAP, _SQUARE_CAP = 1, 2


def wide_enough(drawing: dict, least: float) -> bool:
    """A solid stroke at least `least` points wide: a dashed one paints in pieces."""
    dashes = drawing.get("dashes") or "[] 0"
    return (drawing.get("width") or 0.0) >= least and dashes.startswith("[]")


def bands(drawing: dict) -> list[Quad]:
    """The upright rectangles the stroke's straight upright sides paint: each side
    widened by half the width across it, and along it by half the width past each end
    under square caps; under round caps, the square each end's disc holds (an HTML
    column rule 2,250 points wide with round caps blacked out the page above and below
    it, iText's ruleWidthHugeColumnsTest). Round joins are left out: they paint less."""
    half = drawing["width"] / 2
    reach = half if _cap(drawing) == _SQUARE_CAP else 0.0
    found = []
    for a, b in _sides(drawing):
        if abs(a.y - b.y) < 1e-6:
            x0, x1 = sorted((a.x, b.x))
            found.append((x0 - reach, a.y - half, x1 + reach, a.y + half))
        elif abs(a.x - b.x) < 1e-6:
            y0, y1 = sorted((a.y, b.y))
            found.append((a.x - half, y0 - reach, a.x + half, y1 + reach))
    if _cap(drawing) == _ROUND_CAP and not drawing.get("closePath"):
        inside = half * math.sqrt(0.5)
        found += [(x - inside, y - inside, x + inside, y + inside) for x, y in _ends(drawing)]
    return found


def _ends(drawing: dict) -> list[tuple[float, float]]:
    """Where the path's pieces end without meeting another piece."""
    tips: Counter[tuple[float, float]] = Counter()
    for item in drawing["items"]:
        if item[0] in ("l", "c"):
            for point in (item[1], item[-1]):
                tips[(round(point.x, 3), round(point.y, 3))] += 1
    return [tip for tip, count in tips.items() if count == 1]


def holder(drawing: dict, painted: list[Quad]) -> Callable[[tuple[float, float]], bool | None]:
    """Whether the stroke paints a point: True inside one of its `bands` (`painted`),
    None within half the width of any other part of the path, False away from all of
    it. Its pieces are measured once, when it is first asked, each with the box a point
    within reach of it lies in: asked for every glyph of a page of rotated tables,
    measuring every piece for each took a minute (PdfPig's fseprd1102849.pdf)."""
    half = drawing["width"] / 2
    pieces: list[tuple[Quad, tuple[float, float], tuple[float, float]]] = []

    def holds(point: tuple[float, float]) -> bool | None:
        x, y = point
        if any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in painted):
            return True
        if not pieces:
            pieces.extend(_pieces(drawing, half))
        for (x0, y0, x1, y1), a, b in pieces:
            if x0 <= x <= x1 and y0 <= y <= y1 and segment_distance(point, a, b) <= half:
                return None
        return False

    return holds


def _pieces(
    drawing: dict, half: float
) -> list[tuple[Quad, tuple[float, float], tuple[float, float]]]:
    """Each straight piece of the path (a curve in `_CURVE_STEPS`), with its box grown
    by `half`: a point nearer the piece than that lies in the box."""
    found = []
    for item in drawing["items"]:
        if item[0] == "c":
            points = [_bezier(item[1:5], step / _CURVE_STEPS) for step in range(_CURVE_STEPS + 1)]
            segments = list(zip(points, points[1:], strict=False))
        else:
            segments = [(a, b) for a, b in _sides_of(item)]
        for a, b in segments:
            box = (
                min(a.x, b.x) - half,
                min(a.y, b.y) - half,
                max(a.x, b.x) + half,
                max(a.y, b.y) + half,
            )
            found.append((box, (a.x, a.y), (b.x, b.y)))
    return found


def _cap(drawing: dict) -> int:
    caps = drawing.get("lineCap") or (0,)
    return caps[0] if isinstance(caps, tuple) else int(caps)


def _sides(drawing: dict) -> list[tuple[pymupdf.Point, pymupdf.Point]]:
    return [side for item in drawing["items"] for side in _sides_of(item)]


def _sides_of(item: tuple) -> list[tuple[pymupdf.Point, pymupdf.Point]]:
    if item[0] == "l":
        return [(item[1], item[2])]
    if item[0] == "re":
        r = item[1]
        corners = [r.tl, r.tr, r.br, r.bl]
    elif item[0] == "qu":
        q = item[1]
        corners = [q.ul, q.ur, q.lr, q.ll]
    else:
        return []
    return list(zip(corners, corners[1:] + corners[:1], strict=True))


def _bezier(points: tuple, t: float) -> pymupdf.Point:
    p0, p1, p2, p3 = points
    u = 1 - t
    return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)


def stroke_band(subpaths: list[list[Segment]], state: PathState) -> Rect | None:
    """The rectangle a stroke paints, in its path's space, when it is one level or
    upright segment at least `BAND_PT` wide with butt or square caps, no dash, and
    strokes paint as fills would (the same opacity): a band under a heading, which the
    Pennsylvania and Virginia tax instructions draw as a rule 16 points wide. Split as
    a fill, it stays up to the box; as a stroke, each cut end had to stay clear of it by
    half the width (how far MuPDF's redaction looks past a stroke), and the white
    heading left on the bare page beside the box went as hidden content. None for any
    other stroke."""
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
