"""A wide stroke paints like a fill (`stroke_bands.py`, `painters.py`).

The analysis took only fills, images and shadings for what covers a glyph or lies
behind it. A name struck out with a black line 16 points wide (a marker drawn over it)
counted as seen: detection proposed nothing, sanitize kept it, and the gate let the
release carry text no reader saw. And a page number in white on a badge drawn as a
thick red line with round caps (a Japanese appliance manual in docling-parse's test
files) counted as white on the white page: sanitize cut it as hidden."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.hidden import COVERED, SAME_COLOUR, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content


def page_with(before: bytes = b"", after: bytes = b"", colour: tuple = (0, 0, 0)) -> bytes:
    """ "Jane Roe lives here" at (72, 100) from the top (96 up from the foot of the
    text's line, 690 to 702 up the page), `before` drawn under it, `after` over it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((300, 400), "Unrelated line", fontsize=11)
    append_content(page, before)
    page.insert_text((72, 100), "Jane Roe lives here", fontsize=12, color=colour)
    append_content(page, after)
    return doc.tobytes()


@pytest.mark.parametrize("cap", [0, 1, 2], ids=["butt", "round", "square"])
def test_a_name_under_a_wide_black_line_is_covered(cap: int) -> None:
    line = b"q 0 G %d J 16 w 60 696 m 250 696 l S Q" % cap

    hidden = find_hidden(page_with(after=line))

    assert {h.kind for h in hidden} == {COVERED}
    assert "".join(h.text for h in hidden) == "JaneRoeliveshere"


def test_sanitize_removes_the_name_under_the_line_and_the_release_passes() -> None:
    pdf = page_with(after=b"q 0 G 16 w 60 696 m 250 696 l S Q")

    output = sanitize(burn_in(pdf, []))

    assert "Jane" not in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, []).ok


@pytest.mark.parametrize(
    "line",
    [
        b"q 0 G 1 w 60 696 m 250 696 l S Q",  # a rule: too thin to hide a glyph
        b"q 0 G [4 4] 0 d 16 w 60 696 m 250 696 l S Q",  # dashed: paints in pieces
        b"q 0 G 16 w 60 720 m 250 720 l S Q",  # above the line of text
        b"q 0 G 4 w 60 680 200 30 re S Q",  # a frame round the words
    ],
    ids=["thin", "dashed", "beside", "frame"],
)
def test_lines_that_leave_the_words_seen_hide_nothing(line: bytes) -> None:
    assert find_hidden(page_with(after=line)) == []


def test_white_words_on_a_badge_drawn_as_a_thick_line_are_seen() -> None:
    badge = b"q 1 0 0 RG 1 J 14 w 66 696 m 240 696 l S Q"

    assert find_hidden(page_with(before=badge, colour=(1, 1, 1))) == []


def test_white_words_beside_the_badge_are_still_hidden() -> None:
    badge = b"q 1 0 0 RG 1 J 14 w 66 650 m 240 650 l S Q"

    hidden = find_hidden(page_with(before=badge, colour=(1, 1, 1)))

    assert {h.kind for h in hidden} == {SAME_COLOUR}


@pytest.mark.parametrize(("cap", "covered"), [(1, True), (0, False)], ids=["round", "butt"])
def test_a_name_under_the_round_cap_of_a_wide_line_is_covered(cap: int, covered: bool) -> None:
    """A short upright line 300 wide ending 40 points below the name: its round cap, a
    disc as wide as the line, paints over the name; a butt cap ends at the line."""
    line = b"q 0 G %d J 300 w 150 556 m 150 656 l S Q" % cap

    hidden = find_hidden(page_with(after=line))

    assert ("".join(h.text for h in hidden) == "JaneRoeliveshere") is covered
