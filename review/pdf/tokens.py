"""How the release gate finds redacted tokens (Django-free): as whole words in text,
folded (`Words`: case, and the hyphens a font may map a hyphen byte to), and in the
bytes of PDF syntax (`Needle`: each byte form a token takes), where a string that cuts
a word the output shows is no hit (`found_unexplained`)."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import pymupdf

from review.pdf.glyph_keys import CLIPPED_FLAGS

STRIP = "\"'()[]{}<>.,;:!?"
# Hyphens and dashes a font's ToUnicode map may give a hyphen byte: "FOLL\u20115" on the
# page, "(FOLL-5)" in the content stream. One character to the search, on both sides.
DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d", "-"))
_WORD_CHAR = re.compile(r"\w")
_EDGES = re.compile(r"^\W+|\W+$")
# A word character as a byte: past ASCII (or DEL), any byte counts (a Latin-1 letter).
_WORD_BYTES = rb"[\w\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\xff]"
# What ends a word in a string: white space and control bytes (a space glyph of a
# two-byte font reads <0003>).
_BREAK = bytes(range(0x21))
# What ends a word, written last: no word runs on past it into the next string.
_CLOSING = frozenset(bytes([byte]) for byte in b".,;:!?)]}\"'")
# Tokens shorter than this are checked by position only (`verify`'s text_under_box).
MIN_TOKEN_LEN = 3
# Strings one word may be drawn in, each by its own operator (`_runs_on`).
RUN_ON_STRINGS = 8
# Any character past ASCII, in a word as `_byte_blind` writes it (no byte reads as it).
_FONTS_OWN = "\ufffd"


def fold(text: str) -> str:
    return text.translate(DASHES).casefold()


def shown_form(word: str) -> str:
    """A word as `_runs_on` looks it up: folded, without what is no letter or digit at
    its ends: a string's byte 0x8D that a font draws as an opening quote reads as a
    control character, "(\\215w)" then "(ill print.)" is the visible "“will"."""
    return fold(_EDGES.sub("", word))


def shown_forms(word: str) -> set[str]:
    """The forms `_runs_on` finds a word the output shows by: its `shown_form`, and that
    with each character past ASCII as any byte past ASCII (`_byte_blind`)."""
    form = shown_form(word)
    return {form, _byte_blind(form)}


class Shown:
    """The output's words as `_runs_on` looks them up (`shown_forms`), and, read from its
    pages only when a token is found that nothing else explains, the words it shows with
    their letters set apart: a county's report sets "Blue" as "(Bl) 88 (u) 22 (e)" with
    wide character spacing, which extraction splits into "B" and "lue" (a space MuPDF
    adds), so a box over another "Blue" made every release a hit. Each such word
    explains one string that draws it, as the page check counts what the output shows."""

    def __init__(self, out: pymupdf.Document) -> None:
        self.words: set[str] = set()
        self._counts: Counter[str] = Counter()
        self._out = out

    def add(self, texts: Iterable[str]) -> None:
        for text in texts:
            forms = shown_forms(text)
            self.words |= forms
            self._counts.update(forms)

    @functools.cached_property
    def _set_apart(self) -> Counter[str]:
        flags = CLIPPED_FLAGS | pymupdf.TEXT_INHIBIT_SPACES  # no space between letters
        unspaced = Counter(
            form
            for page in self._out
            for word in page.get_text("words", flags=flags, clip=pymupdf.INFINITE_RECT())
            for form in shown_forms(word[4])
        )
        return unspaced - self._counts

    def set_apart(self, words: Iterable[str]) -> bool:
        """Whether one of `words` is shown with its letters set apart by an occurrence
        that no other string has been explained by."""
        for word in words:
            if self._set_apart[word] > 0:
                self._set_apart[word] -= 1
                return True
        return False


def _byte_blind(word: str) -> str:
    """`word` with each character past ASCII (or DEL) as `_FONTS_OWN`: which character
    a string's byte past ASCII draws is the font's to say (0x90 is "’" to many a font, a
    control character to latin-1), and so is DEL's, which no font need leave empty (a
    Low Saxon text draws "ü" as 0x7F: "(her de nat)" then "<7F7F>" is "natüürlich")."""
    return "".join(c if c < "\x7f" else _FONTS_OWN for c in word)


def bare(word: str) -> str:
    """`word` without the punctuation and dashes at its ends."""
    return word.translate(DASHES).strip(STRIP + "-")


def fragment_patterns(fragments: set[str]) -> list[re.Pattern[bytes]]:
    """The fragments in their byte form, each a pattern, longest first: a short one
    ("/") must not break up a longer one ("/ALK") before that is taken out whole, nor
    one that starts a byte before it (".1109/" in ".1109/SOI.2011.6081791", where
    "1109/SOI.2011.6081791" is what burn-in left of a DOI a box cut, and "SOI" stood
    as a redacted word, papermage's fixtures). A fragment is taken out only as a whole
    word of its string: a word cut short to "n" must not take every "n" out of
    "folgenden" and leave a redacted "folge" standing (GeoTopo in py-pdf's sample
    files). A dash in a fragment is also written as a hyphen, as a font may draw it
    ("‑1115", left beside a box over a ZIP code, is "(-1115)" in the stream)."""
    spellings = fragments | {f.translate(DASHES) for f in fragments}
    forms = sorted({f.encode("latin-1", "replace") for f in spellings}, key=len, reverse=True)
    return [re.compile(_whole(form)) for form in forms]


def _whole(form: bytes) -> bytes:
    """`form` as a pattern that no word byte continues where it starts or ends with one
    (where it is taken out for a word it is not, less is taken out: the safe side)."""
    before = b"(?<!" + _WORD_BYTES + b")" if re.match(_WORD_BYTES, form[:1]) else b""
    after = b"(?!" + _WORD_BYTES + b")" if re.match(_WORD_BYTES, form[-1:]) else b""
    return before + re.escape(form) + after


def without(text: bytes, fragments: Sequence[re.Pattern[bytes]]) -> bytes:
    """`text` with the fragments blanked out, in turn, each by as many spaces as it is
    long: a place in the result is the same place in `text`."""
    for fragment in fragments:
        text = fragment.sub(lambda match: b" " * len(match.group()), text)
    return text


class Words:
    """The redacted tokens (folded) as whole words in text, folded before the search
    (Unicode-aware): "Ann" is not in "Annex"."""

    def __init__(self, tokens: set[str]) -> None:
        self.tokens = tokens
        alternatives = "|".join(re.escape(t) for t in sorted(tokens, key=len, reverse=True))
        self.pattern = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
        self._inner: dict[str, list[str]] = {}

    def search(self, text: str) -> bool:
        return self.pattern.search(fold(text)) is not None

    def count(self, texts: Iterable[str]) -> Counter[str]:
        """How often each token occurs in `texts`. The search takes the longest token at
        each place, so the tokens inside it ("nccn" in "nccn.org") are counted with it:
        else a token counts on one side and not on the other."""
        found = Counter(self.pattern.findall(fold(" ".join(texts))))
        for match, times in list(found.items()):
            for inner in self._inside(match):
                found[inner] += times
        return found

    def _inside(self, match: str) -> list[str]:
        """The tokens that stand as whole words inside the token `match`."""
        if match not in self._inner:
            starts = [i for i in range(len(match)) if i == 0 or not _is_word(match[i - 1])]
            ends = [
                j for j in range(1, len(match) + 1) if j == len(match) or not _is_word(match[j])
            ]
            self._inner[match] = [
                match[i:j]
                for i in starts
                for j in ends
                if i < j and (i, j) != (0, len(match)) and match[i:j] in self.tokens
            ]
        return self._inner[match]


def _is_word(char: str) -> bool:
    return _WORD_CHAR.match(char) is not None


@dataclass(frozen=True)
class Needle:
    """One byte form of a token, found only where the characters around it (each
    `unit` bytes in this encoding) are not word characters: "Ann" not in "Annex",
    "Obstacle" not in "CL_Obstacle"."""

    data: bytes
    unit: int
    decode: str  # how a neighbouring unit reads: "raw", "hex" or "hex16"

    def found_in(self, haystack: bytes) -> bool:
        return next(self.places(haystack), None) is not None

    def places(self, haystack: bytes) -> Iterator[tuple[int, int]]:
        start = haystack.find(self.data)
        while start >= 0:
            end = start + len(self.data)
            if not self._wordy(
                haystack[start - self.unit : start] if start >= self.unit else b""
            ) and not self._wordy(haystack[end : end + self.unit]):
                yield start, end
            start = haystack.find(self.data, start + 1)

    def _wordy(self, unit: bytes) -> bool:
        if len(unit) < self.unit:
            return False
        try:
            if self.decode == "raw":
                if self.unit == 1:
                    return _is_word_byte(unit)
                text = unit.decode("utf-16-be")
            elif self.decode == "hex":
                return _is_word_byte(bytes.fromhex(unit.decode("ascii")))
            else:
                text = bytes.fromhex(unit.decode("ascii")).decode("utf-16-be")
        except (UnicodeDecodeError, ValueError):
            return False
        return text.isalnum() or text == "_"  # a word character (\w), as in the text search


def _is_word_byte(byte: bytes) -> bool:
    """A word character, or a byte past ASCII or a control byte other than white space
    (NUL, tab, line feed, carriage return): which letter or sign such a byte is depends
    on the font's encoding, which the byte search does not know. "(zestaw\x97w)" in a
    MacRoman font is the "zestawów" the output shows, not the redacted "zestaw"
    (docling-parse's text_as_lines_01.pdf), and "(speci\x02cally)" in a TeX font the
    "specifically" it shows with its "fi" ligature, not a redacted "cally" (PyMuPDF's
    test_4751.pdf); the extracted text, the gate's first net, reads the font."""
    return re.fullmatch(_WORD_BYTES, byte) is not None


def byte_forms(tokens: set[str]) -> list[Needle]:
    """Byte forms a token takes in PDF syntax: literal (both cases of ASCII), hex, and
    UTF-16BE (raw and hex). Case-insensitive only for the literal form: best effort."""
    needles = []
    for token in tokens:
        for form in {token, token.lower(), token.upper()}:
            needles.append(Needle(form.encode("utf-8"), 1, "raw"))
        utf8 = token.encode("utf-8").hex()
        needles.append(Needle(utf8.encode(), 2, "hex"))
        needles.append(Needle(utf8.upper().encode(), 2, "hex"))
        needles.append(Needle(token.encode("utf-16-be").hex().upper().encode(), 4, "hex16"))
        needles.append(Needle(token.encode("utf-16-be"), 2, "raw"))
    return needles


def found_in_any(needles: Sequence[Needle], texts: Iterable[bytes]) -> bool:
    return any(needle.found_in(text) for text in texts for needle in needles)


def found_unexplained(
    needles: Sequence[Needle],
    drawn: list[bytes],
    fragments: Sequence[re.Pattern[bytes]],
    shown: Shown,
    any_needle: re.Pattern[bytes],
) -> bool:
    """A needle is in one of a content stream's strings as `drawn` (in stream order),
    with the `fragments` blanked out (`without`), other than where a string cuts a word
    the output shows (`_runs_on`). The word a string runs on into is read from what is
    drawn, so that a fragment blanked out of the next string ("1", a footnote mark cut
    from another line) does not cut the word it continues ("(SNCF-Metrik)" then "(1)").
    `any_needle` finds the strings that hold any needle at all, in one scan each (only
    those are blanked: blanking makes no needle). A two-byte needle is not looked for
    in a string of glyph numbers (`_glyph_numbers`)."""
    return any(
        not _runs_on(needle, drawn, index, start, end, shown)
        for index, text in enumerate(drawn)
        if any_needle.search(text)
        for blanked in (without(text, fragments),)
        for needle in needles
        if needle.unit == 1 or not _glyph_numbers(text)
        for start, end in needle.places(blanked)
    )


def _glyph_numbers(text: bytes) -> bool:
    """A string of two-byte units one of which is a control character as UTF-16: the
    glyph numbers of a font set through Identity-H, not text, where 3 is the space
    glyph of most TrueType fonts. "JACKIE WALORSKI" in such a font holds the bytes of
    "256" in UTF-16 ("ORS" is glyphs 50, 53 and 54), a redacted vote count elsewhere
    (an Indiana county's primary results, refused)."""
    return len(text) % 2 == 0 and any(
        text[i] == 0 and text[i + 1] < 0x20 and text[i + 1] not in b"\t\n\r"
        for i in range(0, len(text), 2)
    )


def _runs_on(
    needle: Needle, texts: list[bytes], index: int, start: int, end: int, shown: Shown
) -> bool:
    """The token at `start:end` of `texts[index]` runs on into strings drawn before or
    after it (up to `RUN_ON_STRINGS` of them each way, while no white space ends the
    word), and some word they make, more than the token in punctuation, is one the
    output shows: "(external radiat)" and "(ion: a pooled)" drawn side by side are the
    "radiation:" on the page, which a large gap in the TJ array or a new operator cut
    in two; "(Willet)", "(h)" and "(405)" are "Willeth405"; "(/pdf)", "(-)" and
    "(succinctly/)" the "/pdf-succinctly/" of a URL (a Syncfusion book); "(The fiel)",
    "(d\\220)" and "(s text)" the "field’s" a font draws 0x90 as "’" in (any byte past
    ASCII may be any character past it: iText's bigTaggedDocument.pdf). The page
    check judges what the output shows. Which strings a word is drawn in the stream
    does not say (the one before may end another line), so each reach is tried. Nor
    is a word the output shows with its letters set apart (`Shown.set_apart`).
    Single-byte strings only; anything else stays a hit."""
    if needle.unit != 1:
        return False
    text = texts[index]
    token = text[start:end]
    own = shown_form(token.decode("latin-1"))  # the token alone, or in punctuation only
    befores, afters = [text[:start]], [text[end:]]  # the word's possible reaches
    first, last = index, index
    while first > 0 and index - first < RUN_ON_STRINGS and not _has_break(befores[-1]):
        first -= 1
        befores.append(texts[first] + befores[-1])
    while last + 1 < len(texts) and last - index < RUN_ON_STRINGS and not _has_break(afters[-1]):
        last += 1
        afters.append(afters[-1] + texts[last])
    words = []
    for before in befores:
        for ahead, after in enumerate(afters):
            joined, start, end = before + token + after, len(before), len(before) + len(token)
            while start > 0 and joined[start - 1] not in _BREAK:
                start -= 1
            while end < len(joined) and joined[end] not in _BREAK:
                end += 1
            # A word the next string runs on with a letter or digit is longer than this
            # one: "(SNCF-Metrik)" then "(1)" is "SNCF-Metrik1". (The string before may
            # end another line.) Not a word that ends its string in closing punctuation:
            # "( cas)", "(e.)" then "(4)" is "case." and a footnote mark, or "(e.)" then
            # "(Under)" the next sentence, where each string is placed by its own move
            # (a Third Circuit opinion, with "Farm Family Cas." under a mark).
            if (
                end == len(joined)
                and joined[end - 1 : end] not in _CLOSING
                and _glued(texts, index + ahead + 1)
            ):
                continue
            word = shown_form(joined[start:end].decode("latin-1"))
            if word != own and (word in shown.words or _byte_blind(word) in shown.words):
                return True
            words += [word, _byte_blind(word)]
    return shown.set_apart(words)


def _glued(texts: list[bytes], index: int) -> bool:
    """`texts[index]` exists and starts with a word byte."""
    return index < len(texts) and _is_word_byte(texts[index][:1])


def _has_break(data: bytes) -> bool:
    return any(byte in _BREAK for byte in data)


def token_of(word: str) -> str:
    """The word without surrounding punctuation, or "" when under 3 characters: short
    tokens are checked by position only."""
    token = word.strip(STRIP)
    return token if len(token) >= MIN_TOKEN_LEN else ""


def is_stamp(word: str, stamps: set[str]) -> bool:
    """`word` is a legal-reason stamp, or several run together: two marks on one box
    print two stamps, which extract as one word ("(b)(6)(b)(6)")."""
    ends = {0}  # where a run of stamps read from the start of `word` can end
    for start in range(len(word)):
        if start in ends:
            ends.update(start + len(stamp) for stamp in stamps if word.startswith(stamp, start))
    return bool(word) and len(word) in ends
