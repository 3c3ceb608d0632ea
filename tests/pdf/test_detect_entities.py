"""Full-mode detection: names, places and organisations from Presidio with the spaCy
pipeline, proposed at every place they are written, one group per entity; and the
pipeline comes only from its installed package."""

from __future__ import annotations

import logging
import re
import socket
import subprocess
import sys
from collections import defaultdict

import pymupdf
import pytest

from review.pdf import nlp
from review.pdf.detect import DetectionPolicy, DetectionResult, detect
from review.pdf.finder import Finder
from review.pdf.geometry import page_rect
from review.pdf.patterns import ALL_CATEGORIES
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


def people_in(pdf: bytes) -> list[str]:
    """The text under every person mark of full-mode detection, sorted."""
    groups = texts_by_group(pdf, detect(pdf, full()), "person")
    return sorted(text for texts in groups.values() for text in texts)


LETTER_LINES = [
    "The complainant, Jane Doe, wrote to the Housing Authority in March.",
    "Ms. Doe's letter was answered by Dr. Hans Mueller of the records office.",
    "JANE DOE signed the form; J. Doe initialled every page. File: DOE, JANE.",
]
LETTER = simple_pdf(LETTER_LINES)


def test_a_name_is_proposed_at_every_written_form_as_one_group() -> None:
    result = detect(LETTER, full())

    groups = texts_by_group(LETTER, result, "person")
    jane = next(texts for texts in groups.values() if "Jane Doe" in texts)
    assert sorted(jane) == ["DOE, JANE", "Doe", "J. Doe", "JANE DOE", "Jane Doe"]
    assert any("Mueller" in " ".join(texts) for texts in groups.values())
    assert not any("Housing" in " ".join(texts) for texts in groups.values())


def test_an_organisation_of_one_word_is_proposed_in_a_heading_in_capitals_too() -> None:
    # A magazine page heads its story "DAIMLER-BENZ" (PyMuPDF-Utilities' edit-images
    # sample): left visible, the gate found the redacted name in the page's bytes.
    pdf = simple_pdf(
        [
            "DAIMLER-BENZ",
            "Jürgen Schrempp told Daimler-Benz shareholders in Stuttgart that profits rose.",
            "The board of Daimler-Benz met on Monday.",
        ]
    )

    groups = texts_by_group(pdf, detect(pdf, full()), "organization")

    assert sorted(next(iter(groups.values()))) == ["DAIMLER-BENZ", "Daimler-Benz", "Daimler-Benz"]


def test_an_organisation_of_one_word_is_proposed_in_lower_case_in_web_addresses_only() -> None:
    # The iPhone guide in iText's tests links "www.apple.com/itunes/starbucks": left
    # visible, the gate found the redacted "Starbucks" in the page's bytes.
    pdf = simple_pdf(
        [
            "Find out what song is playing at www.apple.com/itunes/starbucks today.",
            "Mail news@starbucks.com or see starbucks.com/music; the starbucks near you.",
            "Menus: example.com/starbucks-menu.html",
        ]
    )

    result = detect(pdf, full(known_entities=(("organization", "Starbucks"),)))

    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    found = [
        page.get_textbox(page_rect(page, m.box)).strip()
        for m in result.marks
        if m.category == "organization"
    ]
    assert sorted(found) == ["starbucks"] * 4
    assert len({m.group for m in result.marks if m.category == "organization"}) == 1


def test_a_name_after_a_footnote_number_is_proposed() -> None:
    # A footnote's text starts glued to its number (PoC||GTFO 13:7: "24Manchester's
    # effective bit rate"): left visible, the gate found the redacted name there.
    pdf = simple_pdf(
        [
            "The line code used in Manchester is older.",
            "24Manchester’s effective bit rate is half the baud rate.",
        ]
    )

    result = detect(pdf, full(known_entities=(("location", "Manchester"),)))

    (places,) = texts_by_group(pdf, result, "location").values()
    assert places == ["Manchester", "Manchester"]


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


REPORT_LINES = [
    "On March 3, Officer Daniel Thompson interviewed the complainant, Aisha Patel, at her",
    "home. Thompson noted that Patel's neighbour had called twice. THOMPSON signed it.",
    "The case worker, Tomasz Kowalski, said Kowalski's report was filed on 4/5/2023.",
]


def marked_texts(pdf: bytes, result: DetectionResult, category: str) -> set[str]:
    return {t for texts in texts_by_group(pdf, result, category).values() for t in texts}


def group_of(groups: dict[str, list[str]], name: str) -> list[str]:
    return next(texts for texts in groups.values() if name in texts)


def test_a_surname_written_alone_is_proposed_in_its_persons_group() -> None:
    pdf = simple_pdf(REPORT_LINES)

    result = detect(pdf, full())

    people = texts_by_group(pdf, result, "person")
    assert sorted(group_of(people, "Daniel Thompson")) == [
        "Daniel Thompson",
        "THOMPSON",
        "Thompson",
    ]
    assert sorted(group_of(people, "Aisha Patel")) == ["Aisha Patel", "Patel"]
    assert sorted(group_of(people, "Tomasz Kowalski")) == ["Kowalski", "Tomasz Kowalski"]
    # The model's misreading of a lone surname as an organisation is not proposed twice.
    assert not texts_by_group(pdf, result, "organization")


def test_a_surname_alone_in_another_document_is_proposed_in_the_persons_group() -> None:
    first = simple_pdf(["The complainant, Aisha Patel, wrote to the authority."])
    second = simple_pdf(["The reply to Patel was sent on Monday by the records office."])
    known = detect(first, full()).entities

    here, there = detect(second, full(known_entities=known)), detect(first, full())

    (patel,) = [m for m in here.marks if m.category == "person"]
    assert patel.group in {m.group for m in there.marks if m.category == "person"}


def test_a_name_the_model_reads_on_from_a_titled_name_on_the_line_above_is_its_own() -> None:
    """The title cue reads "Dr. Chen"; the model reads "Chen" and the next line's
    "Karen Williams" as one name. They are two people: the patient's group holds every
    form of her name, the doctor is proposed in a group of his own."""
    pdf = simple_pdf(
        [
            "Patient: WILLIAMS, KAREN   MRN: 00482913   Attending: Dr. Chen",
            "Karen Williams was discharged. Williams' follow-up is scheduled.",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert sorted(group_of(people, "Karen Williams")) == [
        "Karen Williams",
        "WILLIAMS, KAREN",
        "Williams'",
    ]
    assert ["Chen"] in people.values()


def test_a_surname_two_people_share_alone_is_proposed_in_the_familys_group() -> None:
    pdf = simple_pdf(
        [
            "Aisha Patel and her brother Ravi Patel attended the hearing.",
            "Patel asked for an adjournment; Ms. Patel agreed. PATEL signed.",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert group_of(people, "Aisha Patel") == ["Aisha Patel"]
    assert group_of(people, "Ravi Patel") == ["Ravi Patel"]
    assert sorted(group_of(people, "Patel")) == ["PATEL", "Patel", "Patel"]


def test_a_relative_the_model_missed_is_proposed_whole_in_a_group_of_their_own() -> None:
    """The "Jackson" of "Jamal Jackson" is not Tanya Jackson written shortly: his given
    name would be left visible beside her redacted surname."""
    pdf = simple_pdf(
        [
            "The tenant, Tanya Jackson, called on Monday.",
            "Jamal Jackson 4471 room 12 keys returned",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert group_of(people, "Tanya Jackson") == ["Tanya Jackson"]
    assert group_of(people, "Jamal Jackson") == ["Jamal Jackson"]


def test_a_relative_named_by_kinship_is_proposed_by_given_name_alone_at_every_occurrence() -> None:
    """A given name the model has not seen, known only by whose son he is ("her son
    Emeka"); a title after an article ("the Mother Superior") names no relative."""
    pdf = simple_pdf(
        [
            "Ngozi Chukwu and her son Emeka live at the address.",
            "My wife, Maria, called the office about the claim.",
            "The Mother Superior answered the letter.",
            "Emeka was at school that day.",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert group_of(people, "Emeka") == ["Emeka", "Emeka"]
    assert group_of(people, "Maria") == ["Maria"]
    assert not any("Superior" in text for texts in people.values() for text in texts)


def test_a_name_before_a_salutations_colon_is_proposed_whole() -> None:
    """Spanish letters greet with a colon: "Mamani:" was taken for a field's label and
    the model's "Ximena Quispe" left her second surname visible."""
    pdf = simple_pdf(["Estimada Sra. Ximena Quispe Mamani:", "Le escribimos sobre su solicitud."])

    assert [name.rstrip(":") for name in people_in(pdf)] == ["Ximena Quispe Mamani"]


def test_a_relative_named_by_kinship_in_spanish_french_or_german_is_proposed() -> None:
    pdf = simple_pdf(
        [
            "Le informamos que su hijo Yupanqui ha sido admitido.",
            "Votre fils Kofi a déposé une demande.",
            "Ihre Tochter Ngozi hat den Antrag gestellt.",
        ]
    )

    people = people_in(pdf)

    assert "Yupanqui" in people and "Kofi" in people
    assert any(name.endswith("Ngozi") for name in people)


def test_a_surname_that_is_a_word_is_proposed_only_as_a_name_is_written() -> None:
    pdf = simple_pdf(
        [
            "The witness, Emma Young, spoke to the officer at the scene.",
            "Many young people were present; Young left at nine.",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert sorted(group_of(people, "Emma Young")) == ["Emma Young", "Young"]


def test_a_place_named_like_a_person_is_not_taken_for_them() -> None:
    pdf = simple_pdf(
        [
            "The author Jack London wrote to the council from Paris.",
            "The council then moved its offices to London in May.",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert group_of(people, "Jack London") == ["Jack London"]


def test_a_signature_under_a_valediction_is_proposed_as_a_name() -> None:
    pdf = simple_pdf(
        ["Please tell us if anything in it is wrong.", "Yours sincerely,", "Guy Fleury"]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert ["Guy Fleury"] in people.values()


def test_a_name_beside_its_part_in_the_case_is_proposed_and_a_company_is_not() -> None:
    pdf = simple_pdf(
        [
            "The employer, Isa Montoya Cerro S.L., confirmed that it holds payroll records.",
            "A neighbour, Araceli Canet Calvo, of Avenida Cristina 18, gave a statement.",
        ]
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert "Araceli Canet Calvo" in texts
    assert not [t for t in texts if "Montoya" in t]


def test_a_name_on_the_line_above_a_phone_or_email_is_proposed_above_the_floor() -> None:
    """A contact log's rows, one cell a line: the model finds no name in them."""
    pdf = simple_pdf(
        [
            "Contact log",
            "20 August 2023",
            "Cornelius Wiek",
            "+44 20 7946 0958",
            "18 August 2022",
            "Licensing Department",
            "records@example.org",
        ]
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")
    strict = marked_texts(pdf, detect(pdf, full(min_confidence={"person": 0.8})), "person")

    assert "Cornelius Wiek" in texts
    assert not [t for t in texts if "Licensing" in t]
    assert "Cornelius Wiek" not in strict  # a weak cue: under a stricter floor, not proposed


def test_a_name_in_a_table_row_is_proposed_without_the_header_above_or_the_next_cell() -> None:
    """The model reads "Email Jean-Luc Moreau" across the header row and "Hannah Schmidt
    Witness" across two cells, and misses Emily Brown in the column of the names it read."""
    pdf = simple_pdf(
        [
            "Party              Role            Phone              Email",
            "Jean-Luc Moreau    Plaintiff       +33 6 12 34 56 78  jl.moreau@orange.fr",
            "Hannah Schmidt     Witness         +49 30 901820      h.schmidt@gmx.de",
            "Emily Brown        Investigator    (312) 555-0199     ebrown@cityofchicago.org",
        ]
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert {"Jean-Luc Moreau", "Hannah Schmidt", "Emily Brown"} <= texts
    assert not [t for t in texts if re.search(r"Role|Witness|Plaintiff|@", t)]


def cells_pdf(rows: list[list[str]], columns: list[float]) -> bytes:
    """A page of table rows, each cell written on its own at its column's x."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for row, y in zip(rows, range(100, 800, 21), strict=False):
        for cell, x in zip(row, columns, strict=False):
            if cell:
                page.insert_text((x, y), cell, fontsize=10)
    return doc.tobytes()


def test_a_name_in_a_column_headed_as_people_is_proposed_and_a_forms_labels_are_not() -> None:
    pdf = cells_pdf(
        [
            ["Name", "Janine Hanel"],
            ["Marital Status", "Single"],
            [],
            [],
            [],
            ["Date", "Contact", "Channel", "Note"],
            *(
                ["20 August 2023", name, "site visit", "no answer"]
                for name in ("Gustav Kitzmann", "June Morris", "Ines Vidal", "Hugo Blanc")
            ),
            ["18 August 2022", "Licensing Department", "letter", "refund queried"],
        ],
        [64, 160, 300, 420],
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert {"Gustav Kitzmann", "June Morris", "Ines Vidal", "Hugo Blanc"} <= texts
    assert not [t for t in texts if re.search(r"Marital|Licensing|Contact|Name", t)]


def test_a_role_in_the_cell_below_a_name_is_not_read_as_its_next_line() -> None:
    """A table read a cell a line (OCR writes a scanned table so): the model reads
    "Hannah Schmidt\nWitness", and "Witness" must not become her surname."""
    pdf = simple_pdf(
        ["Witness", "Role", "Phone", "Emily Brown", "Investigator", "(312) 555-0199"]
        + ["Hannah Schmidt", "Witness", "+49 30 901820"]
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert "Hannah Schmidt" in texts
    assert not [t for t in texts if "Witness" in t]


def test_a_surname_written_first_in_a_record_is_one_name_with_its_given_name() -> None:
    pdf = simple_pdf(
        [
            "WILLIAMS, KAREN           DOB 04/12/1961        SSN 219-09-9999",
            "Gonzalez, Roberto         DOB: 11/30/1975       Tel. 217-544-8890",
            "Karen Williams was interviewed on 3 March; Ms. Williams declined to sign.",
        ]
    )

    groups = texts_by_group(pdf, detect(pdf, full()), "person")

    assert sorted(group_of(groups, "WILLIAMS, KAREN")) == [
        "Karen Williams",
        "WILLIAMS, KAREN",
        "Williams",
    ]
    assert ["Gonzalez, Roberto"] in groups.values()


def test_a_surname_in_capitals_before_the_given_name_the_model_read_is_part_of_the_name() -> None:
    """The model read "MARCUS T" alone: "JOHNSON" would have stayed visible."""
    pdf = simple_pdf(["SUBJECT: JOHNSON, MARCUS T.", "DOB: 03/14/1982", "THANKS, MARCUS"])

    people = people_in(pdf)

    assert "JOHNSON, MARCUS T" in people
    assert not any(name.startswith("THANKS") for name in people)


def test_a_rank_alone_is_no_name_and_a_hyphenated_given_name_is_proposed_whole() -> None:
    pdf = simple_pdf(
        [
            "This responds to your request. Zhang stated that the landlord refused repairs.",
            "Det. Sgt. Ana-Maria Kowalczyk-Brandt later contacted the landlord by phone.",
        ]
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert "Ana-Maria Kowalczyk-Brandt" in texts
    assert not [t for t in texts if "Det" in t or "Sgt" in t]


def test_a_person_the_model_reads_as_an_organisation_is_proposed_as_the_person_only() -> None:
    pdf = simple_pdf(
        [
            "Data subject: Mr Oluwaseun Adeyemi-Clarke",
            "Dr Siobhan Ni Bhriain confirmed that Mr Adeyemi-Clarke attended with his",
            "partner. Adeyemi-Clarke's employer, Northern Rail Ltd, was copied.",
            "Kind regards,",
            "Tomasz Wisniewski",
            "Information Governance Officer",
        ]
    )

    result = detect(pdf, full())

    organisations = marked_texts(pdf, result, "organization")
    assert not [t for t in organisations if "Adeyemi" in t or "Tomasz" in t]
    people = texts_by_group(pdf, result, "person")
    assert "Adeyemi-Clarke" in group_of(people, "Oluwaseun Adeyemi-Clarke")
    assert ["Tomasz Wisniewski"] in people.values()


def test_each_person_of_an_email_header_is_proposed_as_one_name() -> None:
    pdf = simple_pdf(
        [
            "From: Kowalski, Daniel (HUD) <daniel.kowalski@hud.gov>",
            "Sent: Tuesday, March 4, 2025 10:12 AM",
            "To: Okafor, Chinwe <cokafor@springfield-housing.org>; Lindqvist, Erik",
            "Cc: Brennan, Siobhan M. (OIG) <siobhan.m.brennan@hudoig.gov>; All Staff",
            "Subject: RE: Complaint from tenant at 88 Maple Ave",
        ]
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert {
        "Kowalski, Daniel",
        "Okafor, Chinwe",
        "Lindqvist, Erik",
        "Brennan, Siobhan M",
    } <= texts
    assert not [t for t in texts if re.search(r"Sent|Tuesday|Cc|Staff|Complaint", t)]


def test_a_person_in_a_records_field_is_proposed_and_their_surname_joins_them() -> None:
    pdf = simple_pdf(
        [
            "INCIDENT REPORT                          Case No. 24-018832",
            "Victim: NGUYEN, THI MAI (F, DOB 07/19/1988)",
            "Suspect: MCALLISTER, RYAN JAMES (M, DOB 02/03/1991)",
            "The victim stated that McAllister struck her. Nguyen was taken to hospital.",
            "Contact: Licensing Department, extension 4410",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert sorted(group_of(people, "MCALLISTER, RYAN JAMES")) == [
        "MCALLISTER, RYAN JAMES",
        "McAllister",
    ]
    assert sorted(group_of(people, "NGUYEN, THI MAI")) == ["NGUYEN, THI MAI", "Nguyen"]
    assert not [t for t in sum(people.values(), []) if "Licensing" in t]


def test_a_field_label_after_a_name_is_not_proposed_with_it() -> None:
    pdf = simple_pdf(
        [
            "PATIENT: Hendricks, Margaret A.        MRN: 00482913        DOB: 1952-11-08",
            "Attending: Dr. Rajesh Iyer              Admitted: 2024-03-02",
        ]
    )

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert {"Hendricks, Margaret A", "Rajesh Iyer"} <= texts
    assert not [t for t in texts if "MRN" in t or "Admitted" in t]


def test_a_name_with_particles_is_proposed_whole_and_its_surname_in_its_group() -> None:
    """The model reads "Ludwig" and "Berg" of "Ludwig van der Berg": "van der" left
    visible between two boxes would tell whose name was redacted."""
    pdf = simple_pdf(
        [
            "Name: Ludwig van der Berg                 DOB: 03/04/1970",
            "The complainant, Pieter de Vries, said that Ludwig van der Berg met him.",
            "Van der Berg denied it. Mr. de Vries disagreed.",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert sorted(group_of(people, "Van der Berg")) == [
        "Ludwig van der Berg",
        "Ludwig van der Berg",
        "Van der Berg",
    ]
    assert sorted(group_of(people, "Pieter de Vries")) == ["Pieter de Vries", "de Vries"]


def test_the_parties_of_a_court_caption_are_proposed_and_a_company_is_not() -> None:
    pdf = simple_pdf(
        [
            "UNITED STATES DISTRICT COURT",
            "JOHN DOE and MARIA ELENA RUIZ,",
            "        Plaintiffs,",
            "    v.                                        Civil Action No. 23-cv-01874",
            "ACME SECURITY SERVICES, LLC,",
            "        Defendant.",
            "Plaintiff Ruiz submitted her request on May 2, 2023.",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert ["JOHN DOE"] in people.values()
    assert sorted(group_of(people, "MARIA ELENA RUIZ")) == ["MARIA ELENA RUIZ", "Ruiz"]
    assert not [t for t in sum(people.values(), []) if "ACME" in t]


def test_a_signature_repeated_under_its_s_line_is_one_person() -> None:
    """The model reads "Thomas A. Wright\nThomas A. Wright" as one name of six words."""
    pdf = simple_pdf(
        [
            "DECLARATION OF THOMAS A. WRIGHT",
            "I, Thomas A. Wright, declare as follows.",
            "/s/ Thomas A. Wright",
            "Thomas A. Wright",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert len(people) == 1
    assert len(group_of(people, "Thomas A. Wright")) == 4


def test_a_team_signing_a_letter_is_not_a_name() -> None:
    pdf = simple_pdf(["We enclose the records you asked for.", "Regards,", "The Records Team"])

    assert not texts_by_group(pdf, detect(pdf, full()), "person")


def test_a_police_reports_parties_and_a_caseworker_are_proposed_and_tax_forms_are_not() -> None:
    """The model read nothing of "R/P Tavon Jefferies" and took "Ifeoma Nwosu" after
    "Case worker" for an organisation; "W-2 Wage" is a form and its title."""
    pdf = simple_pdf(
        [
            "R/P Tavon Jefferies stated that the vehicle was parked outside.",
            "V/ Ana Ruiz said she was hit.",
            "Case worker Ifeoma Nwosu visited the family.",
            "Victim's mother, Latoya Pierce, arrived at 0100.",
            "Attach the W-2 Wage and Tax Statement.",
        ]
    )

    people = people_in(pdf)

    assert {"Tavon Jefferies", "Ana Ruiz", "Ifeoma Nwosu", "Latoya Pierce"} <= set(people)
    assert not any("Wage" in name for name in people)


def test_a_name_after_its_part_in_the_case_written_as_a_title_is_proposed_whole() -> None:
    """The model read "Maria Elena" of "Plaintiff Maria Elena Ruiz" (her surname left
    visible), and neither "Tomasz Wójcik", "Ines Okafor" nor "Kateryna Bondarenko" after
    their parts or ranks; a document heading after a part ("Witness Statement Form") is
    no name."""
    pdf = simple_pdf(
        [
            "Witness Statement Form",
            "Plaintiff Maria Elena Ruiz alleges that the landlord failed to act.",
            "Defendant Tomasz Wójcik denies each allegation.",
            "Witness Ines Okafor saw him leave; Patient Care Plan attached.",
            "According to Nurse Kateryna Bondarenko, the patient slept.",
        ]
    )

    assert people_in(pdf) == [
        "Ines Okafor",
        "Kateryna Bondarenko",
        "Maria Elena Ruiz",
        "Tomasz Wójcik",
    ]


def test_the_people_a_case_is_titled_after_are_proposed_and_public_parties_are_not() -> None:
    """Criminal and probate files name people in the case's title, where the model
    reads none of them; the State, "In re" matters and a board are no names."""
    pdf = simple_pdf(
        [
            "Case: Commonwealth v. Darnell Washington",
            "In re the Estate of Harold P. Lindqvist, deceased",
            "Maria Elena Ruiz v. Acme Holdings LLC, No. 22-cv-114",
            "In re Grand Jury Subpoena; Brown v. Board of Education was cited.",
        ]
    )

    assert people_in(pdf) == [
        "Darnell Washington",
        "Harold P. Lindqvist",
        "Maria Elena Ruiz",
    ]


def test_names_beside_an_email_address_and_in_a_list_of_initials_are_proposed() -> None:
    """The model read none of "(Ana Lima)" after her address, "Tomás Ruiz" before his, nor
    "R Evans" after his rank, and only two of three initialled names in a list; an
    outline's lettered headings are no list of people."""
    pdf = simple_pdf(
        [
            "Requester: ana.lima@example.org (Ana Lima)",
            "From: Tomás Ruiz <t.ruiz@example.org>",
            "Minutes: present were J. Okafor (chair), L. Brandt and S. Iqbal.",
            "Attended: Ms J Kaur, DS R Evans",
            "Contents: A. Introduction, B. Scope and C. Methods",
        ]
    )

    found = {text.strip("()") for text in people_in(pdf)}
    named = {"Ana Lima", "Tomás Ruiz", "J. Okafor", "L. Brandt", "S. Iqbal", "Ms J Kaur", "R Evans"}
    assert named <= found
    assert not found & {"A. Introduction", "B. Scope"}


def test_a_forms_name_fields_are_proposed_part_by_part_and_other_names_are_not() -> None:
    """Forms split a name into fields, several to a line; the model read none of these
    parts. A file's or a company's name is no person's."""
    pdf = simple_pdf(
        [
            "Last Name: Okafor   First Name: Chinwe   MI: A",
            "Applicant's name: Priyanka Deshmukh",
            "Nom : DUPONT   Prénom : Jean-Pierre",
            "Apellidos: García López   Nombre: Lucía",
            "Vorname: Jürgen   Nachname: Weißmann",
            "File name: Report Final   Company name: Acme Holdings",
        ]
    )

    assert people_in(pdf) == [
        "Chinwe",
        "DUPONT",
        "García López",
        "Jean-Pierre",
        "Jürgen",
        "Lucía",
        "Okafor",
        "Priyanka Deshmukh",
        "Weißmann",
    ]


def test_the_names_of_filings_and_transcripts_are_proposed() -> None:
    """An electronic signature, an affiant's field, a deponent and a transcript's speaker,
    none of which the model read; counsel's role under the signature is no name."""
    pdf = simple_pdf(
        [
            "By: /s/ Tomasz Wojcik",
            "Counsel for Plaintiff",
            "Affiant: Rosalind Achterberg",
            "Deponent Siddharth Rao, being duly sworn, says:",
            "MS. OKONJO: Objection.",
        ]
    )

    assert [text.rstrip(":") for text in people_in(pdf)] == [
        "OKONJO",
        "Rosalind Achterberg",
        "Siddharth Rao",
        "Tomasz Wojcik",
    ]


def test_names_in_a_narrative_in_capitals_end_at_the_first_everyday_word() -> None:
    """In capitals every word after a cue looks like a name's: "KEISHA MOORE HAD THROWN"
    took "THROWN" for her surname, so "MOORE" alone was never proposed."""
    pdf = simple_pdf(
        [
            "UPON ARRIVAL I MADE CONTACT WITH THE R/P, TAVON JEFFERIES, WHO STATED THAT",
            "HIS GIRLFRIEND KEISHA MOORE HAD THROWN A BOTTLE AT HIM. MOORE WAS GONE.",
            "HE KNOWS THE SUSPECT AS DARNELL WASHINGTON.",
        ]
    )

    people = people_in(pdf)

    assert people == ["DARNELL WASHINGTON", "KEISHA MOORE", "MOORE", "TAVON JEFFERIES"]


def test_the_person_a_record_is_of_or_from_is_proposed_and_a_titles_words_are_not() -> None:
    """The model read nothing of "Quang Vo" in the interview's title."""
    pdf = simple_pdf(
        [
            "Interview of Quang Vo by Det. Ramirez",
            "Letter from Dimitrios Papadopoulos, received 4 May.",
            "See the Statement of Financial Position and the Declaration of Human Rights.",
        ]
    )

    people = people_in(pdf)

    assert {"Quang Vo", "Dimitrios Papadopoulos", "Ramirez"} <= set(people)
    assert not {"Financial Position", "Human Rights"} & set(people)


def test_a_person_in_a_table_cell_the_model_read_into_an_organisation_is_proposed() -> None:
    """Without a sentence around them the model read "KGaA", "Bonn" and "Jorge Pavón",
    three cells, as one organisation, and proposed no person."""
    pdf = simple_pdf(["Hoffmann Krause KGaA", "Bonn", "Jorge Pavón"])

    assert people_in(pdf) == ["Jorge Pavón"]


def test_a_name_under_signed_is_proposed() -> None:
    pdf = simple_pdf(["Signed", "Sofía Hernández López", "Date: 3/4/2024"])

    assert people_in(pdf) == ["Sofía Hernández López"]


def test_a_person_greeted_or_signing_by_given_name_alone_is_proposed_in_their_group() -> None:
    pdf = simple_pdf(
        [
            "To: Priya Raghunathan; Kowalski, Marek",
            "Hi Priya,",
            "Thanks Marek. The inspection is booked for Monday.",
            "Ewa Nowak from accounts is copied, as Ewa saw the damage.",
            "Kind regards",
            "Gwen",
            "Data Protection Team",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert sorted(group_of(people, "Priya Raghunathan")) == ["Priya", "Priya Raghunathan"]
    assert sorted(group_of(people, "Kowalski, Marek")) == ["Kowalski, Marek", "Marek"]
    assert sorted(group_of(people, "Ewa Nowak")) == ["Ewa", "Ewa Nowak"]
    assert ["Gwen"] in people.values()


def test_the_sign_offs_of_e_mails_and_military_letters_sign_with_a_name() -> None:
    pdf = simple_pdf(
        [
            "See the attached log.",
            "Thanks,",
            "Priya",
            "Noted, will do.",
            "Cheers,",
            "Tom Baker",
            "Approved as amended.",
            "V/R,",
            "Maj. Dana Ruiz",
            "Best",
            "Practices for the team are attached.",
        ]
    )

    assert people_in(pdf) == ["Dana Ruiz", "Priya", "Tom Baker"]


def test_greetings_and_sign_offs_to_no_one_name_no_one() -> None:
    pdf = simple_pdf(
        [
            "Dear Colleagues,",
            "Hi All,",
            "Dear Sir or Madam,",
            "The minutes are attached.",
            "Regards,",
            "Finance",
        ]
    )

    assert people_in(pdf) == []


def test_a_given_name_alone_joins_its_person_only_where_it_can_be_no_one_else() -> None:
    """A given name that is an everyday word ("Will", "Mark") is left as written; one
    before another surname is someone else ("Priya Shah")."""
    pdf = simple_pdf(
        [
            "The tenant, Will Harper, wrote to Mark Ellison and Priya Raghunathan.",
            "Will the office reply? Mark the date. Ellison answered on Monday.",
            "Priya Shah of the housing team was copied.",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert group_of(people, "Will Harper") == ["Will Harper"]
    assert sorted(group_of(people, "Mark Ellison")) == ["Ellison", "Mark Ellison"]
    assert group_of(people, "Priya Raghunathan") == ["Priya Raghunathan"]


def test_a_surname_after_an_officers_rank_is_proposed_and_what_follows_a_rank_else_is_not() -> None:
    pdf = simple_pdf(
        [
            "Officer Delgado interviewed the witness at the scene.",
            "Sgt. Okonkwo arrived at 2245 and SA Finley, who was off duty, followed.",
            "Every recruit completes Officer Safety training.",
            "The Inspector General said nothing further.",
        ]
    )

    assert people_in(pdf) == ["Delgado", "Finley", "Okonkwo"]


def test_a_name_a_cue_reads_inside_a_reading_of_the_model_across_lines_is_kept() -> None:
    """The model read "Sean\nOfficer Delgado" as one name; the reading is cut to its
    first line, and the rank's cue had read "Delgado" inside it."""
    pdf = simple_pdf(["Regards,", "Sean", "Officer Delgado interviewed the witness at the scene."])

    assert people_in(pdf) == ["Delgado", "Sean"]


def test_the_people_minutes_list_as_present_are_proposed_given_names_too() -> None:
    """The model reads a list of given names as places and organisations, or not at
    all; "Chloe" read as a place is the person the list names."""
    pdf = simple_pdf(
        [
            "Present: Joanna Wisniewska (HR Business Partner), Callum McAllister (employee),",
            "Declan Byrne (note taker).",
            "Attendees: Chloe, Raj and Wojciech",
            "Distribution: All Staff; Finance",
            "The notes were agreed. Chloe will circulate them.",
        ]
    )

    result = detect(pdf, full())

    people = texts_by_group(pdf, result, "person")
    named = {text for texts in people.values() for text in texts}
    assert {"Joanna Wisniewska", "Callum McAllister", "Declan Byrne", "Raj", "Wojciech"} <= named
    assert group_of(people, "Chloe") == ["Chloe", "Chloe"]
    assert not named & {"All Staff", "Finance", "HR Business Partner"}
    assert "Chloe" not in marked_texts(pdf, result, "location")


def test_the_people_a_record_lists_are_proposed_after_a_sentence_too() -> None:
    """The model read "Aisha Bello" and nothing of "Rhys Pritchard", so his surname
    alone on the next line was never proposed either."""
    pdf = simple_pdf(
        [
            "Kowalczyk denies this. Witnesses: Aisha Bello, Rhys Pritchard.",
            "Bello corroborated the account; Pritchard did not recall.",
            "Students: Amara O., Liam K., Zoe P.",
        ]
    )

    people = people_in(pdf)

    assert {"Aisha Bello", "Rhys Pritchard", "Pritchard", "Amara O"} <= set(people)


def test_a_person_named_in_brackets_after_their_part_is_proposed() -> None:
    pdf = simple_pdf(
        [
            "Per Dr. Ferreira, the patient (Yusuf) was discharged to his aunt.",
            "The complainant (Ms Eze) was not present; the tenant (ABC Lettings Ltd) was.",
        ]
    )

    people = [name.strip("()") for name in people_in(pdf)]

    assert "Yusuf" in people and any(name.endswith("Eze") for name in people)
    assert not any("ABC" in name for name in people)


def test_a_given_name_the_model_reads_as_an_organisation_or_a_place_is_a_person() -> None:
    """With organisations and places off, as FOIA policies often have them, a given
    name the model misread as one would be proposed as nothing at all."""
    pdf = simple_pdf(
        [
            "I spoke to Mohammed at the front desk and he said Siobhan had already left.",
            "My colleague Aleksandra checked the log. Yesenia from the clinic called.",
            "The council then moved its offices to Sydney in May.",
        ]
    )

    result = detect(pdf, full(categories=ALL_CATEGORIES - {"organization", "location"}))

    people = marked_texts(pdf, result, "person")
    assert {"Siobhan", "Aleksandra", "Yesenia"} <= people
    assert "Sydney" not in people
    assert not [m for m in result.marks if m.category in ("organization", "location")]


def _with_fonts_hyphen(lines: list[str]) -> bytes:
    """`lines` in Helvetica whose ToUnicode map reads "-" as U+2011, the non-breaking
    hyphen, as many producers' fonts write a name's hyphen."""
    doc = pymupdf.open()
    page = doc.new_page()
    for number, line in enumerate(lines):
        page.insert_text((72, 80 + 20 * number), line, fontname="helv")
    (font,) = [f[0] for f in page.get_fonts() if f[3] == "Helvetica"]
    cmap = doc.get_new_xref()
    doc.update_object(cmap, "<<>>")
    doc.update_stream(
        cmap,
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /U def "
        b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <2D> <2011> "
        b"endbfchar endcmap CMapName currentdict /CMap defineresource pop end end",
    )
    doc.xref_set_key(font, "ToUnicode", f"{cmap} 0 R")
    return doc.tobytes()


def test_a_given_name_is_no_word_of_its_own_inside_a_name_a_fonts_hyphen_joins() -> None:
    """A box over "Quan" of "Quan\u2011Yang" alone would leave "Yang" visible beside it
    (the release gate refused such an output: "Quan\u2011Yang Duh" in a guideline)."""
    pdf = _with_fonts_hyphen(
        ["The complainant, Quan Tran, wrote.", "We crossed the Quan-Yang bridge at noon."]
    )
    doc = pymupdf.open(stream=pdf)
    assert "Quan\u2011Yang" in doc[0].get_text()

    texts = marked_texts(pdf, detect(pdf, full()), "person")

    assert "Quan" not in texts


def test_a_company_named_after_people_and_a_tables_labels_are_not_names() -> None:
    """A company's legal form after the names it is made of ("Pavón y Hierro S.Com.",
    "Hoffmann Krause KGaA") makes it no person, nor does a table's "Employer" label run
    into the name above it; a doctor's degree after her name leaves her one."""
    doc = pymupdf.open()
    page = doc.new_page()
    lines = [
        "The claimant, Jorge Pavón, works for Pavón y Hierro S.Com. in Madrid.",
        "He was seen by Jane Doe, M.D., who wrote to Hoffmann Krause KGaA.",
    ]
    for number, line in enumerate(lines):
        page.insert_text((72, 80 + 20 * number), line, fontsize=10)
    rows = [("Name", "Hannah Schmidt"), ("Employer", "Hoffmann Krause KGaA"), ("City", "Bonn")]
    for number, (label, value) in enumerate(rows):
        page.insert_text((72, 200 + 20 * number), label, fontsize=10)
        page.insert_text((250, 200 + 20 * number), value, fontsize=10)
    pdf = doc.tobytes()

    assert people_in(pdf) == [
        "Hannah Schmidt",
        "Jane Doe",
        "Jorge Pavón",
    ]


def test_a_date_is_never_proposed_as_a_place_or_an_organisation() -> None:
    pdf = simple_pdf(REPORT_LINES)

    result = detect(pdf, full())

    for category in ("location", "organization"):
        texts = marked_texts(pdf, result, category)
        assert not [t for t in texts if not any(c.isalpha() for c in t)]


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
            "To: Okafor, Chinwe <cokafor@example.org>; NI number: QQ 12 34 56 C",
            "Witness            Role            Phone",
            "Emily Brown        Investigator    (312) 555-0199",
            "Hannah Schmidt     Witness         +49 30 901820",
            "Hi Priya, the plate ABC-1234 and VIN 1M8GDM9AXKP042788 are hers; MBI 1EG4-TE5-MK73.",
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
        "Okafor",
        "okafor",
        "QQ123456C",
        "Emily",
        "brown",
        "Schmidt",
        "Priya",
        "ABC",
        "1234",
        "1M8GDM9AXKP042788",
        "1EG4",
        "MK73",
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


def test_numbers_and_dates_the_model_reads_log_no_warning(caplog) -> None:
    """Before: Presidio logged "Entity CARDINAL is not mapped to a Presidio entity" for
    every number, date and sum the model read: thousands of warnings per document in a
    worker's log."""
    pdf = simple_pdf(
        [
            "On 3 March 2021 Jane Doe paid the first of 12 instalments of $450,",
            "15 percent of the 3,000 dollars owed under the Housing Act of 1937.",
        ]
    )

    with caplog.at_level(logging.INFO, logger="presidio-analyzer"):
        marks = detect(pdf, full()).marks

    assert "person" in {m.category for m in marks}
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_judges_surname_in_a_case_number_is_proposed_in_their_group() -> None:
    """Before: "CANNON" of "15-60185-CIV-CANNON/Hunt", in the header of every page of
    a Florida court's order, was taken for the end of a hyphenated name and stayed
    visible under the redacted signature "AILEEN M. CANNON" (the gate refused)."""
    pdf = simple_pdf(
        [
            "Case No. 15-60185-CIV-CANNON/Hunt",
            "The motion is granted. Signed by Mary Quan-Yang for Jean-Pierre Smith.",
            "AILEEN M. CANNON",
            "UNITED STATES DISTRICT JUDGE",
        ]
    )

    groups = [sorted(t) for t in texts_by_group(pdf, detect(pdf, full()), "person").values()]

    assert ["AILEEN M. CANNON", "CANNON"] in groups
    # A hyphen between letters still joins one name: no "Yang" or "Pierre" alone.
    assert ["Mary Quan-Yang"] in groups and ["Jean-Pierre Smith"] in groups


def test_a_hyphenated_name_broken_at_its_hyphen_onto_the_next_line_is_proposed_there_too() -> None:
    """Before: "Oyelaran-\nSmith" matched no written form of "Oyelaran-Smith" and
    stayed visible."""
    pdf = simple_pdf(["Mr Oyelaran-Smith attended. Later Oyelaran-", "Smith left early."])

    groups = texts_by_group(pdf, detect(pdf, full()), "person")

    assert ["Oyelaran-", "Oyelaran-Smith", "Smith"] in [sorted(t) for t in groups.values()]


def test_a_caption_party_before_their_part_on_one_line_is_proposed_and_the_state_is_not() -> None:
    """Before: only "MCALLISTER" was proposed (as the surname of the judgment's
    "McAllister"); "DESHAWN TERRELL" stayed visible."""
    pdf = simple_pdf(
        [
            "PEOPLE OF THE STATE OF CALIFORNIA, Plaintiff,",
            "v.",
            "DESHAWN TERRELL MCALLISTER, Defendant.",
            "STATE OF CALIFORNIA, Respondent.",
            "ACME CORPORATION, Defendant.",
            "The Court finds that defendant McAllister was present.",
        ]
    )

    people = texts_by_group(pdf, detect(pdf, full()), "person")

    assert sorted(group_of(people, "DESHAWN TERRELL MCALLISTER")) == [
        "DESHAWN TERRELL MCALLISTER",
        "McAllister",
    ]
    assert not [t for t in sum(people.values(), []) if {"STATE", "ACME"} & set(t.split())]


def test_names_after_italian_dutch_and_polish_titles_and_a_salutations_colon_are_proposed() -> None:
    """Before: none of these was proposed; "García:" read as a field's label."""
    pdf = simple_pdf(
        [
            "Estimada Sra. García: le informamos que la solicitud fue aceptada.",
            "Gentile Sig.ra Bianchi, la informiamo che il ricorso è stato accolto.",
            "Geachte Dhr. de Vries, hierbij ontvangt u het besluit.",
            "Szanowna Pani Nowak, w odpowiedzi na wniosek przesyłamy decyzję.",
        ]
    )

    people = {text.strip(":") for text in people_in(pdf)}

    assert {"García", "Bianchi", "Dhr. de Vries", "Pani Nowak"} <= people


def test_a_name_broken_with_a_soft_hyphen_is_proposed_whole_in_the_persons_group() -> None:
    """Before: "Wojcie-\nchowska" matched no written form of "Aleksandra Wojciechowska":
    "chowska" was proposed only as a place of its own, and after the cue's reading of
    "Aleksandra Wojcie-" nothing of the rest."""
    pdf = simple_pdf(
        [
            "Ms Aleksandra Wojciechowska complained. Later, the tenant Aleksandra Wojcie-",
            "chowska wrote again, and Wojcie-",
            "chowska said the boiler is broken.",
        ]
    )

    groups = texts_by_group(pdf, detect(pdf, full()), "person")

    hers = group_of(groups, "Aleksandra Wojciechowska")
    assert hers.count("chowska") == 2
    assert "Wojcie-" in hers


def test_a_surname_the_model_reads_as_a_place_joins_its_person_and_a_city_stays_a_place() -> None:
    """Before: "Okoro" alone was proposed as a place, in a group apart from "Tremaine
    Okoro", and so was "Tremaine" in the next sentence: the reviewer had to decide them
    apart. "London" after "to" stays a place; "Jack London" is still his own."""
    pdf = simple_pdf(
        [
            "Officer Brandt spoke with Tremaine Okoro at the residence. Okoro stated that",
            "he had not been home. I emailed Tremaine on Tuesday.",
            "Jack London wrote the letter before he flew to London.",
        ]
    )

    result = detect(pdf, full())

    people = texts_by_group(pdf, result, "person")
    assert sorted(group_of(people, "Tremaine Okoro")) == ["Okoro", "Tremaine", "Tremaine Okoro"]
    places = {t for texts in texts_by_group(pdf, result, "location").values() for t in texts}
    assert "London" in places


def test_a_name_whose_affiliation_marks_run_on_is_proposed_with_the_rest() -> None:
    """A paper's byline runs each author's affiliation marks on ("Bastien1,2*"); the name
    the model read elsewhere was proposed there, not in the byline, and the gate found
    it unredacted in the content stream."""
    pdf = simple_pdf(
        [
            "Renaud Bastien1,2*, Olivia Guayasamin1,2",
            "Citation: Renaud Bastien wrote the report with Olivia Guayasamin.",
            "Contact renaud.bastien2@example.org for the data.",
        ]
    )

    groups = texts_by_group(pdf, detect(pdf, full()), "person")

    assert sorted(group_of(groups, "Renaud Bastien")) == ["Renaud Bastien", "Renaud Bastien"]
    assert not any("bastien2" in text for texts in groups.values() for text in texts)


def test_a_page_holding_half_of_a_character_is_read_by_the_model_all_the_same() -> None:
    """A lone surrogate (a mathematical letter some fonts map to half of one) is no
    UTF-8: spaCy's tokenizer refused the whole page (a paper in papermage's fixtures)."""
    text = "The author Jane Doe writes \ud835 for the weight of a node."

    hits = Finder(full()).hits(text)

    people = {text[hit.start : hit.end] for hit in hits if hit.category == "person"}
    assert "Jane Doe" in people


def test_a_name_whose_greek_affiliation_mark_runs_on_is_proposed_with_the_rest() -> None:
    """A byline marks affiliations with Greek letters ("Kuehlα", papermage's paper): the
    name proposed in the references stayed in the byline, and the gate found it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_font(fontname="F1", fontbuffer=pymupdf.Font("tiro").buffer)  # with Greek
    for y, line in (
        (100, "Rodney Kuehlα, Amanpreet Singhβ"),
        (130, "References: Rodney Kuehl wrote the report with Amanpreet Singh."),
        (160, "The word Kuehlαβγ stays as it is."),
    ):
        page.insert_text((72, y), line, fontname="F1", fontsize=11)
    pdf = doc.tobytes()

    groups = texts_by_group(pdf, detect(pdf, full()), "person")

    # The byline's name with its mark or without (as the model or the pattern reads it).
    for name, mark in (("Rodney Kuehl", "α"), ("Amanpreet Singh", "β")):
        byline, citation = sorted(group_of(groups, name), key=len, reverse=True)
        assert (byline.removesuffix(mark), citation) == (name, name)
    assert not any("αβγ" in text for texts in groups.values() for text in texts)
