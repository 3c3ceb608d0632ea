"""Full-mode detection: the words an e-mail address spells in its local part are the
person it belongs to ("Einojuhani Pyysalo" and "EinojuhaniPyysalo@gustr.com"); words of
a sentence the address happens to spell are not."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import page_rect
from testkit.corpus import simple_pdf

SALT = b"email-owner-test-salt"


def people(lines: list[str]) -> list[str]:
    pdf = simple_pdf(lines)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    policy = DetectionPolicy(salt=SALT, ocr=False, ner=True)
    return sorted(
        page.get_textbox(page_rect(page, mark.box)).strip(" .,;")
        for mark in detect(pdf, policy).marks
        if mark.category == "person"
    )


@pytest.mark.parametrize(
    ("lines", "name"),
    [
        (
            [
                "Einojuhani Pyysalo",
                "Local transit bus driver",
                "E-mail: EinojuhaniPyysalo@gustr.com",
            ],
            "Einojuhani Pyysalo",
        ),
        (["leone mazzi", "nurse", "leone.mazzi@rhyta.com"], "leone mazzi"),
        (
            ["Please copy Willemine ten Pas (willemine.tenpas@example.org) on replies."],
            "Willemine ten Pas",
        ),
    ],
)
def test_name_its_email_address_spells_is_a_person(lines: list[str], name: str) -> None:
    assert name in people(lines)


def test_words_of_a_sentence_an_address_spells_are_no_person() -> None:
    assert people(["Please mail the info desk at infodesk@example.org today."]) == []
