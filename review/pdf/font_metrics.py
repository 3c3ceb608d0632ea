"""Font descriptors whose ascent and descent no glyph needs, brought within reach
(Django-free).

MuPDF boxes every glyph from its font descriptor's /Ascent to its /Descent, and so do
text extraction, detection's mark boxes, the redaction filter (which takes every glyph
whose box a mark touches) and the release gate. Some producers write metrics far beyond
any glyph: Word embeds Cambria with the metrics of Cambria Math from the same font
collection, 3.1 em above the baseline and 2.5 below (PyMuPDF's test_2979.pdf, pdf.js's
issue4665.pdf), and some fonts claim more than their own bounding box holds (Palatino
at 2.4 em in PyMuPDF's test_2904.pdf, whose /FontBBox ends at 1.2). A box around one
word in such a font spans five lines, and redacting it takes words from the lines above
and below. Rendering never reads these values: glyphs are drawn from their outlines.

`fit_font_metrics` rewrites them in the open document (the release keeps the fitted
values, so every reader measures its text as the reviewer's preview did): into the
font's bounding box where they span more than `_TALL_EM`, and where that still spans
more than `_MOST_EM`, to a text font's usual reach. A Type 3 font is measured by its
/FontBBox through its /FontMatrix: dvips's bitmap fonts draw glyphs 100 units tall in
a box of 1,000 through a matrix of 1 (an ISCA paper in olmOCR's test files boxed every
word 120 points tall at 0.12 pt); where that spans more than `_MOST_EM`, and more than
four times their own boxes ("d1", which bound all they may paint), it becomes theirs.
"""

from __future__ import annotations

import math
import re

import pymupdf
from pymupdf import mupdf

from review.pdf.objects import every_object

# Thousandths of an em. No text or math font in the corpora the project is checked on
# spans more than 3.7 em with honest metrics (TeX's cmex10, whose big delimiters do).
_MOST_EM = 4000
# Metrics spanning up to this are left as they are, within their bounding box or not:
# text fonts span 1.1 to 1.5 em, CJK fonts up to 2.9 (Source Han Sans's 1.8 and -1.05).
_TALL_EM = 2000
_USUAL_ASCENT, _USUAL_DESCENT = 1000, -300
_ASCENT = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Ascent)
_DESCENT = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Descent)
_FONT_BBOX = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_FontBBox)
_FONT_MATRIX = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_FontMatrix)
_CHAR_PROCS = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_CharProcs)
_SUBTYPE = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Subtype)
_TYPE3 = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Type3)
# A Type 3 glyph's width and box, as its procedure starts: "wx wy llx lly urx ury d1".
_D1 = re.compile(rb"\s*((?:[-+]?(?:\d+\.?\d*|\.\d+)\s+){6})d1\b")


def fit_font_metrics(doc: pymupdf.Document) -> None:
    """Bring every font descriptor's /Ascent and /Descent within reach (see above).
    Read through MuPDF's own calls: detection pays for this on every document."""
    for descriptor in every_object(doc):
        if mupdf.pdf_name_eq(mupdf.pdf_dict_get(descriptor, _SUBTYPE), _TYPE3):
            _fit_type3_box(descriptor)
            continue
        ascent = mupdf.pdf_dict_get_real(descriptor, _ASCENT)  # 0 for any other object
        descent = mupdf.pdf_dict_get_real(descriptor, _DESCENT)
        if ascent - descent <= 0 or not math.isfinite(ascent - descent):
            continue
        bbox = mupdf.pdf_dict_get_rect(descriptor, _FONT_BBOX)  # normalized; empty if none
        fitted = _fitted(ascent, descent, (bbox.y1, bbox.y0) if bbox.y0 < 0 < bbox.y1 else None)
        if fitted != (ascent, descent):
            mupdf.pdf_dict_put_real(descriptor, _ASCENT, fitted[0])
            mupdf.pdf_dict_put_real(descriptor, _DESCENT, fitted[1])


def _fitted(ascent: float, descent: float, bbox: tuple[float, float] | None) -> tuple[float, float]:
    """`bbox` is the top and bottom of the font's bounding box, when it is a sane one."""
    if ascent - descent <= _TALL_EM:
        return ascent, descent
    if bbox is not None:
        top, bottom = bbox
        if 0 < ascent > top:
            ascent = top
        if 0 > descent < bottom:
            descent = bottom
    if ascent - descent > _MOST_EM:
        ascent = min(ascent, _USUAL_ASCENT)
        descent = max(descent, _USUAL_DESCENT)
    return ascent, descent


def _fit_type3_box(font: mupdf.PdfObj) -> None:
    """A Type 3 font's /FontBBox, where it spans more than `_MOST_EM` through the font's
    matrix and more than four times as much as its glyphs' boxes together, made their
    union; left as it is when a glyph has none ("d0": a coloured glyph). A font whose
    glyphs are as tall as its box is honest, at any size its matrix gives them."""
    matrix = mupdf.pdf_dict_get_matrix(font, _FONT_MATRIX)
    bbox = mupdf.pdf_dict_get_rect(font, _FONT_BBOX)
    scale = math.hypot(matrix.c, matrix.d)
    if (bbox.y1 - bbox.y0) * scale * 1000 <= _MOST_EM:
        return
    procs = mupdf.pdf_dict_get(font, _CHAR_PROCS)
    boxes = []
    for i in range(mupdf.pdf_dict_len(procs)):
        try:
            start = mupdf.pdf_load_stream(mupdf.pdf_dict_get_val(procs, i)).fz_buffer_extract()[
                :200
            ]
        except (RuntimeError, mupdf.FzErrorBase):
            return
        found = _D1.match(start)
        if found is None:
            return
        boxes.append([float(n) for n in found.group(1).split()][2:])
    if not boxes:
        return
    x0, y0 = min(min(b[0], b[2]) for b in boxes), min(min(b[1], b[3]) for b in boxes)
    x1, y1 = max(max(b[0], b[2]) for b in boxes), max(max(b[1], b[3]) for b in boxes)
    if (bbox.y1 - bbox.y0) * 1000 > (y1 - y0) * _MOST_EM:
        mupdf.pdf_dict_put_rect(font, _FONT_BBOX, mupdf.FzRect(x0, y0, x1, y1))
