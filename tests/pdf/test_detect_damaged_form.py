"""A form whose fields' parents run in a cycle is still read. PyMuPDF cannot list such
a page's widgets ("Cycle in field parents"), and detection failed on the whole document
(pdf.js's issue12963.pdf, a scanned tax form); each widget's value is read off its own
dictionary instead, and lands on the widget's rectangle as before."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import normalize
from testkit import corpus


def with_cyclic_field_parents(pdf: bytes) -> bytes:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    (widget,) = [xref for xref, kind, _ in doc[0].annot_xrefs() if kind == pymupdf.PDF_ANNOT_WIDGET]
    parent = doc.get_new_xref()
    doc.update_object(parent, f"<</FT/Tx/T(outer)/Kids[{widget} 0 R]/Parent {widget} 0 R>>")
    doc.xref_set_key(widget, "Parent", f"{parent} 0 R")
    return doc.tobytes()


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_widget_of_a_form_with_cyclic_parents_is_read_on_its_rectangle(rotation: int) -> None:
    pdf = with_cyclic_field_parents(corpus.annotated(rotation).pdf)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    with pytest.raises(pymupdf.mupdf.FzErrorFormat, match="Cycle in field parents"):
        list(page.widgets())

    marks = detect(pdf, DetectionPolicy(salt=b"salt")).marks

    (box,) = [m.box for m in marks if (m.source, m.category) == ("widget", "ssn")]
    assert box == pytest.approx(normalize(page, corpus.WIDGET_RECT), abs=1e-5)
