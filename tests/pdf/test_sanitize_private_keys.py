"""Sanitize keeps of the catalog, the pages and the XObjects only what draws and shows
the pages. Keys a producer makes up carry its own data: Quite Imposing keeps its command
history as an embedded file under /QITE_DocInfo in the catalog, which outlived sanitize,
and the gate refused the release (grobid's test files); an e-signature stamp's form
carries the signer's name under /T (PdfPig's issue_671.pdf)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.keeps import CATALOG_KEEPS, PAGE_KEEPS, XOBJECT_KEEPS
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def _roe_redacted(doc: pymupdf.Document) -> tuple[bytes, RedactionMark, bytes]:
    """`doc` as bytes, a mark over "Roe" on its first page, and the release."""
    pdf = doc.tobytes()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    roe = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == "Roe"))
    mark = RedactionMark(page=0, box=normalize(page, roe), legal_reason="(b)(6)")
    return pdf, mark, sanitize(burn_in(pdf, [mark]))


def test_a_producers_own_keys_on_the_catalog_and_a_page_are_removed() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((50, 100), "Reviewed by Jane Roe", fontsize=12)
    history = doc.get_new_xref()
    doc.update_object(history, "<< /Type /EmbeddedFile >>")
    doc.update_stream(history, b"<history>Trimmed for Jane Roe</history>")
    doc.xref_set_key(doc.pdf_catalog(), "QITE_DocInfo", f"<< /CommandHistory {history} 0 R >>")
    doc.xref_set_key(page.xref, "PrivateNote", "(Jane Roe)")
    doc.xref_set_key(doc.pdf_catalog(), "PageLabels", "<< /Nums [0 << /S /r >>] >>")
    pdf, mark, output = _roe_redacted(doc)

    released = pymupdf.open(stream=output, filetype="pdf")
    assert set(released.xref_get_keys(released.pdf_catalog())) <= set(CATALOG_KEEPS)
    assert set(released.xref_get_keys(released[0].xref)) <= set(PAGE_KEEPS)
    assert released.get_page_labels() == [
        {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1}
    ]
    assert b"Roe" not in output
    assert verify(pdf, output, [mark]).ok


def test_an_output_intent_keeps_its_condition_and_loses_its_text_for_people() -> None:
    """A colour profile's name in an output intent ("U.S. Web Coated (SWOP) v2") held a
    word a box took everywhere else ("U.S."), and the gate refused the release
    (Virginia's form instructions)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((50, 100), "Printed for Jane Roe", fontsize=12)
    intent = (
        "<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier (CGATS TR 001)"
        " /RegistryName (http://www.color.org) /Info (Roe Press coated stock)"
        " /OutputCondition (Roe Press) >>"
    )
    doc.xref_set_key(doc.pdf_catalog(), "OutputIntents", f"[{intent}]")
    doc.xref_set_key(page.xref, "OutputIntents", f"[{intent}]")
    pdf, mark, output = _roe_redacted(doc)

    released = pymupdf.open(stream=output, filetype="pdf")
    for owner in (released.pdf_catalog(), released[0].xref):
        kind, kept = released.xref_get_key(owner, "OutputIntents")
        assert kind == "array" and "/OutputConditionIdentifier(CGATS TR 001)" in kept
        assert "Info" not in kept and "OutputCondition(" not in kept
    assert b"Roe" not in output
    assert verify(pdf, output, [mark]).ok


def test_a_page_key_whose_name_is_not_utf8_is_removed() -> None:
    # pdf-reader's gh-234.pdf: "/C\366ntents" beside /Contents on a page; naming it back
    # to MuPDF from Python crashed sanitize.
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((50, 100), "Reviewed by Jane Roe", fontsize=12)
    doc.xref_set_key(page.xref, "Cxntents", "(Jane Roe)")
    pdf = doc.tobytes(use_objstms=False).replace(b"/Cxntents", b"/C\366ntents")
    assert "C\udcf6ntents" in pymupdf.open(stream=pdf, filetype="pdf").xref_get_keys(page.xref)

    output = sanitize(pdf)

    released = pymupdf.open(stream=output, filetype="pdf")
    assert set(released.xref_get_keys(released[0].xref)) <= set(PAGE_KEEPS)
    assert released[0].get_text().split() == ["Reviewed", "by", "Jane", "Roe"]


def _object(doc: pymupdf.Document, dictionary: str, stream: bytes) -> int:
    xref = doc.get_new_xref()
    doc.update_object(xref, dictionary)
    doc.update_stream(xref, stream)
    return xref


def test_a_producers_own_keys_on_forms_and_images_are_removed() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    # The stamp's form shows a frame and names its signer under a key of its own.
    stamp = _object(
        doc,
        "<< /Type /XObject /Subtype /Form /BBox [0 0 100 40] /T (Signed: Jane Roe) >>",
        b"0 0 100 40 re S",
    )
    grey = "/Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray"
    # An alternate version of the picture, which no screen shows.
    alternate = _object(doc, f"<< {grey} /BitsPerComponent 8 >>", b"\x10" * 4)
    picture = _object(
        doc,
        f"<< {grey} /BitsPerComponent 8 /Alternates [<< /Image {alternate} 0 R >>]"
        " /Producer (Jane Roe's camera) >>",
        b"\xc0" * 4,
    )
    doc.xref_set_key(
        page.xref,
        "Resources",
        "<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>"
        f" /XObject << /Stamp {stamp} 0 R /Picture {picture} 0 R >> >>",
    )
    contents = _object(
        doc,
        "<< >>",
        b"BT /F1 12 Tf 50 200 Td (Signed by Jane Roe) Tj ET"
        b" q 1 0 0 1 40 40 cm /Stamp Do Q q 40 0 0 40 200 100 cm /Picture Do Q",
    )
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    pdf, mark, output = _roe_redacted(doc)

    released = pymupdf.open(stream=output, filetype="pdf")
    forms = images = 0
    for xref in range(1, released.xref_length()):
        subtype = released.xref_get_key(xref, "Subtype")[1].lstrip("/")
        if subtype in XOBJECT_KEEPS and released.xref_is_stream(xref):
            assert set(released.xref_get_keys(xref)) <= XOBJECT_KEEPS[subtype], xref
            forms += subtype == "Form"
            images += subtype == "Image"
    assert forms and images == 1  # the alternate picture went with the key naming it
    assert b"Roe" not in output
    assert verify(pdf, output, [mark]).ok
