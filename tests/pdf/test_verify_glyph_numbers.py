"""A string of glyph numbers is no UTF-16 text. An Indiana county's primary results set
"JACKIE WALORSKI" in a TrueType font through Identity-H: the string holds glyph numbers,
3 for the space and 50, 53, 54 for "ORS", which are the bytes of "256" in UTF-16. A
redacted vote count of 256 elsewhere on the page was found there by the gate's byte
search, and every release was refused."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.fonts import truetype_page


def _results(count: str) -> bytes:
    doc = pymupdf.open()
    page = truetype_page(doc)
    page.insert_text((72, 100), "JACKIE WALORSKI", fontname="dv", fontsize=11)
    page.insert_text((72, 130), f"Votes {count} cast in the precinct", fontsize=11)
    return doc.tobytes()


def _release_with(pdf: bytes, word: str) -> tuple[bytes, list[RedactionMark]]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    marks = [
        RedactionMark(page=0, box=normalize(page, pymupdf.Rect(w[:4])), legal_reason="(b)(6)")
        for w in page.get_text("words")
        if w[4] == word
    ]
    return sanitize(burn_in(pdf, marks)), marks


def test_a_token_in_the_bytes_of_glyph_numbers_is_no_hit() -> None:
    pdf = _results("256")
    output, marks = _release_with(pdf, "256")
    # "WALORSKI": glyphs 58, 36, 47, 50, 53, 54; the last three are "256" in UTF-16.
    assert b"003200350036" in pymupdf.open(stream=output, filetype="pdf")[0].read_contents()

    report = verify(pdf, output, marks)

    assert report.ok, report.failures


def test_a_utf16_string_with_the_token_is_still_a_hit() -> None:
    pdf = _results("256")
    output, marks = _release_with(pdf, "256")
    doc = pymupdf.open(stream=output, filetype="pdf")
    page = doc[0]
    # A marked-content property written in UTF-16 carries the redacted count.
    contents = page.read_contents() + b" /Span <</Alt <FEFF0020003200350036>>> BDC EMC"
    doc.update_stream(page.get_contents()[0], contents)
    for xref in page.get_contents()[1:]:
        doc.update_stream(xref, b"")

    report = verify(pdf, doc.tobytes(), marks)

    assert "redacted_string_present" in report.codes()
