"""Every object of a file, read through MuPDF's own calls (Django-free).

PyMuPDF's `xref_get_key` costs about 10 microseconds a key; a pass asking a few keys of
every object took seconds on pdf.js's one-page bug1978317.pdf (65,000 objects). Passes
that visit every object read them here instead.
"""

from __future__ import annotations

from collections.abc import Iterator

import pymupdf
from pymupdf import mupdf


def every_object(doc: pymupdf.Document) -> Iterator[mupdf.PdfObj]:
    """Each object MuPDF can load (a stream as its dictionary), in object-number order.
    A damaged or dangling one is skipped: MuPDF's own reading of it stands."""
    pdf = mupdf.pdf_specifics(doc.this)
    for xref in range(1, doc.xref_length()):
        try:
            yield mupdf.pdf_load_object(pdf, xref)
        except (RuntimeError, mupdf.FzErrorBase):
            continue


def has(obj: mupdf.PdfObj, key: mupdf.PdfObj) -> bool:
    """Whether the dictionary `obj` holds `key` with a value other than null."""
    return not mupdf.pdf_is_null(mupdf.pdf_dict_get(obj, key))
