"""A seeded, multi-locale labelled corpus for detection quality, and its scoring.

    from testkit.labelled import labelled_documents, quality_policy, score

    docs = labelled_documents(seed=0, per_locale=1)   # 5 locales x 6 layouts
    policy = quality_policy()
    scores = score(docs, lambda pdf: detect(pdf, policy).marks)
    scores.recall_by_category["phone"].value, scores.precision.value

Each document is a one- or two-page English case file (FOIA or GDPR style) about a
complainant in one of five locales. Values come from Faker seeded for the document
(names, street addresses and phone numbers in the locale's formats, e-mail, cards,
IBANs, IPs, SSNs, EINs) and from checksum arithmetic (UK NI and NHS numbers); each is
recorded as a `Label` with where it was written, in unrotated page space. Decoys (a
card failing Luhn, an IBAN with a wrong check digit, an NHS number with a wrong check
digit, order numbers, letter dates, "Housing Authority", "Case Officer", company
names) are written but not labelled, so marking them costs precision.

The pages are set here, not with testkit.corpus.write_lines: wrapping, columns, table
cells and rotation need every value's line and x position measured as it is set.

Every document is seeded from (seed, locale, index, layout), not from its place in
the run: asking for fewer layouts or locales gives the same documents, byte for byte.
"""

from __future__ import annotations

import dataclasses
import datetime
import random
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import pymupdf
from faker import Faker

from review.pdf.detect import HIDDEN_CONTENT, NEEDS_MANUAL_REVIEW
from review.pdf.geometry import Box, page_rect
from review.pdf.patterns import (
    ADDRESS,
    CARD,
    DOB,
    EIN,
    EMAIL,
    IBAN,
    ID_CATEGORIES,
    IP_ADDRESS,
    LOCATION,
    ORGANIZATION,
    PERSON,
    PHONE,
    SEARCH_TERM,
    SSN,
    UK_NHS,
    UK_NINO,
)

if TYPE_CHECKING:
    from review.pdf.detect import DetectionPolicy

LOCALES: tuple[str, ...] = ("en_US", "en_GB", "de_DE", "fr_FR", "es_ES")

PLAIN = "plain"
TWO_COLUMN = "two_column"
ROTATED = "rotated"
WRAPPED = "wrapped"
TABLE = "table"
SCANNED = "scanned"
RECORDS = "records"  # an e-mail header, record fields, a court caption, a party table
ALL_LAYOUTS: tuple[str, ...] = (PLAIN, TWO_COLUMN, ROTATED, WRAPPED, TABLE, SCANNED, RECORDS)

# The pattern categories the corpus labels (the detectors know more).
PATTERN_CATEGORIES: tuple[str, ...] = (
    SSN,
    EMAIL,
    PHONE,
    CARD,
    IBAN,
    IP_ADDRESS,
    EIN,
    UK_NINO,
    UK_NHS,
)
LABELLED_CATEGORIES: tuple[str, ...] = (PERSON, ADDRESS, *PATTERN_CATEGORIES)
# Marks of these categories are neither right nor wrong here: the corpus does not label
# them (dates of birth, account numbers and organisations are written, unlabelled).
UNSCORED_CATEGORIES: frozenset[str] = frozenset(
    {
        HIDDEN_CONTENT,
        NEEDS_MANUAL_REVIEW,
        SEARCH_TERM,
        LOCATION,
        ORGANIZATION,
        DOB,
        *ID_CATEGORIES,
    }
)

RECALL_BARS: dict[str, float] = {
    **dict.fromkeys(PATTERN_CATEGORIES, 0.95),
    PERSON: 0.90,
    ADDRESS: 0.85,
}
PRECISION_BAR = 0.80
# A label is found when marks of its category cover this share of its area; a mark is
# right when this share of its own area lies on a label of its category. The first is
# strict enough that a mark over half a name misses it; the second forgives a box that
# takes the neighbouring punctuation or label word along.
FOUND_COVERAGE = 0.60
TRUE_POSITIVE_OVERLAP = 0.30

Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Label:
    """One planted value: `rect` holds one rectangle per line it was written on
    (unrotated page space, points from the crop box's top-left, as PyMuPDF reports
    words)."""

    page: int
    category: str
    value: str
    rect: tuple[Rect, ...]


@dataclass(frozen=True)
class LabelledDoc:
    name: str
    locale: str
    layout: str
    pdf: bytes
    labels: tuple[Label, ...]


# ------------------------------------------------------------------ synthetic values


def _latin1(text: str) -> bool:
    """The base-14 Helvetica the pages are set in has glyphs for Latin-1 only."""
    return all(32 <= ord(c) < 256 for c in text)


_FAKERS: dict[str, Faker] = {}


def _faker(locale: str) -> Faker:
    # Building a Faker costs ~20 ms; every use re-seeds it, so sharing one is safe.
    if locale not in _FAKERS:
        _FAKERS[locale] = Faker(locale)
    return _FAKERS[locale]


# Faker's card types, restricted to the issuer ranges a detector is expected to know.
CARD_KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("visa16", ("4",)),
    ("mastercard", ("51", "52", "53", "54", "55", "22")),
    ("amex", ("34", "37")),
    ("maestro", ("50", *(str(n) for n in range(56, 70)))),
    ("jcb15", ("2131", "1800")),
    ("jcb16", ("35",)),
)
IBAN_STYLES: tuple[str, ...] = ("compact", "spaced", "dashed", "lower")
# NI number prefixes HMRC never issues: these first and second letters, and these pairs.
_NINO_BAD_FIRST = frozenset("DFIQUV")
_NINO_BAD_SECOND = frozenset("DFIOQUV")
_NINO_BAD_PAIRS = frozenset({"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"})
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")  # fmt: skip


def _group(digits: str, sizes: Sequence[int], sep: str = " ") -> str:
    parts, at = [], 0
    for size in sizes:
        parts.append(digits[at : at + size])
        at += size
    return sep.join(p for p in parts if p)


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _nhs_check(nine: str) -> int | None:
    """The NHS number's mod-11 check digit, or None when none exists (remainder 1)."""
    check = 11 - sum(int(d) * w for d, w in zip(nine, range(10, 1, -1), strict=True)) % 11
    return None if check == 10 else check % 11


class _Values:
    """One document's synthetic values: Faker for the locale's own shapes, checksum
    arithmetic for the rest, both seeded from the document's identity."""

    def __init__(self, locale: str, key: str) -> None:
        self.locale = locale
        self.fake = _faker(locale)
        self.fake.seed_instance(key)
        self.us = self.fake if locale == "en_US" else _faker("en_US")
        if self.us is not self.fake:
            self.us.seed_instance(key + ":us")
        self.rng = random.Random(key + ":values")

    def _draw(self, make: Callable[[], str], ok: Callable[[str], bool] = _latin1) -> str:
        for _ in range(50):
            value = " ".join(make().split())
            if ok(value):
                return value
        raise AssertionError(f"{self.locale}: no usable value after 50 draws")

    def person(self, female: bool) -> str:
        first = self.fake.first_name_female if female else self.fake.first_name_male

        def name() -> str:
            surname = self.fake.last_name()
            if self.locale == "es_ES":  # two surnames, as Spanish names are written
                surname += " " + self.fake.last_name()
            return f"{first()} {surname}"

        return self._draw(name)

    def address(self) -> str:
        """A full postal address on one line, city and postcode in the locale's order."""
        fake = self.fake

        def address() -> str:
            street = ", ".join(fake.street_address().split("\n")).strip()
            if self.locale == "en_US":
                state = fake.state_abbr(include_territories=False)
                return f"{street}, {fake.city()}, {state} {fake.postcode()}"
            if self.locale == "en_GB":
                return f"{street}, {fake.city()} {fake.postcode()}"
            return f"{street}, {fake.postcode()} {fake.city()}"

        return self._draw(address)

    def phone(self) -> str:
        return self._draw(self.fake.phone_number, lambda v: _dialable(self.locale, v))

    def us_phone_with_extension(self) -> str:
        def phone() -> str:
            area, exchange = self.rng.randint(201, 989), self.rng.randint(201, 999)
            line, ext = self.rng.randint(0, 9999), self.rng.randint(10, 99999)
            return f"{area}-{exchange}-{line:04d}x{ext}"

        return self._draw(phone, lambda v: _dialable("en_US", v))

    def email(self) -> str:
        return self._draw(self.fake.email)

    def card(self, kind: str) -> str:
        prefixes = dict(CARD_KINDS)[kind]
        digits = self._draw(
            lambda: self.fake.credit_card_number(card_type=kind), lambda v: v.startswith(prefixes)
        )
        assert _luhn(digits), digits
        if self.rng.random() < 0.3:
            return digits
        sizes = {15: (4, 6, 5), 12: (4, 4, 4)}.get(len(digits), (4, 4, 4, 4))
        return _group(digits, sizes, self.rng.choice((" ", " ", "-")))

    def luhn_failing_card(self) -> str:
        # One check digit passes Luhn; any other fails.
        valid = self.fake.credit_card_number(card_type="visa16")
        wrong = valid[:-1] + str((int(valid[-1]) + self.rng.randint(1, 9)) % 10)
        assert not _luhn(wrong), wrong
        return _group(wrong, (4, 4, 4, 4))

    def iban(self, style: str) -> str:
        compact = self.fake.iban()
        assert _mod97(compact), compact
        grouped = _group(compact, [4] * 9)
        return {
            "compact": compact,
            "spaced": grouped,
            "dashed": grouped.replace(" ", "-"),
            "lower": (grouped if self.rng.random() < 0.5 else compact).lower(),
        }[style]

    def wrong_check_iban(self) -> str:
        compact = self.fake.iban()
        check = (int(compact[2:4]) + self.rng.randint(1, 90)) % 97 + 2
        wrong = f"{compact[:2]}{check:02d}{compact[4:]}"
        if _mod97(wrong):  # cannot happen: one check value is valid per BBAN
            raise AssertionError(wrong)
        return _group(wrong, [4] * 9)

    def ipv4(self) -> str:
        return self.fake.ipv4_public()

    def ipv6(self) -> str:
        return self.fake.ipv6()

    def ein(self) -> str:
        return self.us.ein()

    def ssn(self) -> str:
        return self.us.ssn()

    def nino(self, spaced: bool) -> str:
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        while True:
            prefix = self.rng.choice(letters) + self.rng.choice(letters)
            if (
                prefix[0] not in _NINO_BAD_FIRST
                and prefix[1] not in _NINO_BAD_SECOND
                and prefix not in _NINO_BAD_PAIRS
            ):
                break
        digits = f"{self.rng.randrange(10**6):06d}"
        suffix = self.rng.choice("ABCD")
        if spaced:
            return f"{prefix} {digits[:2]} {digits[2:4]} {digits[4:]} {suffix}"
        return f"{prefix}{digits}{suffix}"

    def nhs(self) -> str:
        while True:
            nine = f"{self.rng.randint(400, 799)}{self.rng.randrange(10**6):06d}"
            check = _nhs_check(nine)
            if check is not None:
                return _group(f"{nine}{check}", (3, 3, 4))

    def wrong_check_nhs(self) -> str:
        valid = self.nhs().replace(" ", "")
        return _group(valid[:9] + str((int(valid[9]) + 1) % 10), (3, 3, 4))

    def date(self, start_year: int = 2021, end_year: int = 2024) -> str:
        """A date in the locale's English style; Faker's relative dates follow today."""
        day = self.fake.date_between_dates(
            datetime.date(start_year, 1, 1), datetime.date(end_year, 12, 31)
        )
        month = _MONTHS[day.month - 1]
        if self.locale == "en_US":
            return f"{month} {day.day}, {day.year}"
        return f"{day.day} {month} {day.year}"

    def order_number(self) -> str:
        year, month = self.rng.randint(2021, 2024), self.rng.randint(1, 12)
        return f"{year}{month:02d}-{self.rng.randint(100, 9999)}"

    def case_reference(self) -> str:
        kind, year = self.rng.choice(("FOI", "DP", "SAR")), self.rng.randint(2021, 2024)
        return f"{kind}/{year}/{self.rng.randint(10, 9999):04d}"

    def company(self) -> str:
        return self._draw(self.fake.company)


_COUNTRY_CODES = {"en_US": "1", "en_GB": "44", "de_DE": "49", "fr_FR": "33", "es_ES": "34"}


def _dialable(locale: str, phone: str) -> bool:
    """Faker fills its phone formats with any digits: it writes US area codes such as
    911 and German numbers such as "+49(0)0511 ..." or "00669 ...", which no one can
    dial. Keep numbers whose national part (after the country code or the trunk 0)
    opens with 1-9, and, in the US, whose area code and exchange are not N11."""
    digits = re.sub(r"\D", "", phone.split("x")[0])  # without the extension
    if locale == "en_US":
        national = digits[-10:]
        return (
            national[0] in "23456789"
            and national[3] in "23456789"
            and national[1:3] != "11"
            and national[4:6] != "11"
        )
    code = _COUNTRY_CODES[locale]
    if phone.startswith("+"):
        national = digits[len(code) :]
        if "(0)" in phone:
            national = national[1:]
    elif digits.startswith("0"):
        national = digits[1:]
    else:
        return False
    return _latin1(phone) and re.match(r"[1-9]", national) is not None


def _mod97(compact: str) -> bool:
    rearranged = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


# --------------------------------------------------------------------- the case file


@dataclass(frozen=True)
class Plant:
    """A labelled value inside running text. In the wrapped layout, `split_at` forces a
    line break before value[split_at:] (spaces at the split are dropped)."""

    category: str
    value: str
    split_at: int | None = None


Segment = str | Plant


@dataclass(frozen=True)
class _Para:
    segments: tuple[Segment, ...]
    bold: bool = False
    scale: float = 1.0


@dataclass(frozen=True)
class _Facts:
    """Who and what one case file is about: drawn once, written by any layout."""

    locale: str
    female: bool
    complainant: str
    witness: str
    officer: str
    address: str
    witness_address: str
    phone: str
    witness_phone: str
    email: str
    witness_email: str
    card: str
    iban: str
    ipv4: str
    ipv6: str
    ein: str
    company: str
    ssns: tuple[str, ...]
    ninos: tuple[str, ...]
    nhs_numbers: tuple[str, ...]
    # Decoys, never labelled.
    bad_card: str
    bad_iban: str
    bad_nhs: str
    order_number: str
    case_reference: str
    authority: str
    dates: tuple[str, ...]
    birth_date: str

    @property
    def she(self) -> str:
        return "she" if self.female else "he"

    @property
    def her(self) -> str:
        return "her" if self.female else "his"

    @property
    def her_object(self) -> str:
        return "her" if self.female else "him"

    @property
    def title(self) -> str:
        return "Ms" if self.female else "Mr"


_AUTHORITIES = (
    "Housing Authority",
    "Tenancy Services Unit",
    "Benefits Office",
    "Customer Contact Centre",
    "Licensing Department",
)


def _facts(values: _Values, position: int) -> _Facts:
    """`position` spreads card kinds and IBAN styles evenly over a run."""
    locale = values.locale
    female = values.rng.random() < 0.5
    witness_phone = values.us_phone_with_extension() if locale == "en_US" else values.phone()
    return _Facts(
        locale=locale,
        female=female,
        complainant=values.person(female),
        witness=values.person(values.rng.random() < 0.5),
        officer=values.person(values.rng.random() < 0.5),
        address=values.address(),
        witness_address=values.address(),
        phone=values.phone(),
        witness_phone=witness_phone,
        email=values.email(),
        witness_email=values.email(),
        card=values.card(CARD_KINDS[position % len(CARD_KINDS)][0]),
        iban=values.iban(IBAN_STYLES[position % len(IBAN_STYLES)]),
        ipv4=values.ipv4(),
        ipv6=values.ipv6(),
        ein=values.ein(),
        company=values.company(),
        ssns=(values.ssn(), values.ssn().replace("-", "")) if locale == "en_US" else (),
        ninos=(values.nino(spaced=True), values.nino(spaced=False)) if locale == "en_GB" else (),
        nhs_numbers=(values.nhs(), values.nhs()) if locale == "en_GB" else (),
        bad_card=values.luhn_failing_card(),
        bad_iban=values.wrong_check_iban(),
        bad_nhs=values.wrong_check_nhs(),
        order_number=values.order_number(),
        case_reference=values.case_reference(),
        authority=values.rng.choice(_AUTHORITIES),
        dates=tuple(values.date() for _ in range(6)),
        birth_date=values.date(1940, 2004),
    )


def _split(category: str, value: str) -> int | None:
    """Where a typesetter would break the value across two lines, if anywhere."""
    if category == EMAIL:
        local = value.split("@")[0]
        return local.index(".") + 1 if "." in local else len(local) + 1
    if category == ADDRESS:
        return value.index(", ") + 2
    if category in (PERSON, PHONE, CARD) and " " in value:
        return value.rindex(" ") + 1
    if category == IBAN:
        seps = [i for i, c in enumerate(value) if c in " -"]
        return seps[len(seps) // 2] + 1 if seps else None
    return None


def _plant(category: str, value: str, wrap: bool) -> Plant:
    return Plant(category, value, _split(category, value) if wrap else None)


def _letter(f: _Facts, *, wrap: bool = False) -> list[_Para]:
    """The case-file note: the complainant's request, identity, payment, logs,
    employer and a witness. `wrap` breaks most names, addresses, phone numbers, e-mail
    addresses, cards and IBANs across two lines (see _split)."""

    def P(category: str, value: str, split: bool = True) -> Plant:  # noqa: N802
        return _plant(category, value, wrap and split)

    us = f.locale == "en_US"
    paras = [
        _Para((f"{f.authority} - Information Governance Team",), bold=True, scale=1.3),
        _Para(
            (
                f"Case file {f.case_reference}: "
                + (
                    "request under the Freedom of Information Act"
                    if us
                    else "subject access request"
                )
                + f". Prepared on {f.dates[0]}.",
            )
        ),
        _Para(
            (
                f"The complainant, {f.title} ",
                P(PERSON, f.complainant),
                ", of ",
                P(ADDRESS, f.address),
                ", telephone ",
                P(PHONE, f.phone),
                f", wrote to the {f.authority} on {f.dates[1]} asking for a copy of every "
                f"record held about {f.her_object}. {f.she.capitalize()} asked that replies be "
                "sent by e-mail to ",
                P(EMAIL, f.email),
                " rather than by post.",
            )
        ),
    ]
    if us:
        identity: tuple[Segment, ...] = (
            f"To confirm {f.her} identity {f.she} supplied {f.her} Social Security number, ",
            P(SSN, f.ssns[0], False),
            f", and a copy of a lease signed on {f.dates[2]}. The claim was logged as "
            f"order no. {f.order_number}.",
        )
    elif f.locale == "en_GB":
        identity = (
            f"To confirm {f.her} identity {f.she} supplied {f.her} National Insurance number ",
            P(UK_NINO, f.ninos[0], False),
            " and NHS number ",
            P(UK_NHS, f.nhs_numbers[0], False),
            f". The clinic reference {f.bad_nhs} and the sample number QQ 12 34 56 C printed "
            "on the form are not personal data.",
        )
    else:
        identity = (
            f"To confirm {f.her} identity {f.she} supplied a utility bill dated {f.dates[2]} "
            f"and order no. {f.order_number} from the removal firm.",
        )
    paras.append(_Para(identity))
    paras += [
        _Para(
            (
                f"The search fee was paid on {f.dates[3]} with the card ",
                P(CARD, f.card),
                "; the overpayment was refunded to the account ",
                P(IBAN, f.iban),
                f". The bank first quoted {f.bad_iban}, which failed validation. The voucher "
                f"number {f.bad_card} on the same receipt belongs to the {f.authority}.",
            )
        ),
        _Para(
            (
                "The portal logs show sign-ins from ",
                P(IP_ADDRESS, f.ipv4),
                " and, on a later visit, from ",
                P(IP_ADDRESS, f.ipv6),
                f". No other sessions were recorded between {f.dates[4]} and {f.dates[5]}.",
            )
        ),
        _Para(
            (
                f"{f.her.capitalize()} employer, {f.company}, a processor based in the United "
                "States (EIN ",
                P(EIN, f.ein, False),
                "), confirmed that it holds payroll records only.",
            )
        ),
    ]
    witness: list[Segment] = [
        "A neighbour, ",
        P(PERSON, f.witness),
        ", of ",
        P(ADDRESS, f.witness_address, False),
        ", gave a statement about the repairs and can be reached on ",
        P(PHONE, f.witness_phone, False),
        " or at ",
        P(EMAIL, f.witness_email),
        ".",
    ]
    if us:
        witness += [" The statement carries the neighbour's SSN ", P(SSN, f.ssns[1]), " in error."]
    elif f.locale == "en_GB":
        witness += [
            " The statement quotes the neighbour's NI number ",
            P(UK_NINO, f.ninos[1]),
            " and NHS number ",
            P(UK_NHS, f.nhs_numbers[1], False),
            " in error.",
        ]
    paras.append(_Para(tuple(witness)))
    exemption = "exemption (b)(6)" if us else "section 40 of the Data Protection Act"
    paras += [
        _Para(
            (
                f"The Data Protection Officer reviewed the file. Decision: release with "
                f"redactions under {exemption}.",
            )
        ),
        _Para((P(PERSON, f.officer, False),)),
        _Para((f"Case Officer, {f.authority}",)),
    ]
    return paras


def _cover_letter(f: _Facts) -> list[_Para]:
    """Page one of the table layout: a short letter to the complainant."""
    return [
        _Para((f"{f.authority} - Information Governance Team",), bold=True, scale=1.3),
        _Para((f"{f.dates[0]}. Our reference {f.case_reference}.",)),
        _Para((Plant(PERSON, f.complainant),)),
        _Para((Plant(ADDRESS, f.address),)),
        _Para(
            (
                f"Dear {f.title} ",
                Plant(PERSON, f.complainant),
                f", thank you for your request of {f.dates[1]}. The enclosed form records the "
                "details you gave us and the contacts we made. Please tell us at ",
                Plant(EMAIL, f.email),
                " if anything in it is wrong.",
            )
        ),
        _Para(("Yours sincerely,",)),
        _Para((Plant(PERSON, f.officer),)),
    ]


def _form_rows(f: _Facts) -> list[tuple[str, tuple[Segment, ...]]]:
    rows: list[tuple[str, tuple[Segment, ...]]] = [
        ("Name", (Plant(PERSON, f.complainant),)),
        ("Address", (Plant(ADDRESS, f.address),)),
        ("Telephone", (Plant(PHONE, f.phone),)),
        ("E-mail", (Plant(EMAIL, f.email),)),
        ("Date of birth", (f.birth_date,)),
    ]
    if f.locale == "en_US":
        rows.append(("Social Security number", (Plant(SSN, f.ssns[0]),)))
    if f.locale == "en_GB":
        rows.append(("National Insurance number", (Plant(UK_NINO, f.ninos[0]),)))
        rows.append(("NHS number", (Plant(UK_NHS, f.nhs_numbers[0]),)))
    rows += [
        ("Payment card", (Plant(CARD, f.card),)),
        ("Refund account (IBAN)", (Plant(IBAN, f.iban),)),
        ("Employer", (f"{f.company}, EIN ", Plant(EIN, f.ein))),
        ("Portal sign-ins", (Plant(IP_ADDRESS, f.ipv4), ", ", Plant(IP_ADDRESS, f.ipv6))),
        ("Voucher (not a card)", (f.bad_card,)),
        ("Order no.", (f.order_number,)),
    ]
    return rows


def _contact_rows(f: _Facts) -> list[tuple[Segment, ...]]:
    return [
        (f.dates[2], Plant(PERSON, f.witness), Plant(PHONE, f.witness_phone), ""),
        (f.dates[3], f"{f.authority} desk", "", f"Refund queried; bank quoted {f.bad_iban}"),
        (f.dates[4], "", "", Plant(EMAIL, f.witness_email)),
    ]


# ----------------------------------------------------------------------- typesetting

# Helvetica's ascent and descent as PyMuPDF measures glyph boxes (not the tight
# glyph heights): a word written at baseline y spans y - 1.075 size .. y + 0.299 size.
_ASCENT, _DESCENT = 1.075, 0.299
# Where the ink is: capitals, digits and ascenders reach 0.75 size above the baseline,
# descenders 0.21 below. Labels cover the ink, not the generous glyph boxes, so an OCR
# word box (drawn tight around the ink) can cover a label as fully as a text-layer box.
_INK_TOP, _INK_BOTTOM = 0.75, 0.21
_DESCENDERS = frozenset("gjpqyQ,;()[]{}@/|$")
_LEADING = 1.4
_MARGIN = 60.0
_LETTER = (612.0, 792.0)
_A4 = (595.0, 842.0)


@dataclass(frozen=True)
class _Piece:
    text: str
    space_before: bool
    forced_break: bool
    plant: Plant | None


@dataclass
class _Line:
    x: float
    baseline: float
    fontname: str
    fontsize: float
    pieces: list[_Piece] = field(default_factory=list)

    def text_and_spans(self) -> tuple[str, list[tuple[Plant, int, int]]]:
        """The line's text and, per plant on it, its char span in that text."""
        text = ""
        spans: list[tuple[Plant, int, int]] = []
        previous: Plant | None = None
        for piece in self.pieces:
            if text and piece.space_before:
                text += " "
            if piece.plant is not None and piece.plant is previous:
                spans[-1] = (piece.plant, spans[-1][1], len(text) + len(piece.text))
            elif piece.plant is not None:
                spans.append((piece.plant, len(text), len(text) + len(piece.text)))
            text += piece.text
            previous = piece.plant
        return text, spans


class _Frame(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float


def _font(bold: bool) -> str:
    return "hebo" if bold else "helv"


# pymupdf.get_text_length under-measures text holding non-ASCII letters ("Hänel");
# the Font objects measure what insert_text draws.
_FONTS: dict[str, pymupdf.Font] = {}


def _width(text: str, fontname: str, fontsize: float) -> float:
    if fontname not in _FONTS:
        _FONTS[fontname] = pymupdf.Font(fontname)
    return _FONTS[fontname].text_length(text, fontsize=fontsize)


def _pieces(para: _Para, width: float, fontsize: float, wrap_plants: bool) -> list[_Piece]:
    """Words to set: a plant is one unbreakable piece unless it is split on purpose
    (wrapped layout) or is wider than the column (then it breaks at its spaces)."""
    fontname = _font(para.bold)
    out: list[_Piece] = []
    pending_space = False
    for segment in para.segments:
        if isinstance(segment, str):
            for m in re.finditer(r"(\s*)(\S+)", segment):
                out.append(_Piece(m[2], pending_space or bool(m[1]), False, None))
                pending_space = False
            pending_space = segment[-1:].isspace()
            continue
        value = segment.value
        if wrap_plants and segment.split_at is not None:
            head, tail = (
                value[: segment.split_at].rstrip(" "),
                value[segment.split_at :].lstrip(" "),
            )
            out.append(_Piece(head, pending_space, False, segment))
            out.append(_Piece(tail, value[segment.split_at - 1] == " ", True, segment))
        elif _width(value, fontname, fontsize) > width:
            for i, word in enumerate(value.split(" ")):
                out.append(_Piece(word, pending_space if i == 0 else True, False, segment))
        else:
            out.append(_Piece(value, pending_space, False, segment))
        pending_space = False
    return out


def _set(
    paras: Sequence[_Para],
    frames: Sequence[_Frame],
    fontsize: float,
    *,
    wrap_plants: bool = False,
) -> tuple[list[_Line], float]:
    """Lines for `paras` flowed through `frames` in order, and the y below the last.

    Ragged right, greedy: a line breaks at the last space that fits. Raises when the
    text does not fit, so a layout change cannot silently drop a labelled value.
    """
    lines: list[_Line] = []
    frame_no = 0
    frame = frames[0]
    y = frame.y0  # the top of the free space, then the baseline of the last line
    for para in paras:
        size = fontsize * para.scale
        fontname = _font(para.bold)
        leading = size * _LEADING
        pieces = _pieces(para, frame.x1 - frame.x0, size, wrap_plants)
        # Words: runs of pieces glued together (no space, no forced break between).
        words: list[list[_Piece]] = []
        for piece in pieces:
            if not words or piece.space_before or piece.forced_break:
                words.append([piece])
            else:
                words[-1].append(piece)
        space = _width(" ", fontname, size)
        line: _Line | None = None
        used = 0.0
        for word in words:
            width = sum(_width(p.text, fontname, size) for p in word)
            gap = space if line is not None and word[0].space_before else 0.0
            if line is None or word[0].forced_break or used + gap + width > frame.x1 - frame.x0:
                baseline = y + (size * _ASCENT if line is None else leading)
                if baseline + size * _DESCENT > frame.y1:
                    frame_no += 1
                    if frame_no == len(frames):
                        raise AssertionError("the text does not fit its page")
                    frame = frames[frame_no]
                    baseline = frame.y0 + size * _ASCENT
                line = _Line(frame.x0, baseline, fontname, size)
                lines.append(line)
                y, used, gap = baseline, 0.0, 0.0
            line.pieces.extend(word)
            used += gap + width
        y += size * _DESCENT + leading * 0.5  # paragraph gap
    return lines, y


def _write(page: pymupdf.Page, lines: Iterable[_Line], label_page: int) -> list[Label]:
    """Write lines (display space: as the page is shown) and label their plants.

    Each plant's rectangle is searched on the page right after writing, inside the
    box its font metrics predict (so it is the text layer's own, in the unrotated space
    PyMuPDF reports words in), then cut down to the band the ink covers.
    """
    derotate = page.derotation_matrix
    # Keyed by identity: the complainant's name written twice is two labels.
    rects: dict[int, list[Rect]] = defaultdict(list)
    plants: dict[int, Plant] = {}
    written = []
    for line in lines:
        text, spans = line.text_and_spans()
        page.insert_text(
            pymupdf.Point(line.x, line.baseline) * derotate,
            text,
            fontsize=line.fontsize,
            fontname=line.fontname,
            rotate=page.rotation,
        )
        written.append((line, text, spans))
    for line, text, spans in written:
        for plant, start, end in spans:
            x0 = line.x + _width(text[:start], line.fontname, line.fontsize)
            x1 = x0 + _width(text[start:end], line.fontname, line.fontsize)
            expected = (
                pymupdf.Rect(
                    x0,
                    line.baseline - line.fontsize * _ASCENT,
                    x1,
                    line.baseline + line.fontsize * _DESCENT,
                )
                * derotate
            )
            hits = page.search_for(text[start:end], clip=expected + (-2, -2, 2, 2))
            if not hits:
                raise AssertionError(f"written value not found on its line: {text[start:end]!r}")
            best = max(hits, key=lambda r: (r & expected).get_area())
            below = _INK_BOTTOM if _DESCENDERS.intersection(text[start:end]) else 0.0
            ink = (
                pymupdf.Rect(
                    x0,
                    line.baseline - line.fontsize * _INK_TOP,
                    x1,
                    line.baseline + line.fontsize * below,
                )
                * derotate
            )
            best &= ink
            plants[id(plant)] = plant
            rects[id(plant)].append((best.x0, best.y0, best.x1, best.y1))
    return [
        Label(label_page, plant.category, plant.value, tuple(rects[key]))
        for key, plant in plants.items()
    ]


def _page_size(locale: str) -> tuple[float, float]:
    return _LETTER if locale == "en_US" else _A4


def _save(doc: pymupdf.Document) -> bytes:
    # A fresh /ID is random per save; without it the same seed gives the same bytes.
    return doc.tobytes(garbage=3, deflate=True, no_new_id=True)


def _single_column(
    f: _Facts, *, fontsize: float, rotation: int = 0, wrap: bool = False
) -> tuple[pymupdf.Document, list[Label]]:
    doc = pymupdf.open()
    width, height = _page_size(f.locale)
    if rotation:
        # Rotated 90 and set upright: the page reads normally on screen while its
        # content (and the text layer) runs top to bottom in unrotated space.
        page = doc.new_page(width=height, height=width)
        page.set_rotation(rotation)
    else:
        page = doc.new_page(width=width, height=height)
    frame = _Frame(_MARGIN, _MARGIN, width - _MARGIN, height - _MARGIN)
    lines, _ = _set(_letter(f, wrap=wrap), [frame], fontsize, wrap_plants=wrap)
    return doc, _write(page, lines, 0)


def _two_column(f: _Facts) -> tuple[pymupdf.Document, list[Label]]:
    doc = pymupdf.open()
    width, height = _page_size(f.locale)
    page = doc.new_page(width=width, height=height)
    fontsize, gutter = 9.0, 24.0
    paras = _letter(f)
    head, _ = _set(paras[:2], [_Frame(_MARGIN, _MARGIN, width - _MARGIN, height)], fontsize)
    top = head[-1].baseline + 2 * fontsize
    middle = width / 2
    columns = [
        _Frame(_MARGIN, top, middle - gutter / 2, height - _MARGIN),
        _Frame(middle + gutter / 2, top, width - _MARGIN, height - _MARGIN),
    ]
    body, _ = _set(paras[2:], columns, fontsize)
    return doc, _write(page, head + body, 0)


def _table(
    page: pymupdf.Page,
    rows: Sequence[Sequence[Segment | tuple[Segment, ...]]],
    columns: Sequence[float],
    top: float,
    fontsize: float,
    *,
    bold_row: bool = False,
    bold_column: bool = False,
) -> tuple[list[_Line], float]:
    """A ruled table: each cell's content set in its column, rows as tall as their
    tallest cell. `columns` are the x of every vertical rule, left to right; the first
    row or column may be set bold (a header)."""
    pad = 4.0
    lines: list[_Line] = []
    shape = page.new_shape()
    derotate = page.derotation_matrix
    y = top
    for r, row in enumerate(rows):
        bottom = y
        for c, cell in enumerate(row):
            segments = cell if isinstance(cell, tuple) else (cell,)
            para = _Para(
                tuple(s for s in segments if s),
                bold=(bold_row and r == 0) or (bold_column and c == 0),
            )
            frame = _Frame(columns[c] + pad, y + pad, columns[c + 1] - pad, y + 1000)
            cell_lines, end = _set([para], [frame], fontsize) if para.segments else ([], y)
            lines += cell_lines
            bottom = max(bottom, end - fontsize * _LEADING * 0.5 + pad)
        bottom = max(bottom, y + fontsize * 2)
        shape.draw_line(
            pymupdf.Point(columns[0], y) * derotate, pymupdf.Point(columns[-1], y) * derotate
        )
        y = bottom
    shape.draw_line(
        pymupdf.Point(columns[0], y) * derotate, pymupdf.Point(columns[-1], y) * derotate
    )
    for x in columns:
        shape.draw_line(pymupdf.Point(x, top) * derotate, pymupdf.Point(x, y) * derotate)
    shape.finish(width=0.6, color=(0, 0, 0))
    shape.commit()
    return lines, y


def _form(f: _Facts) -> tuple[pymupdf.Document, list[Label]]:
    """A cover letter, then a form page: the applicant's details and a contact log in
    ruled tables."""
    doc = pymupdf.open()
    width, height = _page_size(f.locale)
    fontsize = 9.5
    page = doc.new_page(width=width, height=height)
    frame = _Frame(_MARGIN, _MARGIN, width - _MARGIN, height - _MARGIN)
    lines, _ = _set(_cover_letter(f), [frame], 10.0)
    labels = _write(page, lines, 0)

    page = doc.new_page(width=width, height=height)
    title, y = _set(
        [_Para((f"Request {f.case_reference}: applicant details",), bold=True, scale=1.2)],
        [frame],
        fontsize,
    )
    split = _MARGIN + 150
    details, y = _table(
        page,
        _form_rows(f),
        (_MARGIN, split, width - _MARGIN),
        y + 6,
        fontsize,
        bold_column=True,
    )
    heading, y = _set(
        [_Para(("Contact log",), bold=True, scale=1.2)],
        [_Frame(_MARGIN, y + 14, width - _MARGIN, height)],
        fontsize,
    )
    inner = width - 2 * _MARGIN
    columns = [_MARGIN + inner * share for share in (0, 0.18, 0.42, 0.62, 1.0)]
    log_rows: list[Sequence[Segment]] = [("Date", "Contact", "Telephone", "Note or e-mail")]
    log_rows += _contact_rows(f)
    log, y = _table(page, log_rows, columns, y + 4, fontsize, bold_row=True)
    if y > height - _MARGIN:
        raise AssertionError("form does not fit its page")
    labels += _write(page, title + details + heading + log, 1)
    return doc, labels


_PARTICLES = frozenset("van von der den de del della di da dos das du la le los las y bin".split())


def _surname_at(name: str, locale: str) -> int:
    """Where the surname of `name` starts, in words: the last word, the last two in
    Spain, the particles before them included ("Hans von der Dellen")."""
    words = name.split()
    start = len(words) - (2 if locale == "es_ES" else 1)
    while start > 1 and words[start - 1] in _PARTICLES:
        start -= 1
    return start


def _surname(name: str, locale: str) -> str:
    return " ".join(name.split()[_surname_at(name, locale) :])


def _surname_first(name: str, locale: str) -> str:
    """ "Jane Doe" as a record or an address book writes it: "Doe, Jane"."""
    words = name.split()
    start = _surname_at(name, locale)
    return f"{' '.join(words[start:])}, {' '.join(words[:start])}"


def _records(f: _Facts) -> tuple[pymupdf.Document, list[Label]]:
    """Records as a production holds them: an e-mail's header with its address list,
    record fields naming people (surname first, in capitals), a court caption, a party
    table, and the people's surnames alone in the text."""
    doc = pymupdf.open()
    width, height = _page_size(f.locale)
    fontsize = 9.5
    page = doc.new_page(width=width, height=height)
    complainant, witness, officer = f.complainant, f.witness, f.officer
    paras = [
        _Para((f"Records released under request {f.case_reference}",), bold=True, scale=1.2),
        _Para(("From: ", Plant(PERSON, _surname_first(officer, f.locale)), f" ({f.authority})")),
        _Para(("Sent: ", f.dates[0])),
        _Para(
            (
                "To: ",
                Plant(PERSON, _surname_first(complainant, f.locale)),
                " <",
                Plant(EMAIL, f.email),
                ">; ",
                Plant(PERSON, _surname_first(witness, f.locale)),
            )
        ),
        _Para((f"Subject: RE: your request {f.case_reference}",)),
        _Para(
            (
                "Complainant: ",
                Plant(PERSON, _surname_first(complainant, f.locale).upper()),
                f" (DOB {f.birth_date})",
            )
        ),
        _Para(("Witness: ", Plant(PERSON, witness), ", tel ", Plant(PHONE, f.witness_phone))),
        _Para((Plant(PERSON, complainant.upper()), " and ", Plant(PERSON, witness.upper()), ",")),
        _Para(("Plaintiffs,",)),
        _Para(("v.",)),
        _Para((f"{f.company},",)),
        _Para(("Defendant.",)),
        _Para(
            (
                f"On {f.dates[1]} {f.title} ",
                Plant(PERSON, _surname(complainant, f.locale)),
                " met ",
                Plant(PERSON, witness),
                " at the office. ",
                Plant(PERSON, _surname(witness, f.locale)),
                " confirmed the meeting in writing.",
            )
        ),
    ]
    frame = _Frame(_MARGIN, _MARGIN, width - _MARGIN, height - _MARGIN)
    lines, y = _set(paras, [frame], fontsize)
    inner = width - 2 * _MARGIN
    columns = [_MARGIN + inner * share for share in (0, 0.45, 0.7, 1.0)]
    rows: list[Sequence[Segment]] = [
        ("Party", "Role", "Telephone"),
        (Plant(PERSON, complainant), "complainant", Plant(PHONE, f.phone)),
        (Plant(PERSON, witness), "witness", Plant(PHONE, f.witness_phone)),
        (Plant(PERSON, officer), "case officer", ""),
    ]
    table, y = _table(page, rows, columns, y + 8, fontsize, bold_row=True)
    if y > height - _MARGIN:
        raise AssertionError("records do not fit their page")
    return doc, _write(page, lines + table, 0)


def _rasterised(doc: pymupdf.Document, dpi: int = 200) -> pymupdf.Document:
    """Every page as a grey picture of itself, same size, no text layer: a scan."""
    out = pymupdf.open()
    for page in doc:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        scan = out.new_page(width=page.rect.width, height=page.rect.height)
        scan.insert_image(scan.rect, pixmap=pix)
    return out


def _build(f: _Facts, layout: str) -> tuple[bytes, list[Label]]:
    if layout == PLAIN:
        doc, labels = _single_column(f, fontsize=10.0)
    elif layout == WRAPPED:
        doc, labels = _single_column(f, fontsize=10.0, wrap=True)
    elif layout == ROTATED:
        doc, labels = _single_column(f, fontsize=10.0, rotation=90)
    elif layout == TWO_COLUMN:
        doc, labels = _two_column(f)
    elif layout == TABLE:
        doc, labels = _form(f)
    elif layout == RECORDS:
        doc, labels = _records(f)
    elif layout == SCANNED:
        # Labels are measured on the text page; the scan keeps the same geometry.
        text_doc, labels = _single_column(f, fontsize=10.0)
        doc = _rasterised(text_doc)
    else:
        raise ValueError(f"unknown layout {layout!r}")
    return _save(doc), labels


def labelled_documents(
    seed: int = 0,
    per_locale: int = 1,
    layouts: Sequence[str] = ALL_LAYOUTS,
    locales: Sequence[str] = LOCALES,
) -> list[LabelledDoc]:
    """`per_locale` case files per locale and layout, labelled. The same arguments give
    the same bytes and labels; a document depends only on (seed, locale, index, layout)."""
    docs = []
    for locale in locales:
        for index in range(per_locale):
            for layout in layouts:
                key = f"{seed}:{locale}:{index}:{layout}"
                # Consecutive documents take consecutive card kinds and IBAN styles, so
                # even one document per locale and layout has every kind several times.
                position = LOCALES.index(locale) + index * len(LOCALES) + ALL_LAYOUTS.index(layout)
                facts = _facts(_Values(locale, key), position)
                pdf, labels = _build(facts, layout)
                docs.append(
                    LabelledDoc(f"{locale}-{layout}-{index}", locale, layout, pdf, tuple(labels))
                )
    return docs


# --------------------------------------------------------------------------- scoring


class ScoredMark(Protocol):
    """What scoring reads of a mark: `review.pdf.detect.Mark` has it."""

    @property
    def page(self) -> int: ...

    @property
    def box(self) -> Box: ...

    @property
    def category(self) -> str: ...


@dataclass(frozen=True)
class Ratio:
    hits: int
    total: int

    @property
    def value(self) -> float | None:
        """None when there is nothing to measure (no labels, or no marks)."""
        return self.hits / self.total if self.total else None


@dataclass(frozen=True)
class Miss:
    document: str
    label: Label
    covered: float


@dataclass(frozen=True)
class FalsePositive:
    document: str
    page: int
    category: str
    rect: Rect
    text: str  # what the mark lies on, read back from the text layer ("" on a scan)


@dataclass(frozen=True)
class Scores:
    recall_by_category: dict[str, Ratio]
    recall_by_layout: dict[str, Ratio]
    recall_by_locale: dict[str, Ratio]
    recall: Ratio
    precision: Ratio
    precision_by_category: dict[str, Ratio]
    documents: int
    marks_unscored: int
    misses: tuple[Miss, ...]
    false_positives: tuple[FalsePositive, ...]


def _area(r: Rect) -> float:
    return max(0.0, r[2] - r[0]) * max(0.0, r[3] - r[1])


def _intersection(a: Rect, b: Rect) -> Rect:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _union_area(rects: Sequence[Rect]) -> float:
    """Area of the union of rectangles (they may overlap): sweep over x strips."""
    rects = [r for r in rects if _area(r) > 0]
    xs = sorted({x for r in rects for x in (r[0], r[2])})
    total = 0.0
    for left, right in zip(xs, xs[1:], strict=False):
        spans = sorted((r[1], r[3]) for r in rects if r[0] <= left and r[2] >= right)
        covered, reach = 0.0, float("-inf")
        for top, bottom in spans:
            if bottom > reach:
                covered += bottom - max(top, reach)
                reach = bottom
        total += covered * (right - left)
    return total


def _coverage(label: Label, marks: Sequence[Rect]) -> float:
    """Share of the label's area under the union of `marks`."""
    total = sum(_area(r) for r in label.rect)
    if not total:
        return 0.0
    covered = sum(_union_area([_intersection(m, r) for m in marks]) for r in label.rect)
    return covered / total


def _on_label(mark: Rect, label: Label) -> bool:
    area = _area(mark)
    if not area:  # a degenerate box is right when it lies on the label at all
        cx, cy = (mark[0] + mark[2]) / 2, (mark[1] + mark[3]) / 2
        return any(r[0] <= cx <= r[2] and r[1] <= cy <= r[3] for r in label.rect)
    on = sum(_area(_intersection(mark, r)) for r in label.rect)
    return on / area >= TRUE_POSITIVE_OVERLAP


def score(
    docs: Iterable[LabelledDoc], detect_fn: Callable[[bytes], Iterable[ScoredMark]]
) -> Scores:
    """Recall per category, layout and locale, and precision, of `detect_fn` on `docs`.

    A label is found when the union of its page's marks of the same category covers
    FOUND_COVERAGE of it; a mark (one box) is a true positive when TRUE_POSITIVE_OVERLAP
    of it lies on a label of its category. Marks of UNSCORED_CATEGORIES are left out.
    """
    found: dict[tuple[str, str, str], list[bool]] = defaultdict(list)  # category, layout, locale
    right: dict[str, list[bool]] = defaultdict(list)
    misses: list[Miss] = []
    false_positives: list[FalsePositive] = []
    unscored = count = 0
    for doc in docs:
        count += 1
        marks = list(detect_fn(doc.pdf))
        with pymupdf.open(stream=doc.pdf, filetype="pdf") as pdf:
            boxes: dict[tuple[int, str], list[Rect]] = defaultdict(list)
            for mark in marks:
                r = page_rect(pdf[mark.page], mark.box)
                boxes[(mark.page, mark.category)].append((r.x0, r.y0, r.x1, r.y1))
            for label in doc.labels:
                covered = _coverage(label, boxes[(label.page, label.category)])
                found[(label.category, doc.layout, doc.locale)].append(covered >= FOUND_COVERAGE)
                if covered < FOUND_COVERAGE:
                    misses.append(Miss(doc.name, label, covered))
            for (page, category), rects in sorted(boxes.items()):
                if category in UNSCORED_CATEGORIES:
                    unscored += len(rects)
                    continue
                labels = [x for x in doc.labels if x.page == page and x.category == category]
                for rect in rects:
                    ok = any(_on_label(rect, label) for label in labels)
                    right[category].append(ok)
                    if not ok:
                        text = pdf[page].get_text("text", clip=pymupdf.Rect(rect)).strip()
                        false_positives.append(
                            FalsePositive(doc.name, page, category, rect, " ".join(text.split()))
                        )

    def ratio(outcomes: Iterable[bool]) -> Ratio:
        outcomes = list(outcomes)
        return Ratio(sum(outcomes), len(outcomes))

    def recall_by(part: int, keys: Sequence[str]) -> dict[str, Ratio]:
        return {k: ratio(x for key, v in found.items() if key[part] == k for x in v) for k in keys}

    layouts = [x for x in ALL_LAYOUTS if any(key[1] == x for key in found)]
    locales = [x for x in LOCALES if any(key[2] == x for key in found)]
    return Scores(
        recall_by_category=recall_by(0, LABELLED_CATEGORIES),
        recall_by_layout=recall_by(1, layouts),
        recall_by_locale=recall_by(2, locales),
        recall=ratio(x for v in found.values() for x in v),
        precision=ratio(x for v in right.values() for x in v),
        precision_by_category={c: ratio(v) for c, v in sorted(right.items())},
        documents=count,
        marks_unscored=unscored,
        misses=tuple(misses),
        false_positives=tuple(false_positives),
    )


class Bar(NamedTuple):
    measured: float | None  # None: nothing to measure, which never meets a bar
    bar: float

    @property
    def met(self) -> bool:
        return self.measured is not None and self.measured >= self.bar


def recall_bars(scores: Scores) -> dict[str, Bar]:
    """Each labelled category's recall against its bar, in RECALL_BARS order."""
    return {c: Bar(scores.recall_by_category[c].value, bar) for c, bar in RECALL_BARS.items()}


def precision_bar(scores: Scores) -> Bar:
    return Bar(scores.precision.value, PRECISION_BAR)


# --------------------------------------------------------------------- the detector

PHONE_REGIONS: tuple[str, ...] = ("US", "GB", "DE", "FR", "ES")


def quality_policy(*, ner: bool = True, salt: bytes = b"labelled-corpus-salt") -> DetectionPolicy:
    """The policy quality is measured with: every category and OCR on, plus `ner` and
    the corpus's `phone_regions` where DetectionPolicy has those fields (they arrive
    with the name and international-phone detectors; older policies lack them)."""
    # Imported here: detect loads spaCy (about a second), which building the corpus
    # or scoring canned marks does not need.
    from review.pdf.detect import DetectionPolicy
    from review.pdf.patterns import ALL_CATEGORIES

    fields = {f.name for f in dataclasses.fields(DetectionPolicy)}
    options: dict[str, Any] = {"salt": salt, "categories": ALL_CATEGORIES, "ocr": True}
    if "ner" in fields:
        options["ner"] = ner
    if "phone_regions" in fields:
        options["phone_regions"] = PHONE_REGIONS
    return DetectionPolicy(**options)
