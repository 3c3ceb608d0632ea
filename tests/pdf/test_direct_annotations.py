"""Annotations written into the page's /Annots array as dictionaries are read and kept.

PyMuPDF's test_4928.pdf writes its note, highlight and ink drawing into /Annots itself,
with no object of their own. MuPDF draws them; PyMuPDF lists them under object number
0, which `Page.annots()` skips, and baking dropped them: detection never read their text
and the release lost them, with the gate satisfied."""

from __future__ import annotations

import numpy as np
import pymupdf
from pymupdf import mupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

EMAIL = "jane.roe@example.com"


def direct_annotations_pdf() -> bytes:
    """A letter with a FreeText note naming EMAIL and an ink stroke, both written into
    the page's /Annots array as dictionaries."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((40, 60), "Letter about the parking permit", fontsize=12)
    page.add_freetext_annot(pymupdf.Rect(40, 100, 360, 130), f"Reply to {EMAIL}", fontsize=12)
    page.add_ink_annot([[(40, 200), (120, 260), (200, 200)]]).update()
    pdf = mupdf.pdf_specifics(doc.this)
    annots = mupdf.pdf_dict_get(mupdf.pdf_lookup_page_obj(pdf, 0), mupdf.PDF_ENUM_NAME_Annots)
    for index in range(mupdf.pdf_array_len(annots)):
        annot = mupdf.pdf_resolve_indirect(mupdf.pdf_array_get(annots, index))
        mupdf.pdf_array_put(annots, index, mupdf.pdf_copy_dict(annot))
    written = doc.tobytes(garbage=1)
    assert [xref for xref, _, _ in pymupdf.open(stream=written)[0].annot_xrefs()] == [0, 0]
    return written


def changed_pixels(before: bytes, after: bytes) -> int:
    pixmaps = [
        pymupdf.open(stream=pdf)[0].get_pixmap(dpi=72, alpha=False) for pdf in (before, after)
    ]
    a, b = (np.frombuffer(p.samples, np.uint8).astype(int) for p in pixmaps)
    return int((np.abs(a - b) > 64).sum())


def test_detection_reads_an_annotation_written_into_the_page() -> None:
    marks = detect(direct_annotations_pdf(), DetectionPolicy(salt=b"s" * 16, ocr=False)).marks

    assert [(m.source, m.category) for m in marks] == [("annotation", "email")]


def test_the_release_keeps_annotations_written_into_the_page() -> None:
    pdf = direct_annotations_pdf()

    released = sanitize(burn_in(pdf, []))

    assert changed_pixels(pdf, released) == 0
    assert verify(pdf, released, []).ok
