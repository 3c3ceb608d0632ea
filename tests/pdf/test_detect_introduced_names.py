"""Full-mode detection: a name its bearer gives ("My name is Willemine ten Pas",
"everyone calls me Aantje") or a lawyer gives for a client is proposed whole as a
person, whatever the language model reads of it."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import page_rect
from testkit.corpus import simple_pdf

FULL = DetectionPolicy(salt=b"introduced-test-salt", ocr=False, ner=True)


def people(line: str) -> list[str]:
    pdf = simple_pdf([line])
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    groups: dict[str, list[str]] = {}
    for mark in detect(pdf, FULL).marks:
        if mark.category == "person":
            text = page.get_textbox(page_rect(page, mark.box)).strip(" .,;")
            groups.setdefault(mark.group, []).append(text)
    return sorted(" ".join(texts) for texts in groups.values())


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("My name is Willemine ten Pas and I request my records.", "Willemine ten Pas"),
        ("Sometimes people call me Aantje at work.", "Aantje"),
        ("I write for my client, Ravil Yefimov, about his file.", "Ravil Yefimov"),
        ("Hello, my name's Ludmila and I lived there.", "Ludmila"),
        ("What's your last name? Boyle", "Boyle"),
        ("She was born on 7/14/1995. Her maiden name is Sandgreen.", "Sandgreen"),
        ("My great grandfather was called Jónás Bergsveinsson, I think.", "Jónás Bergsveinsson"),
        ("my name is borna jerkovic but everyone calls me borna", "borna jerkovic"),
    ],
)
def test_name_given_by_its_bearer_or_their_lawyer_is_one_person(line: str, name: str) -> None:
    assert name in people(line)


@pytest.mark.parametrize(
    "line",
    [
        "Please call me Monday about the invoice.",
        "My name is not important here.",
        "The new system is called Project Phoenix.",
        "what is your name? my name is not important",
    ],
)
def test_a_day_or_a_phrase_after_call_me_or_my_name_is_is_no_person(line: str) -> None:
    assert people(line) == []
