"""Which annotations MuPDF draws on screen (Django-free), as the reviewer's preview shows
them: none flagged Hidden or NoView, and no widget without a field type and a name, its
own or its parents' (pdf-run.c). What it does not draw is hidden content (`hidden.py`),
and burn-in bakes none of it into the release (`redact.py`): pdf.js's
annotation_hidden_noview.pdf showed a NoView field's value, and pyHanko's
separate-annots-kids-indir.pdf a signature's "Digitally signed by" on a widget with no
link to its field.
"""

from __future__ import annotations

import pymupdf
from pymupdf import mupdf

HIDDEN_ANNOT_FLAGS = pymupdf.PDF_ANNOT_IS_HIDDEN | pymupdf.PDF_ANNOT_IS_NO_VIEW


def drawn_on_screen(annot: mupdf.PdfObj) -> bool:
    if mupdf.pdf_dict_get_int(annot, mupdf.PDF_ENUM_NAME_F) & HIDDEN_ANNOT_FLAGS:
        return False
    subtype = mupdf.pdf_dict_get(annot, mupdf.PDF_ENUM_NAME_Subtype)
    return not mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Widget) or all(
        mupdf.pdf_dict_get_inheritable(annot, key).m_internal
        for key in (mupdf.PDF_ENUM_NAME_FT, mupdf.PDF_ENUM_NAME_T)
    )
