"""A fill made of several rectangles paints those rectangles, not its box (`painters.py`).

A table's rules drawn as one fill of thin rectangles after its text (camelot's rotated
table pages) had the fill's box taken for an opaque black rectangle: every word in the
table counted as covered, detection proposed each row as hidden content, and sanitize
cut the visible table. The rectangles now cover what they paint, together when a word
lies under two of them, and a frame of two rectangles filled by the even-odd rule leaves
its inside open. Fills of their own cover together too: burn-in splits a band into
pieces around a mark, and what the band hid stays hidden."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.hidden import COVERED, find_hidden
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content


def page_with(fill: bytes) -> bytes:
    """A page with the words Jane Roberts at (100, 100) from the top, `fill` painted last."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((100, 100), "Jane Roberts", fontsize=12)
    append_content(page, fill)
    return doc.tobytes()


# The words lie from about 742 to 754 up the page, 100 to 170 across.
TABLE_RULES = b"0 g 90 730 0.5 40 re 180 730 0.5 40 re 90 730 90.5 0.5 re 90 770 90.5 0.5 re f"


def test_table_rules_in_one_fill_cover_none_of_the_words_between_them() -> None:
    assert find_hidden(page_with(TABLE_RULES)) == []


def test_two_rectangles_of_one_fill_cover_a_word_together() -> None:
    halves = b"1 g 95 735 40 25 re 135 735 40 25 re f"

    hidden = find_hidden(page_with(halves))

    assert "".join(h.text for h in hidden if h.kind == COVERED).replace(" ", "") == "JaneRoberts"


def test_an_even_odd_frame_leaves_the_words_inside_it_seen() -> None:
    frame = b"0 g 80 720 120 60 re 90 730 100 40 re f*"

    assert find_hidden(page_with(frame)) == []


def test_the_same_frame_by_the_nonzero_rule_covers_them() -> None:
    solid = b"0 g 80 720 120 60 re 90 730 100 40 re f"

    assert {h.kind for h in find_hidden(page_with(solid))} == {COVERED}


def test_a_frame_drawn_the_other_way_round_inside_by_the_nonzero_rule_leaves_them_seen() -> None:
    """Nested rectangles drawn alternately the other way round (a negative height) cancel
    inside by the nonzero rule: a double frame (pdfparser's Issue668.pdf invoice)."""
    double_frame = b"0 g 80 780 120 -60 re 81 721 118 58 re 82 778 116 -56 re 83 723 114 54 re f"

    assert find_hidden(page_with(double_frame)) == []


def test_a_mark_in_a_ruled_table_releases_the_rest_of_it() -> None:
    pdf = page_with(TABLE_RULES)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == "Roberts"))
    marks = [RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")]

    output = sanitize(burn_in(pdf, marks))

    assert "Jane" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, marks).ok


def test_two_fills_cover_a_word_together() -> None:
    halves = b"1 g 95 735 40 25 re f 134 735 41 25 re f"  # overlapping by a point

    hidden = find_hidden(page_with(halves))

    assert "".join(h.text for h in hidden if h.kind == COVERED).replace(" ", "") == "JaneRoberts"


def test_a_footer_band_split_around_a_mark_keeps_the_page_number_it_hid() -> None:
    """A trial version's footer band painted white over the page number (a Syncfusion
    sample): a mark on the band's notice split the band around the box, the number
    under two of its pieces was taken for seen, sanitize kept it and the gate refused
    the release."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Report of the inspection", fontsize=12)
    page.insert_text((540, 800), "4", fontsize=11)  # the page number, hidden below
    append_content(page, b"1 g 0 0 595 80 re f")
    page.insert_text((72, 780), "Created with a trial version of Acme PDF", fontsize=9)
    pdf = doc.tobytes()
    assert [h.text for h in find_hidden(pdf)] == ["4"]
    # Over "Acme PDF", left of the number and down into its height: the band's piece
    # beside the box and the one below it each hold part of the number.
    box = pymupdf.Rect(190, 770, 530, 795)
    marks = [RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")]

    output = sanitize(burn_in(pdf, marks))

    assert "4" not in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, marks).ok
