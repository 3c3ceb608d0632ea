"""A page object the page tree lists more than once is released page by page.

pdfium's viewer_ref.pdf lists one page object five times. Burn-in edited that object
for a box on one of its pages, so the box's words went from every page, and the release
gate refused the release for words missing beside no box on the others."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def _one_page_listed_three_times() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((40, 100), "Notes of Jane Roe", fontsize=12)
    pages = doc.xref_get_key(page.xref, "Parent")[1]
    doc.xref_set_key(
        int(pages.split()[0]), "Kids", f"[{page.xref} 0 R {page.xref} 0 R {page.xref} 0 R]"
    )
    doc.xref_set_key(int(pages.split()[0]), "Count", "3")
    return doc.tobytes()


def test_a_box_on_a_page_listed_three_times_removes_its_words_from_that_page_only() -> None:
    pdf = _one_page_listed_three_times()
    page = pymupdf.open(stream=pdf)[1]
    assert page.parent.page_count == 3
    roe = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == "Roe"))
    mark = RedactionMark(page=1, box=normalize(page, roe), legal_reason="(b)(6)")

    released = sanitize(burn_in(pdf, [mark]))

    texts = [page.get_text() for page in pymupdf.open(stream=released)]
    assert ["Roe" in text for text in texts] == [True, False, True]
    assert verify(pdf, released, [mark]).ok
