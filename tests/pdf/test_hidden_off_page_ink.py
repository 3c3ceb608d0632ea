"""Text whose ink lies wholly off the page is hidden, though the boxes the trace gives
its glyphs (from the font's ascent to its descent) reach onto the page: pdf.js's
issue19326.pdf sets "JPX" at 72 pt with its baseline above the page's top, and only the
descent of its glyph boxes lies on the page. Taken for partly seen, it was released,
text no reviewer could see."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from testkit.drawing import append_content


def label_with_text_above(baseline: float) -> bytes:
    """A label 132 by 81 pt with "Exhibit" on it and "JPX" at 72 pt, its baseline at
    `baseline` (PDF space; the top is at 81)."""
    doc = pymupdf.open()
    page = doc.new_page(width=132, height=81)
    page.insert_text((10, 70), "Exhibit", fontsize=10)
    append_content(page, b"BT /helv 72 Tf 0 %g Td (JPX) Tj ET" % baseline)
    return doc.tobytes()


def traced(pdf: bytes) -> str:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return "".join(chr(c[0]) for span in page.get_texttrace() for c in span["chars"])


def test_text_whose_ink_lies_above_the_page_is_hidden_though_its_boxes_reach_onto_it() -> None:
    pdf = label_with_text_above(93)

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("outside_crop_box", "JPX")]
    assert traced(sanitize(burn_in(pdf, []))) == "Exhibit"


def test_text_whose_ink_reaches_onto_the_page_is_seen() -> None:
    pdf = label_with_text_above(75)  # the lower part of the letters on the page

    assert find_hidden(pdf) == []
    assert traced(sanitize(burn_in(pdf, []))) == "ExhibitJPX"
