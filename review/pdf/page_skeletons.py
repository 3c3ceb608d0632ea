"""Where on a document's pages a name can be written, before its written forms are
searched for there (Django-free).

Proposing a name at every occurrence searched every page with every name's pattern, a
pattern no fast search can start: names times pages scans, on a 328-page county election
report (openelections' Michigan sources, 786 names) most of the 216 seconds detection
took, longer than a detection task may run. A written form of a name holds the skeleton
of its first or last word: the text with each character folded as `re.IGNORECASE`
matches it, without the hyphens and line breaks `written` may break a word with
("Wojcie-\\nchowska"). One plain substring search over all pages' skeletons finds where
those words are; the pattern is tried only at the starts a form holding one there could
have. The report's marks are the same, in 41 seconds.
"""

from __future__ import annotations

import _sre
import bisect
import math
import re
from collections.abc import Iterable, Iterator
from functools import cache
from re._casefix import _EXTRA_CASES

# No character from here on has a case (Unicode 15: the last is Adlam's, U+1E943).
CASED_END = 0x20000
_SEPARATOR = "\x00"
_LEFT_OUT = re.compile("[-\n]")
_LETTER = re.compile(r"[^\W\d]")  # as written forms' starts and gaps see a letter
_SOFT_BREAK = "(?:-\n)?"
# Characters past a match the written forms' lookaheads need to see: ".com" of a name in a
# web address is the most.
_LOOKAHEAD = 16


@cache
def _fold_table() -> dict[int, int | None]:
    """Each character to one character of those `re.IGNORECASE` matches it with, as re
    itself decides: the simple lower case, then re's extra cases ("ſ" and "s", "ı" and
    "i", "K" the Kelvin sign and "k"); hyphens and line breaks to nothing. Built once per
    process (a twentieth of a second)."""
    table: dict[int, int | None] = {}
    for code in range(CASED_END):
        lower = _sre.unicode_tolower(code)
        folded = min((lower, *_EXTRA_CASES.get(lower, ())))
        if folded != code:
            table[code] = folded
    table[ord("-")] = table[ord("\n")] = None
    return table


def written(word: str) -> str:
    """A pattern of a word of a name as a page may write it: a hyphenated name broken at
    its hyphen onto the next line ("Oyelaran-\nSmith"), any name broken between two
    letters with a soft hyphen ("Wojcie-\nchowska"). It inserts only what a skeleton
    leaves out."""
    return _SOFT_BREAK.join(map(re.escape, word)).replace(r"\-", "-\n?")


def skeleton(text: str) -> str:
    """`text` folded and without hyphens and line breaks (`_fold_table`)."""
    return text.translate(_fold_table())


class Skeletons:
    """The skeletons of a document's pages, in one string."""

    def __init__(self, texts: Iterable[str]) -> None:
        self._texts = list(texts)
        skeletons = [skeleton(text) for text in self._texts]
        # Per page, for each character a skeleton leaves out, the skeleton's offset there:
        # the skeleton's offset `at` is the text's `at` plus how many of these are `<= at`.
        self._left_out = [
            [m.start() - k for k, m in enumerate(_LEFT_OUT.finditer(text))] for text in self._texts
        ]
        self._starts: list[int] = []
        at = 0
        for s in skeletons:
            self._starts.append(at)
            at += len(s) + len(_SEPARATOR)
        self._all = _SEPARATOR.join(skeletons)

    def places(self, words: Iterable[str]) -> dict[int, list[int]] | None:
        """By page index, in order: the offsets in the page's text where the skeleton of
        one of `words` starts, not right after a letter (pages holding none left out).
        None when a word has no skeleton: it could be anywhere."""
        found: dict[int, set[int]] = {}
        for word in words:
            needle = skeleton(word)
            if not needle:
                return None
            at = self._all.find(needle)
            while at != -1:
                page = bisect.bisect_right(self._starts, at) - 1
                local = at - self._starts[page]
                place = local + bisect.bisect_right(self._left_out[page], local)
                if place == 0 or not _LETTER.match(self._texts[page], place - 1):
                    found.setdefault(page, set()).add(place)
                at = self._all.find(needle, at + 1)
        return {page: sorted(found[page]) for page in sorted(found)}

    def matches(
        self, pattern: re.Pattern[str], choices: Iterable[Iterable[str]], reach: int
    ) -> Iterator[tuple[int, re.Match[str]]]:
        """(page index, match) for each match of `pattern` on the pages, as `finditer`
        gives them page by page, for a pattern each of whose matches is at most `reach`
        long and holds a word of every one of `choices` (in any case `re.IGNORECASE` matches,
        not right after a letter): only the starts up to `reach` before a place of a
        word of the choice with the fewest places are tried."""
        places = min(
            (self.places(words) for words in choices),
            key=lambda found: math.inf if found is None else sum(map(len, found.values())),
        )
        if places is None:  # a match may start anywhere
            for page, text in enumerate(self._texts):
                yield from ((page, match) for match in pattern.finditer(text))
            return
        for page, offsets in places.items():
            text, end = self._texts[page], 0
            for at in offsets:
                start = max(end, at - reach)
                while start <= at:
                    # Searched in a window: a start the window's end fools (a lookahead
                    # that fails on the whole text) is tried again on the whole text.
                    near = pattern.search(text, start, at + reach + _LOOKAHEAD)
                    if near is None or near.start() > at:
                        break
                    match = pattern.match(text, near.start())
                    if match is not None:
                        yield page, match
                        end = match.end()  # past `at`: a match before it would hold an
                        break  # earlier place, and was found there
                    start = near.start() + 1
