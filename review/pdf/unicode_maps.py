"""Words a font's ToUnicode map spells out that no page shows any more (Django-free).

A font made by OCR (Adobe's Paper Capture with ClearScan) draws a whole word as one
glyph, and its ToUnicode map gives that glyph the word: "<000d> <000d>
<004e004f004e0045>" reads NONE. Once burn-in or sanitize has taken every glyph of the
word off the pages, the map still spells it out in the released file, where any
extractor finds it: the release gate refused a scanned financial disclosure on five such
maps. A destination of three characters or more that no glyph drawn on a page stands
for any more is written as U+FFFD instead: no glyph that draws uses it, so nothing a
reader sees or copies changes.

A range of codes with a word for its first destination (each next code's word ends one
character further on) is left as it is: no OCR font writes one, and the gate still
refuses the release if one spells out a redacted word.
"""

from __future__ import annotations

import re

import pymupdf
from pymupdf import mupdf

from review.pdf.objects import every_object

# The gate checks words of three characters and more (`verify._token`).
MIN_CHARS = 3
_BLOCK = re.compile(rb"begin(bfchar|bfrange)(.*?)end\1", re.S)
_TOKEN = re.compile(rb"<([0-9A-Fa-f\s]*)>|\[|\]")
_SPACE = re.compile(r"\s+")
REPLACEMENT = b"<FFFD>"
_TO_UNICODE = mupdf.pdf_new_name("ToUnicode")


def forget_unshown_words(doc: pymupdf.Document) -> None:
    """Write U+FFFD for every word a ToUnicode map of `doc` gives a glyph that no glyph
    drawn on its pages stands for."""
    shown: set[str] | None = None  # read only for a document whose maps spell out words
    for xref in _unicode_maps(doc):
        data = doc.xref_stream(xref)
        words = _word_destinations(data)
        if not words:
            continue
        if shown is None:
            shown = _words_drawn(doc)
        unshown = [(start, end) for start, end, word in words if word not in shown]
        for start, end in reversed(unshown):
            data = data[:start] + REPLACEMENT + data[end:]
        if unshown:
            doc.update_stream(xref, data)


def _words_drawn(doc: pymupdf.Document) -> set[str]:
    """What each glyph drawn on the pages stands for, where that is three characters or
    more. MuPDF traces a glyph's further characters as glyphs numbered -1: "NONE" is
    N, then O, N and E of no glyph. Not the pages' text: a word drawn letter by letter
    ("Corporation") holds "Corp", a word glyph that is drawn nowhere."""
    drawn = set()
    for page in doc:
        for span in page.get_texttrace():
            word: list[str] = []
            for code, glyph, *_ in [*span["chars"], (32, 0)]:
                if glyph != -1:
                    text = _SPACE.sub("", "".join(word))
                    if len(text) >= MIN_CHARS:
                        drawn.add(text)
                    word = []
                word.append(chr(code))
    return drawn


def _unicode_maps(doc: pymupdf.Document) -> set[int]:
    maps = set()
    for obj in every_object(doc):
        found = mupdf.pdf_dict_get(obj, _TO_UNICODE)
        if mupdf.pdf_is_stream(found):
            maps.add(mupdf.pdf_to_num(found))
    return maps


def _word_destinations(data: bytes) -> list[tuple[int, int, str]]:
    """(start, end, word without spaces) of each destination in the map's bfchar and
    bfrange blocks that maps one code to three characters or more."""
    found = []
    for block in _BLOCK.finditer(data):
        ranges = block.group(1) == b"bfrange"
        tokens = list(_TOKEN.finditer(block.group(2)))
        offset = block.start(2)
        i = 0
        while i < len(tokens):
            if ranges:
                if i + 2 >= len(tokens):
                    break
                low, high, first = tokens[i : i + 3]
                if first.group(0) == b"[":  # one destination per code
                    i += 3
                    while i < len(tokens) and tokens[i].group(0) != b"]":
                        found.extend(_word(tokens[i], offset))
                        i += 1
                    i += 1
                    continue
                if _hex(low) == _hex(high):
                    found.extend(_word(first, offset))
                i += 3
            else:
                if i + 1 < len(tokens):
                    found.extend(_word(tokens[i + 1], offset))
                i += 2
    return found


def _hex(token: re.Match[bytes]) -> bytes:
    return re.sub(rb"\s", b"", token.group(1) or b"").lower()


def _word(token: re.Match[bytes], offset: int) -> list[tuple[int, int, str]]:
    digits = _hex(token)
    if token.group(1) is None or len(digits) % 4:
        return []
    word = _SPACE.sub("", bytes.fromhex(digits.decode()).decode("utf-16-be", "replace"))
    if len(word) < MIN_CHARS:
        return []
    return [(offset + token.start(), offset + token.end(), word)]
