"""A record's or a letter's field for a person ("Signed:", "Prepared by:", "Client:"):
the name after its colon is proposed, a team or a unit is not."""

from __future__ import annotations

from testkit.corpus import simple_pdf
from tests.pdf.test_detect_entities import people_in


def test_the_person_after_a_signing_or_client_field_is_proposed_and_a_team_is_not() -> None:
    """Before: "Faith Staunton" and "Summer Rivers" (given names that are words too)
    after these labels were read by nothing."""
    pdf = simple_pdf(
        [
            "Signed: Faith Staunton",
            "Prepared by: Housing Benefit Team",
            "Client: Summer Rivers",
            "Sender: Records Management Unit",
        ]
    )

    people = people_in(pdf)

    assert {"Faith Staunton", "Summer Rivers"} <= set(people)
    assert not [p for p in people if {"Housing", "Benefit", "Records"} & set(p.split())]
