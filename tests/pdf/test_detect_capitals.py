"""Text written all in capitals (police narratives, captions, file headers): the
language model reads it re-cased, so the people in it are proposed as in any text."""

from __future__ import annotations

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.name_span import name_in_reading
from review.pdf.truecase import for_model
from testkit.corpus import simple_pdf
from tests.pdf.test_detect_entities import full, texts_by_group

NARRATIVE = [
    "Incident narrative:",
    "OFC MARTINEZ ARRIVED ON SCENE AT 2210 HRS. SUSPECT IDENTIFIED AS DWAYNE",
    "LOCKHART, DOB 04/12/1988. A WHITE VAN WAS PARKED NEAR THE GUN SHOP.",
    "LOCKHART STATED HE LIVED ON THE SECOND FLOOR WITH HIS SISTER.",
]


def test_people_in_a_police_narrative_in_capitals_are_proposed_as_one_group_each() -> None:
    """Before: the model read no one in capitals but an organisation "MARTINEZ", and
    nothing of the suspect, whose name wraps onto the next line."""
    pdf = simple_pdf(NARRATIVE)

    groups = texts_by_group(pdf, detect(pdf, full()), "person")

    people = sorted(sorted(texts) for texts in groups.values())
    # The wrapped name is marked on each of its lines; his surname alone joins him.
    assert ["DWAYNE", "LOCKHART", "LOCKHART"] in people
    assert ["MARTINEZ"] in people
    words = " ".join(text for texts in groups.values() for text in texts).split()
    assert not {"VAN", "GUN", "FLOOR", "WHITE", "SUSPECT", "OFC"} & set(words)


def test_pattern_only_detection_proposes_no_person_in_capitals() -> None:
    """Re-casing is for the language model only: without it nothing is read as a name."""
    pdf = simple_pdf(NARRATIVE)

    result = detect(pdf, DetectionPolicy(salt=b"s", ocr=False))

    assert not [m for m in result.marks if m.category == "person"]


def test_a_line_in_capitals_is_recased_to_the_same_length_and_others_are_left() -> None:
    text = "\n".join(
        [
            "Complainant: SMITH, JOHN (DOB 1/2/1980)",
            "SUBJECT: JOHNSON, MARCUS T. CONTACTED SGT. OKAFOR.",
            "J. DOE AND ANA LOPEZ MET O'NEILL-SMITH AND BEN DAVIES",
            "A WHITE VAN WAS PARKED NEAR THE GUN SHOP ON A LOT",
        ]
    )

    recased = for_model(text)

    assert len(recased) == len(text)
    lines = recased.split("\n")
    assert lines[0] == "Complainant: SMITH, JOHN (DOB 1/2/1980)"  # mostly not in capitals
    assert lines[1] == "Subject: Johnson, Marcus T. Contacted Sgt. Okafor."
    assert lines[2] == "J. Doe and Ana Lopez met o'neill-smith and Ben Davies"
    assert lines[3] == "a white van was parked near the gun shop on a lot"  # one sentence on


def test_a_letter_that_lowers_into_two_letters_keeps_the_text_length() -> None:
    text = "MEHMET İNCE AND MARCUS WEISSBERG"

    recased = for_model(text)

    assert len(recased) == len(text)
    assert recased.startswith("Mehmet İnce")


def test_a_police_report_in_capitals_has_its_reporting_party_and_officers_proposed() -> None:
    """Before: the model read "KEISHA MONROE", "OYELARAN" and "NGUYEN" as no one, and
    "HRS", "VISIBLE" and "SGT." as organisations."""
    pdf = simple_pdf(
        [
            "ON 11/14/2026 AT APPROXIMATELY 2145 HRS, I WAS DISPATCHED TO A DISTURBANCE.",
            "I MET WITH THE REPORTING PARTY, KEISHA MONROE, WHO STATED HER BOYFRIEND HAD",
            "STRUCK HER. MONROE HAD VISIBLE REDNESS ON HER LEFT CHEEK. SGT. OYELARAN",
            "ARRIVED AND APPROVED THE ARREST. TRANSPORTED TO COUNTY JAIL BY OFC. NGUYEN.",
        ]
    )

    result = detect(pdf, full())

    groups = texts_by_group(pdf, result, "person")
    assert ["KEISHA MONROE", "MONROE"] in [sorted(texts) for texts in groups.values()]
    assert {"OYELARAN", "NGUYEN"} <= {text for texts in groups.values() for text in texts}
    organisations = texts_by_group(pdf, result, "organization")
    assert not {"HRS", "VISIBLE", "SGT"} & {t for texts in organisations.values() for t in texts}


def test_given_names_in_capitals_opening_the_line_join_the_name_the_model_read() -> None:
    """A police order's "MARCELO ANDRE CORTES VILLELA," heading its first paragraph:
    the model read "ANDRE CORTES VILLELA" and "MARCELO" stayed visible."""
    text = "PORTARIA\nIPL n. 2022.0014837\nMARCELO ANDRE CORTES VILLELA,\nDelegado(a) de Policia"
    start = text.index("ANDRE")

    name = name_in_reading(text, text, start, text.index(","))

    assert name is not None and text[name[0] : name[1]] == "MARCELO ANDRE CORTES VILLELA"
    # Words that are no given names, or not at the line's start, are left.
    for line in ("DEFENDANT ANDRE CORTES VILLELA", "THE ANDRE CORTES VILLELA"):
        other = "ORDER\n" + line + "\nfiled"
        span = name_in_reading(other, other, other.index("ANDRE"), other.index("\nfiled"))
        assert span is not None and other[span[0] : span[1]] == "ANDRE CORTES VILLELA"
