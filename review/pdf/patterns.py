"""The project's own recognisers (Django-free): validated patterns over page text.

Each finder reads a page's text (words joined by " ", lines by "\n") and yields `Hit`s:
a category, where in the text, a confidence and the value normalized for hashing.
`DETECTORS` lists them with the categories they find; detect.py runs them directly in
pattern-only mode and hands them to the Presidio analyzer as one recogniser in full mode.
A number after its label that fails validation is a weak hit with a reason
(`CUE_BUT_INVALID`), never dropped.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from review.pdf.addresses import find_addresses
from review.pdf.email_owners import find_email_owners
from review.pdf.emails import find_emails

# The labelled values are part of the category registry: callers import them from here.
from review.pdf.identifiers import DOB as DOB
from review.pdf.identifiers import ID_CATEGORIES as ID_CATEGORIES
from review.pdf.identifiers import (
    LICENSE_PLATE,
    MEDICARE_NUMBER,
    VIN,
    find_dates_of_birth,
    find_identifiers,
    find_masked_ssns,
    find_vehicle_and_medicare_ids,
)
from review.pdf.introduced_names import find_introduced_names
from review.pdf.names import find_names_by_cue

SSN = "ssn"
EMAIL = "email"
PHONE = "phone"
CARD = "card"
IBAN = "iban"
EIN = "ein"
IP_ADDRESS = "ip_address"
ITIN = "itin"
UK_NINO = "uk_nino"
UK_NHS = "uk_nhs"
ADDRESS = "address"
# Found by the NLP engine (nlp.py), in full mode only.
PERSON = "person"
LOCATION = "location"
ORGANIZATION = "organization"
SEARCH_TERM = "search_term"

PATTERN_CATEGORIES: tuple[str, ...] = (
    SSN,
    EMAIL,
    PHONE,
    CARD,
    IBAN,
    EIN,
    DOB,
    *ID_CATEGORIES,
    IP_ADDRESS,
    ITIN,
    UK_NINO,
    UK_NHS,
    ADDRESS,
)
NER_CATEGORIES: tuple[str, ...] = (PERSON, LOCATION, ORGANIZATION)
ALL_CATEGORIES: frozenset[str] = frozenset((*PATTERN_CATEGORIES, *NER_CATEGORIES, SEARCH_TERM))
# Why a hit is proposed below its usual confidence (Mark.needs_manual_review).
CUE_BUT_INVALID = "follows_cue_not_valid"
MASKED_SSN = "masked_ssn_last_four"


# ----------------------------------------------------------------------- detectors


@dataclass(frozen=True)
class Hit:
    category: str
    start: int
    end: int
    confidence: float
    detector: str
    normalized: str
    reason: str | None = None  # for a human look: why the hit is weaker than usual


_NOT_DIGIT = re.compile(r"\D")


def digits_of(s: str) -> str:
    return _NOT_DIGIT.sub("", s)


def squash(s: str) -> str:
    """Join hyphenated line breaks, collapse whitespace, casefold."""
    return " ".join(s.replace("-\n", "").split()).casefold()


def cue_before(cue: re.Pattern[str], text: str, start: int, window: int, floor: int = 0) -> bool:
    """A cue within `window` characters before `start`, but not before `floor`: a cue
    labels the next value only ("EIN 12-3456789, code 12-3456780")."""
    return cue.search(text, max(floor, start - window), start) is not None


_SSN_CUE = re.compile(
    r"\b(?:SSN|SS#|SS\s*No|social\s+security(?:\s+(?:number|no))?|soc\.?\s*sec)", re.I
)
_SSN_KNOWN_FAKES = frozenset({"078051120", "219099999"})
_ITIN_CUE = re.compile(r"\b(?:ITIN|individual\s+taxpayer)", re.I)


def _ssn_valid(digits: str) -> bool:
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
        return False
    return digits not in _SSN_KNOWN_FAKES


def _find_email(text: str) -> Iterator[Hit]:
    for start, end, confidence, detector, address in find_emails(text):
        yield Hit(EMAIL, start, end, confidence, detector, address)


PHONE_CUE = re.compile(
    r"\b(?:phone|tel|telephone|cell|mobile|fax|call|ring|dial|reached\s+on|telefon|"
    r"téléphone|teléfono|tél|móvil|portable|handy)\b",
    re.I,
)
# Every digit-shaped detector in one pass: the branches cannot match the same span,
# and one pass over the page costs about what each separate pattern cost alone.
# Patterns open with a lookahead on their first character: Python's re skips ahead on
# it, where a leading lookbehind or \b is tried at every position (3x slower here).
_NUMERIC = re.compile(
    r"""(?=[\d(+])(?<![\w+-])(?:
      (?P<ssn>\d{3}-\n?\d{2}-\n?\d{4})(?![\w-])
    | (?P<ein>\d{2}-\n?\d{7})(?![\w-])
    | (?P<card>\d{12,19}|\d{4}[ \n-]\d{4}[ \n-]\d{4}(?:[ \n-]\d{1,7})?|\d{4}[ \n-]\d{6}[ \n-]\d{4,5})(?![\w-])
    | (?P<nanp>(?:(?:\+?1|001)[ .\n-]?)?(?:\([2-9]\d{2}\)[ .\n-]?|[2-9]\d{2}[ .\n-])[2-9]\d{2}[ .\n-]\d{4}{ext})(?![\w-])
    | (?P<loose>(?:(?:\+?1|001)[ .\n-]?)?(?:\(\d{3}\)[ .\n-]?|\d{3}[ .\n-]?)\d{3}[ .\n-]?\d{4}{ext})(?![\w-])
    | (?P<e164>\+[1-9](?:[ .\n-]?\d){0,2}(?:[ .\n-]?\(0\))?(?:[ .\n-]?\d){5,13})(?![\w-])
    | (?<!\.)(?P<ipv4>(?:\d{1,3}\.){3}\d{1,3})(?![\w]|\.\d)
    | (?P<nine>\d{3}[ \n]?\d{2}[ \n]?\d{4})(?![\w-])
    )""".replace("{ext}", r"(?:[ ]?(?:x|ext\.?|extension)[ ]?\d{1,6})?"),
    re.X,
)
# Issuer prefixes by card length: Maestro is the only 12-digit card; 15 digits are Amex
# or the old JCB ranges; 13-19 digits the current IIN ranges 2-6 (Visa, Mastercard,
# Discover, Diners, JCB 35, UnionPay, Maestro).
_CARD_PREFIXES = {12: ("50", "56", "57", "58", "6"), 15: ("34", "37", "2131", "1800")}


def _card_issued(digits: str) -> bool:
    prefixes = _CARD_PREFIXES.get(len(digits))
    if prefixes is not None and digits.startswith(prefixes):
        return True
    return len(digits) >= 13 and digits[0] in "23456"


def _ssn_hits(text: str, kind: str, start: int, end: int, digits: str, floor: int) -> Iterator[Hit]:
    """An SSN, an ITIN (area 9, its own groups), or a number after an SSN cue that is
    not a valid SSN: for redaction, failing validation lowers confidence, never hides a
    value its label announces."""
    cued = cue_before(_SSN_CUE, text, start, 40, floor)
    if _itin_valid(digits):
        if kind == "ssn" or cued or cue_before(_ITIN_CUE, text, start, 40, floor):
            yield Hit(ITIN, start, end, 0.9, "regex.itin", digits)
    elif _ssn_valid(digits):
        if kind == "ssn":
            yield Hit(SSN, start, end, 0.95 if cued else 0.85, "regex.ssn", digits)
        elif cued:  # undashed or spaced nine digits are too common without a cue
            yield Hit(SSN, start, end, 0.8, "regex.ssn_cue", digits)
    elif cued:
        yield Hit(SSN, start, end, 0.3, "regex.ssn_cue_invalid", digits, CUE_BUT_INVALID)


def _itin_valid(digits: str) -> bool:
    group = int(digits[3:5])
    return digits[0] == "9" and (
        50 <= group <= 65 or 70 <= group <= 88 or group in (90, 91, 92) or 94 <= group <= 99
    )


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = ord(ch) - 48
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _find_numbers(text: str) -> Iterator[Hit]:
    """SSN, EIN, card, phone and IPv4 hits from one regex pass."""
    floors: dict[str, int] = {}
    for m in _NUMERIC.finditer(text):
        kind = m.lastgroup
        start, end, value = m.start(), m.end(), m[0]
        floor = floors.get(kind or "", 0)
        floors[kind or ""] = end
        if kind == "ssn" or kind == "nine":
            yield from _ssn_hits(text, kind, start, end, digits_of(value), floor)
        elif kind == "ein":
            if cue_before(_EIN_CUE, text, start, 40, floor):
                yield Hit(EIN, start, end, 0.9, "regex.ein_cue", digits_of(value))
            elif value[:2] in _EIN_PREFIXES:
                yield Hit(EIN, start, end, 0.5, "regex.ein_prefix", digits_of(value))
        elif kind == "card":
            digits = digits_of(value)
            if _card_issued(digits) and _luhn(digits):
                yield Hit(CARD, start, end, 0.95, "luhn.card", digits)
        elif kind == "loose":
            # Ten digits in a phone's shape but outside the North American plan: a
            # phone only where a label says so.
            if cue_before(PHONE_CUE, text, start, 30):
                yield Hit(PHONE, start, end, 0.7, "regex.phone_cue", digits_of(value))
        elif kind == "nanp" or kind == "e164":
            # The trunk prefix Europe writes in brackets ("+41 (0)44 ...") is not dialled.
            digits = digits_of(value.replace("(0)", ""))
            if kind == "e164" and not 8 <= len(digits) <= 15:
                continue
            cued = cue_before(PHONE_CUE, text, start, 30)
            base, detector = (
                (0.8, "regex.phone_nanp") if kind == "nanp" else (0.75, "regex.phone_e164")
            )
            yield Hit(PHONE, start, end, 0.9 if cued else base, detector, digits)
        elif kind == "ipv4":
            octets = value.split(".")
            if all(int(o) <= 255 and (o == "0" or not o.startswith("0")) for o in octets):
                if _numbers_a_section(text, start, value):
                    yield Hit(IP_ADDRESS, start, end, 0.3, "regex.ipv4_section", value)
                else:
                    yield Hit(IP_ADDRESS, start, end, 0.85, "regex.ipv4", value)
    for start, end in find_masked_ssns(text):
        yield Hit(SSN, start, end, 0.5, "regex.ssn_masked", text[start:end].lower(), MASKED_SSN)


# What numbers a section or a version, written just before the number.
_SECTION_CUE = (
    r"(?:\b(?:see|clause|sub-?clause|section|sect|paragraph|para|annex|appendix|article|"
    r"art|chapter|table|figure|fig|step|item|requirement|version|ver|release|rev|revision|"
    r"build|firmware)\.?|§)[ \n]*"
)
_SECTION_CUE_BEFORE = re.compile(_SECTION_CUE + "$", re.I)
_IP_CUE = re.compile(r"\b(?:IP|IPv4|host|server|gateway|DNS|address)\b", re.I)


def _numbers_a_section(text: str, start: int, value: str) -> bool:
    """Whether a dotted quad numbers a section of the text rather than addressing a
    host: a section cue just before it ("See 6.4.3.11", "version 1.2.0.4") or before
    the same number elsewhere on the page, or the number it is a part of heading a line
    ("6.4.4" over "6.4.4.1"). An IP cue before it wins ("server 10.0.0.1")."""
    if cue_before(_IP_CUE, text, start, 30):
        return False
    if _SECTION_CUE_BEFORE.search(text, max(0, start - 16), start):
        return True
    number, parent = re.escape(value), re.escape(value.rpartition(".")[0])
    heading = rf"(?:^|\n)[ \t]*{parent}(?:\.?[ \t\n]|$)"
    return re.search(rf"(?i:{_SECTION_CUE}){number}(?!\d)|{heading}", text) is not None


_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22,
    "BH": 22, "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22,
    "DK": 18, "DO": 28, "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27,
    "GB": 22, "GE": 22, "GI": 23, "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28,
    "IE": 22, "IL": 23, "IQ": 23, "IS": 26, "IT": 27, "JO": 30, "KW": 30, "KZ": 20,
    "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MD": 24,
    "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18, "NO": 15, "PK": 24,
    "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24, "SC": 31,
    "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
    "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}  # fmt: skip
# Any case, grouped by spaces, line breaks or dashes, as people write them.
_IBAN = re.compile(
    r"(?=[A-Za-z])(?<![\w-])[A-Za-z]{2}\d{2}(?:(?:-\n|[ \n-])?[A-Za-z0-9]{4}){2,7}"
    r"(?:(?:-\n|[ \n-])?[A-Za-z0-9]{1,4})?(?![\w])"
)


def _iban_mod97(compact: str) -> bool:
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def _find_iban(text: str) -> Iterator[Hit]:
    for m in _IBAN.finditer(text):
        raw = m[0]
        compact = "".join(raw.replace("-", " ").split()).upper()
        expected = _IBAN_LENGTHS.get(compact[:2])
        end = m.end()
        if expected is not None:
            if len(compact) < expected:
                continue
            if len(compact) > expected:
                # Greedy grouping swallowed a following token: cut at the country length.
                seen = 0
                for offset, ch in enumerate(raw):
                    seen += not ch.isspace() and ch != "-"
                    if seen == expected:
                        end = m.start() + offset + 1
                        break
                compact = compact[:expected]
        elif not 15 <= len(compact) <= 34:
            continue
        if _iban_mod97(compact):
            conf = 0.97 if expected is not None else 0.8
            yield Hit(IBAN, m.start(), end, conf, "mod97.iban", compact)


# UK National Insurance number: two prefix letters (D, F, I, Q, U, V never; O never
# second; some pairs never issued), six digits, suffix A-D.
_NINO = re.compile(
    r"(?=[A-Z])(?<![\w-])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]"
    r"[ ]?\d{2}[ ]?\d{2}[ ]?\d{2}[ ]?[A-D](?![\w-])"
)
_NINO_CUE = re.compile(r"\b(?:NI(?:NO)?|N\.I\.|national\s+insurance)\b", re.I)
# What a National Insurance number looks like whatever its letters: after its label, a
# value the rules refuse ("QQ 12 34 56 C") is still someone's number to a reviewer.
_NINO_SHAPE = re.compile(r"(?<![\w-])[A-Z]{2}[ ]?\d{2}[ ]?\d{2}[ ]?\d{2}[ ]?[A-Z](?![\w-])")
_NHS = re.compile(r"(?=\d)(?<![\w-])\d{3}[ -]?\d{3}[ -]?\d{4}(?![\w-])")
_NHS_CUE = re.compile(r"\b(?:NHS|CHI|health\s+service)\b", re.I)


def _nhs_valid(digits: str) -> bool:
    """The mod-11 check digit of an NHS number."""
    total = sum(int(d) * (10 - i) for i, d in enumerate(digits[:9]))
    check = 11 - total % 11
    return check != 10 and (check % 11) == int(digits[9])


def _find_uk_ids(text: str) -> Iterator[Hit]:
    for m in _NINO_SHAPE.finditer(text):
        value = "".join(m[0].split())
        cued = cue_before(_NINO_CUE, text, m.start(), 40)
        if _NINO.fullmatch(m[0]):
            yield Hit(UK_NINO, m.start(), m.end(), 0.95 if cued else 0.85, "regex.uk_nino", value)
        elif cued:
            yield Hit(
                UK_NINO, m.start(), m.end(), 0.3, "cue.uk_nino_invalid", value, CUE_BUT_INVALID
            )
    if "nhs" not in text.lower() and "health service" not in text.lower():
        return  # ten digits with a mod-11 check are too common to take without a cue
    for m in _NHS.finditer(text):
        digits = digits_of(m[0])
        if not cue_before(_NHS_CUE, text, m.start(), 40):
            continue
        if _nhs_valid(digits):
            yield Hit(UK_NHS, m.start(), m.end(), 0.95, "mod11.uk_nhs", digits)
        else:
            yield Hit(
                UK_NHS, m.start(), m.end(), 0.3, "cue.uk_nhs_invalid", digits, CUE_BUT_INVALID
            )


def _find_names_by_cue(text: str) -> Iterator[Hit]:
    for start, end, confidence, detector in find_names_by_cue(text):
        yield Hit(PERSON, start, end, confidence, detector, squash(text[start:end]))
    for start, end in find_introduced_names(text):
        yield Hit(PERSON, start, end, 0.85, "cue.introduced_name", squash(text[start:end]))
    if "@" in text:
        for start, end in find_email_owners(text):
            yield Hit(PERSON, start, end, 0.9, "cue.email_owner", squash(text[start:end]))


def _find_addresses(text: str) -> Iterator[Hit]:
    for start, end, detector in find_addresses(text):
        # As strong as a named place: a city inside an address is part of it.
        yield Hit(ADDRESS, start, end, 0.85, f"regex.address_{detector}", squash(text[start:end]))


_EIN_CUE = re.compile(
    r"\b(?:EIN|FEIN|TIN|tax\s*id(?:entification)?|employer\s+identification)", re.I
)
# IRS campus prefixes; the others (00, 07-09, 17-19, 28, 29, 49, 69, 70, 78, 79, 89,
# 96, 97) are never issued.
_EIN_PREFIXES = frozenset(
    f"{n:02d}"
    for n in (*range(1, 7), *range(10, 17), *range(20, 28), *range(30, 49), *range(50, 69),
              *range(71, 78), *range(80, 89), *range(90, 96), 98, 99)
)  # fmt: skip


def _find_dob(text: str) -> Iterator[Hit]:
    for start, end in find_dates_of_birth(text):
        yield Hit(DOB, start, end, 0.8, "cue.dob", squash(text[start:end]))


def _find_ids(text: str) -> Iterator[Hit]:
    for category, start, end, valid in find_identifiers(text):
        value = text[start:end].upper()
        if valid:
            yield Hit(category, start, end, 0.7, f"cue.{category}", value)
        else:
            detector = f"cue.{category}_invalid"
            yield Hit(category, start, end, 0.3, detector, value, CUE_BUT_INVALID)


def _find_vehicle_and_medicare_ids(text: str) -> Iterator[Hit]:
    for category, start, end, confidence, detector in find_vehicle_and_medicare_ids(text):
        value = "".join(c for c in text[start:end] if c.isalnum())
        yield Hit(category, start, end, confidence, detector, value)


_HEX_COLON = frozenset("0123456789abcdefABCDEF:.")


def _colon_runs(text: str) -> Iterator[tuple[int, int]]:
    """Maximal runs of hex digits, colons and dots holding at least two colons."""
    colon = text.find(":")
    while colon != -1:
        start, end = colon, colon + 1
        while start > 0 and text[start - 1] in _HEX_COLON:
            start -= 1
        while end < len(text) and text[end] in _HEX_COLON:
            end += 1
        if text.count(":", start, end) >= 2:
            yield start, end
        colon = text.find(":", end)


def _find_ipv6(text: str) -> Iterator[Hit]:
    for start, end in _colon_runs(text):
        while end > start and text[end - 1] == ".":
            end -= 1  # sentence full stop
        if (start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_")) or (
            end < len(text) and (text[end].isalnum() or text[end] == "_")
        ):
            continue
        candidate = text[start:end]
        try:
            address = ipaddress.IPv6Address(candidate)
        except ValueError:
            continue
        if sum(c.isalnum() for c in candidate) >= 4:
            yield Hit(IP_ADDRESS, start, end, 0.85, "regex.ipv6", address.exploded)


DETECTORS: tuple[tuple[frozenset[str], Callable[[str], Iterator[Hit]]], ...] = (
    (frozenset({SSN, EIN, CARD, PHONE, IP_ADDRESS}), _find_numbers),
    (frozenset({EMAIL}), _find_email),
    (frozenset({IBAN}), _find_iban),
    (frozenset({DOB}), _find_dob),
    (frozenset(ID_CATEGORIES), _find_ids),
    (frozenset({LICENSE_PLATE, VIN, MEDICARE_NUMBER}), _find_vehicle_and_medicare_ids),
    (frozenset({IP_ADDRESS}), _find_ipv6),
    (frozenset({UK_NINO, UK_NHS}), _find_uk_ids),
    (frozenset({ADDRESS}), _find_addresses),
    (frozenset({PERSON}), _find_names_by_cue),
)
