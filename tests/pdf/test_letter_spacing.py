"""Text set letter-spaced reaches detection as words, not single letters: a number with
"8 Tc", the digits of a form's comb field in their cells, a title's place name. MuPDF
puts each such letter on a line of its own, and no detector read a number or a name
out of single letters: a place proposed in one line stayed visible in the letter-spaced
title (iText's ExtraCharSpace example, refused at the release gate)."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import display_rect
from review.pdf.pagetext import extract_words
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content

POLICY = DetectionPolicy(salt=b"test-salt", ocr=False)


def page_with(operators: bytes) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Applicant record", fontsize=12)
    append_content(page, operators)
    return doc.tobytes()


def proposed(pdf: bytes, policy: DetectionPolicy = POLICY) -> list[tuple[str, pymupdf.Rect]]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return [(m.category, display_rect(page, m.box)) for m in detect(pdf, policy).marks]


def test_a_letter_spaced_number_is_proposed_whole() -> None:
    pdf = page_with(b"BT /helv 12 Tf 72 700 Td (SSN: ) Tj 8 Tc (457-55-5462) Tj ET")

    [(category, box)] = proposed(pdf)

    assert category == "ssn"
    # From the first digit to the last: 11 characters, each 8 points further on.
    assert box.x0 < 104 and box.x1 > 250


def test_the_digits_of_a_comb_field_are_read_as_one_number() -> None:
    cells = b"".join(
        b"%d 645 18 18 re S BT /helv 12 Tf %d 650 Td (%s) Tj ET " % (97 + 20 * i, 100 + 20 * i, d)
        for i, d in enumerate([bytes([c]) for c in b"457555462"])
    )
    pdf = page_with(b"BT /helv 12 Tf 72 650 Td (SSN) Tj ET " + cells)

    [(category, box)] = proposed(pdf)

    assert category == "ssn"
    assert box.x0 < 101 and box.x1 > 266


def test_a_term_in_a_letter_spaced_title_is_burned_out_and_releases() -> None:
    pdf = page_with(
        b"BT /helv 12 Tf 72 700 Td (Filed for Moscou Ltd) Tj ET"
        b" BT /helv 12 Tf 72 600 Td 10 Tc (Aanrijding in Moscou) Tj ET"
    )
    policy = DetectionPolicy(salt=b"test-salt", ocr=False, search_terms=("Moscou",))
    marks = [
        RedactionMark(page=m.page, box=m.box, legal_reason="(b)(6)")
        for m in detect(pdf, policy).marks
    ]

    output = sanitize(burn_in(pdf, marks))

    text = pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert "M" not in text.replace("Moscou", "")  # no letter of it left, spaced or not
    assert verify(pdf, output, marks).ok


def test_words_of_ordinary_lines_and_far_apart_letters_are_left_as_they_are() -> None:
    pdf = page_with(
        b"BT /helv 12 Tf 72 700 Td (Plan A or plan B was chosen) Tj ET"
        b" BT /helv 12 Tf 72 650 Td (Y) Tj 100 0 Td (N) Tj 100 0 Td (Y) Tj ET"
    )
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]

    words = [w[4] for w in extract_words(page)[1]]

    ordinary = ["Applicant", "record", "Plan", "A", "or", "plan", "B", "was", "chosen"]
    assert words == [*ordinary, "Y", "N", "Y"]
