"""Full-mode detection: in a chat log or a transcript, where the model reads one speaker
as a person, the other speakers are people too; a report's headings are not."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import page_rect
from testkit.corpus import simple_pdf

FULL = DetectionPolicy(salt=b"speaker-test-salt", ocr=False, ner=True)


def people(lines: list[str]) -> set[str]:
    pdf = simple_pdf(lines)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return {
        page.get_textbox(page_rect(page, mark.box)).strip(" .,;:")
        for mark in detect(pdf, FULL).marks
        if mark.category == "person"
    }


def test_a_speaker_the_model_does_not_know_is_a_person_beside_one_it_does() -> None:
    found = people(
        [
            "Ubul: What a wife.",
            "Nicole: Remember me, Mary? You said that last year.",
            "Ubul: I did not.",
        ]
    )
    assert "Ubul" in found


def test_a_reports_headings_among_the_speakers_are_no_people() -> None:
    found = people(
        [
            "Background: the request arrived in May.",
            "Nicole: Remember me, Mary? You said that last year.",
            "Warning: this record is incomplete.",
            "Ubul: I did not.",
        ]
    )
    assert "Ubul" in found
    assert not found & {"Background", "Warning"}
