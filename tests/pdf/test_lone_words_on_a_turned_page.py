"""A lone word across a page whose lines mostly run down it, its box no longer than 1.5
times its height, or of under three letters: the gate took the page's way for it, so
"Cast" under "Votes" in a county's election report (a table of precincts whose heads
are set down the page) ran down, and a box over "Votes", whose line box reaches 1.6 pt
into the line of "Cast", covered it along that line; so did a box over "Mautz" cover
"JC" above it. The burn-in rightly left the word, and every page of the report was
refused as `text_under_box` (openelections' Kansas results)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.glyph_keys import clipped_textpage
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from review.pdf.word_geometry import page_words

RIGHT = 169.0  # where the two words end, set flush right


def two_lines_beside_heads_set_down_the_page(upper: str, lower: str) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    for column in range(8):
        at = (200 + 20 * column, 150)
        page.insert_text(at, f"Precinct Ward {column + 1}", fontsize=8, rotate=90)
    helvetica = pymupdf.Font("helv")
    for word, baseline in ((upper, 271.0), (lower, 280.4)):
        page.insert_text((RIGHT - helvetica.text_length(word, 8), baseline), word, fontsize=8)
    return doc.tobytes()


@pytest.mark.parametrize("word", ["Cast", "JC"])
def test_a_lone_word_whose_shape_says_neither_way_runs_as_its_line(word: str) -> None:
    pdf = two_lines_beside_heads_set_down_the_page("Votes", word)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    words = page_words(clipped_textpage(page))
    (lone,) = [rect for rect, text in words.words if text == word]

    assert words.vertical  # the page's way is down
    assert len(word) < 3 or lone[2] - lone[0] <= 1.5 * (lone[3] - lone[1])  # no shape
    assert not words.runs_down(lone)


@pytest.mark.parametrize(
    ("upper", "lower", "marked"), [("Votes", "Cast", "Votes"), ("JC", "Mautz", "Mautz")]
)
def test_a_box_over_the_next_line_leaves_the_lone_word(upper: str, lower: str, marked: str) -> None:
    pdf = two_lines_beside_heads_set_down_the_page(upper, lower)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (word,) = [w for w in page.get_text("words") if w[4] == marked]
    mark = RedactionMark(page=0, box=normalize(page, pymupdf.Rect(word[:4])), legal_reason="(b)(6)")
    left = lower if marked == upper else upper

    output = sanitize(burn_in(pdf, [mark]))

    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert left in words and marked not in words
    report = verify(pdf, output, [mark])
    assert report.ok, report.failures
