"""Large glyphs a box crosses, kept beside it as their outline (Django-free).

MuPDF's redaction removes every glyph a box meets, whole: a box over a name under an
"iText" watermark 140 points tall took the whole letter crossing it, and a box over a
line of decorative capitals, whose scribbles reach far past each letter's box (DSS's
visual-signature test page), took every capital and scribble it met; the release lost
what the reviewer saw beside the box. A glyph at least `LARGE_PT` tall that a box meets
but does not hold, filled in a colour through rectangular clips only, outside any
translucent or blending group, soft mask or pattern, is removed alone (`glyph_cut`)
before the redaction, and its outline outside every box is drawn again, a fill in its
colour at its opacity: over the page's content when nothing was painted over what of it
stays, beneath it when nothing was painted under (a watermark set first, the text over
it); otherwise it goes whole. A translucent "Sample" across a page (A-PDF Watermark's,
at 51%) and a "Text Watermark" under a page's text lost every letter a box met. The
outline is cut, not clipped: no part of its shape under a box is written anywhere.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf
from pymupdf import mupdf

from review.pdf.clip_shapes import ClipShape, holds
from review.pdf.geometry import UNBOUNDED, Quad, intersects, within
from review.pdf.glyph_cut import drop_glyphs, ranked, same_origin
from review.pdf.paintlog import PaintLog
from review.pdf.slanted import SlantedGlyph
from review.pdf.user_space import bounds_of, meets_any

LARGE_PT = 24.0  # glyphs this tall or taller (a heading's 12-point text is left alone)
_FLAT_PT = 0.25  # how far a curve's chords may stray from it
_SLIVER = 1e-6  # square points: a cut piece of less area is none
Point = tuple[float, float]
Contour = list[Point]


@dataclass
class KeptOutline:
    """What of one glyph stays beside the boxes: its contours, cut into regions that
    each lie apart, filled as one path by the nonzero rule, in unrotated page space
    (one fill, so a translucent glyph shows no seam where two regions meet); its colour
    (RGB) and its opacity."""

    contours: list[Contour]
    rgb: tuple[float, float, float]
    alpha: float
    # Drawn beneath the page's content, not over it: something was painted over the
    # glyph, and nothing under it (a watermark set first, the text over it).
    under: bool = False


@dataclass
class _Glyph:
    seqno: int
    char: str
    origin: Point
    contours: list[Contour]
    rgb: tuple[float, float, float]
    alpha: float
    clip: Quad


def outlines_beside(
    page: pymupdf.Page,
    boxes: Sequence[Quad],
    removing: Sequence[Quad],
    log: Sequence[tuple[str, Sequence[float]]],
    slanted: Sequence[SlantedGlyph],
) -> list[KeptOutline]:
    """Remove from `page` each large glyph that burn-in would take whole and that can
    be drawn again as its outline, and return what of each outline lies outside every
    box of `boxes` (both in unrotated page space). Burn-in takes a glyph that the text
    redaction's boxes `removing` meet (each box narrowed off the words it only grazes,
    `text_reach`) and the glyphs of slanted lines `slanted` (`slanted_glyphs_under`).
    `log` is the page's bbox log: a page with no large text a box meets is not read
    again."""
    if not any(
        kind == "fill-text" and rect[3] - rect[1] >= LARGE_PT and _meets_any(rect, boxes)
        for kind, rect in log
    ):
        return []
    device = _Glyphs.of(page, UNBOUNDED, removing, boxes, slanted)
    kept: list[KeptOutline] = []
    dropped = []
    for glyph in device.glyphs:
        groups = _cut(glyph.contours, glyph.clip, boxes)
        later = device.log[glyph.seqno + 1 :]
        painted_over = any(_meets_group(later, group) for group in groups)
        if painted_over and any(_meets_group(device.log[: glyph.seqno], g) for g in groups):
            continue  # drawn again first or last, it would change what it lies between
        dropped.append((glyph.char, glyph.origin, glyph.seqno))
        if groups:
            contours = [contour for group in groups for contour in group]
            kept.append(KeptOutline(contours, glyph.rgb, glyph.alpha, under=painted_over))
    drop_glyphs(page, ranked(page, dropped))
    return kept


class _Glyphs(PaintLog):
    """The paint log, and the large glyphs the boxes cross that can be drawn again."""

    def __init__(
        self,
        area: Quad,
        removing: Sequence[Quad],
        boxes: Sequence[Quad],
        slanted: Sequence[SlantedGlyph],
    ) -> None:
        super().__init__(area)
        self.removing = removing
        self.boxes = boxes
        self.slanted = slanted
        self.glyphs: list[_Glyph] = []

    def fill_text(self, ctx, text, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001, PLR0913
        super().fill_text(ctx, text, ctm, colorspace, color, alpha, params)
        if not _meets_any(self.log[-1][1], self.boxes):
            return
        if not self.plainly_painted(alpha, through_paths=True):
            return
        rgb = self._rgb(colorspace, color)
        if rgb is None:
            return
        clip = self._bounds_of_clips[-1] if self._bounds_of_clips else UNBOUNDED
        paths = [shape for shape in self._clip_shapes if isinstance(shape, ClipShape)]
        span = text.head
        while span:
            wrapped = mupdf.FzTextSpan(span)
            for i in range(span.len):
                item = wrapped.items(i)
                glyph = self._glyph(span, item, ctm, rgb, alpha, clip)
                # A path clip (a form's box, turned with the form: a diagonal "DEMO")
                # must cut nothing of the glyph, as only rectangles cut the outline.
                if glyph is not None and all(_holds_whole(p, glyph.contours) for p in paths):
                    self.glyphs.append(glyph)
            span = span.next

    def _glyph(self, span, item, ctm, rgb, alpha, clip) -> _Glyph | None:  # noqa: ANN001, PLR0913
        if item.gid < 0 or item.ucs < 0:
            return None
        m = glyph_matrix(span, item, ctm)
        if mupdf.ll_fz_matrix_expansion(m) < LARGE_PT:
            return None
        if not self._taken_whole(span.font, item.gid, m):
            return None
        ink = mupdf.ll_fz_bound_glyph(span.font, item.gid, m)
        if any(within((ink.x0, ink.y0, ink.x1, ink.y1), box) for box in self.boxes):
            return None
        contours = glyph_contours(span.font, item.gid, m)
        if not contours:
            return None
        return _Glyph(len(self.log) - 1, chr(item.ucs), (m.e, m.f), contours, rgb, alpha, clip)

    def _taken_whole(self, font, gid: int, m) -> bool:  # noqa: ANN001
        """Whether burn-in would take the glyph whole: MuPDF's redaction, when a box of
        `removing` meets the glyph's box as it measures it (the glyph's advance by the
        font's ascent and descent through its matrix, a tenth in from each side), or
        `drop_slanted_glyphs_under`, when it is one of `slanted` (a stamp's "Secret" at
        38 degrees)."""
        advance = mupdf.ll_fz_advance_glyph(font, gid, 0)
        ascender, descender = mupdf.ll_fz_font_ascender(font), mupdf.ll_fz_font_descender(font)
        unit = mupdf.fz_make_rect(0, descender, advance, ascender)  # kept while it is read
        r = mupdf.ll_fz_transform_rect(unit.internal(), m)
        across, down = (r.x1 - r.x0) / 10, (r.y1 - r.y0) / 10
        if _meets_any((r.x0 + across, r.y0 + down, r.x1 - across, r.y1 - down), self.removing):
            return True
        return any(same_origin(g.origin, (m.e, m.f)) for g in self.slanted)


def glyph_matrix(span, item, ctm) -> mupdf.fz_matrix:  # noqa: ANN001
    """Where a text span's item draws its glyph: the span's matrix at the item's origin,
    through `ctm`."""
    trm = span.trm
    at = mupdf.fz_make_matrix(trm.a, trm.b, trm.c, trm.d, item.x, item.y)
    return mupdf.ll_fz_concat(at.internal(), ctm)


def glyph_contours(font, gid: int, m) -> list[Contour]:  # noqa: ANN001
    """The glyph's outline drawn through `m`, as closed polygons; none for a Type 3
    glyph or one of a bitmap font."""
    path = mupdf.ll_fz_outline_glyph(font, gid, m)
    return _contours(mupdf.FzPath(path)) if path else []


def _holds_whole(clip: ClipShape, contours: list[Contour]) -> bool:
    """The clipping path holds every point of the contours and none of its sides
    crosses theirs."""
    if not all(holds(clip.edges, clip.even_odd, point) is True for c in contours for point in c):
        return False
    sides = contour_sides(contours)
    xs, ys = [p[0] for c in contours for p in c], [p[1] for c in contours for p in c]
    return not any(
        _cross(edge, side)
        for edge in clip.edges
        if min(edge[0][0], edge[1][0]) <= max(xs)
        and max(edge[0][0], edge[1][0]) >= min(xs)
        and min(edge[0][1], edge[1][1]) <= max(ys)
        and max(edge[0][1], edge[1][1]) >= min(ys)
        for side in sides
    )


def contour_sides(contours: list[Contour]) -> list[tuple[Point, Point]]:
    """Each side of each closed contour, as a pair of points."""
    return [(c[k - 1], c[k]) for c in contours for k in range(len(c))]


def _cross(a: tuple[Point, Point], b: tuple[Point, Point]) -> bool:
    """The segments meet: each one's ends lie on both sides of the other's line, or on
    it."""

    def side(p: Point, q: Point, r: Point) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(*a, b[0]) * side(*a, b[1]) <= 0 and side(*b, a[0]) * side(*b, a[1]) <= 0


def _contours(path: mupdf.FzPath) -> list[Contour]:
    """The path's subpaths as closed polygons, curves flattened into chords."""
    walker = _Walker()
    mupdf.fz_walk_path(path, walker, walker.m_internal)  # the bindings find it by `arg`
    walker.close()
    return [c for c in walker.contours if len(c) >= 3]


class _Walker(mupdf.FzPathWalker2):
    def __init__(self) -> None:
        super().__init__()
        for name in ("moveto", "lineto", "curveto", "closepath"):
            getattr(self, "use_virtual_" + name)()
        self.contours: list[Contour] = []
        self._current: Contour = []

    def moveto(self, ctx, x, y) -> None:  # noqa: ANN001
        self.close()
        self._current = [(x, y)]

    def lineto(self, ctx, x, y) -> None:  # noqa: ANN001
        self._current.append((x, y))

    def curveto(self, ctx, x1, y1, x2, y2, x3, y3) -> None:  # noqa: ANN001, PLR0913
        if not self._current:
            return
        x0, y0 = self._current[-1]
        reach = (
            abs(x1 - x0) + abs(y1 - y0) + abs(x2 - x1) + abs(y2 - y1) + abs(x3 - x2) + abs(y3 - y2)
        )
        steps = max(2, min(64, int(reach / _FLAT_PT**0.5) + 1))
        for n in range(1, steps + 1):
            t = n / steps
            u = 1 - t
            a, b, c, d = u**3, 3 * u * u * t, 3 * u * t * t, t**3
            self._current.append(
                (a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3)
            )

    def closepath(self, ctx) -> None:  # noqa: ANN001
        self.close()

    def close(self) -> None:
        if len(self._current) >= 3:
            self.contours.append(self._current)
        self._current = []


def _cut(contours: list[Contour], clip: Quad, boxes: Sequence[Quad]) -> list[list[Contour]]:
    """The contours within the clip and outside every box, as groups that each lie in a
    convex region of their own (a strip beside a box): filled by the nonzero rule, each
    group paints what the glyph painted in its region."""
    groups = [_clipped_group(contours, _rectangle(clip))]
    for box in boxes:
        groups = [
            cut
            for group in groups
            for region in _strips_around(box)
            if (cut := _clipped_group(group, region))
        ]
    return [group for group in groups if group]


def _clipped_group(contours: list[Contour], planes: list[tuple[int, float, int]]) -> list[Contour]:
    """The contours within the half-planes; none of no area: a contour clipped to one
    side of a line leaves an edge on it, which the other side also holds, and the
    slivers doubled with each box in a column (a stamp over a list of marked words
    took minutes)."""
    out = []
    for contour in contours:
        for plane in planes:
            contour = _clip_to_plane(contour, plane)
            if len(contour) < 3:
                break
        else:
            if abs(_area(contour)) > _SLIVER:
                out.append(contour)
    return out


def _area(contour: Contour) -> float:
    """The contour's signed area (the shoelace formula)."""
    return (
        sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in itertools.pairwise(contour + contour[:1]))
        / 2
    )


def _rectangle(rect: Quad) -> list[tuple[int, float, int]]:
    """Half-planes (axis, value, side: +1 keeps coordinates at or above the value, -1
    at or below it) whose meeting is `rect`; none for an unbounded side."""
    x0, y0, x1, y1 = rect
    planes = [(0, x0, 1), (1, y0, 1), (0, x1, -1), (1, y1, -1)]
    return [(axis, value, side) for axis, value, side in planes if abs(value) < 1e9]


def _strips_around(box: Quad) -> list[list[tuple[int, float, int]]]:
    """Four regions that together are everything outside `box`, none overlapping."""
    x0, y0, x1, y1 = box
    return [
        [(0, x0, -1)],
        [(0, x1, 1)],
        [(0, x0, 1), (0, x1, -1), (1, y0, -1)],
        [(0, x0, 1), (0, x1, -1), (1, y1, 1)],
    ]


def _clip_to_plane(contour: Contour, plane: tuple[int, float, int]) -> Contour:
    """Sutherland and Hodgman's clip of a closed polygon to a half-plane."""
    axis, value, side = plane

    def inside(p: Point) -> bool:
        return (p[axis] - value) * side >= 0

    def crossing(p: Point, q: Point) -> Point:
        t = (value - p[axis]) / (q[axis] - p[axis])
        return (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))

    out: Contour = []
    previous = contour[-1]
    for point in contour:
        if inside(point):
            if not inside(previous):
                out.append(crossing(previous, point))
            out.append(point)
        elif inside(previous):
            out.append(crossing(previous, point))
        previous = point
    return out


def _meets_group(log: Sequence[tuple[str, Quad]], group: list[Contour]) -> bool:
    """Whether any painting of `log` meets the bounds of `group`."""
    bounds = bounds_of([(x, y, x, y) for contour in group for x, y in contour])
    return any(kind != "ignore-text" and intersects(bounds, box) for kind, box in log)


def _meets_any(rect: Sequence[float], boxes: Sequence[Quad]) -> bool:
    return meets_any((rect[0], rect[1], rect[2], rect[3]), list(boxes))
