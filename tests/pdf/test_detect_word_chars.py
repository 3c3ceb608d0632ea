"""A hit inside a longer word is boxed over its own characters: the char boxes are those
of the word rawdict spells the same at the same place, never found by the block, line
and word numbers of extractWORDS, which count words by rules of their own."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import page_rect

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
