"""Sanitize empties the property lists of marked content, optional content's aside.

Adobe's PDF Library put the author and title of a placed page in a property list that
the page's marked content names ("/Span /Pr1 BDC"): a name the reviewer redacted on the
page stayed in the file, and the gate refused the release (iText's
bigTaggedDocument.pdf)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

HELVETICA = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def tagged_page(properties: str) -> bytes:
    """Two lines of marked content: the first names /Pr1, the second is optional content
    (/OC /Oc1, a layer that is on)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    font = doc.get_new_xref()
    doc.update_object(font, HELVETICA)
    layer = doc.add_ocg("Appendix", on=True)
    listed = doc.get_new_xref()
    doc.update_object(listed, properties)
    doc.xref_set_key(
        page.xref,
        "Resources",
        f"<< /Font << /F1 {font} 0 R >> /Properties << /Pr1 {listed} 0 R /Oc1 {layer} 0 R >> >>",
    )
    content = (
        b"/Span /Pr1 BDC BT /F1 12 Tf 72 700 Td (Prepared by Scott Petersen) Tj ET EMC "
        b"/OC /Oc1 BDC BT /F1 12 Tf 72 680 Td (Appendix follows) Tj ET EMC"
    )
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, content)
    doc.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
    return doc.tobytes()


def _mark(pdf: bytes, word: str) -> RedactionMark:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == word))
    return RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")


def test_a_redacted_name_in_a_marked_contents_property_list_leaves_the_file() -> None:
    pdf = tagged_page("<< /Author (Scott Petersen) /Title (Annual report) /Creator (PDFL 7.0) >>")
    marks = [_mark(pdf, "Scott"), _mark(pdf, "Petersen")]

    output = sanitize(burn_in(pdf, marks))

    released = pymupdf.open(stream=output, filetype="pdf")
    assert not any(
        b"Petersen" in released.xref_object(xref, compressed=True).encode("latin-1", "replace")
        for xref in range(1, released.xref_length())
    )
    assert verify(pdf, output, marks).ok


def test_optional_content_keeps_its_group_and_stays_visible() -> None:
    pdf = tagged_page("<< /Author (Scott Petersen) >>")
    marks = [_mark(pdf, "Scott"), _mark(pdf, "Petersen")]

    output = sanitize(burn_in(pdf, marks))

    page = pymupdf.open(stream=output, filetype="pdf")[0]
    kind, value = page.parent.xref_get_key(page.xref, "Resources/Properties/Oc1")
    assert kind == "xref"
    assert page.parent.xref_get_key(int(value.split()[0]), "Type") == ("name", "/OCG")
    assert "Appendix" in [w[4] for w in page.get_text("words")]
