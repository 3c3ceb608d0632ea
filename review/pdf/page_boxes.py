"""A page's /MediaBox written as MuPDF uses it where MuPDF cannot read it (Django-free).

MuPDF takes a US Letter page for a /MediaBox it cannot read (three numbers, in iText's
helloWorldMediaboxNotEnoughArguments.pdf) and then ignores the /CropBox; other viewers
crop that page. The service's passes take the crop box for the page: they called the
words drawn on it outside the crop box, hid them, and released the page without them.
Written out as the Letter page MuPDF uses, the box is read, and MuPDF crops the page as
the other viewers do.
"""

from __future__ import annotations

import pymupdf
from pymupdf import mupdf

# MuPDF's page where none can be read (pdf-page.c): US Letter, in points.
_LETTER = (0.0, 0.0, 612.0, 792.0)
_MUPDF_ERRORS = (RuntimeError, mupdf.FzErrorBase)


def media_boxes_readable(doc: pymupdf.Document) -> None:
    """Give each page of `doc` whose /MediaBox MuPDF reads as empty the Letter page
    MuPDF uses instead, on the page itself. A page, or a page tree, MuPDF cannot read
    is left for the open check to name."""
    if not doc.is_pdf:
        return
    pdf = mupdf.pdf_specifics(doc.this)
    try:
        count = doc.page_count
    except _MUPDF_ERRORS:
        return
    for number in range(count):
        try:
            page = mupdf.pdf_lookup_page_obj(pdf, number)
            box = mupdf.pdf_to_rect(
                mupdf.pdf_dict_get_inheritable(page, mupdf.PDF_ENUM_NAME_MediaBox)
            )
            if mupdf.pdf_is_dict(page) and mupdf.fz_is_empty_rect(box):
                mupdf.pdf_dict_put_rect(page, mupdf.PDF_ENUM_NAME_MediaBox, mupdf.FzRect(*_LETTER))
        except _MUPDF_ERRORS:
            continue
