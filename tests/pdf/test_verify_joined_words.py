"""A word that extraction reads as part of its neighbour once a box took what stood
between them is still there: the gate counted "or" lost when it came out as "”or", with
the Arabic words between the closing quote and "or" redacted (PyMuPDF's test-E+A.pdf);
the release was refused as collateral damage."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from review.pdf.word_geometry import Boxes, PageWords, missing

SECRET = pymupdf.Rect(148, 85, 185, 103)


def quote_secret_then_or() -> bytes:
    """'Said ”' and, set 0.7 pt after the quote, 'or more', with 'Secret' drawn between
    the two in the content but elsewhere on the line: extraction reads '”' and 'or' as
    words apart, and as one once 'Secret' is gone."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((10, 10), ".", fontname="tiro")  # names the font on the page
    font = pymupdf.Font("tiro")
    after_quote = 50 + font.text_length("Said \u201d", 10) + 0.7
    doc.update_stream(
        page.get_contents()[0],
        b"BT /tiro 10 Tf 1 0 0 1 50 100 Tm (Said \\224) Tj ET "
        b"BT /tiro 10 Tf 1 0 0 1 150 100 Tm (Secret) Tj ET "
        b"BT /tiro 10 Tf 1 0 0 1 %.2f 100 Tm (or more) Tj ET" % after_quote,
    )
    return doc.tobytes()


def _words(pdf: bytes) -> list[str]:
    return [w[4] for w in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")]


def _mark(pdf: bytes) -> RedactionMark:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return RedactionMark(page=0, box=normalize(page, SECRET), legal_reason="(b)(6)")


def test_words_read_as_one_once_a_box_took_what_stood_between_them_release() -> None:
    pdf = quote_secret_then_or()
    assert _words(pdf) == ["Said", "\u201d", "Secret", "or", "more"]
    mark = _mark(pdf)

    output = sanitize(burn_in(pdf, [mark]))

    assert _words(output)[:3] == ["Said", "\u201dor", "more"]  # then the stamped reason
    assert verify(pdf, output, [mark]).ok


def test_the_same_word_lost_beside_a_word_holding_its_letters_is_still_collateral() -> None:
    pdf = quote_secret_then_or()
    mark = _mark(pdf)
    doc = pymupdf.open(stream=sanitize(burn_in(pdf, [mark])), filetype="pdf")
    page = doc[0]
    quote_or = next(w for w in page.get_text("words") if w[4] == "\u201dor")
    page.add_redact_annot(pymupdf.Rect(quote_or[:4]))  # "more" still holds "or"
    page.apply_redactions()

    report = verify(pdf, sanitize(doc.tobytes()), [mark])

    assert [f.code for f in report.failures] == ["collateral_damage"]


def test_a_word_read_across_two_where_its_glyphs_still_are_is_no_collateral() -> None:
    """A LaTeX manual in vanillapdf's test data: "somewhere. . .)." read as "somewhere.",
    "." and ".)." on the original and, the filter having rewritten the line's text
    operators, as "somewhere..." and ")." on the release, every glyph where it was
    (the boxes as MuPDF gave them). A word the words where it was no longer spell, read
    along their line, is still lost."""
    line = (209.3, 223.9)
    before = PageWords(
        words=[
            ((288.6, line[0], 340.7, line[1]), "somewhere."),
            ((342.4, line[0], 345.1, line[1]), "."),
            ((346.7, line[0], 357.5, line[1]), ".)."),
        ]
    )
    regrouped = [((288.6, line[0], 349.5, line[1]), "somewhere...")]
    no_boxes = Boxes([])

    after = PageWords(words=[*regrouped, ((351.1, line[0], 357.5, line[1]), ").")])
    assert missing(before, after, no_boxes) == 0
    without_the_last_dot = PageWords(words=[*regrouped, ((351.1, line[0], 354.7, line[1]), ")")])
    assert missing(before, without_the_last_dot, no_boxes) == 1
