"""A word outside every box that sanitize cut a hidden glyph from is what the reviewer
saw, not a new occurrence of a redacted token: a book chapter glues a white 2-point "8"
(the chapter number, set as an invisible marker) to its heading's "Interactive". The release
showed the heading as "Interactive", with "Interactive" redacted further down, and the
gate refused it (iText pdfSweep's chapter8_Interactive_features.pdf)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.hidden import find_hidden
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from review.pdf.word_geometry import Boxes, PageWords, missing


def chapter_page(marker: bytes) -> bytes:
    """A heading: `marker` in white, then "Interactive Features" in 24 points; and a
    line below that mentions "Interactive" again."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((10, 10), ".", fontname="helv")  # gives the page its font
    doc.update_stream(
        page.get_contents()[0],
        b"BT 1 g /helv 2 Tf 40 250 Td (" + marker + b") Tj ET"
        b" BT 0 g /helv 24 Tf 41.112 250 Td (Interactive Features) Tj ET"  # right after it
        b" BT /helv 11 Tf 40 150 Td (Ask Interactive Claims about the forms.) Tj ET",
    )
    return doc.tobytes()


def _release(pdf: bytes) -> tuple[list[RedactionMark], bytes]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    word = next(w for w in page.get_text("words") if w[4] == "Interactive" and w[1] > 100)
    marks = [RedactionMark(page=0, box=normalize(page, pymupdf.Rect(word[:4])), legal_reason="x")]
    return marks, sanitize(burn_in(pdf, marks))


def _words(pdf: bytes) -> list[str]:
    return [w[4] for w in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")]


def test_a_heading_a_hidden_glyph_was_glued_to_is_no_occurrence_of_a_redacted_word() -> None:
    pdf = chapter_page(b"8")
    assert _words(pdf)[:2] == ["8Interactive", "Features"]
    assert [h.text for h in find_hidden(pdf)] == ["8"]
    marks, output = _release(pdf)
    assert _words(output)[:2] == ["Interactive", "Features"]

    assert verify(pdf, output, marks).ok


def test_a_redacted_word_left_where_no_glyph_was_cut_still_fails() -> None:
    pdf = chapter_page(b"8")
    marks, _ = _release(pdf)
    # An output where the second line still shows the redacted word.
    kept = chapter_page(b"")

    assert "redacted_string_present" in verify(pdf, kept, marks).codes()


def test_a_word_whose_hidden_last_glyph_lies_past_its_box_is_no_collateral_loss() -> None:
    """A judge's financial disclosure, OCR'd into a font whose first glyph draws the
    whole word and the others nothing (freelawproject's disclosure-extractor assets):
    the last "n" of "fonn" draws nothing, is hidden, and sanitize cuts it. Its own box
    starts where the word's box as extracted ends, so the word did not count as partly
    hidden, "fonn" (now "fon") counted as lost, and every page was refused as collateral
    damage. The word that holds a hidden glyph's origin is sanitize's to change."""
    fonn = (261.66, 239.45, 277.62, 248.06)
    before = PageWords(words=[(fonn, "fonn"), ((279.54, 239.42, 293.27, 247.99), "mu")])
    after = PageWords(words=[(fonn, "fon"), ((279.54, 239.42, 293.27, 247.99), "mu")])
    before.hidden = [(277.615, 240.951, 279.29, 247.651)]  # the "n", past the word's box

    assert missing(before, after, Boxes([])) == 1
    before.hidden += before.holding([(277.615, 246.212)])  # its origin, on the word's edge
    assert before.hidden[-1] == fonn
    assert missing(before, after, Boxes([])) == 0
