"""A name heading the few lines that end in a postal address (a letter's addressee, a
signature block, an envelope) is proposed as a person, where the model, with no sentence
around it, reads no one; a firm's name there is not."""

from __future__ import annotations

from review.pdf.detect import detect
from testkit.corpus import simple_pdf
from tests.pdf.test_detect_entities import full, marked_texts


def test_a_name_over_a_job_a_firm_and_an_address_is_proposed() -> None:
    pdf = simple_pdf(
        [
            "Maika van de Noort",
            "Employment manager",
            "Opportunityspace Inc.",
            "33787 Edington Drive",
            "Toronto, ON M5V 2T6",
            "A copy of this letter goes to our office in Brussels.",
            "Fletcher Hill",
            "Ussearch",
            "3654 Brixtonlaan 380",
            "1000 Brussels",
            "Belgium",
        ]
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert {"Maika van de Noort", "Fletcher Hill"} <= texts


def test_a_firm_over_an_address_is_not_proposed_as_a_person() -> None:
    pdf = simple_pdf(
        [
            "Invoice queries go to:",
            "Acme Widgets",
            "12 Main Street",
            "Springfield, IL 62701",
        ]
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert not [t for t in texts if "Acme" in t or "Widgets" in t]
