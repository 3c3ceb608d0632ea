"""Labelled PDF fixtures: synthetic PII planted at known places, built with PyMuPDF.

Reusable by any test (detection, redaction, API, browser)::

    from testkit.corpus import labelled_corpus, simple_pdf

    for doc in labelled_corpus():          # tuple[CorpusDoc, ...], built once
        doc.pdf                            # bytes
        doc.planted                        # (Planted(page, category, value, source), ...)

    simple_pdf(["SSN 123-45-6789"], rotation=90)   # -> bytes, one page

Every value is synthetic: 555-01xx phone numbers, example.com mail, test card
numbers, the textbook GB82WEST... IBAN and random SSNs from valid ranges. `source` says
where the value lives: "text" (page text layer), "annotation", "widget" or "ocr"
(only in the page image). Decoy lines (near-misses that must not be marked) are
written too but not planted.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

import pymupdf

SEARCH_TERMS: tuple[str, ...] = ("Jane Johnson", "Acme Holdings", "Montgomery")
FONT_SIZE = 9
LEADING = 13
MARGIN = 54


@dataclass(frozen=True)
class Planted:
    page: int
    category: str
    value: str
    source: str = "text"


@dataclass(frozen=True)
class CorpusDoc:
    name: str
    pdf: bytes
    planted: tuple[Planted, ...]
    search_terms: tuple[str, ...] = SEARCH_TERMS


# ------------------------------------------------------------------ small builders


def write_lines(
    page: pymupdf.Page,
    lines: list[str],
    *,
    x: float = MARGIN,
    y: float = MARGIN + FONT_SIZE,
    fontsize: float = FONT_SIZE,
    leading: float = LEADING,
) -> float:
    """Write lines top-down in unrotated page space; returns the next baseline."""
    for line in lines:
        page.insert_text((x, y), line, fontsize=fontsize, fontname="helv")
        y += leading
    return y


def simple_pdf(
    lines: list[str],
    rotation: int = 0,
    *,
    cropbox: pymupdf.Rect | None = None,
    fontsize: float = FONT_SIZE,
    x: float = MARGIN,
    y: float = MARGIN + FONT_SIZE,
) -> bytes:
    """One letter-size page with `lines`, then an optional crop box and rotation."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    write_lines(page, lines, fontsize=fontsize, x=x, y=y, leading=fontsize * 1.45)
    if cropbox is not None:
        page.set_cropbox(cropbox)
    page.set_rotation(rotation)
    return doc.tobytes()


def scanned_pdf(lines: list[str], *, fontsize: float = 14, dpi: int = 200) -> bytes:
    """An image-only page: `simple_pdf(lines, fontsize=...)` rasterized and re-inserted,
    at the same size, so word positions on the source page match the picture."""
    source = pymupdf.open(stream=simple_pdf(lines, fontsize=fontsize), filetype="pdf")
    pix = source[0].get_pixmap(dpi=dpi)
    doc = pymupdf.open()
    page = doc.new_page(width=source[0].rect.width, height=source[0].rect.height)
    page.insert_image(page.rect, pixmap=pix)
    return doc.tobytes()


# ------------------------------------------------------------ synthetic PII values


def _luhn_complete(partial: str) -> str:
    for check in "0123456789":
        digits = partial + check
        total = 0
        for i, ch in enumerate(reversed(digits)):
            d = int(ch)
            if i % 2:
                d = d * 2 - 9 if d > 4 else d * 2
            total += d
        if total % 10 == 0:
            return digits
    raise AssertionError("unreachable")


def _iban(country: str, bban: str) -> str:
    numeric = "".join(str(int(c, 36)) for c in bban + country + "00")
    return f"{country}{98 - int(numeric) % 97:02d}{bban}"


class Values:
    """Deterministic generator of valid synthetic values."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def ssn(self) -> str:
        area = self.rng.choice([a for a in range(1, 900) if a != 666])
        return f"{area:03d}-{self.rng.randint(1, 99):02d}-{self.rng.randint(1, 9999):04d}"

    def phone(self) -> str:
        area = self.rng.choice(["202", "212", "303", "415", "617", "312"])
        line = f"01{self.rng.randint(0, 99):02d}"
        form = self.rng.randrange(4)
        return [
            f"({area}) 555-{line}",
            f"{area}-555-{line}",
            f"+1 {area} 555 {line}",
            f"{area}.555.{line}",
        ][form]

    def intl_phone(self) -> str:
        tail = f"{self.rng.randint(0, 999):03d}"
        return self.rng.choice([f"+44 20 7946 0{tail}", f"+4420 79460{tail}", f"+442079460{tail}"])

    def email(self) -> str:
        first = self.rng.choice(["jane", "omar", "li", "ana", "sam", "kofi"])
        last = self.rng.choice(["doe", "roe", "smith", "ng", "okafor", "garcia"])
        return f"{first}.{last}{self.rng.randint(1, 99)}@example.com"

    def card(self) -> str:
        prefix = self.rng.choice(["4", "51", "55"])
        body = prefix + "".join(str(self.rng.randrange(10)) for _ in range(15 - len(prefix)))
        digits = _luhn_complete(body)
        return " ".join(digits[i : i + 4] for i in range(0, 16, 4))

    def iban(self) -> str:
        bban = "WEST" + "".join(str(self.rng.randrange(10)) for _ in range(14))
        compact = _iban("GB", bban)
        if self.rng.random() < 0.5:
            return compact
        return " ".join(compact[i : i + 4] for i in range(0, len(compact), 4))

    def ein(self) -> str:
        return f"{self.rng.choice([12, 20, 35, 46, 58, 91])}-{self.rng.randint(1000000, 9999999)}"

    def dob(self) -> str:
        y, m, d = self.rng.randint(1940, 2005), self.rng.randint(1, 12), self.rng.randint(1, 28)
        month = ["January", "February", "March", "April", "May", "June", "July", "August",
                 "September", "October", "November", "December"][m - 1]  # fmt: skip
        return self.rng.choice(
            [
                f"{m:02d}/{d:02d}/{y}",
                f"{y}-{m:02d}-{d:02d}",
                f"{month} {d}, {y}",
                f"{d} {month} {y}",
            ]
        )

    def number(self, prefix: str = "") -> str:
        return prefix + "".join(str(self.rng.randrange(10)) for _ in range(self.rng.randint(7, 10)))

    def ipv4(self) -> str:
        return ".".join(str(self.rng.randint(1, 254)) for _ in range(4))

    def ipv6(self) -> str:
        return "2001:db8:" + ":".join(f"{self.rng.randrange(65536):x}" for _ in range(3)) + "::1"


# Near misses that no detector may mark.
DECOYS: tuple[str, ...] = (
    "Invoice ref 000-12-3456 and 666-45-6789 and 912-34-5678 are not issued.",
    "Order 4111 1111 1111 1112 fails the check digit.",
    "Build 1.2.300.4 shipped; meeting at 10:30:00 in room 5.",
    "Reference 123456789 carries no cue; ZIP 20500-0003 is an address.",
    "Account for 2023 expenses totalled 1,234,567.89 dollars.",
    "Ticket GB00WEST12345698765432 has a wrong check digit.",
    "Case 2021-CV-0042 was filed on 2021-04-05 by counsel.",
    "Call extension 4410 or dial 555-0100 internally.",
)


def _bulk_page(page: pymupdf.Page, index: int, v: Values) -> list[Planted]:
    planted: list[Planted] = []

    def put(category: str, value: str) -> str:
        planted.append(Planted(index, category, value))
        return value

    lines = [
        f"Claimant SSN {put('ssn', v.ssn())} filed on 2021-04-05 in the district court.",
        f"Reach the office at {put('phone', v.phone())} or write to {put('email', v.email())}.",
        f"Card on file {put('card', v.card())}; refund to {put('iban', v.iban())}.",
        f"Employer EIN {put('ein', v.ein())}; DOB: {put('dob', v.dob())}.",
        f"Account no. {put('account_number', v.number())}, Policy number {put('policy_number', v.number('POL-'))}.",
        f"MRN {put('medical_record', v.number())} and login from {put('ip_address', v.ipv4())}.",
        f"Host {put('ip_address', v.ipv6())} also logged; London desk {put('phone', v.intl_phone())}.",
        f"Witness {put('search_term', 'Jane Johnson')} met Acme staff; social security no. {put('ssn', v.ssn().replace('-', ''))}.",
        f"Second contact: tel. {put('phone', v.phone())}, mail {put('email', v.email())}.",
        f"Born on {put('dob', v.dob())}; medical record # {put('medical_record', v.number('A'))}.",
        f"Filed for {put('search_term', 'Acme Holdings')} by counsel; acct {put('account_number', v.number())}.",
        f"Payment card {put('card', v.card())} expired; employer identification number {put('ein', v.ein())}.",
    ]
    decoys = [DECOYS[(index + k) % len(DECOYS)] for k in range(3)]
    write_lines(page, lines + decoys)
    return planted


def _bulk(pages: int, seed: int) -> CorpusDoc:
    v = Values(seed)
    doc = pymupdf.open()
    planted: list[Planted] = []
    for index in range(pages):
        planted += _bulk_page(doc.new_page(width=612, height=792), index, v)
    return CorpusDoc(f"bulk-{seed}", doc.tobytes(), tuple(planted))


def rotated_cropped(rotation: int, *, cropped: bool) -> CorpusDoc:
    """One page with values glued to labels ("SSN:..."), rotated and maybe cropped."""
    v = Values(1000 + rotation + cropped)
    ssn, email, phone, card = v.ssn(), v.email(), v.phone(), v.card()
    lines = [
        f"SSN:{ssn} on record",
        f"Email:{email}",
        f"Phone {phone} (desk)",
        f"Card {card} for {'Jane Johnson'}",
    ]
    # The crop keeps the text but moves the crop origin well away from (0, 0).
    crop = pymupdf.Rect(36, 30, 560, 700) if cropped else None
    pdf = simple_pdf(lines, rotation, cropbox=crop, x=80, y=90)
    planted = (
        Planted(0, "ssn", ssn),
        Planted(0, "email", email),
        Planted(0, "phone", phone),
        Planted(0, "card", card),
        Planted(0, "search_term", "Jane Johnson"),
    )
    name = f"rotated-{rotation}" + ("-cropped" if cropped else "")
    return CorpusDoc(name, pdf, planted)


WRAPPED_LINES: tuple[str, ...] = (
    "The statement of the witness Jane Jo-",
    "hnson was taken under oath. Her SSN 219-45-",
    "6789 appears on the form. Contact her at jane.johnson@",
    "example.com or alexandra.",
    "montgomery@example.com before the hearing of Acme",
    "Holdings.",
)


def wrapped() -> CorpusDoc:
    """Values broken across lines: a hyphenated name, an SSN, two addresses, a name."""
    doc = pymupdf.open()
    write_lines(doc.new_page(width=612, height=792), list(WRAPPED_LINES))
    planted = (
        Planted(0, "search_term", "Jane Johnson"),
        Planted(0, "ssn", "219-45-6789"),
        Planted(0, "email", "jane.johnson@example.com"),
        Planted(0, "email", "alexandra.montgomery@example.com"),
        Planted(0, "search_term", "Acme Holdings"),
    )
    return CorpusDoc("wrapped", doc.tobytes(), planted)


def two_columns() -> CorpusDoc:
    """Two text columns set with insert_textbox; each column holds its own values."""
    v = Values(77)
    ssn, email, phone, iban = v.ssn(), v.email(), v.phone(), v.iban()
    left = (
        f"The first column describes the claim. The claimant, SSN {ssn}, can be "
        f"reached by email at {email} during office hours. "
        * 1
        + "Further narrative follows to fill the column with ordinary prose. " * 3
    )
    right = (
        f"The second column lists payments. Funds went to {iban} after the call "
        f"on {phone} with the adjuster. "
        + "More ordinary prose completes the second column of the page. "
        * 3
    )
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for rect, text in (
        (pymupdf.Rect(54, 54, 296, 500), left),
        (pymupdf.Rect(316, 54, 558, 500), right),
    ):
        if page.insert_textbox(rect, text, fontsize=FONT_SIZE, fontname="helv") < 0:
            raise AssertionError("column text overflowed")
    planted = (
        Planted(0, "ssn", ssn),
        Planted(0, "email", email),
        Planted(0, "iban", iban),
        Planted(0, "phone", phone),
    )
    return CorpusDoc("two-columns", doc.tobytes(), planted)


ANNOT_FREETEXT_RECT = pymupdf.Rect(300, 300, 500, 340)
ANNOT_NOTE_POINT = pymupdf.Point(100, 400)
WIDGET_RECT = pymupdf.Rect(100, 500, 300, 520)


def annotated(rotation: int = 0) -> CorpusDoc:
    """A FreeText box, a sticky note and a text field, each holding one value."""
    v = Values(300 + rotation)
    email, phone, ssn = v.email(), v.phone(), v.ssn()
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    write_lines(page, ["Reviewer notes are attached to this page."])
    page.set_rotation(rotation)
    page.add_freetext_annot(ANNOT_FREETEXT_RECT, f"Reply to {email}", fontsize=10)
    page.add_text_annot(ANNOT_NOTE_POINT, f"Called {phone} on Monday")
    widget = pymupdf.Widget()
    widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.field_name = "applicant_ssn"
    widget.field_value = ssn
    widget.rect = WIDGET_RECT
    page.add_widget(widget)
    planted = (
        Planted(0, "email", email, "annotation"),
        Planted(0, "phone", phone, "annotation"),
        Planted(0, "ssn", ssn, "widget"),
    )
    return CorpusDoc(f"annotated-{rotation}", doc.tobytes(), planted)


FOOTER_EMAIL = "records@example.com"


def repeated_footer(pages: int = 4) -> CorpusDoc:
    """The same footer line, at the same place, on every page."""
    doc = pymupdf.open()
    for index in range(pages):
        page = doc.new_page(width=612, height=792)
        write_lines(page, [f"Body text of page {index + 1}."])
        page.insert_text((MARGIN, 760), f"Questions: {FOOTER_EMAIL}", fontsize=8, fontname="helv")
    planted = tuple(Planted(i, "email", FOOTER_EMAIL) for i in range(pages))
    return CorpusDoc("repeated-footer", doc.tobytes(), planted)


SCANNED_LINES: tuple[str, ...] = (
    "Scanned intake form",
    "Applicant SSN 123-45-6789",
    "Email: scan.person@example.com",
    "Phone: (202) 555-0143",
)


def scanned() -> CorpusDoc:
    """Page 0 has a text layer; page 1 is only a picture of SCANNED_LINES."""
    doc = pymupdf.open()
    write_lines(doc.new_page(width=612, height=792), ["Cover sheet, phone (303) 555-0199."])
    doc.insert_pdf(pymupdf.open(stream=scanned_pdf(list(SCANNED_LINES)), filetype="pdf"))
    planted = (
        Planted(0, "phone", "(303) 555-0199"),
        Planted(1, "ssn", "123-45-6789", "ocr"),
        Planted(1, "email", "scan.person@example.com", "ocr"),
        Planted(1, "phone", "(202) 555-0143", "ocr"),
    )
    return CorpusDoc("scanned", doc.tobytes(), planted)


@functools.cache
def labelled_corpus() -> tuple[CorpusDoc, ...]:
    """Every fixture document, built once per process."""
    return (
        _bulk(pages=12, seed=1),
        *(rotated_cropped(r, cropped=c) for r in (0, 90, 180, 270) for c in (False, True)),
        wrapped(),
        two_columns(),
        annotated(0),
        annotated(90),
        repeated_footer(),
        scanned(),
    )
