"""What every reader of a document's pages does first on opening it (Django-free):
detection, the hidden-content analysis, burn-in, sanitize and the release gate all see
the same annotations and measure the same glyphs.

- A page object the page tree lists more than once (pdfium's viewer_ref.pdf: one page
  five times) is shown on each of its pages, and burn-in's edit of one was made on
  all: the release gate refused every box on such a page. Each listing after the first
  gets a copy of its own.
- An annotation written into its page's /Annots array as a dictionary, not as an object
  of its own (PyMuPDF's test_4928.pdf: a note, a highlight, an ink drawing), is drawn by
  MuPDF but listed by PyMuPDF under object number 0, which `Page.annots()` skips, and
  MuPDF's baking drops it: detection never read its text and the release lost it. Each
  becomes an object of its own.
- A content stream under an image codec is made empty, as MuPDF reads it
  (`image_coded.py`).
- An annotation kept upright on a turned page (NoRotate) is placed where MuPDF shows
  it (`no_rotate.py`).
- Font metrics no glyph needs are brought within reach (`font_metrics.py`).
- A form field's default appearance (/DA) whose "Tf" has no size before it ("/Helv
  Tf") is given the automatic size, 0, which MuPDF draws it with: PyMuPDF could not
  list the page's fields at all, and detection failed on the document (iText's
  invalidDA.pdf).
"""

from __future__ import annotations

import pymupdf
from pymupdf import mupdf

from review.pdf.font_metrics import fit_font_metrics
from review.pdf.image_coded import image_coded_content_emptied
from review.pdf.no_rotate import kept_upright


def prepare_to_read(doc: pymupdf.Document) -> None:
    _pages_listed_once(doc)
    image_coded_content_emptied(doc)
    _annotations_readable(doc)
    kept_upright(doc)
    fit_font_metrics(doc)


def _pages_listed_once(doc: pymupdf.Document) -> None:
    """Give each listing of a page object the page tree lists more than once a copy of
    its own (module docstring)."""
    pdf = mupdf.pdf_specifics(doc.this)
    seen: set[int] = set()
    for number in range(doc.page_count):
        try:
            page, parent, index = mupdf.pdf_lookup_page_loc(pdf, number)
        except (RuntimeError, mupdf.FzErrorBase):
            continue  # a page MuPDF cannot find: detection names it
        if mupdf.pdf_to_num(page) not in seen:
            seen.add(mupdf.pdf_to_num(page))
            continue
        copy = mupdf.pdf_add_object(pdf, mupdf.pdf_copy_dict(page))
        annots = mupdf.pdf_dict_get(copy, mupdf.PDF_ENUM_NAME_Annots)
        if mupdf.pdf_is_array(annots) and not mupdf.pdf_is_indirect(annots):
            # Each copy's own list: burn-in readies a page's list by editing it.
            mupdf.pdf_dict_put(copy, mupdf.PDF_ENUM_NAME_Annots, mupdf.pdf_copy_array(annots))
        mupdf.pdf_array_put(mupdf.pdf_dict_get(parent, mupdf.PDF_ENUM_NAME_Kids), index, copy)


def _sized(appearance: str) -> str:
    """`appearance` with "0" before each "Tf" that has no number there, after the last
    of the font names before it."""
    words = appearance.split()
    for index, word in enumerate(words):
        if word != "Tf":
            continue
        try:
            float(words[index - 1])
        except (ValueError, IndexError):
            start = index
            while start > 0 and words[start - 1].startswith("/"):
                start -= 1
            name = words[index - 1] if start < index else "/Helv"
            return _sized(" ".join([*words[:start], name, "0", *words[index:]]))
    return appearance


def _annotations_readable(doc: pymupdf.Document) -> None:
    """Each annotation an object of its own, each field's appearance string sized."""
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
            subtype = mupdf.pdf_dict_get(annot, mupdf.PDF_ENUM_NAME_Subtype)
            appearance = mupdf.pdf_dict_get(annot, mupdf.PDF_ENUM_NAME_DA)
            if not mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Widget):
                continue
            written = mupdf.pdf_to_text_string(appearance)  # "" for anything not a string
            sized = _sized(written)
            if sized != written:
                mupdf.pdf_dict_put_text_string(annot, mupdf.PDF_ENUM_NAME_DA, sized)
