"""A page tree that lists an object that is no page among its kids: sejda's
invalid_kid.pdf names its font there. MuPDF shows that kid as an empty page; burn-in
and sanitize edited it as one, gave the font page keys and took its own away, and every
page's text came out unreadable (refused at the gate as collateral damage). The kid is
now an empty page of its own, and the font is left as it was."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def font_listed_as_a_page() -> bytes:
    doc = pymupdf.open()
    for text in ("Jane Roe wrote the first page.", "The second page follows."):
        doc.new_page(width=595, height=842).insert_text((72, 100), text, fontsize=12)
    pages = int(doc.xref_get_key(doc.pdf_catalog(), "Pages")[1].split()[0])
    (font, *_) = doc[0].get_fonts()[0]
    first, second = (doc.page_xref(n) for n in range(2))
    doc.xref_set_key(pages, "Kids", f"[{first} 0 R {font} 0 R {second} 0 R]")
    doc.xref_set_key(pages, "Count", "3")
    return doc.tobytes()


def _texts(pdf: bytes) -> list[str]:
    return [page.get_text().strip() for page in pymupdf.open(stream=pdf, filetype="pdf")]


def test_a_kid_that_is_no_page_releases_as_an_empty_page() -> None:
    pdf = font_listed_as_a_page()
    assert _texts(pdf) == ["Jane Roe wrote the first page.", "", "The second page follows."]
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (jane,) = [w for w in page.get_text("words") if w[4] == "Jane"]
    mark = RedactionMark(page=0, box=normalize(page, pymupdf.Rect(jane[:4])), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert _texts(output) == ["Roe wrote the first page.\n(b)(6)", "", "The second page follows."]
    report = verify(pdf, output, [mark])
    assert report.ok, report.failures
