"""Where glyphs put their ink (Django-free). A glyph's box as `get_texttrace` gives it
runs over its advance from the font's ascender to its descender, and the ink lies
somewhere inside: capitals in the upper part, an underscore in the bottom tenth. What a
later fill covers is judged on the ink (`hidden`): a black bar drawn tight over a name's
capitals covered three fifths of their boxes and all of their ink, and the name, judged
seen, was released under it; a court form's white check boxes cover nine tenths of the
boxes of the underscores drawn under them and not their ink, which shows below each box
(freelawproject's doctor test assets), and the underscores were cut as hidden.
"""

from __future__ import annotations

from collections.abc import Iterable

import pymupdf
from pymupdf import mupdf

from review.pdf.geometry import Quad, area_of, quad
from review.pdf.glyph_outlines import glyph_matrix
from review.pdf.paint_text import BLOCKS
from review.pdf.painters import Painters, to_rgb
from review.pdf.paintlog import OPAQUE, PaintLog

Point = tuple[float, float]

_PLACES = 2  # origins are matched to the hundredth of a point


def inks_painted_over(
    page: pymupdf.Page, area: Quad, trace: list[dict], painters: Painters
) -> dict[tuple[int, tuple[float, float]], Quad]:
    """The ink boxes of the glyphs that something painted later meets (`ink_boxes`)."""
    glyphs = [
        (span["seqno"], char[2])
        for span in trace
        if not painters.untouched(quad(span["bbox"]))
        for char in span["chars"]
        if not chr(char[0]).isspace() and painters.painted_over(quad(char[3]), span["seqno"])
    ]
    return ink_boxes(page, area, glyphs)


def block_glyphs(
    page: pymupdf.Page, area: Quad, trace: list[dict]
) -> list[tuple[int, Quad, tuple[float, float, float]]]:
    """The seqno, ink and colour of each glyph of `paint_text.BLOCKS` the trace fills
    opaquely: a row of "█" typed over a name hides it as a black bar does."""
    blocks = {
        (span["seqno"], char[2]): to_rgb(span["color"])
        for span in trace
        if span["type"] == 0 and span.get("opacity", 1.0) >= OPAQUE
        for char in span["chars"]
        if char[0] in BLOCKS
    }
    if not blocks:
        return []
    inks = ink_boxes(page, area, blocks)
    return [(seqno, ink, blocks[seqno, origin]) for (seqno, origin), ink in inks.items()]


def ink_boxes(
    page: pymupdf.Page, area: Quad, glyphs: Iterable[tuple[int, Point]]
) -> dict[tuple[int, Point], Quad]:
    """The box of the ink of each glyph asked about by its seqno and its origin, as the
    trace gives them. A glyph with no ink, or none found at its origin, is left out."""
    wanted: dict[int, dict[Point, Point]] = {}
    for seqno, origin in glyphs:
        wanted.setdefault(seqno, {})[_key(origin)] = origin
    if not wanted:
        return {}
    return _Inks.of(page, area, wanted).found


def _key(origin: Point) -> Point:
    return round(origin[0], _PLACES), round(origin[1], _PLACES)


class _Inks(PaintLog):
    def __init__(self, area: Quad, wanted: dict[int, dict[Point, Point]]) -> None:
        super().__init__(area)
        self.wanted = wanted
        self.found: dict[tuple[int, Point], Quad] = {}

    def fill_text(self, ctx, text, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001, PLR0913
        super().fill_text(ctx, text, ctm, colorspace, color, alpha, params)
        self._measure(text, ctm)

    def stroke_text(self, ctx, text, stroke, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001, PLR0913
        super().stroke_text(ctx, text, stroke, ctm, colorspace, color, alpha, params)
        self._measure(text, ctm)

    def _measure(self, text, ctm) -> None:  # noqa: ANN001
        seqno = len(self.log) - 1
        origins = self.wanted.get(seqno)
        if not origins:
            return
        span = text.head
        while span:
            wrapped = mupdf.FzTextSpan(span)
            for i in range(span.len):
                item = wrapped.items(i)
                if item.gid < 0:
                    continue
                m = glyph_matrix(span, item, ctm)
                origin = origins.get(_key((m.e, m.f)))
                if origin is None:
                    continue
                ink = mupdf.ll_fz_bound_glyph(span.font, item.gid, m)
                box = (ink.x0, ink.y0, ink.x1, ink.y1)
                if area_of(box) > 0:
                    self.found[seqno, origin] = box
            span = span.next
