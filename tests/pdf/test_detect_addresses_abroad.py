"""review.pdf.detect: street addresses as the rest of Europe writes them, whole address
blocks over several lines, and phone numbers after their label in a plan the policy does
not read. Real one-page PDFs, pattern mode (no language model), US phone plan only."""

from __future__ import annotations

import re

import pymupdf
import pytest

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.patterns import CUE_BUT_INVALID

POLICY = DetectionPolicy(salt=b"test-salt-not-secret", ocr=False, phone_regions=("US",))
# MuPDF's own Noto Serif, embedded: Greek and every Latin letter of the EU's languages
# ("ī", "ř", "ș"), which the base-14 fonts of `simple_pdf` cannot write.
NOTO = pymupdf.Font(language="el")


def unicode_pdf(lines: list[str]) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_font(fontname="noto", fontbuffer=NOTO.buffer)
    for n, line in enumerate(lines):
        page.insert_text((72, 90 + 16 * n), line, fontname="noto", fontsize=11)
    return doc.tobytes()


def squash(text: str) -> str:
    """Without white space, and without the punctuation a box takes along at either end
    (a word's box covers "94," whole)."""
    return re.sub(r"^\W+|\W+$", "", re.sub(r"\s", "", text))


def marked(lines: list[str], category: str) -> list[str]:
    """The text under each group of `category`, its boxes read back in order."""
    pdf = unicode_pdf(lines)
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    page = doc[0]
    groups: dict[str, list[str]] = {}
    for mark in detect(pdf, POLICY).marks:
        if mark.category == category:
            rect = pymupdf.Rect(
                mark.box.x0 * page.rect.width,
                mark.box.y0 * page.rect.height,
                mark.box.x1 * page.rect.width,
                mark.box.y1 * page.rect.height,
            )
            groups.setdefault(mark.group, []).append(page.get_textbox(rect))
    return [squash("".join(texts)) for texts in groups.values()]


@pytest.mark.parametrize(
    "block",
    [
        # the type glued to the name: Finnish, Swedish, Danish, Norwegian
        ["Koskikatu 25 A 5", "00100 Helsinki", "Finland"],
        ["Drottninggatan 5", "111 51 Stockholm"],
        ["Vesterbrogade 10, 1620 København V"],
        ["Breivangvegen 38, 9010 Tromsø"],
        # the type apart: Norwegian, Hungarian, Latvian, Lithuanian
        ["Karl Johans gate 22", "0159 Oslo"],
        ["Erzsébet tér 19.", "1051 Budapest"],
        ["Kálmán Imre u. 12.", "Apt. 762", "1054 Budapest", "Hungary"],
        ["Brīvības iela 12, LV-1050 Rīga"],
        ["Vilniaus g. 5, LT-01119 Vilnius"],
        # French streets with the number after the name: Belgium, Switzerland
        ["Rue de la Loi 16, 1000 Bruxelles"],
        ["Chaussée de Waterloo 1135", "1180 Uccle"],
        ["Rue du Rhône 42, 1204 Genève"],
        # the type first: Greek, Romanian
        ["Λεωφόρος Συγγρού 119", "117 45 Αθήνα"],
        ["Strada Lipscani 12, 030031 București"],
        # no type word at all: a line of its own with a town's postcode or a country below
        ["Pärna 33", "10111 Tallinn", "Estonia"],
        ["Tylova 285", "530 02 Pardubice"],
        # the lines below a street the patterns already knew
        ["14 Crown Street", "Suite 321", "London", "United Kingdom"],
        ["Søndergade 52", "Apt. 656", "Brønderslev", "Denmark 9700"],
        ["39 Rue Ibn El-Jazzar Apt. 243", "Cité Belle Vue", "Tunisia"],
    ],
)
def test_address_block_is_marked_as_one_address(block: list[str]) -> None:
    assert marked(["Please write to the tenant at:", *block, "Thank you."], "address") == [
        squash("".join(block))
    ]


@pytest.mark.parametrize(
    "address",
    [
        "Ilica 10, 10000 Zagreb",
        "Hlavná 5, 040 01 Košice",
        "Grand-Rue 1, L-1661 Luxembourg",
        "Am Markt 3, 28195 Bremen",
        "Václavské náměstí 1, 110 00 Praha 1",
        "Triq il-Merkanti 5, Valletta VLT 1171",
        "Leoforos Makariou 5, 1065 Nicosia",
    ],
)
def test_street_without_type_word_and_its_postcode_on_one_line_is_marked(address: str) -> None:
    assert marked([f"The records name {address} as the site."], "address") == [squash(address)]


def test_a_heading_number_and_a_year_on_one_line_are_no_address() -> None:
    assert marked(["See Chapter 5, 2019 Report and Version 2, 2021 Edition."], "address") == []


@pytest.mark.parametrize(
    ("line", "address"),
    [
        ("She lives at Kaevu 94, and works nearby.", "Kaevu 94"),
        ("Tilly Nicholson lives at Μεγάλη Άμμος 184, ΠΑΦΟΣ", "Μεγάλη Άμμος 184"),
        ("My new address is Jagerij 64 in the old town.", "Jagerij 64"),
        ("Please return it to Příční 1429 by Friday.", "Příční 1429"),
    ],
)
def test_street_after_an_address_cue_is_marked(line: str, address: str) -> None:
    assert squash(address) in marked([line], "address")


def test_address_block_stops_before_the_greeting() -> None:
    found = marked(["Koskikatu 25", "00100 Helsinki", "Dear Sir,", "Thank you."], "address")
    assert found == [squash("Koskikatu 25 00100 Helsinki")]


@pytest.mark.parametrize(
    "lines",
    [
        ["On 21 March 2021 Mr Walton signed the lease."],
        ["The tenant (DOB 10 June 1943) moved out."],
        ["She was born on March 14, 1985 in Ohio."],
        ["Chapter 12", "Annual Report"],
        ["Invoice 2023", "Total due 1450"],
        ["Volume 3", "Page 17"],
        ["The appeal was returned to Section 5 of the agency."],
        ["Please send the records to Docket 2291 for filing."],
        ["Cat. No. 20975C", "Form 1040-V (2013)"],  # an IRS form's footer
    ],
)
def test_dates_and_numbered_headings_are_no_address(lines: list[str]) -> None:
    assert marked(lines, "address") == []


@pytest.mark.parametrize(
    "line",
    [
        "Phone: 72 128 827",
        "Mobile: 0688 872 49 99",
        "Tel. (37) 788-063",
        "Phone:\t60-56-85-91",
    ],
)
def test_number_after_a_phone_label_in_an_unread_plan_is_proposed_with_its_reason(
    line: str,
) -> None:
    pdf = unicode_pdf([line])
    phones = [m for m in detect(pdf, POLICY).marks if m.category == "phone"]
    assert len(phones) == 1
    assert phones[0].needs_manual_review == CUE_BUT_INVALID
    assert phones[0].confidence < 0.5


@pytest.mark.parametrize(
    "lines",
    [
        ["Paxata", "416 60 039 office", "+1-984-182-0190 mobile"],
        ["Domoszló", "(37) 788-063-Office,07700 063 966-Fax"],
    ],
)
def test_number_its_phone_label_follows_in_an_unread_plan_is_proposed_with_its_reason(
    lines: list[str],
) -> None:
    """A signature block's numbers with their label after them: before, the numbers no
    US plan reads stayed visible."""
    pdf = unicode_pdf(lines)
    phones = [m for m in detect(pdf, POLICY).marks if m.category == "phone"]
    weak = [m for m in phones if m.needs_manual_review == CUE_BUT_INVALID]
    assert len(weak) == 2
    assert all(m.confidence < 0.5 for m in weak)


def test_a_year_range_before_work_is_no_phone() -> None:
    assert marked(["The 2019-2020 work plan was approved."], "phone") == []


@pytest.mark.parametrize("line", ["Please call on 14 June", "Phone 2019 budget"])
def test_a_day_or_a_year_after_a_phone_label_is_no_phone(line: str) -> None:
    assert marked([line], "phone") == []


@pytest.mark.parametrize(
    "number",
    ["+41 (0)44 668 18 00", "+49 (0)30 12345678", "+41 (0)96 471 07 95"],
)
def test_international_number_with_its_trunk_zero_in_brackets_is_a_phone(number: str) -> None:
    assert marked([f"You can reach our Zurich office on {number} today."], "phone") == [
        squash(number)
    ]
