"""Unsigned signature fields are shown, read and released as the document stores them
(`unsigned_signatures`), not as MuPDF's own "SIGN" arrow."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import Box, normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.render import page_png
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

GREY = 0.75
WIDGET = pymupdf.Rect(72, 532, 244, 780)  # PDF space, lower left origin


def _form_with_unsigned_signature(flags: int = 4, words: str = "SIGN HERE") -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 72), "Claimant Jane Roe signs below.", fontname="helv", fontsize=12)
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    appearance = doc.get_new_xref()
    doc.update_object(
        appearance,
        f"<</Type/XObject/Subtype/Form/BBox[0 0 172 248]/Resources<</Font<</Helv {font} 0 R>>>>>>",
    )
    doc.update_stream(
        appearance,
        f"{GREY} g 0 0 172 248 re f 0 g BT /Helv 14 Tf 30 120 Td ({words}) Tj ET".encode(),
    )
    widget = doc.get_new_xref()
    doc.update_object(
        widget,
        f"<</Type/Annot/Subtype/Widget/FT/Sig/T(Signature1)/F {flags}"
        f"/Rect[{WIDGET.x0} {WIDGET.y0} {WIDGET.x1} {WIDGET.y1}]"
        f"/P {page.xref} 0 R/AP<</N {appearance} 0 R>>>>",
    )
    doc.xref_set_key(page.xref, "Annots", f"[{widget} 0 R]")
    doc.xref_set_key(doc.pdf_catalog(), "AcroForm", f"<</Fields[{widget} 0 R]>>")
    return doc.tobytes()


def _released(pdf: bytes) -> tuple[bool, bytes]:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    page = doc[0]
    word = next(w for w in page.get_text("words") if w[4] == "Roe")
    mark = RedactionMark(page=0, box=normalize(page, pymupdf.Rect(word[:4])), legal_reason="(b)(6)")
    output = sanitize(burn_in(pdf, [mark]))
    return verify(pdf, output, [mark]).ok, output


def _grey_at_widget(png: bytes) -> bool:
    pix = pymupdf.Pixmap(png)
    scale = pix.width / 595
    x, y = int((WIDGET.x0 + 10) * scale), int((842 - WIDGET.y1 + 10) * scale)
    return all(abs(channel / 255 - GREY) < 0.05 for channel in pix.pixel(x, y)[:3])


def test_an_unsigned_signature_field_releases_with_its_stored_appearance() -> None:
    pdf = _form_with_unsigned_signature()
    ok, output = _released(pdf)
    assert ok
    assert "SIGN HERE" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    # The reviewer's page image shows the stored grey box, as the release does.
    assert _grey_at_widget(page_png(pdf, 0, dpi=36))
    assert _grey_at_widget(page_png(output, 0, dpi=36))


def test_a_hidden_unsigned_signature_field_stays_out_of_the_release() -> None:
    pdf = _form_with_unsigned_signature(flags=4 | pymupdf.PDF_ANNOT_IS_HIDDEN, words="SECRET")
    ok, output = _released(pdf)
    assert ok
    assert "SECRET" not in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert not _grey_at_widget(page_png(pdf, 0, dpi=36))
    assert not _grey_at_widget(page_png(output, 0, dpi=36))


def test_a_box_over_the_stored_appearance_removes_its_words() -> None:
    pdf = _form_with_unsigned_signature(words="Jane Roe")
    box = Box(0.0, 0.0, 1.0, 1.0)  # the whole page, the field with it
    mark = RedactionMark(page=0, box=box, legal_reason="(b)(6)")
    output = sanitize(burn_in(pdf, [mark]))
    assert verify(pdf, output, [mark]).ok
    text = pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert "Roe" not in text
