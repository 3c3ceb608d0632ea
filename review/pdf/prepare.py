"""What every reader of a document's pages does first on opening it (Django-free):
detection, the hidden-content analysis, burn-in, sanitize and the release gate all see
the same annotations and measure the same glyphs.

- An annotation written into its page's /Annots array as a dictionary, not as an object
  of its own (PyMuPDF's test_4928.pdf: a note, a highlight, an ink drawing), is drawn by
  MuPDF but listed by PyMuPDF under object number 0, which `Page.annots()` skips, and
  MuPDF's baking drops it: detection never read its text and the release lost it. Each
  becomes an object of its own.
- Font metrics no glyph needs are brought within reach (`font_metrics.py`).
"""

from __future__ import annotations

import pymupdf
from pymupdf import mupdf

from review.pdf.font_metrics import fit_font_metrics


def prepare_to_read(doc: pymupdf.Document) -> None:
    _annotations_made_objects(doc)
    fit_font_metrics(doc)


def _annotations_made_objects(doc: pymupdf.Document) -> None:
    pdf = mupdf.pdf_specifics(doc.this)
    for number in range(doc.page_count):
        try:
            page = mupdf.pdf_lookup_page_obj(pdf, number)
        except (RuntimeError, mupdf.FzErrorBase):
            continue  # a page MuPDF cannot find: detection names it
        annots = mupdf.pdf_dict_get(page, mupdf.PDF_ENUM_NAME_Annots)
        for index in range(mupdf.pdf_array_len(annots)):  # 0 for anything not an array
            annot = mupdf.pdf_array_get(annots, index)
            if mupdf.pdf_is_dict(annot) and not mupdf.pdf_is_indirect(annot):
                mupdf.pdf_array_put(annots, index, mupdf.pdf_add_object(pdf, annot))
