"""An e-mail reply quotes the earlier message line by line ("> "): the names its
greeting, signature and header fields announce are proposed there as anywhere."""

from __future__ import annotations

from testkit.corpus import simple_pdf
from tests.pdf.test_detect_entities import people_in


def test_names_in_the_quoted_lines_of_a_reply_are_proposed() -> None:
    """Before: the quote marks hid each line's start from the cues, and the model read
    none of these people."""
    pdf = simple_pdf(
        [
            "Thanks, noted.",
            "> From: Achterberg, Wilhelmina <w.achterberg@dcc.gov>",
            "> Hi Siobhán, the file is closed.",
            "> Kind regards",
            "> Ewa",
            ">> Signed: Faith Staunton",
        ]
    )

    people = people_in(pdf)

    for name in ("Achterberg, Wilhelmina", "Siobhán", "Ewa", "Faith Staunton"):
        assert name in people
