"""Burn-in and sanitize keep objects that are alike as separate objects.

Saving with MuPDF's deduplication (`garbage=4`) merged byte-identical objects, and MuPDF
draws some merged soft-mask structures differently from the original: PyMuPDF's
test_3450.pdf (an insurance form printed from a browser, every check box drawn through
a soft mask) lost all its check boxes from the release, though no mark was near them,
and the word-based gate passed it. The saves now collect garbage without merging."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize


def two_alike_soft_masks() -> bytes:
    """A page that draws two boxes, each through a soft mask of its own; the two masks,
    and the forms that give their shape, are alike byte for byte."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 30), "Applicant Jane Example", fontsize=11)

    def new(source: str, stream: bytes | None = None) -> int:
        xref = doc.get_new_xref()
        doc.update_object(xref, source)
        if stream is not None:
            doc.update_stream(xref, stream)
        return xref

    states = []
    for _ in range(2):
        shape = new("<</Type/XObject/Subtype/Form/BBox[0 0 40 40]>>", b"0 g 0 0 40 40 re f")
        states.append(new(f"<</Type/ExtGState/SMask<</Type/Mask/S/Alpha/G {shape} 0 R>>>>"))
    resources = int(doc.xref_get_key(page.xref, "Resources")[1].split()[0])
    doc.xref_set_key(resources, "ExtGState", f"<</M0 {states[0]} 0 R/M1 {states[1]} 0 R>>")
    boxes = b"q 1 0 0 1 20 20 cm /M0 gs 0 0 1 RG 4 w 5 5 30 30 re S Q"
    boxes += b" q 1 0 0 1 120 20 cm /M1 gs 0 0 1 RG 4 w 5 5 30 30 re S Q"
    page.set_contents(new("<<>>", boxes))  # replaces the text's stream: draw it again
    page.insert_text((20, 30), "Applicant Jane Example", fontsize=11)
    return doc.tobytes()


def _objects(pdf: bytes, marker: str) -> int:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    return sum(marker in doc.xref_object(x, compressed=True) for x in range(1, doc.xref_length()))


def test_alike_soft_masks_stay_separate_objects_through_burn_in_and_sanitize():
    pdf = two_alike_soft_masks()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    name = page.search_for("Jane Example")[0]
    marks = [RedactionMark(page=0, box=normalize(page, name), legal_reason="(b)(6)")]
    out = sanitize(burn_in(pdf, marks))
    assert _objects(pdf, "/Type/Mask") == 2
    assert _objects(out, "/Type/Mask") == 2
    assert _objects(out, "/BBox[0 0 40 40]") == 2
