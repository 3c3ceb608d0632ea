"""E-mail addresses in page text (Django-free): as written, wrapped where typesetters
break them, written out against harvesters ("jane.doe [at] example [dot] com"), and
several local parts in braces before one domain ("{gal,brendan}@mozilla.com", as
papers list their authors).
Spans only, with confidence, detector and the address as it would be typed (lower
case): `patterns` makes them hits.
"""

from __future__ import annotations

import re
from collections.abc import Iterator


def find_emails(text: str) -> Iterator[tuple[int, int, float, str, str]]:
    """(start, end, confidence, detector, address) of each e-mail address."""
    yield from _plain(text)
    yield from _written_out(text)
    yield from _grouped(text)


# A line break may follow ". _ % + -" in the local part, sit next to "@", follow a
# "." or "-" in the domain: the places where typesetters break an address. A line break
# after a dot continues the domain only into a lower-case label: "gov." at a line end
# followed by "Please" ends the address.
_DOMAIN = r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]|(?<=-)\n)*\.(?:\n(?=[a-z0-9]))?)+[A-Za-z]{2,24}(?![\w-])"
_EMAIL = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._%+-]|(?<=[._%+-])\n)*\n?@\n?" + _DOMAIN)
_GROUPED_EMAIL = re.compile(
    r"\{\s*[A-Za-z0-9][\w.%+-]*(?:\s*[,;|]\s*[A-Za-z0-9][\w.%+-]*)*\s*\}\s*@\n?" + _DOMAIN
)
_LOCAL_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._%+-")


def _plain(text: str) -> Iterator[tuple[int, int, float, str, str]]:
    # Anchored at each "@" and walked back to the local part's start: a full-text
    # regex pass would retry the local part at every letter of the page.
    at = text.find("@")
    resume = 0
    while at != -1:
        start = at
        if start > 0 and text[start - 1] == "\n":
            start -= 1
        while start > resume and (
            text[start - 1] in _LOCAL_CHARS
            or (text[start - 1] == "\n" and start > 1 and text[start - 2] in "._%+-")
        ):
            start -= 1
        while start < at and not text[start].isalnum():
            start += 1
        m = _EMAIL.match(text, start)
        if m is not None:
            resume = m.end()
            yield m.start(), m.end(), 0.95, "regex.email", "".join(m[0].split()).lower()
        at = text.find("@", max(at + 1, resume))


# An address written out against harvesters: "jane.doe [at] example [dot] com",
# "jane.doe(at)example.org", "jane dot doe at example dot org". A plain " at " between
# dotted words is no address without a written-out dot ("look at www.example.org").
_WRITTEN_AT = r"(?:\s*[\[({]\s*at\s*[\])}]\s*|\s+at\s+)"
_WRITTEN_DOT = r"(?:\s*[\[({]\s*dot\s*[\])}]\s*|\s+dot\s+|\.)"
_WRITTEN_OUT = re.compile(r"[\[({]\s*(?:at|dot)\s*[\])}]|\sdot\s", re.I)
_WRITTEN_OUT_EMAIL = re.compile(
    rf"(?<![\w.+-])[A-Za-z0-9][\w+-]*(?:{_WRITTEN_DOT}[\w+-]+)*{_WRITTEN_AT}"
    rf"[A-Za-z0-9][\w-]*(?:{_WRITTEN_DOT}[\w-]+)*{_WRITTEN_DOT}[A-Za-z]{{2,24}}(?![\w-])",
    re.I,
)


def _written_out(text: str) -> Iterator[tuple[int, int, float, str, str]]:
    if _WRITTEN_OUT.search(text) is None:
        return  # most pages: no bracketed "at" or "dot", no " dot "
    for m in _WRITTEN_OUT_EMAIL.finditer(text):
        if _WRITTEN_OUT.search(m[0]) is None:
            continue
        address = re.sub(
            _WRITTEN_DOT, ".", re.sub(_WRITTEN_AT, "@", m[0], count=1, flags=re.I), flags=re.I
        )
        yield m.start(), m.end(), 0.85, "regex.email_written_out", address.lower()


def _grouped(text: str) -> Iterator[tuple[int, int, float, str, str]]:
    if "}" not in text:
        return  # most pages
    for m in _GROUPED_EMAIL.finditer(text):
        yield m.start(), m.end(), 0.9, "regex.email_group", "".join(m[0].split()).lower()
