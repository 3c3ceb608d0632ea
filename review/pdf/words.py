"""A text page's words as `TextPage.extractWORDS` reads them, with true boxes.

PyMuPDF drops a "word" whose glyphs have no width (a symbol font's blank bullet,
U+F020; a figure's /ActualText, which MuPDF sets at the image's corner in glyphs of no
width), but keeps its box and joins it to the next word of the block: a word on a
bulleted line was boxed from the bullet 14 pt to its left, so the release gate took it
for a word under the box that had removed the bullet's neighbour (govdocs1's
225188.pdf), and the first word under a described figure was boxed 380 pt tall, up to
the figure's top (govdocs1's 436840.pdf).

`words_of` takes extractWORDS where its words hold every character of the page but
white space (no word was dropped, so none carries another's box) and otherwise reads
the words from the glyphs by the same rules (PyMuPDF's `JM_is_word_delimiter`, and a
change of writing direction) and writes them as it does (a lone UTF-16 surrogate, which a
ToUnicode map may give a glyph, as U+FFFD): each word's box is then its own glyphs'
boxes only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import pymupdf

# (x0, y0, x1, y1, text, block number, line number, word number), as extractWORDS.
RawWord = tuple[float, float, float, float, str, int, int, int]

_ZERO_WIDTH_JOINER = "\u200d"
# Where extractWORDS ends a word (PyMuPDF's `JM_is_word_delimiter`): white space,
# no-break space and the direction marks.
_DELIMITER = "[\x00-\x20\xa0\u202a-\u202e]"
_ONE_DELIMITER = re.compile(_DELIMITER)
_DELIMITERS = re.compile(_DELIMITER + "+")
# What extractWORDS writes for a glyph that maps to half of a UTF-16 surrogate pair
# (xhtml2pdf's utf8.pdf maps each of two glyphs of a CJK character to one half): read
# as it was, the words read from the glyphs spelled the surrogates, extractWORDS
# "\ufffd\ufffd", and the gate took each such word for text the original never showed.
_SURROGATES = ("\ud800", "\udfff")


def splits_words(char: str) -> bool:
    return _ONE_DELIMITER.fullmatch(char) is not None


def _right_to_left(code: int) -> bool:
    return 0x590 <= code <= 0x900


def words_of(textpage: pymupdf.TextPage) -> list[RawWord]:
    words = textpage.extractWORDS()
    return words if _none_dropped(textpage, words) else _from_glyphs(textpage)


def _none_dropped(textpage: pymupdf.TextPage, words: list[RawWord]) -> bool:
    """Whether the words hold every character of the page but white space: a word
    that was dropped is the only way a box gets carried to another word."""
    return len(_DELIMITERS.sub("", textpage.extractText())) == sum(len(w[4]) for w in words)


def _from_glyphs(textpage: pymupdf.TextPage) -> list[RawWord]:
    found: list[RawWord] = []
    area = textpage.rect
    last_rtl = False  # as extractWORDS, carried from line to line
    for block in textpage.extractRAWDICT()["blocks"]:
        for line_n, line in enumerate(block.get("lines", ())):
            chars = (c for span in line["spans"] for c in span["chars"])
            last_rtl = _line_words(chars, area, (block["number"], line_n), last_rtl, found)
    return found


def _line_words(
    chars: Iterable[dict[str, Any]],
    area: pymupdf.Rect,
    line: tuple[int, int],
    last_rtl: bool,
    found: list[RawWord],
) -> bool:
    """Appends the words of one line to `found`; returns the direction of its last
    character."""
    ax0, ay0, ax1, ay1 = area
    everywhere = area.is_infinite
    text: list[str] = []
    box: list[float] | None = None  # the union of the word's characters' boxes
    count = 0
    for char in chars:
        x0, y0, x1, y1 = char["bbox"]
        if not everywhere and (x0 >= ax1 or y0 >= ay1 or x1 <= ax0 or y1 <= ay0):
            continue
        c = char["c"]
        if _SURROGATES[0] <= c <= _SURROGATES[1]:
            c = "\ufffd"
        if not text and c == _ZERO_WIDTH_JOINER:
            continue  # cannot start a word
        splits = splits_words(c)
        rtl = len(c) == 1 and _right_to_left(ord(c))
        if splits or rtl != last_rtl:
            if not text and splits:
                continue
            count += _add(found, text, box, line, count)
            text, box = [], None
            if splits:
                continue
        text.append(c)
        last_rtl = rtl
        if x0 <= x1 and y0 <= y1:
            box = (
                [x0, y0, x1, y1]
                if box is None
                else [min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)]
            )
    _add(found, text, box, line, count)
    return last_rtl


def _add(
    found: list[RawWord],
    text: list[str],
    box: list[float] | None,
    line: tuple[int, int],
    count: int,
) -> int:
    """Appends the word unless its glyphs have no area (as extractWORDS drops it, but
    forgetting its box); how many words it added."""
    if not text or box is None or box[0] >= box[2] or box[1] >= box[3]:
        return 0
    found.append((box[0], box[1], box[2], box[3], "".join(text), line[0], line[1], count))
    return 1
