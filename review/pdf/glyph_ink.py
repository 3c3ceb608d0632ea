"""Glyphs as what lies behind later glyphs (Django-free).

`Painters.backgrounds` knows the fills, strokes and images behind a glyph; a glyph can
also lie on the ink of another. The IRS's caution icon is a white triangle from a pi
font over a dark square, with a dark "!" on the triangle: judged against the square
alone, the "!" was dark on dark, and sanitize removed it from every tax form and
instruction that warns (pdf2json's test forms). A glyph `hidden` finds in the colour of
what lies behind it is judged again here, at the same points, over the last glyph
painted before it whose outline holds each point: seen if it shows at every one. Only glyphs filled opaquely, through
rectangular clips, in no group, mask or pattern count as ground, and a point on an
outline's edge is on none: where it is not plain what a glyph paints, the glyph on it
stays hidden.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf
from pymupdf import mupdf

from review.pdf.clip_shapes import Point, holds
from review.pdf.geometry import UNBOUNDED, BoxGrid, Quad, centre, contains_point
from review.pdf.glyph_outlines import contour_sides, glyph_contours, glyph_matrix
from review.pdf.painters import Painters
from review.pdf.paintlog import OPAQUE, PaintLog, same_colour

Colour = tuple[float, float, float]


def judged_at(rect: Quad) -> tuple[Quad, ...]:
    """Where a glyph's background is judged: at its centre, then at the middle of each of
    its halves (a glyph across the edge of a fill of its colour is seen on the other
    side: the top of a select box's last option, black above the box's black border,
    iText's html2pdf)."""
    x0, y0, x1, y1 = rect
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    return (rect, (x0, y0, x1, ym), (x0, ym, x1, y1), (x0, y0, xm, y1), (xm, y0, x1, y1))


def seen_on_glyphs(
    page: pymupdf.Page,
    area: Quad,
    painters: Painters | None,
    glyphs: Sequence[tuple[Quad, int, Colour]],
) -> list[bool]:
    """For each glyph (its box, seqno and colour) judged in the colour of what lies
    behind it, whether it is seen after all: at each of its points the last glyph
    painted before it, and what was painted over that glyph since, show another colour.
    At each, not at one as on a fill: a glyph's ink is fine, and white text written over
    a line of black text meets the black letters here and there but is read nowhere."""
    asked = [(centre(part), seqno) for rect, seqno, _ in glyphs for part in judged_at(rect)]
    inks = _Inks.of(page, area, list(dict.fromkeys(asked)))

    def shows_another(part: Quad, seqno: int, colour: Colour) -> bool:
        ground = inks.last_under(centre(part), seqno)
        if ground is None:
            return False
        backgrounds = painters.backgrounds(part, seqno, ground) if painters else [ground[1]]
        return backgrounds is None or not all(same_colour(colour, b) for b in backgrounds)

    return [
        all(shows_another(part, seqno, colour) for part in judged_at(rect))
        for rect, seqno, colour in glyphs
    ]


class _Inks(PaintLog):
    """The paint log, and for each point asked about the glyphs whose ink holds it: their
    seqnos and colours, in painting order."""

    def __init__(self, area: Quad, points: Sequence[tuple[Point, int]]) -> None:
        super().__init__(area)
        self.points = points
        self._near = BoxGrid([(x, y, x, y) for (x, y), _ in points], area)
        self._latest = max((seqno for _, seqno in points), default=-1)
        # By point asked about, with the seqno it was asked for.
        self._holding: dict[tuple[Point, int], list[tuple[int, Colour]]] = {}

    def fill_text(self, ctx, text, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001, PLR0913
        super().fill_text(ctx, text, ctm, colorspace, color, alpha, params)
        seqno = len(self.log) - 1
        if seqno >= self._latest or alpha < OPAQUE or not self.plainly_painted(alpha):
            return
        rgb = self._rgb(colorspace, color)
        if rgb is None:
            return
        clip = self._bounds_of_clips[-1] if self._bounds_of_clips else UNBOUNDED
        span = text.head
        while span:
            wrapped = mupdf.FzTextSpan(span)
            for i in range(span.len):
                item = wrapped.items(i)
                if item.gid >= 0:
                    self._glyph(
                        span.font, item.gid, glyph_matrix(span, item, ctm), seqno, rgb, clip
                    )
            span = span.next

    def _glyph(self, font, gid: int, m, seqno: int, rgb: Colour, clip: Quad) -> None:  # noqa: ANN001, PLR0913
        ink = mupdf.ll_fz_bound_glyph(font, gid, m)
        box = (ink.x0, ink.y0, ink.x1, ink.y1)
        asked = [
            self.points[i]
            for i in self._near.near(box)
            if self.points[i][1] > seqno
            and contains_point(box, self.points[i][0])
            and contains_point(clip, self.points[i][0])
        ]
        if not asked:
            return
        edges = contour_sides(glyph_contours(font, gid, m))
        for point in asked:
            if holds(edges, False, point[0]) is True:
                self._holding.setdefault(point, []).append((seqno, rgb))

    def last_under(self, point: Point, seqno: int) -> tuple[int, Colour] | None:
        """The seqno and colour of the last glyph painted before `seqno` whose ink holds
        `point` (asked about for `seqno`)."""
        holding = self._holding.get((point, seqno))
        return holding[-1] if holding else None
