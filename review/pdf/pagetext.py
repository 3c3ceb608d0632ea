"""A page's words and the texts of its annotations and widgets (`extract_words`), its
text in reading order with every character mapped back to its rectangle (`PageText`),
and a hit located on a page (`Found`). Django-free."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pymupdf
from pymupdf import mupdf

from review.pdf import letter_spacing
from review.pdf.geometry import Box, pdf_to_page
from review.pdf.justified import justified_lines_joined
from review.pdf.patterns import Hit
from review.pdf.words import splits_words, words_of

# Where a hit's text was read.
SOURCE_TEXT = "text"
SOURCE_OCR = "ocr"
SOURCE_ANNOTATION = "annotation"
SOURCE_WIDGET = "widget"
# Ligatures are expanded (no TEXT_PRESERVE_LIGATURES) so "ﬁ" matches "fi" in search terms.
TEXT_FLAGS = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_PRESERVE_LIGATURES
# Points; see PageText._part.
_INSET = 0.05
# Points: a word of rawdict is the word of extractWORDS when their boxes agree this well.
_SAME_PLACE = 0.5

_ALNUM = re.compile(r"[^\W_]")


def _has_alnum(s: str) -> bool:
    return _ALNUM.search(s) is not None


class PageText:
    """Page text in reading order, with every character mapped back to a rectangle.

    Words on one line are joined by " ", lines and blocks by "\\n". Characters of a
    word map to the word's box; a hit covering part of a word asks for char boxes,
    read lazily from rawdict of the same TextPage (most pages never need them).
    """

    __slots__ = ("text", "words", "starts", "_textpage", "_chars")

    def __init__(self, textpage: pymupdf.TextPage, words: list[tuple]) -> None:
        self._textpage = textpage
        self._chars: dict[str, list[tuple[Box, list[tuple[float, ...]]]]] | None = None
        self.words = words
        parts: list[str] = []
        starts: list[int] = []
        pos = 0
        prev: tuple[int, int] | None = None
        for word in words:
            key = (word[5], word[6])
            if prev is not None:
                parts.append(" " if key == prev else "\n")
                pos += 1
            starts.append(pos)
            parts.append(word[4])
            pos += len(word[4])
            prev = key
        self.text = "".join(parts)
        self.starts = starts

    def boxes(self, start: int, end: int) -> list[tuple[float, float, float, float]]:
        """Rectangles of text[start:end], one per (block, line) segment, in order."""
        out: list[list[float]] = []
        last_key: tuple[int, int] | None = None
        i = max(0, bisect.bisect_right(self.starts, start) - 1)
        while i < len(self.words) and self.starts[i] < end:
            word = self.words[i]
            w_start = self.starts[i]
            text = word[4]
            a, b = max(start, w_start) - w_start, min(end, w_start + len(text)) - w_start
            if a < b:
                # Leftover punctuation (a trailing "." or ",") is covered with the word:
                # harmless to redact, and it spares the costly char-level lookup.
                if (a == 0 or not _has_alnum(text[:a])) and (
                    b == len(text) or not _has_alnum(text[b:])
                ):
                    rect = word[:4]
                else:
                    rect = self._part(word, a, b)
                key = (word[5], word[6])
                if out and key == last_key:
                    last = out[-1]
                    last[0], last[1] = min(last[0], rect[0]), min(last[1], rect[1])
                    last[2], last[3] = max(last[2], rect[2]), max(last[3], rect[3])
                else:
                    out.append(list(rect))
                last_key = key
            i += 1
        return [(r[0], r[1], r[2], r[3]) for r in out]

    def _part(self, word: tuple, a: int, b: int) -> tuple[float, float, float, float]:
        chars = self._chars_of(word)
        if chars is None:
            # The whole word: a share of its box by character count misses characters
            # of a proportional font and runs across the line of a vertical one (half
            # of "Item 265" on a side tab, pdfplumber's issue-71 PDF). Taking the label
            # glued to a match too is the safe side.
            return word[0], word[1], word[2], word[3]
        part = chars[a:b]
        # Neighbouring glyph boxes touch; pull the edges in a hair so the box does not
        # also select the glued label ("SSN:") next to the match.
        return (
            min(c[0] for c in part) + _INSET,
            min(c[1] for c in part) + _INSET,
            max(c[2] for c in part) - _INSET,
            max(c[3] for c in part) - _INSET,
        )

    def _chars_of(self, word: tuple) -> list[tuple[float, ...]] | None:
        """The char boxes of `word`: of the word rawdict spells the same at the same
        place. Found by text and place, not by the block, line and word numbers that
        extractWORDS gives: it counts lines rawdict leaves out and splits words by rules
        of its own (a narrow no-break space stays inside a word, a change of writing
        direction ends one), so the same numbers can name another word of the same
        length on the line, and the box would go over that one (a "new" boxed as the
        "for" before it, in pdfplumber's pr-138 example)."""
        for place, chars in self._char_map().get(word[4], ()):
            same_place = all(abs(place[i] - word[i]) <= _SAME_PLACE for i in range(4))
            if same_place and len(chars) == len(word[4]):
                return chars
        return None

    def _char_map(self) -> dict[str, list[tuple[Box, list[tuple[float, ...]]]]]:
        """Char boxes per word of rawdict (split where extractWORDS splits: white
        space, no-break space and the direction marks), by the word's text."""
        if self._chars is None:
            chars: dict[str, list[tuple[Box, list[tuple[float, ...]]]]] = {}
            raw = self._textpage.extractRAWDICT()
            for block in raw.get("blocks", ()):
                for line in block.get("lines", ()):
                    text: list[str] = []
                    boxes: list[tuple[float, ...]] = []
                    for char in (c for span in line["spans"] for c in span["chars"]):
                        if splits_words(char["c"]):
                            _add_word(chars, text, boxes)
                            text, boxes = [], []
                        else:
                            text.append(char["c"])
                            boxes.append(char["bbox"])
                    _add_word(chars, text, boxes)
            self._chars = chars
        return self._chars


def _add_word(
    chars: dict[str, list[tuple[Box, list[tuple[float, ...]]]]],
    text: list[str],
    boxes: list[tuple[float, ...]],
) -> None:
    if boxes:
        place = Box(
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        chars.setdefault("".join(text), []).append((place, boxes))


@dataclass
class Found:
    """A hit located on a page: its boxes (unrotated page space) and identity."""

    page: int
    rects: list[tuple[float, float, float, float]]
    hit: Hit
    source: str
    text_hash: str
    reason: str | None = None
    boxes: list[Box] = field(default_factory=list)


# The quote marks an e-mail reply opens each line of the earlier message with.
_QUOTE_MARKS = re.compile(r"(?m)^[ ]*>[> ]*")


def unquoted(text: str) -> str:
    """`text` with its reply quote marks as spaces (same offsets), so the cues that open
    a line (a greeting, a signature, a record's field) find the quoted lines too: "> Hi
    Siobhán," greets her as "Hi Siobhán," does."""
    return _QUOTE_MARKS.sub(lambda m: " " * len(m[0]), text) if ">" in text else text


def page_is_blank(page: pymupdf.Page) -> bool:
    """Nothing drawn at all: no images (inline ones included) and no vector paths."""
    return not page.get_image_info() and not page.get_cdrawings()


def centre_in(
    rect: tuple[float, ...] | pymupdf.Rect, outer: tuple[float, ...] | pymupdf.Rect
) -> bool:
    """Glyph boxes of an appearance stream poke out of the annotation rect (ascenders),
    so "inside" means the centre is inside."""
    cx, cy = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def annotation_texts(page: pymupdf.Page) -> Iterator[tuple[str, pymupdf.Rect, str]]:
    """(text, unrotated rect, source) for annotation contents and widget values.

    PyMuPDF's Annot.rect is already derotated (it multiplies by derotation_matrix),
    so it is in the same unrotated space as the words; for NoRotate notes it is the
    drawn footprint, which is what a reviewer sees.
    """
    for annot in page.annots():
        info = annot.info
        for key in ("content", "subject"):
            value = info.get(key) or ""
            if value.strip():
                yield value, annot.rect, SOURCE_ANNOTATION
    try:
        widgets = [(widget.field_value, widget.rect) for widget in page.widgets()]
    except (RuntimeError, mupdf.FzErrorBase):
        widgets = list(_widget_values_as_written(page))
    for value, rect in widgets:
        if isinstance(value, str) and value.strip() and value not in ("Off",):
            yield value, rect, SOURCE_WIDGET


def _widget_values_as_written(page: pymupdf.Page) -> Iterator[tuple[str, pymupdf.Rect]]:
    """Each widget's text value (/V, its own or its nearest parent field's) and rect,
    read off the objects themselves: for a damaged form that PyMuPDF cannot read field
    by field ("Cycle in field parents", pdf.js's issue12963.pdf)."""
    doc = page.parent
    for xref, kind, _ in page.annot_xrefs():
        if kind != pymupdf.PDF_ANNOT_WIDGET:
            continue
        value, field, seen = None, xref, set()
        while field is not None and field not in seen and value is None:
            seen.add(field)
            found, written = doc.xref_get_key(field, "V")
            value = written if found == "string" else None
            found, parent = doc.xref_get_key(field, "Parent")
            field = int(parent.split()[0]) if found == "xref" else None
        found, rect = doc.xref_get_key(xref, "Rect")
        if value is not None and found == "array":
            corners = [float(v) for v in rect.strip("[]").split()]
            yield value, pymupdf.Rect(corners) * pdf_to_page(page)


def extract_words(
    page: pymupdf.Page,
) -> tuple[pymupdf.TextPage, list[tuple], list[tuple[str, pymupdf.Rect, str]], list[tuple]]:
    """The page's text page, its words, its annotation and widget texts, and the words
    of the page's own content: a page without any has no text layer (OCR reads it)."""
    textpage = page.get_textpage(flags=TEXT_FLAGS)
    words = letter_spacing.joined([w for w in words_of(textpage) if w[4].strip()])
    words = justified_lines_joined(words)
    # annot_xrefs() is one cheap call; most pages have no annotations or widgets.
    overlays = list(annotation_texts(page)) if page.annot_xrefs() else []
    # Annotation and widget appearances are part of the extracted words; a page whose
    # only words sit in them has no text layer of its own (a scan with a stamp).
    content_words = [
        w for w in words if not any(centre_in(w[:4], r) for _, r, _ in overlays)
    ] if overlays else words  # fmt: skip
    return textpage, words, overlays, content_words
