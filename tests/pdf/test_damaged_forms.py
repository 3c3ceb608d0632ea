"""Damaged forms from the field still go through detection and burn-in.

- A form whose fields' parents run in a cycle: PyMuPDF cannot list such a page's widgets
  ("Cycle in field parents"), and detection failed on the whole document (pdf.js's
  issue12963.pdf, a scanned tax form); each widget's value is read off its own
  dictionary instead, and lands on the widget's rectangle as before.
- A form that asks viewers to draw its fields, with a field of no size (an XFA form's
  signature field, pdf.js's xfa_filled_imm1344e.pdf) or a button with no name (qpdf's
  button-set-broken.pdf): drawing it failed ("bad rect", "field name missing") and
  burn-in crashed; so did a radio button PyMuPDF cannot draw (qpdf's form-errors.pdf)
  and a combo box with an option of no export value (poppler's checkbox_issue_159.pdf).
"""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import normalize
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
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


def form_drawn_from_its_values(broken: str) -> bytes:
    """A form asking viewers to draw its fields, one of which is `broken`: "size" (a
    field of no size), "name" (a field without its /T), "options" (a combo box offering
    an option with no export value: PyMuPDF fails an assertion drawing it, poppler's
    checkbox_issue_159.pdf) or "kids" (a radio button whose parent's /Kids holds a
    dictionary, not a reference: PyMuPDF cannot draw it, qpdf's form-errors.pdf)."""
    doc = pymupdf.open()
    page = doc.new_page()
    for name, value in (("applicant", "Jane Roe"), ("signature", "")):
        widget = pymupdf.Widget()
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.field_name = name
        widget.field_value = value
        widget.rect = pymupdf.Rect(72, 72, 300, 92)
        page.add_widget(widget)
    signature = page.annot_xrefs()[-1][0]
    if broken == "size":
        doc.xref_set_key(signature, "Rect", "[0 792 0 792]")
    elif broken == "name":
        doc.xref_set_key(signature, "T", "null")
    elif broken == "options":  # a combo box whose first option has no export value
        doc.xref_set_key(signature, "FT", "/Ch")
        doc.xref_set_key(signature, "Ff", "131072")
        doc.xref_set_key(signature, "Opt", "[[() (-)] [(M) (Male)]]")
    else:  # a radio button whose parent writes a sibling inside its /Kids
        parent = doc.get_new_xref()
        doc.update_object(
            parent,
            f"<</FT/Btn/Ff 49152/T(choice)/Kids[{signature} 0 R <</Subtype/Widget/Rect[0 0 0 0]>>]>>",
        )
        doc.xref_set_key(signature, "Parent", f"{parent} 0 R")
        doc.xref_set_key(signature, "FT", "/Btn")
        doc.xref_set_key(signature, "Ff", "49152")
    catalog = doc.pdf_catalog()
    doc.xref_set_key(catalog, "AcroForm/NeedAppearances", "true")
    return doc.tobytes()


@pytest.mark.parametrize("broken", ["size", "name", "options", "kids"])
def test_a_form_drawn_from_its_values_with_a_field_it_cannot_draw_burns_in(
    broken: str,
) -> None:
    pdf = form_drawn_from_its_values(broken)
    assert pymupdf.open(stream=pdf, filetype="pdf").need_appearances()

    output = sanitize(burn_in(pdf, []))

    assert "Jane Roe" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, []).ok


def test_a_form_with_cyclic_parents_is_judged_by_the_release_gate() -> None:
    """The gate read the original page's widgets to spare MuPDF's "SIGN" tag of unsigned
    signature fields, and crashed on the cycle the same way (pdf.js's issue12963.pdf,
    which now releases)."""
    doc = pymupdf.open(stream=corpus.annotated(0).pdf, filetype="pdf")
    # White on white: sanitize removes it, so the gate looks into the missing words.
    doc[0].insert_text((72, 700), "Internal note", fontsize=11, color=(1, 1, 1))
    pdf = with_cyclic_field_parents(doc.tobytes())

    output = sanitize(burn_in(pdf, []))

    assert verify(pdf, output, []).ok


def form_field_on_two_pages() -> bytes:
    """One text field's widget listed on two pages through one shared /Annots array
    object (qpdf's form-fields-and-annotations-shared.pdf)."""
    doc = pymupdf.open()
    for _ in range(2):
        doc.new_page(width=300, height=200).insert_text((50, 150), "Claim form", fontsize=11)
    widget = pymupdf.Widget()
    widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.field_name = "claimant"
    widget.field_value = "Jane Roe"
    widget.rect = pymupdf.Rect(50, 50, 250, 70)
    doc[0].add_widget(widget)
    listed = doc.get_new_xref()
    doc.update_object(listed, f"[{doc[0].annot_xrefs()[0][0]} 0 R]")
    for page in doc:
        doc.xref_set_key(page.xref, "Annots", f"{listed} 0 R")
    return doc.tobytes()


def test_a_field_two_pages_list_in_one_shared_array_is_burned_into_both() -> None:
    pdf = form_field_on_two_pages()

    output = sanitize(burn_in(pdf, []))

    released = pymupdf.open(stream=output, filetype="pdf")
    assert [page.get_text().split() for page in released] == [["Claim", "form", "Jane", "Roe"]] * 2
    assert verify(pdf, output, []).ok


@pytest.mark.parametrize("appearance", ["/Helv Tf", "/Helv /F1 Tf", "0 g Tf"])
def test_a_field_whose_appearance_string_has_no_font_size_is_read_and_burns_in(
    appearance: str,
) -> None:
    """PyMuPDF cannot list the fields of a page where one's /DA says "Tf" without a size
    (iText's invalidDA.pdf): detection failed on the whole document."""
    doc = pymupdf.open()
    page = doc.new_page()
    widget = pymupdf.Widget()
    widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.field_name = "ssn"
    widget.field_value = "SSN 219-09-9999"
    widget.rect = pymupdf.Rect(72, 72, 300, 92)
    page.add_widget(widget)
    doc.xref_set_key(page.annot_xrefs()[0][0], "DA", pymupdf.get_pdf_str(appearance))
    pdf = doc.tobytes()
    with pytest.raises(ValueError):
        list(pymupdf.open(stream=pdf, filetype="pdf")[0].widgets())

    marks = detect(pdf, DetectionPolicy(salt=b"salt")).marks

    assert [(m.source, m.category) for m in marks] == [("widget", "ssn")]
    output = sanitize(burn_in(pdf, []))
    assert verify(pdf, output, []).ok
