"""review.pdf.detect: every detector's hits and near misses, boxes that land on the
matched characters on any page geometry, OCR and its fallback, grouping, determinism,
and that no matched text ever sits in a Mark."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pytest

from review.pdf import nlp, ocr
from review.pdf.detect import (
    DETECTOR_VERSION,
    NEEDS_MANUAL_REVIEW,
    NO_TEXT_LAYER,
    DetectionError,
    DetectionPolicy,
    DetectionResult,
    Mark,
    OcrUnfinished,
    detect,
)
from review.pdf.geometry import Box, normalize, page_rect
from review.pdf.ocr import ocr_available
from testkit import corpus
from testkit.corpus import labelled_corpus, simple_pdf

SALT = b"test-salt-not-secret"
PATTERN_RECALL = 0.99
SEARCH_RECALL = 0.95


def policy(**overrides: object) -> DetectionPolicy:
    options: dict = {"salt": SALT, "search_terms": corpus.SEARCH_TERMS, "ocr": False}
    options.update(overrides)
    return DetectionPolicy(**options)


def squash(text: str) -> str:
    """Compare texts ignoring whitespace, hyphens (line-break hyphens) and case."""
    return re.sub(r"[\s\-]", "", text).casefold()


def core(text: str) -> str:
    """squash() without the punctuation a box may take along at either end: boxes
    cover a whole word when the rest of it is only punctuation ("Holdings.")."""
    return re.sub(r"^\W+|\W+$", "", squash(text))


def groups_of(result: DetectionResult) -> dict[tuple[int, str], list[Mark]]:
    out: dict[tuple[int, str], list[Mark]] = defaultdict(list)
    for mark in result.marks:
        out[(mark.page, mark.group)].append(mark)
    return out


def box_text(doc: pymupdf.Document, mark: Mark) -> str:
    """The page text inside the mark's box, read back with PyMuPDF."""
    page = doc[mark.page]
    return page.get_textbox(page_rect(page, mark.box))


def clip_text(doc: pymupdf.Document, mark: Mark) -> str:
    """box_text() for bulk use: get_textbox walks every char of the page in Python
    (~20 ms a call); a clipped extraction gives the same text far faster."""
    page = doc[mark.page]
    return page.get_text("text", clip=page_rect(page, mark.box))


def group_text(
    doc: pymupdf.Document,
    marks: list[Mark],
    read: Callable[[pymupdf.Document, Mark], str] = box_text,
) -> str:
    return "".join(read(doc, m) for m in marks)


def categories_found(lines: list[str], **overrides: object) -> list[str]:
    return [m.category for m in detect(simple_pdf(lines), policy(**overrides)).marks]


def found_values(lines: list[str], category: str) -> list[str]:
    """Re-extracted text of each hit of `category` on a one-page document."""
    return found_values_in(simple_pdf(lines), category)


def found_values_in(pdf: bytes, category: str) -> list[str]:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    result = detect(pdf, policy())
    return [
        group_text(doc, marks).strip()
        for marks in groups_of(result).values()
        if marks[0].category == category
    ]


# ------------------------------------------------------------------ per detector


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("Claimant 123-45-6789 signed", "123-45-6789"),
        ("SSN:219-09-9998 on file", "219-09-9998"),
        ("SSN 123456789 on file", "123456789"),
        ("social security no. 123 45 6789", "123 45 6789"),
    ],
)
def test_valid_ssn_is_marked(line: str, value: str) -> None:
    assert value in found_values([line], "ssn")


@pytest.mark.parametrize(
    "line",
    [
        "Ref 000-12-3456",  # area 000
        "Ref 666-12-3456",  # area 666
        "Ref 912-34-5678",  # area 9xx
        "Ref 123-00-4567",  # group 00
        "Ref 123-45-0000",  # serial 0000
        "Ref 078-05-1120",  # the Woolworth wallet card
    ],
)
def test_ssn_with_invalid_range_is_not_marked(line: str) -> None:
    assert "ssn" not in categories_found([line])


@pytest.mark.parametrize("value", ["219-09-9999", "666-45-6789", "900-45-6789", "000123456"])
def test_number_after_an_ssn_cue_that_is_no_valid_ssn_is_proposed_weakly_with_a_reason(
    value: str,
) -> None:
    result = detect(simple_pdf([f"SSN {value} on file"]), policy())

    (mark,) = [m for m in result.marks if m.category == "ssn"]
    assert mark.confidence < 0.5
    assert mark.needs_manual_review == "follows_cue_not_valid"


def test_an_ssn_masked_but_for_its_last_four_digits_is_proposed_weakly_with_a_reason() -> None:
    """A bankruptcy petition (freelawproject's bankruptcy-parser assets) gives "Only the
    last 4 digits of your Social Security number": "xxx-xx-7472" was proposed nowhere."""
    lines = [
        "Social Security number xxx-xx-7472 and XXX-XX-2433",
        "Order 123-xx-4567 A-xxx-xx-1234",
    ]
    result = detect(simple_pdf(lines), policy())

    ssns = [m for m in result.marks if m.category == "ssn"]
    assert len(ssns) == 2
    assert {m.needs_manual_review for m in ssns} == {"masked_ssn_last_four"}
    assert all(m.confidence <= 0.5 for m in ssns)
    assert "7472" not in repr(result.marks)  # the mark carries a hash, never the value


def test_itin_is_marked_as_itin_not_as_ssn() -> None:
    assert found_values(["ITIN 912-70-1234 issued"], "itin") == ["912-70-1234"]
    assert "ssn" not in categories_found(["ITIN 912-70-1234 issued"])


def test_undashed_nine_digits_without_cue_are_not_an_ssn() -> None:
    assert "ssn" not in categories_found(["Tracking number 123456789 shipped"])


def test_glued_ssn_box_covers_the_number_not_the_label() -> None:
    pdf = simple_pdf(["SSN:123-45-6789 on record"])
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    (mark,) = [m for m in detect(pdf, policy()).marks if m.category == "ssn"]
    assert box_text(doc, mark).strip() == "123-45-6789"


@pytest.mark.parametrize(
    "value",
    [
        "jane.doe@example.com",
        "neil+filing@mail.example.co.uk",
        # written out against harvesters
        "jane.doe [at] example [dot] com",
        "jane.doe(at)example.org",
        "jane dot doe at example dot org",
        # several local parts before one domain, as papers list their authors
        "{gal,brendan,shaver}@mozilla.com",
        "{mohammad.r.haghighat}@intel.com",
    ],
)
def test_email_is_marked(value: str) -> None:
    assert value in found_values([f"Write to {value} today."], "email")


def test_email_at_a_line_end_stops_at_its_last_character() -> None:
    pdf = simple_pdf(["Write to records@springfield-housing.gov.", "Please reply soon."])

    assert found_values_in(pdf, "email") == ["records@springfield-housing.gov."]


@pytest.mark.parametrize(
    "line",
    [
        "Meet @ noon",
        "handle @example",
        "file name.txt@2x",
        "a@b",
        "Look at www.example.org for the form",
        "meet at 5 (at the latest)",
    ],
)
def test_text_with_at_sign_that_is_no_address_is_not_marked(line: str) -> None:
    assert "email" not in categories_found([line])


@pytest.mark.parametrize(
    "value",
    [
        "(202) 555-0143",
        "202-555-0143",
        "+1 202 555 0143",
        "202.555.0143",
        "+442071838750",
        "+44 20 7183 8750",
        "345-899-3560x4587",
        "001-238-883-6859x57489",
        "(565)408-8995x790",
        "(045) 408-8995",
        # The label's ten digits "171 1234567" are part of the whole number.
        "+49 (0)171 1234567",
    ],
)
def test_phone_number_is_marked(value: str) -> None:
    assert value in found_values([f"Phone {value} (desk)"], "phone")


@pytest.mark.parametrize(
    "line",
    [
        "Extension 555-0143 internally",  # seven digits, no area code, no phone label
        "Area 123-555-0143 is not a valid area code",
        "Serial 2025550143 has no separators",
        "Score +12 points",
    ],
)
def test_number_that_is_no_phone_is_not_marked(line: str) -> None:
    assert "phone" not in categories_found([line])


def test_phone_plans_stay_compiled_however_many_other_patterns_are_compiled() -> None:
    """Given detection's phone matcher loaded, when more patterns than `re`'s cache
    holds are compiled in between, then a plan's pattern is still the one compiled
    before: phonenumbers keeps its own (else it recompiles per candidate)."""
    import phonenumbers.re_util

    from review.pdf import nlp  # noqa: F401 - loading detection enables the cache

    plan = r"(?:[2-9]\d{2})[2-9]\d{6}"
    first = phonenumbers.re_util.re_compile(plan)
    for n in range(re._MAXCACHE + 10):  # type: ignore[attr-defined]
        re.compile(f"unrelated-{n}")
    assert phonenumbers.re_util.re_compile(plan) is first


@pytest.mark.parametrize("ner", [False, True])
def test_a_phone_in_a_table_cell_is_read_apart_from_the_next_cell(ner: bool) -> None:
    """Given a contact log whose cells extract one per line, the number and the next
    row's date run together in the flowing text ("05 59 96 09 02 13"); the number is
    still read, in both modes, and a number wrapped inside its cell stays whole."""
    pdf = simple_pdf(
        [
            "Contact log",
            "20 November 2022",
            "05 59 96 09 02",
            "13 December 2021",
            "Tel +33 (0)4 88 15 67",
            "09",
            "23 January 2024",
        ]
    )
    doc = pymupdf.open(stream=pdf, filetype="pdf")

    result = detect(pdf, policy(ner=ner, phone_regions=("FR",)))

    phones = [m for m in result.marks if m.category == "phone" and m.confidence >= 0.5]
    texts = {group_text(doc, [m]).strip() for m in phones}
    assert {"05 59 96 09 02", "+33 (0)4 88 15 67", "09"} <= texts
    assert len({m.group for m in phones}) == 2


def test_a_possible_number_after_a_phone_label_is_proposed_weakly_with_a_reason() -> None:
    result = detect(simple_pdf(["Dial 555-0143 internally"]), policy())

    (mark,) = [m for m in result.marks if m.category == "phone"]
    assert mark.confidence < 0.5
    assert mark.needs_manual_review == "follows_cue_not_valid"


@pytest.mark.parametrize(
    "value",
    [
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "5555555555554444",
        "3782 822463 10005",
        "5018 0000 0009",  # Maestro, 12 digits
        "180000000000002",  # JCB, 15 digits
        "213100000000001",  # JCB, 15 digits
    ],
)
def test_luhn_valid_card_number_is_marked(value: str) -> None:
    assert value in found_values([f"Card {value} on file"], "card")


@pytest.mark.parametrize(
    "line",
    [
        "Card 4111 1111 1111 1112 on file",
        "Order 1234567890123456",
        "Code 0000 0000 0000 0000",
        "Order 123456789015",  # Luhn-valid twelve digits, no Maestro prefix
    ],
)
def test_card_number_failing_luhn_or_issuer_check_is_not_marked(line: str) -> None:
    assert "card" not in categories_found([line])


@pytest.mark.parametrize(
    "value",
    [
        "GB82WEST12345698765432",
        "GB82 WEST 1234 5698 7654 32",
        "DE89370400440532013000",
        "gb82 west 1234 5698 7654 32",
        "DE89-3704-0044-0532-0130-00",
    ],
)
def test_iban_with_valid_check_digits_is_marked(value: str) -> None:
    assert value in found_values([f"Pay to {value} now"], "iban")


@pytest.mark.parametrize("line", ["Pay to GB83WEST12345698765432 now", "Pay to GB82WEST1234 now"])
def test_iban_with_bad_check_digits_or_length_is_not_marked(line: str) -> None:
    assert "iban" not in categories_found([line])


@pytest.mark.parametrize(
    ("line", "value"),
    [("NI number AB 12 34 56 C", "AB 12 34 56 C"), ("Ref AB123456C", "AB123456C")],
)
def test_uk_national_insurance_number_is_marked(line: str, value: str) -> None:
    assert found_values([line], "uk_nino") == [value]


@pytest.mark.parametrize(
    "line", ["Ref GB123456C", "Code QQ123456C", "Code AO123456C", "Ref AB123456E"]
)
def test_uk_national_insurance_lookalike_is_not_marked(line: str) -> None:
    assert "uk_nino" not in categories_found([line])


def test_a_national_insurance_number_after_its_label_that_breaks_the_rules_is_proposed_weakly() -> (
    None
):
    result = detect(simple_pdf(["NI number: QQ 12 34 56 C"]), policy())

    (mark,) = [m for m in result.marks if m.category == "uk_nino"]
    assert mark.confidence < 0.5
    assert mark.needs_manual_review == "follows_cue_not_valid"


def test_a_number_proposed_for_its_label_is_proposed_where_it_stands_without_it() -> None:
    """A number valid in no plan, proposed weakly after its label, is the same number in
    a contact log's cell or a copy written otherwise: one group."""
    pdf = simple_pdf(
        [
            "Witness: June Morris, tel 01632 960375",
            "Contact log",
            "(01632) 960 375",
            "SSN 219-09-9999 on the form; the copy reads 219 09 9999.",
            "Order 2190999990 shipped",
        ]
    )

    result = detect(pdf, policy(phone_regions=("US", "GB")))

    weak: dict[str, list[str]] = defaultdict(list)
    for mark in result.marks:
        assert mark.needs_manual_review == "follows_cue_not_valid"
        weak[mark.category].append(mark.group)
    assert len(weak["phone"]) == 2 and len(set(weak["phone"])) == 1
    assert len(weak["ssn"]) == 2 and len(set(weak["ssn"])) == 1
    assert set(weak) == {"phone", "ssn"}


def test_an_identifier_proposed_for_its_label_is_proposed_where_it_stands_without_it() -> None:
    """The patient's MRN, account and passport numbers, labelled once, are theirs in the
    lab sheet, the billing line and the travel note too: as strong, one group each. A
    longer number holding the digits is not the identifier."""
    pdf = simple_pdf(
        [
            "MRN: 4829173",
            "Account No. 55501234987",
            "Passport number: 533380006",
            "Lab sheet 4829173 collected; batch 148291730 discarded",
            "Billing ref 555-0123-4987 settled",
            "Travel note: document 533380006 seen",
        ]
    )

    result = detect(pdf, policy())

    groups: dict[str, set[str]] = defaultdict(set)
    for mark in result.marks:
        groups[mark.category].add(mark.group)
    by_category = defaultdict(list)
    for mark in result.marks:
        by_category[mark.category].append(mark)
    for category in ("medical_record", "account_number", "passport_number"):
        marks = by_category[category]
        assert len(marks) == 2, category
        assert len(groups[category]) == 1, category
        assert {m.confidence for m in marks} == {0.7}, category
        assert {m.needs_manual_review for m in marks} == {None}, category


def test_a_day_after_a_phone_word_is_not_a_phone() -> None:
    lines = ["Notes from the call on 14 June: the tenant rang back on 16 June."]

    regions = ("US", "GB", "DE", "FR", "ES")

    assert "phone" not in categories_found(lines, phone_regions=regions)


def test_nhs_number_after_its_cue_is_checked_by_mod_11() -> None:
    result = detect(simple_pdf(["NHS number 943 476 5919", "NHS no. 943 476 5918"]), policy())

    first, second = sorted({m.box.y0 for m in result.marks})
    assert [(m.category, m.confidence) for m in result.marks if m.box.y0 == first] == [
        ("uk_nhs", 0.95)
    ]
    # The number failing its check is still proposed: read as a phone, the stronger reading.
    assert [m.category for m in result.marks if m.box.y0 == second] == ["phone"]


@pytest.mark.parametrize(
    "address",
    [
        "1777 Kramer Court, Johnsonfurt, NE 80119",
        "083 Crosby Plaza Apt. 533, Farleytown, MT 73436",
        "Flat 37, Bennett Mall, East Harrietport, N8 8HN",
        "17 Jones Light, North Holly, S6 7LJ",
        "Beckergasse 8, 63608 Zschopau",
        "87, rue de Barre, 29793 Samson",
        "Paseo de Ágata Cabo 24, Toledo, 47608",
        "451 7th Street S.W., Washington, DC 20410",
        "1600 Pennsylvania Avenue NW, Washington, DC 20500",
        "350 5th Ave, New York, NY 10118",
        "PO Box 1234, Austin, TX 78701",
        "Rural Route 2, Box 17, Elk City, OK 73644",
        "P.O. Box 77, London W1A 1AA",
        "Calle Mayor 10, 3º B, 28013 Madrid",
        "Calle de Alcalá 48, 3º izq., 28014 Madrid",
        "Calle Mayor 5, 2º dcha., 28013 Madrid",
        # Italy, the Netherlands, Poland, Portugal, Ireland, Canada, Australia
        "Via Giuseppe Verdi, 12, 20121 Milano (MI)",
        "Piazza Ruggiero, 26, 20157, Vialba (MI)",
        "Keizersgracht 123, 1015 CJ Amsterdam",
        "Burgemeester de Vlugtlaan 125, 1063 BJ Amsterdam",
        "Jolieboulevard 10, 4728 CG, Harskamp",
        "ul. Brzozowa 10/03, 31-615 Bydgoszcz",
        "al. Jana III Sobieskiego 93/28, 61-645 Turek",
        "Rua das Flores, 37, 4050-265 Porto",
        "Alameda de São Miguel, 46, 7494-032 Amora",
        "12 Main Street, Ballina, Co. Mayo, F26 X2Y3",
        "81 Cahir Street, Y39 9YTY",
        "290 Bremner Blvd, Toronto, ON M5V 3L9",
        "Unit 4, 22 Ocean Parade, Coogee NSW 2034",
        # in capitals, as police and court records write them
        "4821 N KEDZIE AVE APT 3B, CHICAGO, IL 60625",
        "2210 W. 18TH ST",
        "FLAT 2, 14 GROVE ROAD, LEEDS LS6 2AP",
    ],
)
def test_street_address_is_marked_whole(address: str) -> None:
    assert found_values([f"The complainant lives at {address} since May."], "address") == [address]


@pytest.mark.parametrize(
    "line",
    [
        "Chapter 12 Annual Report Summary follows",
        "as Jones et al. Nature 2019 showed",
        "sent via Royal Mail 2 days ago",
        "the Park 3 car park was closed",
    ],
)
def test_number_and_capitalised_words_without_a_street_type_are_no_address(line: str) -> None:
    assert "address" not in categories_found([line])


def test_ein_after_cue_is_marked_with_higher_confidence_than_prefix_only() -> None:
    result = detect(simple_pdf(["EIN 12-3456789", "Code 12-3456780"]), policy())
    by_conf = sorted((m.confidence, m.detector) for m in result.marks if m.category == "ein")
    assert [d for _, d in by_conf] == ["regex.ein_prefix", "regex.ein_cue"]


def test_ein_shaped_number_with_unissued_prefix_and_no_cue_is_not_marked() -> None:
    assert "ein" not in categories_found(["Code 07-3456789 and 89-1234567"])


@pytest.mark.parametrize(
    ("line", "value"),
    [
        ("DOB: 03/14/1985", "03/14/1985"),
        ("Date of birth 1985-03-14", "1985-03-14"),
        ("She was born on March 14, 1985 in Ohio", "March 14, 1985"),
        ("Birth date 14 March 1985", "14 March 1985"),
        # as German, French, Spanish, Italian, Dutch and Portuguese records write it
        ("Geburtsdatum: 14. März 1985", "14. März 1985"),
        ("geb. 14.03.1985 in Köln", "14.03.1985"),
        ("née le 1er mars 1985 à Lyon", "1er mars 1985"),
        ("Fecha de nacimiento: 14 de marzo de 1985", "14 de marzo de 1985"),
        ("nato il 14 marzo 1985 a Roma", "14 marzo 1985"),
        ("geboren op 14 maart 1985", "14 maart 1985"),
        ("data de nascimento: 14 de março de 1985", "14 de março de 1985"),
    ],
)
def test_date_after_birth_cue_is_marked(line: str, value: str) -> None:
    assert value in found_values([line], "dob")


@pytest.mark.parametrize(
    "line",
    [
        "Hearing on 03/14/1985 was adjourned",  # no cue
        "DOB: 13/32/1985",  # not a date
        "DOB unknown; the file was opened long after, on 03/14/1985",  # date too far away
        "The nature of the hearing on 14 May 2020 was national",  # no cue, cue-like words
    ],
)
def test_date_without_nearby_birth_cue_is_not_marked(line: str) -> None:
    assert "dob" not in categories_found([line])


@pytest.mark.parametrize(
    ("line", "category", "value"),
    [
        ("Account no. 0012345678", "account_number", "0012345678"),
        ("Acct #: 4455-667788", "account_number", "4455-667788"),
        ("Policy number POL-2023-000123", "policy_number", "POL-2023-000123"),
        ("MRN 00482913", "medical_record", "00482913"),
        ("Medical record # A1234567", "medical_record", "A1234567"),
        ("Passport No. 123456789 issued 2019", "passport_number", "123456789"),
        ("passport number: C01X00T47", "passport_number", "C01X00T47"),
        ("Driver's License # S530-1234-5678", "driver_license", "S530-1234-5678"),
        ("DL No: D1234567", "driver_license", "D1234567"),
        ("driving licence MORGA753116SM9IJ", "driver_license", "MORGA753116SM9IJ"),
        ("My driver's license number is 6940579", "driver_license", "6940579"),
        ("my account number was 0012345678 until May", "account_number", "0012345678"),
        ("A-Number: A012-345-678", "a_number", "A012-345-678"),
        ("A# 012345678", "a_number", "012345678"),
        ("Alien Registration No. A123456789", "a_number", "A123456789"),
        ("USCIS # 987-654-321", "a_number", "987-654-321"),
        ("Vehicle plate ABC-1234 seen", "license_plate", "ABC-1234"),
        ("registration mark AB12 CDE on a blue Ford", "license_plate", "AB12 CDE"),
        ("R/O RAN PLATE 7XYZ123 REGISTERED TO HIM", "license_plate", "7XYZ123"),
        ("VIN: WVWZZZ1JZ3W386752 (no check digit in Europe)", "vin", "WVWZZZ1JZ3W386752"),
    ],
)
def test_identifier_after_cue_is_marked(line: str, category: str, value: str) -> None:
    assert value in found_values([line], category)


@pytest.mark.parametrize(
    ("line", "category", "value"),
    [
        ("The car 1M8GDM9AXKP042788 was towed", "vin", "1M8GDM9AXKP042788"),
        ("Beneficiary 1EG4-TE5-MK73 was billed", "medicare_number", "1EG4-TE5-MK73"),
        ("ID 1EG4TE5MK73 on the claim", "medicare_number", "1EG4TE5MK73"),
    ],
)
def test_vehicle_and_medicare_numbers_are_marked_by_their_form(
    line: str, category: str, value: str
) -> None:
    assert value in found_values([line], category)


@pytest.mark.parametrize(
    "line",
    [
        "The plate was dented; tag 12 on the box",
        "Order 1M8GDM9AXKP042789 shipped",  # a VIN's shape with a wrong check digit
        "Serial 1SG4-TE5-MK73 returned",  # an MBI never has an S
        "Company registration number 01234567",
    ],
)
def test_vehicle_and_medicare_look_alikes_are_not_marked(line: str) -> None:
    assert not {"license_plate", "vin", "medicare_number"} & set(categories_found([line]))


@pytest.mark.parametrize(
    "line",
    [
        "Take into account 2023 figures",
        "Policy 12 applies",
        "The account holder signed",
        "MRN pending",
        "a passport photo from 2019",
        "the DL 2023 update",
        "Driver's licence suspended in 2021",
    ],
)
def test_cue_word_without_identifier_is_not_marked(line: str) -> None:
    found = categories_found([line])
    assert not {
        "account_number",
        "policy_number",
        "medical_record",
        "passport_number",
        "driver_license",
        "a_number",
    } & set(found)


def test_an_a_number_after_its_label_that_is_too_short_is_proposed_weakly() -> None:
    result = detect(simple_pdf(["A-Number: 12345 (as written on the form)"]), policy())

    (mark,) = [m for m in result.marks if m.category == "a_number"]
    assert mark.confidence < 0.5
    assert mark.needs_manual_review == "follows_cue_not_valid"


@pytest.mark.parametrize(
    "value", ["192.168.10.20", "8.8.8.8", "2001:db8::8a2e:370:7334", "fe80::1ff:fe23:4567:890a"]
)
def test_ip_address_is_marked(value: str) -> None:
    assert value in found_values([f"Login from {value} today"], "ip_address")


@pytest.mark.parametrize(
    "line", ["Version 1.2.300.4", "Octet 256.1.1.1", "Meeting at 10:30:00", "Zero 01.02.03.04"]
)
def test_dotted_or_colon_number_that_is_no_ip_is_not_marked(line: str) -> None:
    assert "ip_address" not in categories_found([line])


SECTIONS = [
    "6.4.4 Determination of safety goals",
    "6.4.4.1 A safety goal shall be determined for each hazardous event.",
    "The highest ASIL of those in accordance with 6.4.4.1 applies.",
    "See 6.4.3.11 and firmware 1.2.0.4 for the exceptions.",
]


def test_dotted_quads_numbering_sections_are_proposed_below_the_default_threshold() -> None:
    marks = [m for m in detect(simple_pdf(SECTIONS), policy()).marks if m.category == "ip_address"]

    assert len({m.group for m in marks}) == 4
    assert all(m.confidence < 0.5 and m.detector == "regex.ipv4_section" for m in marks)
    assert "ip_address" not in categories_found(SECTIONS, min_confidence={"ip_address": 0.5})


def test_an_ip_cue_wins_over_a_section_heading_of_the_same_shape() -> None:
    lines = ["6.4.4 Network", "The gateway 6.4.4.1 answered.", "Requirement 6.4.4.2 applies."]
    marks = [m for m in detect(simple_pdf(lines), policy()).marks if m.category == "ip_address"]

    assert {m.detector: m.confidence for m in marks} == {
        "regex.ipv4": 0.85,
        "regex.ipv4_section": 0.3,
    }


def test_search_term_matches_any_case_and_spacing() -> None:
    values = found_values(["Notes by JANE   johnson and acme holdings."], "search_term")
    assert [core(v) for v in values] == ["janejohnson", "acmeholdings"]


def test_search_term_is_not_found_inside_a_longer_word() -> None:
    assert "search_term" not in categories_found(["Montgomeryville is a town."])


def test_search_term_spans_a_hyphenated_line_break() -> None:
    pdf = simple_pdf(["The witness Jane Jo-", "hnson signed."])
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    (marks,) = [ms for ms in groups_of(detect(pdf, policy())).values()]
    assert len(marks) == 2
    assert squash(group_text(doc, marks)) == "janejohnson"


# ------------------------------------------------------------------ policy


def test_disabled_category_is_skipped() -> None:
    found = categories_found(
        ["SSN 123-45-6789 mail a@example.com"], categories=frozenset({"email"})
    )
    assert found == ["email"]


def test_marks_below_category_minimum_confidence_are_dropped() -> None:
    lines = ["Code 12-3456780", "EIN 12-3456789"]
    result = detect(simple_pdf(lines), policy(min_confidence={"ein": 0.8}))
    assert [m.detector for m in result.marks] == ["regex.ein_cue"]


def test_mark_carries_legal_reason_for_its_category_or_the_default() -> None:
    pol = policy(legal_reasons={"ssn": "(b)(6)"}, default_reason="(b)(7)(C)")
    marks = detect(simple_pdf(["SSN 123-45-6789 mail a@example.com"]), pol).marks
    reasons = {m.category: m.legal_reason for m in marks}
    assert reasons == {"ssn": "(b)(6)", "email": "(b)(7)(C)"}
    assert {m.detector_version for m in marks} == {DETECTOR_VERSION}


def test_policy_without_salt_is_refused() -> None:
    with pytest.raises(ValueError):
        DetectionPolicy(salt=b"")


def test_same_value_has_same_hash_and_another_salt_changes_it() -> None:
    pdf = simple_pdf(["SSN 123-45-6789", "again 123-45-6789"])
    first, second = (m.text_hash for m in detect(pdf, policy()).marks)
    other = detect(pdf, policy(salt=b"other-salt")).marks[0].text_hash
    assert first == second != other


# ------------------------------------------------------------------ corpus recall


def _recall_precision() -> tuple[dict[str, list[int]], int, int]:
    """Per category [found, planted] over text-layer items, and marked groups that
    match a planted value (true) out of all groups on text-layer pages."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    true_groups = all_groups = 0
    for item in labelled_corpus():
        result = detect(item.pdf, policy(search_terms=item.search_terms))
        doc = pymupdf.open(stream=item.pdf, filetype="pdf")
        texts = {
            key: (marks[0].category, marks[0].source, squash(group_text(doc, marks, clip_text)))
            for key, marks in groups_of(result).items()
            if marks[0].source == "text"
        }
        text_planted = [p for p in item.planted if p.source == "text"]
        for p in text_planted:
            hit = any(
                page == p.page and cat == p.category and squash(p.value) in text
                for (page, _), (cat, _, text) in texts.items()
            )
            tally[p.category][0] += hit
            tally[p.category][1] += 1
        for (page, _), (_, _, text) in texts.items():
            all_groups += 1
            true_groups += any(p.page == page and squash(p.value) in text for p in text_planted)
    return tally, true_groups, all_groups


def test_corpus_recall_meets_targets_and_precision_is_reported() -> None:
    tally, true_groups, all_groups = _recall_precision()
    pattern = [sum(v[i] for k, v in tally.items() if k != "search_term") for i in (0, 1)]
    search = tally["search_term"]
    print(
        f"\ncorpus: pattern recall {pattern[0]}/{pattern[1]} = {pattern[0] / pattern[1]:.3f}; "
        f"search-term recall {search[0]}/{search[1]} = {search[0] / search[1]:.3f}; "
        f"precision {true_groups}/{all_groups} = {true_groups / all_groups:.3f}"
    )
    for category, (found, planted) in sorted(tally.items()):
        print(f"  {category:15s} {found}/{planted}")
    assert pattern[0] / pattern[1] >= PATTERN_RECALL
    assert search[0] / search[1] >= SEARCH_RECALL


# ------------------------------------------------------------------ geometry


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
@pytest.mark.parametrize("cropped", [False, True])
def test_boxes_land_on_planted_values_on_rotated_and_cropped_pages(
    rotation: int, cropped: bool
) -> None:
    item = corpus.rotated_cropped(rotation, cropped=cropped)
    doc = pymupdf.open(stream=item.pdf, filetype="pdf")
    assert doc[0].rotation == rotation
    assert (doc[0].cropbox.x0 != 0) is cropped
    result = detect(item.pdf, policy())
    texts = {m.category: box_text(doc, m).strip() for m in result.marks}
    for planted in item.planted:
        assert squash(planted.value) in squash(texts[planted.category])
    # Glued labels stay outside the boxes.
    assert "SSN" not in texts["ssn"] and "Email" not in texts["email"]


def test_line_wrapped_matches_give_one_box_per_line_sharing_a_group() -> None:
    item = corpus.wrapped()
    doc = pymupdf.open(stream=item.pdf, filetype="pdf")
    groups = groups_of(detect(item.pdf, policy()))
    for planted in item.planted:
        (marks,) = [
            ms
            for ms in groups.values()
            if ms[0].category == planted.category
            and core(planted.value) == core(group_text(doc, ms))
        ]
        assert len(marks) >= 2, planted.category
        parts = [squash(box_text(doc, m)) for m in marks]
        assert all(parts) and core("".join(parts)) == core(planted.value)


def test_two_column_layout_marks_each_column_value() -> None:
    item = corpus.two_columns()
    doc = pymupdf.open(stream=item.pdf, filetype="pdf")
    result = detect(item.pdf, policy())
    texts = [(m.category, squash(box_text(doc, m))) for m in result.marks]
    for planted in item.planted:
        assert any(c == planted.category and squash(planted.value) in t for c, t in texts)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_annotation_and_widget_marks_land_on_their_rectangles(rotation: int) -> None:
    item = corpus.annotated(rotation)
    doc = pymupdf.open(stream=item.pdf, filetype="pdf")
    page = doc[0]
    marks = detect(item.pdf, policy()).marks
    by_source = {(m.source, m.category): m.box for m in marks}
    freetext, note = list(page.annots())
    (widget,) = list(page.widgets())
    # FreeText and widget rects are given in unrotated space and come back unchanged.
    assert by_source[("annotation", "email")] == pytest.approx(
        normalize(page, corpus.ANNOT_FREETEXT_RECT), abs=1e-5
    )
    assert by_source[("widget", "ssn")] == pytest.approx(
        normalize(page, corpus.WIDGET_RECT), abs=1e-5
    )
    assert by_source[("annotation", "email")] == pytest.approx(
        normalize(page, freetext.rect), abs=1e-5
    )
    assert by_source[("widget", "ssn")] == pytest.approx(normalize(page, widget.rect), abs=1e-5)
    # A sticky note does not rotate with the page: its box is where it is drawn.
    note_box = by_source[("annotation", "phone")]
    assert note_box == pytest.approx(normalize(page, note.rect), abs=1e-5)
    # Its anchor (the point it was added at) is a corner of the drawn icon.
    assert (page_rect(page, Box(*note_box)) + (-0.5, -0.5, 0.5, 0.5)).contains(
        corpus.ANNOT_NOTE_POINT
    )
    # The appearance text of the same values is not reported a second time.
    assert not [m for m in marks if m.source == "text"]


def test_repeated_footer_hits_share_one_group_across_pages() -> None:
    item = corpus.repeated_footer(pages=4)
    marks = [m for m in detect(item.pdf, policy()).marks if m.category == "email"]
    assert [m.page for m in marks] == [0, 1, 2, 3]
    assert len({m.group for m in marks}) == 1


def test_same_value_at_different_places_gets_different_groups() -> None:
    doc = pymupdf.open()
    for y in (100, 400):
        page = doc.new_page()
        page.insert_text((72, y), "Mail records@example.com")
    marks = detect(doc.tobytes(), policy()).marks
    assert len({m.group for m in marks}) == 2


# ------------------------------------------------------------------ scans and OCR


def _scanned_page_marks(**overrides: object) -> tuple[DetectionResult, list[Mark]]:
    result = detect(corpus.scanned().pdf, policy(**overrides))
    return result, [m for m in result.marks if m.page == 1]


@pytest.mark.skipif(not ocr_available(), reason="Tesseract with English tessdata not installed")
def test_scanned_page_is_ocred_and_marks_land_on_the_pictured_values() -> None:
    result, marks = _scanned_page_marks(ocr=True, ocr_dpi=150)
    assert result.pages_ocred == (1,) and result.pages_without_text == (1,)
    source = pymupdf.open(stream=simple_pdf(list(corpus.SCANNED_LINES), fontsize=14))[0]
    for planted in (p for p in corpus.scanned().planted if p.source == "ocr"):
        expected = source.search_for(planted.value)[0]
        boxes = [page_rect(source, m.box) for m in marks if m.category == planted.category]
        assert any(b.intersect(expected).get_area() > 0.5 * expected.get_area() for b in boxes)
    assert {m.source for m in marks} == {"ocr"}
    assert NEEDS_MANUAL_REVIEW not in {m.category for m in marks}


class TextLayers(dict):
    """An OcrCache in memory, counting what is put in it."""

    puts = 0

    def put(self, page: int, text_layer: bytes) -> None:
        self[page] = text_layer
        self.puts += 1


def _three_scanned_pages() -> bytes:
    doc = pymupdf.open()
    for _ in range(3):
        doc.insert_pdf(pymupdf.open(stream=corpus.scanned_pdf(list(corpus.SCANNED_LINES))))
    return doc.tobytes()


def _readings(
    pdf: bytes, ocr_policy: DetectionPolicy, layers: TextLayers
) -> tuple[list[tuple[int, int]], DetectionResult]:
    """detect() past its OCR time, called again until it finishes: the progress each
    unfinished call reported, and the result."""
    progress = []
    for _ in range(5):
        try:
            return progress, detect(pdf, ocr_policy, ocr_cache=layers, ocr_until=0.0)
        except OcrUnfinished as unfinished:
            progress.append((unfinished.read, unfinished.to_read))
    raise AssertionError(f"no end in sight: {progress}")


@pytest.mark.skipif(not ocr_available(), reason="Tesseract with English tessdata not installed")
def test_detect_past_its_ocr_time_reads_a_page_per_call_and_then_reuses_the_pages_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pdf, ocr_policy, layers = _three_scanned_pages(), policy(ocr=True, ocr_dpi=150), TextLayers()

    progress, result = _readings(pdf, ocr_policy, layers)

    assert progress == [(1, 3), (2, 3)]  # time is up: one page each call
    assert sorted(layers) == [0, 1, 2] and layers.puts == 3
    assert result == detect(pdf, ocr_policy)
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path))  # Tesseract gone: only the cache
    reused = detect(pdf, ocr_policy, ocr_cache=layers, ocr_until=0.0)
    assert reused == result and reused.pages_ocred == (0, 1, 2)
    assert {m.category for m in reused.marks} >= {"ssn", "email", "phone"}
    assert layers.puts == 3


@pytest.mark.skipif(not ocr_available(), reason="Tesseract with English tessdata not installed")
def test_a_page_tesseract_fails_on_is_kept_as_failed_and_not_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pdf, ocr_policy, layers = _three_scanned_pages(), policy(ocr=True, ocr_dpi=150), TextLayers()
    real_text_layer = ocr.text_layer
    attempts: list[int] = []

    def failing_on_page_two(page: pymupdf.Page, **kwargs: object) -> bytes:
        attempts.append(page.number)
        if page.number == 1:
            raise RuntimeError("tesseract died")
        return real_text_layer(page, **kwargs)

    monkeypatch.setattr(ocr, "text_layer", failing_on_page_two)

    progress, result = _readings(pdf, ocr_policy, layers)

    assert progress == [(1, 3), (2, 3)] and attempts == [0, 1, 2]
    assert layers[1] == ocr.FAILED
    review = [m for m in result.marks if m.category == NEEDS_MANUAL_REVIEW]
    assert [(m.page, m.needs_manual_review) for m in review] == [(1, "no_text_layer")]
    assert result.pages_ocred == (0, 2)
    assert detect(pdf, ocr_policy, ocr_cache=layers) == result and attempts == [0, 1, 2]


def test_detect_with_an_ocr_time_limit_has_nothing_to_read_in_a_document_with_a_text_layer() -> (
    None
):
    layers = TextLayers()

    result = detect(
        simple_pdf(["Plain text letter"]), policy(ocr=True), ocr_cache=layers, ocr_until=0.0
    )

    assert result.pages_ocred == () and layers == {}


def _assert_one_whole_page_review_mark(result: DetectionResult, marks: list[Mark]) -> None:
    (mark,) = marks
    assert mark.category == NEEDS_MANUAL_REVIEW
    assert mark.needs_manual_review == NO_TEXT_LAYER
    assert mark.box == (0.0, 0.0, 1.0, 1.0) and mark.confidence == 0
    assert result.pages_ocred == () and result.pages_without_text == (1,)


def test_scanned_page_gets_whole_page_review_mark_when_ocr_is_off() -> None:
    _assert_one_whole_page_review_mark(*_scanned_page_marks(ocr=False))


def test_scanned_page_gets_whole_page_review_mark_when_tesseract_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not ocr_available()
    _assert_one_whole_page_review_mark(*_scanned_page_marks(ocr=True))


def test_page_with_text_never_gets_the_no_text_layer_mark() -> None:
    result = detect(corpus.scanned().pdf, policy(ocr=False))
    assert all(m.page == 1 for m in result.marks if m.category == NEEDS_MANUAL_REVIEW)
    for item in labelled_corpus():
        if item.name != "scanned":
            marks = detect(item.pdf, policy()).marks
            assert NEEDS_MANUAL_REVIEW not in {m.category for m in marks}, item.name


def test_blank_page_is_counted_without_text_but_not_marked() -> None:
    doc = pymupdf.open()
    doc.new_page()
    result = detect(doc.tobytes(), policy())
    assert result.marks == () and result.pages_without_text == (0,)


# ------------------------------------------------------------------ protection and stability


def test_no_matched_text_appears_in_any_mark() -> None:
    for item in labelled_corpus():
        marks = detect(item.pdf, policy(search_terms=item.search_terms)).marks
        dump = repr(marks)
        for planted in item.planted:
            assert planted.value not in dump
            assert squash(planted.value) not in squash(dump)


def test_two_runs_on_the_same_bytes_give_equal_marks_in_page_y_x_order() -> None:
    for item in labelled_corpus():
        first = detect(item.pdf, policy())
        assert first == detect(item.pdf, policy())
        keys = [(m.page, m.box.y0, m.box.x0) for m in first.marks]
        assert keys == sorted(keys)


def test_path_input_gives_the_same_result_as_bytes(tmp_path: Path) -> None:
    item = corpus.wrapped()
    path = tmp_path / "doc.pdf"
    path.write_bytes(item.pdf)
    assert detect(path, policy()) == detect(str(path), policy()) == detect(item.pdf, policy())


def test_unreadable_document_raises_detection_error_without_content() -> None:
    with pytest.raises(DetectionError, match="^document: cannot open"):
        detect(b"%PDF-1.7 SSN 123-45-6789 garbage", policy())


def test_a_column_of_figures_is_read_in_few_pieces() -> None:
    """A candidate running down a column of figures is read again only within runs of
    one or two of its lines, not in every run of them."""
    column = "\n".join(f"{n:02d} {n + 1:02d}" for n in range(10, 22))

    flowing = column.replace("\n", " ")

    pieces = list(nlp._pieces(column, flowing, 0, len(column)))

    assert len(pieces) <= 1 + 2 * column.count("\n") + 1
