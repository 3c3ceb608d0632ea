"""Sanitize keeps of the catalog and the pages only what draws and shows the pages.
Keys a producer makes up carry its own data: Quite Imposing keeps its command history
as an embedded file under /QITE_DocInfo in the catalog, which outlived sanitize, and
the gate refused the release (grobid's test files)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import CATALOG_KEEPS, PAGE_KEEPS, sanitize
from review.pdf.verify import verify


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
    pdf = doc.tobytes()
    words = pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")
    roe = pymupdf.Rect(next(w[:4] for w in words if w[4] == "Roe"))
    mark = RedactionMark(page=0, box=normalize(page, roe), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")
    assert set(released.xref_get_keys(released.pdf_catalog())) <= set(CATALOG_KEEPS)
    assert set(released.xref_get_keys(released[0].xref)) <= set(PAGE_KEEPS)
    assert released.get_page_labels() == [
        {"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1}
    ]
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
