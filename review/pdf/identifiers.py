"""Values read after their label (Django-free): a date of birth ("DOB 04/12/1961") and
the identifiers of accounts, policies, medical records and identity documents
("Account no. 0012345678", "Passport No. 123456789", "A-Number: A012-345-678").
Spans only: `patterns` makes them hits, as it does the addresses of `addresses.py`.
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
# The identifiers read after their label.
ID_CATEGORIES: tuple[str, ...] = (
    ACCOUNT_NUMBER,
    POLICY_NUMBER,
    MEDICAL_RECORD,
    PASSPORT_NUMBER,
    DRIVER_LICENSE,
    A_NUMBER,
)

_MONTHS = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*"
_DOB_CUE = re.compile(
    r"(?=[dDbB])\b(?:DOB|D\.O\.B\.?|date\s+of\s+birth|birth\s*date|birthday|born(?:\s+on)?)", re.I
)
_DATE = re.compile(
    rf"(?<![\w/.-])(?:(\d{{1,2}})[/.-](\d{{1,2}})[/.-](\d{{4}}|\d{{2}})"
    rf"|(\d{{4}})-(\d{{1,2}})-(\d{{1,2}})"
    rf"|({_MONTHS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})"
    rf"|(\d{{1,2}})(?:st|nd|rd|th)?\s+({_MONTHS})\.?,?\s+(\d{{4}}))(?![\w/-])",
    re.I,
)
_MONTH_NUMBER = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}  # fmt: skip


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
        return _real_date(int(g[8]), _MONTH_NUMBER.get(g[6][:3].lower(), 0), int(g[7]))
    return _real_date(int(g[11]), _MONTH_NUMBER.get(g[10][:3].lower(), 0), int(g[9]))


def find_dates_of_birth(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each real date shortly after a birth cue."""
    lowered = text.lower()
    if not any(k in lowered for k in ("dob", "d.o.b", "birth", "born")):
        return  # cheap substring test spares a case-insensitive pass on most pages
    for cue in _DOB_CUE.finditer(text):
        m = _DATE.search(text, cue.end(), cue.end() + 40)
        if m is not None and _date_valid(m):
            yield m.span()


_ID_SUFFIX = r"\.?\s*(?:number|num\.?|no\.?|\#|id)"
# One pass for the cue-led identifiers; the named group that matched is the category.
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
    )\s*[:\#.]?\s*(?P<value>[A-Z0-9][A-Z0-9-]*[0-9][A-Z0-9-]*)""",
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
