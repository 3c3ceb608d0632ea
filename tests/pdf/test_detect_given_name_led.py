"""A person's name in a plain sentence that the language model does not read: a given
name followed by capitalised words is proposed, a place or an institution is not."""

from __future__ import annotations

from testkit.corpus import simple_pdf
from tests.pdf.test_detect_entities import people_in


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
