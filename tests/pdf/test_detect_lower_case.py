"""Text written without capitals (chat logs, texts, hurried e-mails): the language model
reads it re-cased, so the people in it are proposed as in any text."""

from __future__ import annotations

from review.pdf.detect import detect
from review.pdf.truecase import for_model
from testkit.corpus import simple_pdf
from tests.pdf.test_detect_entities import full, texts_by_group


def test_people_in_a_chat_written_without_capitals_are_proposed() -> None:
    """Before: the model read no one in these lines."""
    pdf = simple_pdf(
        [
            "follow up with patricia desrosiers in a couple of months.",
            "they had three kids: silvana, christopher and caleb, all grown up now.",
            "i think selma is from stillwater.",
        ]
    )

    groups = texts_by_group(pdf, detect(pdf, full()), "person")

    people = {text for texts in groups.values() for text in texts}
    assert {"patricia desrosiers", "silvana", "christopher", "selma"} <= people
    assert not {"stillwater", "kids", "months"} & people


def test_a_line_without_capitals_is_recased_only_where_its_writer_skips_them() -> None:
    text = "\n".join(
        [
            "The agency forwarded the request from",
            "the requester john smith to the office.",  # prose wrapped: as written
            "ok. thanks, i'll ask patricia about it",  # a sentence opened in lower case
        ]
    )

    recased = for_model(text)

    assert len(recased) == len(text)
    lines = recased.split("\n")
    assert lines[1] == "the requester john smith to the office."
    assert lines[2] == "Ok. Thanks, I'll ask Patricia about it"


def test_pronoun_i_marks_a_line_but_a_numbered_clause_does_not() -> None:
    """Each second line continues its first: only the pronoun says capitals are skipped."""
    clause = "The terms are set out in\nclause (i) of the agreement with maria"
    assert for_model(clause) == clause
    pronoun = "When the letter came in\nso i asked maria about it"
    assert for_model(pronoun) == "When the letter came in\nso I asked Maria about it"
