"""Full-mode detection: a web address is no one's name. The language model read "Irs"
of "Www.Irs.Gov/Forms" as a person, and "www.apdf.com" tiled over a page as a
watermark (docling-parse's rotated_text_06.pdf), each boxed as a name; a name only
beside an address is still one."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import page_rect
from testkit.corpus import simple_pdf


def people(lines: list[str]) -> list[str]:
    pdf = simple_pdf(lines)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    policy = DetectionPolicy(salt=b"web-address-test-salt", ocr=False, ner=True)
    return sorted(
        page.get_textbox(page_rect(page, mark.box)).strip(" .,;<")
        for mark in detect(pdf, policy).marks
        if mark.category == "person"
    )


def test_a_word_of_a_web_address_is_not_read_as_a_person() -> None:
    assert people(["Questions? Visit Www.Irs.Gov/Forms"]) == []


@pytest.mark.parametrize(
    "line",
    ["From: Jane Doe<jane.doe@example.com>", "Send the form to Jane Doe at www.example.com."],
)
def test_a_name_beside_an_address_is_still_proposed(line: str) -> None:
    assert "Jane Doe" in people([line])
