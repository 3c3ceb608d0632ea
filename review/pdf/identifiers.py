"""Values read after their label (Django-free): a date of birth ("DOB 04/12/1961") and
the identifiers of accounts, policies, medical records and identity documents
("Account no. 0012345678", "Passport No. 123456789", "A-Number: A012-345-678"); and
the identifiers of vehicles and Medicare beneficiaries, which police and health records
carry: a licence plate after its label ("Plate: ABC-1234"), a vehicle identification
number (its check digit, or its label) and a Medicare Beneficiary Identifier (its
format). Spans only: `patterns` makes them hits, as it does the addresses of
`addresses.py`.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator

DOB = "dob"
ACCOUNT_NUMBER = "account_number"
POLICY_NUMBER = "policy_number"
MEDICAL_RECORD = "medical_record"
PASSPORT_NUMBER = "passport_number"
DRIVER_LICENSE = "driver_license"
A_NUMBER = "a_number"  # US alien registration number (immigration files)
LICENSE_PLATE = "license_plate"
VIN = "vin"  # vehicle identification number (ISO 3779)
MEDICARE_NUMBER = "medicare_number"  # US Medicare Beneficiary Identifier (MBI)
# The identifiers read after their label.
ID_CATEGORIES: tuple[str, ...] = (
    ACCOUNT_NUMBER,
    POLICY_NUMBER,
    MEDICAL_RECORD,
    PASSPORT_NUMBER,
    DRIVER_LICENSE,
    A_NUMBER,
    LICENSE_PLATE,
    VIN,
    MEDICARE_NUMBER,
)

# Month names and abbreviations of the languages the policies' jurisdictions write in
# (English, German, French, Spanish, Italian, Dutch, Portuguese), by number.
_MONTH_NAMES = {
    name: number
    for number, names in enumerate(
        (
            "january jan januar janvier enero gennaio januari janeiro",
            "february feb februar février fevrier febrero febbraio februari fevereiro",
            "march mar märz maerz mars marzo maart março marco",
            "april apr avril abril aprile",
            "may mai mayo maggio mei maio",
            "june jun juni juin junio giugno junho",
            "july jul juli juillet julio luglio julho",
            "august aug août aout agosto augustus",
            "september sep sept septembre septiembre setiembre settembre setembro",
            "october oct oktober octobre octubre ottobre outubro",
            "november nov novembre noviembre novembro",
            "december dec dezember décembre decembre diciembre dicembre dezembro",
        ),
        1,
    )
    for name in names.split()
}
_MONTHS = "(?:" + "|".join(sorted(_MONTH_NAMES, key=len, reverse=True)) + ")"
_DOB_CUE = re.compile(
    # The lookahead on the cues' first letters lets re skip ahead (\b alone is tried at
    # every position).
    r"(?=[bdfgnBDFGN])\b(?:DOB|D\.O\.B\.?|date\s+of\s+birth|birth\s*date|birthday|born(?:\s+on)?"
    r"|geburtsdatum|geb\.|geboren(?:\s+am)?|date\s+de\s+naissance|née?\s+le"
    r"|fecha\s+de\s+nacimiento|f\.\s*nac\.|nacid[oa]\s+el|data\s+di\s+nascita|nat[oa]\s+il"
    r"|geboortedatum|geboren\s+op|data\s+de\s+nascimento|nascid[oa]\s+em)",
    re.I,
)
# Any of the cues' words, to settle most pages with one case-insensitive substring test.
_DOB_WORD = re.compile(r"dob|d\.o\.b|birth|born|geb|naiss|née?\s|nac|nasc|nat[oa]\s|geboor")
# A day before the month may carry its ordinal or its full stop ("3rd", "1er", "3."), and
# Spanish and Portuguese join the parts with "de" ("3 de marzo de 1984").
_DATE = re.compile(
    rf"(?<![\w/.-])(?:(\d{{1,2}})[/.-](\d{{1,2}})[/.-](\d{{4}}|\d{{2}})"
    rf"|(\d{{4}})-(\d{{1,2}})-(\d{{1,2}})"
    rf"|({_MONTHS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})"
    rf"|(\d{{1,2}})(?:st|nd|rd|th|er|\.)?\s+(?:de\s+)?({_MONTHS})\.?,?\s+(?:de\s+)?(\d{{4}}))"
    r"(?![\w/-])",
    re.I,
)


def _real_date(year: int, month: int, day: int) -> bool:
    try:
        datetime.date(year, month, day)
    except ValueError:
        return False
    return True


def _date_valid(m: re.Match[str]) -> bool:
    g = m.groups()
    if g[0]:
        a, b, y = int(g[0]), int(g[1]), int(g[2])
        y = y if y >= 100 else 1900 + y  # century does not matter for validity
        return _real_date(y, a, b) or _real_date(y, b, a)  # US m/d or European d/m
    if g[3]:
        return _real_date(int(g[3]), int(g[4]), int(g[5]))
    if g[6]:
        return _real_date(int(g[8]), _MONTH_NAMES.get(g[6].lower(), 0), int(g[7]))
    return _real_date(int(g[11]), _MONTH_NAMES.get(g[10].lower(), 0), int(g[9]))


def names_a_birth_date(label: str) -> bool:
    """Whether a form's label asks for a date of birth ("Date of Birth", "DOB")."""
    return _DOB_CUE.search(label) is not None


def real_date(text: str) -> bool:
    """Whether `text` is one date, and a real one ("04/14/1995", "3 March 1984")."""
    m = _DATE.fullmatch(text)
    return m is not None and _date_valid(m)


def find_dates_of_birth(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each real date shortly after a birth cue."""
    if _DOB_WORD.search(text.lower()) is None:
        return  # cheap substring test spares a case-insensitive pass on most pages
    for cue in _DOB_CUE.finditer(text):
        m = _DATE.search(text, cue.end(), cue.end() + 40)
        if m is not None and _date_valid(m):
            yield m.span()


_ID_SUFFIX = r"\.?\s*(?:number|num\.?|no\.?|\#|id)"
# One pass for the cue-led identifiers; the named group that matched is the category.
# The label may say what follows it ("my driver's license number is 6940579").
# "policy" alone is too common a word, so it needs its "number"/"no"/"#"; an A-Number
# is written "A-Number", "A#", "Alien Registration No." or "USCIS #".
_ID = re.compile(
    rf"""(?=[aApPmMdDuU])\b(?:
        (?P<account_number>account|acct|a/c){_ID_SUFFIX}?
      | (?P<policy_number>policy){_ID_SUFFIX}
      | (?P<medical_record>MRN|medical\s+record){_ID_SUFFIX}?
      | (?P<passport_number>passport){_ID_SUFFIX}?
      | (?P<driver_license>(?:driver[’']?s?|driving)\s+licen[cs]e{_ID_SUFFIX}?|D\.?L{_ID_SUFFIX})
      | (?P<a_number>A-?(?:number|num\.?|no\.)|A\#|alien(?:\s+registration)?{_ID_SUFFIX}
          |USCIS{_ID_SUFFIX})
    )(?:\s+(?:is|was))?\s*[:\#.]?\s*(?P<value>[A-Z0-9][A-Z0-9-]*[0-9][A-Z0-9-]*)""",
    re.I | re.X,
)
_ID_KEYWORDS = (
    *("account", "acct", "a/c", "policy", "mrn", "medical", "passport", "licen", "dl"),
    *("a-n", "a#", "alien", "uscis"),
)
# An A-Number has eight or nine digits, an "A" before them or not ("A012-345-678").
_A_NUMBER = re.compile(r"A?-?\d{3}-?\d{3}-?\d{2,3}", re.I)


def find_identifiers(text: str) -> Iterator[tuple[str, int, int, bool]]:
    """(category, start, end, valid) of each identifier after its label; an A-Number
    of the wrong length is not valid (proposed weakly, never dropped)."""
    lowered = text.lower()
    if not any(k in lowered for k in _ID_KEYWORDS):
        return
    for m in _ID.finditer(text):
        value = m["value"].rstrip("-")
        category = next(c for c in ID_CATEGORIES if m[c])
        # Five digits at least: "account for 2023" must not become an account number.
        if sum(c.isdigit() for c in value) >= 5 and len(value) <= 30:
            valid = category != A_NUMBER or _A_NUMBER.fullmatch(value) is not None
            yield category, m.start("value"), m.start("value") + len(value), valid


# An SSN with all but its last four digits masked, as court filings must write it
# ("xxx-xx-7472" on a bankruptcy petition): with a name, still personal data.
_MASKED_SSN = re.compile(r"(?=[xX*•])(?<![\w-])[xX*•]{3}-[xX*•]{2}-\d{4}(?![\w-])")


def find_masked_ssns(text: str) -> Iterator[tuple[int, int]]:
    for m in _MASKED_SSN.finditer(text):
        yield m.span()


# A vehicle's registration after its label ("Plate: ABC-1234", "registration mark AB12
# CDE", "Tag # 7XYZ123"), in capitals as plates are written: four to eight letters and
# digits, a digit among them, in up to three groups (the words after it in a record
# written in capitals are no part of it: "PLATE ABC1234 WAS").
_PLATE = re.compile(
    r"(?i:\b(?:licen[cs]e[ ]plate|number[ ]plate|plate|registration[ ]mark|"
    r"vehicle[ ]registration|reg\.|VRM|tag)(?:[ ]?(?:no\.?|number|\#))?)[ ]*[:\#.]?[ ]*"
    r"([A-Z0-9]{1,8}(?:[ -][A-Z0-9]{1,4}){0,2})(?![\w-])"
)
_PLATE_GROUP = re.compile(r"[A-Z0-9]+")
_PLATE_LENGTH = (4, 8)
_PLATE_KEYWORDS = ("plate", "registration", "reg.", "vrm", "tag")
# A VIN: 17 characters, no I, O or Q. The ninth is a check digit in North America.
_VIN = re.compile(r"(?<![\w-])[A-HJ-NPR-Z0-9]{17}(?![\w-])")
_VIN_CUE = re.compile(
    r"\b(?:VIN|vehicle[ ]identification(?:[ ](?:number|no\.?))?|chassis(?:[ ](?:number|no\.?))?)"
    r"[ ]*[:\#.]?[ ]*\Z",
    re.I,
)
# The check digit's values of the letters (ISO 3779 transliteration) and its weights.
_VIN_VALUES = dict(
    zip("ABCDEFGHJKLMNPRSTUVWXYZ", (*range(1, 9), *range(1, 6), 7, 9, *range(2, 10)), strict=True)
)
_VIN_WEIGHTS = (8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2)
# A Medicare Beneficiary Identifier: 11 characters in a fixed pattern of digits and
# letters (never S, L, O, I, B, Z), written with dashes after the 4th and 7th or not.
_MBI_LETTER = "AC-HJKMNP-RT-Y"
_MBI = re.compile(
    rf"(?<![\w-])[1-9][{_MBI_LETTER}][{_MBI_LETTER}0-9][0-9]-?[{_MBI_LETTER}][{_MBI_LETTER}0-9]"
    rf"[0-9]-?[{_MBI_LETTER}]{{2}}[0-9]{{2}}(?![\w-])"
)


def _vin_check_digit_valid(vin: str) -> bool:
    total = sum(
        (int(c) if c.isdigit() else _VIN_VALUES[c]) * weight
        for c, weight in zip(vin, _VIN_WEIGHTS, strict=True)
    )
    check = total % 11
    return vin[8] == ("X" if check == 10 else str(check))


def find_vehicle_and_medicare_ids(text: str) -> Iterator[tuple[str, int, int, float, str]]:
    """(category, start, end, confidence, detector) of each licence plate after its
    label, each VIN (its check digit valid, two letters in it at least, or after its
    label whatever its check digit: European VINs have none) and each Medicare number."""
    lowered = text.lower()
    if any(k in lowered for k in _PLATE_KEYWORDS):
        for m in _PLATE.finditer(text):
            length, end = 0, m.start(1)
            for group in _PLATE_GROUP.finditer(text, m.start(1), m.end(1)):
                if length + len(group[0]) > _PLATE_LENGTH[1]:
                    break
                length, end = length + len(group[0]), group.end()
            if length >= _PLATE_LENGTH[0] and any(c.isdigit() for c in text[m.start(1) : end]):
                yield LICENSE_PLATE, m.start(1), end, 0.7, "cue.license_plate"
    for m in _VIN.finditer(text):
        vin = m[0]
        if _VIN_CUE.search(text, max(0, m.start() - 40), m.start()):
            yield VIN, m.start(), m.end(), 0.8, "cue.vin"
        elif sum(c.isalpha() for c in vin) >= 2 and _vin_check_digit_valid(vin):
            yield VIN, m.start(), m.end(), 0.85, "checksum.vin"
    for m in _MBI.finditer(text):
        yield MEDICARE_NUMBER, m.start(), m.end(), 0.85, "format.medicare_mbi"
