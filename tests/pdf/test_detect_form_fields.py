"""Names set under a form's label for them, with no colon on their line and no sentence
around them: a W-2 puts "Last name" over "Hodges" and the model, reading the surname
alone, found no one there ("Anastasia", under "first name", it read). The cell just under
a name label is proposed where it reads as a name; a label whose value stands beside it,
a name of something else and the next label of a list are not. A consent form writes
its date of birth over the line its label stands under: a real date under or over a
label for one is proposed."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import detect
from review.pdf.form_fields import labelled_values
from review.pdf.pagetext import TEXT_FLAGS, PageText
from review.pdf.patterns import DOB, PERSON
from review.pdf.words import words_of
from tests.pdf.test_detect_entities import full, marked_texts

# A W-2's employee: labels in 7 points over the values in 12.
W2_NAMES = [
    (42.0, 188.0, 7.0, "e Employee's first name and initial"),
    (177.0, 188.0, 7.0, "Last name"),
    (313.0, 188.0, 7.0, "Suff."),
    (73.0, 203.0, 12.0, "Anastasia"),
    (200.0, 203.0, 12.0, "Hodges"),
]


def form_pdf(texts: list[tuple[float, float, float, str]]) -> bytes:
    """A page of (x, baseline, font size, text) pieces, each written on its own."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for x, y, size, text in texts:
        page.insert_text((x, y), text, fontsize=size)
    return doc.tobytes()


def people(pdf: bytes) -> set[str]:
    return marked_texts(pdf, detect(pdf, full()), "person")


def test_a_surname_under_its_forms_label_is_proposed() -> None:
    pdf = form_pdf(
        [
            *W2_NAMES,
            (42, 300, 7, "Full Name:"),
            (44, 315, 10, "Louise Anne Farrar"),
        ]
    )

    assert {"Hodges", "Louise Anne Farrar"} <= people(pdf)


def labelled(pdf: bytes, category: str = PERSON) -> list[str]:
    """What the label rule alone reads as names (or dates of birth), without the model's
    readings."""
    textpage = pymupdf.open(stream=pdf, filetype="pdf")[0].get_textpage(flags=TEXT_FLAGS)
    page_text = PageText(textpage, [w for w in words_of(textpage) if w[4].strip()])
    return [
        page_text.text[hit.start : hit.end]
        for hit in labelled_values(page_text, [], {category: 0.0})
    ]


def test_what_lies_under_a_label_that_is_no_persons_name_is_not_proposed() -> None:
    pdf = form_pdf(
        [
            # Values beside their labels, a list of labels down the page.
            (78, 80, 10, "Name"),
            (311, 80, 10, "Click or tap here to enter text."),
            (78, 94, 10, "Id"),
            (311, 94, 10, "Click or tap here to enter text."),
            (57, 200, 11, "Last name:"),
            (168, 200, 11, "Garzas"),
            (57, 232, 11, "Marital Status:"),
            (168, 232, 11, "Single"),
            # A name of something else; a smaller label under a label.
            (402, 360, 10, "Name of exchange on which registered"),
            (457, 375, 10, "NASDAQ"),
            (402, 460, 7, "Employer's name, address, and ZIP code"),
            (410, 475, 10, "Hartwell Fenmore"),
            (58, 600, 12, "PCBA name"),
            (61, 620, 6, "Drawing Title"),
            # A table of things by name.
            (151, 700, 12, "Name"),
            (188, 700, 12, "Value"),
            (151, 714, 12, "This"),
            (203, 714, 12, "11"),
        ]
    )

    assert labelled(pdf) == []


def test_the_label_rule_reads_the_surname_and_the_given_name_under_their_labels() -> None:
    pdf = form_pdf(W2_NAMES)

    assert sorted(labelled(pdf)) == ["Anastasia", "Hodges"]


def test_a_date_over_or_under_its_birth_date_label_is_proposed() -> None:
    pdf = form_pdf(
        [
            (332, 60, 11, "04/14/1995"),
            (332, 71, 9, "Date of Birth"),
            (422, 60, 11, "26"),
            (422, 71, 9, "Age"),
            (40, 200, 9, "DOB"),
            (40, 214, 11, "3 March 1984"),
            # A date over a label for another date; no date under a birth date label.
            (339, 560, 11, "08/01/2021"),
            (339, 571, 9, "Date"),
            (200, 200, 9, "Birth date"),
            (200, 214, 11, "Unknown"),
        ]
    )

    assert sorted(labelled(pdf, DOB)) == ["04/14/1995", "3 March 1984"]
    marked = marked_texts(pdf, detect(pdf, full()), DOB)
    assert all(any(date in text for text in marked) for date in ("04/14/1995", "3 March 1984"))
    assert not any("08/01/2021" in text for text in marked)
