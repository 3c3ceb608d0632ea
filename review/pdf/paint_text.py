"""What a text object paints, read from MuPDF's fz_text as a device receives it
(Django-free): for the paint log (`paintlog.py`)."""

from __future__ import annotations

import functools
import math
import string

from pymupdf import mupdf

from review.pdf.geometry import Quad, area_of, overlap

FLAT = 1e-9  # the area (square points) a unit square of text space under which it is flat


# Characters whose glyph is a solid rectangle: the blocks (a full one, halves, eighths)
# and black squares and bars. Typed over words, they hide them as a black box does.
BLOCKS = frozenset([*range(0x2580, 0x2591), 0x2594, 0x2595, 0x25A0, 0x25AC, 0x25AE, 0x2B1B])


_ALPHANUMERIC = [ord(c) for c in string.ascii_letters + string.digits]


def has_blocks(text, fonts: dict[str, bool]) -> bool:  # noqa: ANN001
    """Whether `text` (an fz_text) draws a character of `BLOCKS`. Only spans in a font
    that has a glyph for one, or that maps no letter or digit to a glyph (a subset that
    kept no character map), are read: most fonts are subsets without any block. `fonts`
    remembers which are read, by name."""
    span = text.head
    while span:
        name = mupdf.ll_fz_font_name(span.font)
        if name not in fonts:
            encoded = functools.partial(mupdf.ll_fz_encode_character, span.font)
            fonts[name] = any(map(encoded, BLOCKS)) or not any(map(encoded, _ALPHANUMERIC))
        if fonts[name]:
            wrapped = mupdf.FzTextSpan(span)
            if any(wrapped.items(i).ucs in BLOCKS for i in range(span.len)):
                return True
        span = span.next
    return False


def drawn_type3_glyph(text) -> bool:  # noqa: ANN001
    """Whether `text` (an fz_text) is one glyph of a Type 3 font. MuPDF draws a Type 3
    glyph it cannot cache (one that strokes or sets colours, or one inside another Type
    3 glyph) by running its procedure straight onto the device, then adds the glyph as
    invisible text (render mode 3) so that extraction still reads it: what a reader sees
    is that drawing, not the invisible text. A text of several glyphs is the document's
    own invisible text, and so is a glyph MuPDF caches (it draws that one as text)."""
    span = text.head
    if not span or span.next or not mupdf.ll_fz_font_t3_procs(span.font):
        return False
    wrapped = mupdf.FzTextSpan(span)
    glyphs = [item.gid for item in map(wrapped.items, range(span.len)) if item.gid >= 0]
    return len(glyphs) == 1 and not mupdf.ll_fz_glyph_cacheable(span.font, glyphs[0])


def large_type3_fonts(text, ctm, size: float) -> dict[str, float]:  # noqa: ANN001
    """By name, each Type 3 font in which a span of `text` draws some glyph at least
    `size` points across, with the size the span sets it in (as `get_texttrace` reports
    it). How large a Type 3 glyph is drawn is for the font's matrix and what the glyph's
    procedure paints to say, not the size set (nor the box the procedure declares, which
    may hold nothing): Ghostscript's bitmap fonts set a gazette's body text at 0.12
    units, glyphs 40 units high in a matrix of 1 (vanillapdf's Diário Oficial da União)."""
    found: dict[str, float] = {}
    span = text.head
    while span:
        if mupdf.ll_fz_font_t3_procs(span.font):
            m = mupdf.ll_fz_concat(span.trm, ctm)
            shape = mupdf.FzMatrix(m.a, m.b, m.c, m.d, 0, 0)
            font = mupdf.FzFont(mupdf.ll_fz_keep_font(span.font))
            wrapped = mupdf.FzTextSpan(span)
            for gid in (wrapped.items(i).gid for i in range(span.len)):
                box = _ink(font, gid, shape) if gid >= 0 else None
                if box is not None and max(box.x1 - box.x0, box.y1 - box.y0) >= size:
                    name = mupdf.ll_fz_font_name(span.font)
                    set_in = math.sqrt(abs(m.a * m.d - m.b * m.c))
                    found[name] = min(set_in, found.get(name, set_in))
                    break
        span = span.next
    return found


def _ink(font: mupdf.FzFont, gid: int, shape: mupdf.FzMatrix) -> mupdf.FzRect:
    """The box of what a Type 3 glyph's procedure paints (empty when it paints nothing)."""
    box = mupdf.FzRect(mupdf.FzRect.Fixed_EMPTY)
    device = mupdf.fz_new_bbox_device(box)
    mupdf.fz_run_t3_glyph(font, gid, shape, device)
    mupdf.fz_close_device(device)
    return box


def glyph_under(text: mupdf.FzText, ctm: mupdf.FzMatrix, box: Quad) -> bool:
    """Whether `box` lies over half of a glyph of `text` (other than a space), each glyph
    measured as `get_texttrace` does (advance by ascender to descender), or over half of
    its ink (a bar drawn tight over a word in small letters covers less than half of
    their boxes: `ink_boxes`); always true for text that is not upright, which this does
    not measure."""
    a, b, c, d, e, f = ctm.a, ctm.b, ctm.c, ctm.d, ctm.e, ctm.f
    span = text.m_internal.head
    while span:
        m = mupdf.ll_fz_concat(span.trm, ctm.internal())
        if m.b or m.c or m.a <= 0 or m.d >= 0:
            return True
        font, size = span.font, m.a
        ascender, descender = mupdf.ll_fz_font_ascender(font), mupdf.ll_fz_font_descender(font)
        if ascender < 1e-3:  # as get_texttrace: probably an OCR font
            ascender, descender = 0.9, -0.1
        above = ascender * size / (ascender - descender)
        below = descender * size / (ascender - descender)
        wrapped = mupdf.FzTextSpan(span)
        for i in range(span.len):
            item = wrapped.items(i)
            x = item.x * a + item.y * c + e
            y = item.x * b + item.y * d + f
            # No glyph advances further than twice the font size.
            if y - above >= box[3] or y - below <= box[1] or not box[0] - 2 * size < x < box[2]:
                continue
            if item.ucs >= 0 and chr(item.ucs).isspace():
                continue
            advance = mupdf.ll_fz_advance_glyph(font, item.gid, span.wmode) if item.gid >= 0 else 0
            glyph = (x, y - above, x + advance * size, y - below)
            met = overlap(glyph, box)
            if met >= 0.5 * area_of(glyph) or (met > 0 and _ink_under(span, item, ctm, box)):
                return True
        span = span.next
    return False


def _ink_under(span, item, ctm: mupdf.FzMatrix, box: Quad) -> bool:  # noqa: ANN001
    trm = span.trm
    at = mupdf.fz_make_matrix(trm.a, trm.b, trm.c, trm.d, item.x, item.y)
    ink = mupdf.ll_fz_bound_glyph(
        span.font, item.gid, mupdf.ll_fz_concat(at.internal(), ctm.internal())
    )
    inked = (ink.x0, ink.y0, ink.x1, ink.y1)
    return area_of(inked) > 0 and overlap(inked, box) >= 0.5 * area_of(inked)


def flat(text, ctm) -> bool:  # noqa: ANN001
    """Every span of the text is drawn through a matrix that maps it to a line or a point
    (iText's noninvertibleMatrix tests: "1 0 1 0 0 0 cm"): nothing of it is painted, but
    extraction reads it, at a place of the font's making."""
    span = text.head
    while span:
        m = mupdf.ll_fz_concat(span.trm, ctm)
        if abs(m.a * m.d - m.b * m.c) > FLAT:
            return False
        span = span.next
    return True
