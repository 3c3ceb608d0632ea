"""A presentation form that extraction writes decomposed: Hebrew alef with dagesh
(U+FB30) comes out as alef, then the dagesh at the glyph's end. The trace names U+FB30,
so the hidden-content analysis found no extracted glyph to match it, took the visible
letter for clipped away, and sanitize cut it (PDFBox's PDFBOX-4531-bidi-ligature-1.pdf,
a page with no clip at all)."""

from __future__ import annotations

import pymupdf

from review.pdf.glyph_keys import clipped_textpage
from review.pdf.hidden import find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, page_writing_hyphens_as

ALEF_WITH_DAGESH = "\ufb30"


def alef_page() -> bytes:
    page = page_writing_hyphens_as("Shalom", "Heb", ALEF_WITH_DAGESH)
    # On a white square a little narrower than the letter, as the file draws it: what
    # lies under the glyph is then looked at glyph by glyph.
    append_content(
        page, b"1 1 1 rg 101 598 10 20 re f 0 g BT /Heb 24 Tf 1 0 0 1 100 600 Tm (-) Tj ET"
    )
    return page.parent.tobytes()


def _traced(pdf: bytes) -> list[str]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return [chr(c[0]) for span in page.get_texttrace() for c in span["chars"]]


def test_a_letter_extraction_writes_decomposed_is_neither_hidden_nor_cut() -> None:
    pdf = alef_page()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    assert ALEF_WITH_DAGESH in _traced(pdf)
    # Extraction with ligatures expanded, as the analysis reads it: alef, then the dagesh.
    assert "\u05d0\u05bc" in page.get_text("text", textpage=clipped_textpage(page))

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert ALEF_WITH_DAGESH in _traced(output)
    assert verify(pdf, output, []).ok
