"""Which pages can hold a word, before a name's written forms are searched for on them
(Django-free).

Proposing a name at every occurrence searched every page with every name's pattern:
names times pages scans with a pattern that no fast search can start, on a 328-page
county election report (openelections' Michigan sources) over a hundred seconds, longer
than a detection task may run. A page holds a written form of a name only where its
skeleton holds the skeleton of one of the name's words: the text with each character
folded as `re.IGNORECASE` matches it, without the hyphens and line breaks a written form
may break a word with ("Wojcie-\\nchowska"). One plain substring search over all pages'
skeletons finds the pages; only those are searched with the pattern.
"""

from __future__ import annotations

import _sre
import bisect
from collections.abc import Iterable
from functools import cache
from re._casefix import _EXTRA_CASES

# No character from here on has a case (Unicode 15: the last is Adlam's, U+1E943).
CASED_END = 0x20000
_SEPARATOR = "\x00"


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


def skeleton(text: str) -> str:
    """`text` folded and without hyphens and line breaks (`_fold_table`)."""
    return text.translate(_fold_table())


class Skeletons:
    """The skeletons of a document's pages, in one string."""

    def __init__(self, texts: Iterable[str]) -> None:
        skeletons = [skeleton(text) for text in texts]
        self._starts: list[int] = []
        at = 0
        for s in skeletons:
            self._starts.append(at)
            at += len(s) + len(_SEPARATOR)
        self._all = _SEPARATOR.join(skeletons)

    def holding(self, words: Iterable[str]) -> list[int]:
        """The indexes, in order, of the pages whose skeleton holds the skeleton of any
        of `words`; of every page when a word has no skeleton (nothing to look for)."""
        found: set[int] = set()
        for word in words:
            needle = skeleton(word)
            if not needle:
                return list(range(len(self._starts)))
            at = self._all.find(needle)
            while at != -1:
                page = bisect.bisect_right(self._starts, at) - 1
                found.add(page)
                if page + 1 == len(self._starts):
                    break
                at = self._all.find(needle, self._starts[page + 1])
        return sorted(found)
