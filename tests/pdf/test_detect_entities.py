"""Full-mode detection: names, places and organisations from Presidio with the spaCy
pipeline, proposed at every place they are written, one group per entity; and the
pipeline comes only from its installed package."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections import defaultdict

import pymupdf
import pytest

from review.pdf import nlp
from review.pdf.detect import DetectionPolicy, DetectionResult, detect
from review.pdf.geometry import page_rect
from testkit.corpus import simple_pdf

SALT = b"entity-test-salt"


def full(**overrides: object) -> DetectionPolicy:
    options: dict = {"salt": SALT, "ocr": False, "ner": True, "phone_regions": ("US", "GB")}
    options.update(overrides)
    return DetectionPolicy(**options)


def texts_by_group(pdf: bytes, result: DetectionResult, category: str) -> dict[str, list[str]]:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    groups: dict[str, list[str]] = defaultdict(list)
    for mark in result.marks:
        if mark.category == category:
            page = doc[mark.page]
            groups[mark.group].append(page.get_textbox(page_rect(page, mark.box)).strip(" .,;"))
    return dict(groups)


LETTER_LINES = [
    "The complainant, Jane Doe, wrote to the Housing Authority in March.",
    "Ms. Doe's letter was answered by Dr. Hans Mueller of the records office.",
    "JANE DOE signed the form; J. Doe initialled every page.",
]
LETTER = simple_pdf(LETTER_LINES)


def test_a_name_is_proposed_at_every_written_form_as_one_group() -> None:
    result = detect(LETTER, full())

    groups = texts_by_group(LETTER, result, "person")
    jane = next(texts for texts in groups.values() if "Jane Doe" in texts)
    assert sorted(jane) == ["Doe", "J. Doe", "JANE DOE", "Jane Doe"]
    assert any("Mueller" in " ".join(texts) for texts in groups.values())
    assert not any("Housing" in " ".join(texts) for texts in groups.values())


def test_an_initial_that_two_people_share_is_grouped_with_neither() -> None:
    pdf = simple_pdf(
        [
            "Jane Doe and John Doe both attended the hearing in Ohio.",
            "J. Doe asked for an adjournment.",
        ]
    )

    groups = texts_by_group(pdf, detect(pdf, full()), "person")

    for texts in groups.values():
        assert not ("J. Doe" in texts and ("Jane Doe" in texts or "John Doe" in texts))


def test_a_name_known_from_another_document_is_proposed_here_in_its_group() -> None:
    first = simple_pdf(["The complainant, Jane Doe, wrote to us."])
    second = simple_pdf(
        [
            "Reference: the file of the applicant Doe, Jane was closed.",
            "Doe's appeal: see Jane Doe.",
        ]
    )
    entities = detect(first, full()).entities

    here = detect(second, full(known_entities=entities))
    there = detect(first, full())

    group_here = {m.group for m in here.marks if m.category == "person"}
    group_there = {m.group for m in there.marks if m.category == "person"}
    assert group_there <= group_here  # the same entity, the same group, in both documents


def test_pattern_only_mode_finds_no_names() -> None:
    result = detect(LETTER, full(ner=False))

    assert not [m for m in result.marks if m.category in ("person", "location", "organization")]
    assert result.entities == ()


def test_phone_numbers_of_the_policy_regions_are_found_as_written_there() -> None:
    pdf = simple_pdf(["Call our London office on 020 7946 0958 or +44 20 7946 0959."])

    result = detect(pdf, full(ner=False, phone_regions=("GB",)))

    assert [m.category for m in result.marks].count("phone") == 2


def test_no_text_of_the_new_recognisers_appears_in_any_mark() -> None:
    pdf = simple_pdf(
        [
            *LETTER_LINES,
            "She lives at 1777 Kramer Court, Johnsonfurt, NE 80119.",
            "NI number AB 12 34 56 C, NHS number 943 476 5919, ITIN 912-70-1234.",
            "Telephone 020 7946 0958; SSN 219-09-9999.",
        ]
    )

    dump = repr(detect(pdf, full()).marks)

    for value in (
        "Jane",
        "Doe",
        "Mueller",
        "Kramer",
        "80119",
        "AB 12",
        "AB123456C",
        "9434765919",
        "912701234",
        "2079460958",
        "219099999",
    ):
        assert value not in dump


def test_a_pipeline_that_is_not_installed_is_refused_not_downloaded(monkeypatch) -> None:
    def no_network(*args, **kwargs):
        raise AssertionError("detection tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)

    with pytest.raises(nlp.NlpUnavailable, match="en_core_web_lg"):
        nlp.load_pipeline("en_core_web_lg")


def test_the_pinned_pipeline_loads_with_the_network_cut_off() -> None:
    script = (
        "import socket\n"
        "def cut(*a, **k): raise OSError('network is cut off in this test')\n"
        "socket.socket.connect = cut\n"
        "socket.create_connection = cut\n"
        "from review.pdf.detect import DetectionPolicy, detect\n"
        "from testkit.corpus import simple_pdf\n"
        "pdf = simple_pdf(['The complainant, Jane Doe, wrote to us.'])\n"
        "marks = detect(pdf, DetectionPolicy(salt=b's', ocr=False, ner=True)).marks\n"
        "assert [m.category for m in marks] == ['person'], marks\n"
    )

    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )

    assert done.returncode == 0, done.stderr[-2000:]


def test_the_pipeline_is_loaded_once_per_process() -> None:
    detect(LETTER, full())
    first = nlp.engine(nlp.DEFAULT_PIPELINE)
    detect(LETTER, full())

    assert nlp.engine(nlp.DEFAULT_PIPELINE) is first
    assert nlp.engine.cache_info().currsize == 1
