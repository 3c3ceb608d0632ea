"""A hit inside a longer word is boxed over its own characters: the char boxes are those
of the word rawdict spells the same at the same place, never found by the block, line
and word numbers of extractWORDS, which count words by rules of their own."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import page_rect
from review.pdf.pagetext import TEXT_FLAGS, PageText

NUMBERS = ("536-22-1234", "412-67-8812")


def _glued_numbers_after(prefix: str) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    writer = pymupdf.TextWriter(page.rect)
    line = f"{prefix} SSN:{NUMBERS[0]} SSN:{NUMBERS[1]}"
    writer.append((72, 100), line, font=pymupdf.Font("helv"), fontsize=11)
    writer.write_text(page)
    return doc.tobytes()


def _boxed(pdf: bytes) -> dict[str, int]:
    """For each number, how many marks lie over (hold the centre of) where it is written."""
    result = detect(
        pdf, DetectionPolicy(salt=b"test-salt", ocr=False, categories=frozenset({"ssn"}))
    )
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    boxes = [page_rect(page, mark.box) for mark in result.marks]
    counts = {}
    for number in NUMBERS:
        (written,) = page.search_for(number)
        centre = (written.tl + written.br) / 2
        counts[number] = sum(
            1 for box in boxes if centre in box and box.width < 1.5 * written.width
        )
    return counts


def test_a_number_after_a_narrow_no_break_space_is_boxed_where_it_is_written() -> None:
    """extractWORDS keeps "Case\u202f7" as one word; split at every white space, the line
    has one word more, and the second number got the first one's characters: its box
    lay over the first number and the second stayed visible."""
    pdf = _glued_numbers_after("Case\u202f7")
    words = [w[4] for w in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")]
    assert words[0] == "Case\u202f7"

    assert _boxed(pdf) == {NUMBERS[0]: 1, NUMBERS[1]: 1}


def test_numbers_after_a_plain_space_are_boxed_where_they_are_written() -> None:
    assert _boxed(_glued_numbers_after("Case 7")) == {NUMBERS[0]: 1, NUMBERS[1]: 1}


def test_a_hit_in_a_word_rawdict_does_not_spell_is_boxed_with_the_whole_word() -> None:
    """Where no word of rawdict matches (23 of 211,553 words of 212 public PDFs), the hit
    gets the whole word's box: a share of it by character count would miss characters
    of a proportional font, and run across the line of a vertical word."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Claimant on file", fontsize=11)
    textpage = doc[0].get_textpage(flags=TEXT_FLAGS)
    unknown = (300.0, 400.0, 330.0, 440.0, "ID:4417", 9, 0, 0)  # tall: set down the page
    text = PageText(textpage, [*textpage.extractWORDS(), unknown])

    start = text.text.index("4417")

    assert text.boxes(start, start + 4) == [unknown[:4]]
