"""A person's name in a plain sentence that the language model does not read: a given
name followed by capitalised words is proposed, a place or an institution is not."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import detect
from testkit.corpus import simple_pdf
from tests.pdf.test_detect_entities import full, people_in, texts_by_group


def test_names_the_model_misses_in_plain_sentences_are_proposed() -> None:
    """Before: the model read none of these people, and only "Scotto" of the third."""
    pdf = simple_pdf(
        [
            "Re: complaint about Beate Ehlert. Copy to: Gereon Preiß.",
            "Letter returned to sender (Hilayda Bilgin).",
            "Called Romina Scotto at home; no answer.",
            "Subject: Request for Ibrahim Scheel file",
        ]
    )

    people = {text.strip("()") for text in people_in(pdf)}

    for name in (
        "Beate Ehlert",
        "Gereon Preiß",
        "Hilayda Bilgin",
        "Romina Scotto",
        "Ibrahim Scheel",
    ):
        assert name in people


def test_a_given_name_before_a_place_an_institution_or_a_legal_form_is_no_person() -> None:
    pdf = simple_pdf(
        [
            "We met at the Jordan River crossing, then at Victoria Road.",
            "Funding came from the Florence Trust and the Lincoln Memorial Fund.",
            "Employer: Pi y Domingo S.A.; Will Power and Grace Period are terms.",
        ]
    )

    people = people_in(pdf)

    assert not [
        p
        for p in people
        if p.split()[0] in {"Jordan", "Victoria", "Florence", "Lincoln", "Domingo", "Will", "Grace"}
    ]


def embedded_font_pdf(lines: list[str]) -> bytes:
    """A page of `lines` in an embedded font, which writes letters the standard fonts'
    encoding has none of ("Ł", "Š", "Ș")."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    writer = pymupdf.TextWriter(page.rect)
    for number, line in enumerate(lines):
        writer.append((72, 90 + 18 * number), line, font=pymupdf.Font("helv"), fontsize=11)
    writer.write_text(page)
    return doc.tobytes()


def test_names_opening_with_capitals_outside_latin_1_are_proposed_in_every_form() -> None:
    """Before: a name word had to open with a Latin-1 capital, so no cue read "Janina
    Łukowicz", "Mr Šimek" or "Ștefan Ionescu", and a surname alone never joined them."""
    pdf = embedded_font_pdf(
        [
            "Decision letter - Janina Łukowicz",
            "Łukowicz was informed of the outcome by Mr Šimek.",
            "Witness: Ștefan Ionescu",
        ]
    )

    groups = texts_by_group(pdf, detect(pdf, full()), "person")

    assert ["Janina Łukowicz", "Łukowicz"] in [sorted(texts) for texts in groups.values()]
    people = {text for texts in groups.values() for text in texts}
    assert {"Šimek", "Ștefan Ionescu"} <= people


def test_a_given_name_alone_that_no_one_read_is_proposed_weakly() -> None:
    """Before: the model read nothing in any of these sentences."""
    pdf = simple_pdf(
        [
            "She said Isabelle had phoned twice.",
            "Then Jolanthe left the meeting.",
            "The form was signed by Witold yesterday.",
        ]
    )

    result = detect(pdf, full())

    groups = texts_by_group(pdf, result, "person")
    assert {"Isabelle", "Jolanthe", "Witold"} <= {t for texts in groups.values() for t in texts}
    assert {m.confidence for m in result.marks if m.category == "person"} == {0.6}


def test_a_given_name_in_a_place_or_a_firm_is_not_proposed_alone() -> None:
    pdf = simple_pdf(
        [
            "Charlotte Street is closed; Lake Victoria flooded.",
            "Employer: Paris et Fils, EIN 66-5792910",
        ]
    )

    people = people_in(pdf)

    assert not {"Charlotte", "Victoria", "Paris"} & set(people)


def test_a_given_name_spoken_to_is_a_person_though_after_to_or_at() -> None:
    """Before: "at" and "to" lead to places, so no one was read in these lines."""
    pdf = simple_pdf(
        [
            'Enrico shouted at Gary: "What are you doing?"',
            "I'm so jealous! said Gladys to Tiffany.",
        ]
    )

    people = {text.strip(":.") for text in people_in(pdf)}

    assert {"Gary", "Tiffany"} <= people


def test_a_name_with_a_middle_initial_is_a_person_whatever_its_given_name() -> None:
    """Before: the model read no one in the first two lines."""
    pdf = simple_pdf(
        [
            'The song "Tube Snake Boogie" by Szabina J Gelencser came first.',
            "The Vide A. Persson version was recorded in 1961.",
            "See Exhibit A Smith declaration and Plan B Options for World War I Veterans.",
        ]
    )

    people = people_in(pdf)

    assert {"Szabina J Gelencser", "Vide A. Persson"} <= set(people)
    assert not [p for p in people if {"Exhibit", "Plan", "Veterans"} & set(p.split())]
