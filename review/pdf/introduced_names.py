"""Names people give for themselves or for their client (Django-free): "My name is
Willemine ten Pas", "everyone calls me Aantje", "my client, Ravil Yefimov". The
language model reads a name it has not seen by halves, or as a place or an
organisation; the words before it say what it is."""

from __future__ import annotations

import re
from collections.abc import Iterator

from review.pdf.name_words import NAME_WORD, NEXT_NAME_WORD, plausible_name, trimmed

# Days and months follow "call me" as often as names do ("call me Monday").
_NOT_A_NAME = (
    r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Tomorrow|Today|"
    r"Tonight|Later|Back|January|February|March|April|May|June|July|August|September|"
    r"October|November|December)\b)"
)
_INTRODUCED = re.compile(
    r"(?<![\w-])(?i:my[ ]name[ ]is|my[ ]name's|my[ ]name[ ]was|i[ ]am[ ]called|"
    r"i'm[ ]called|calls?[ ]me|my[ ]client,?)[ \n]"
    rf"{_NOT_A_NAME}({NAME_WORD}(?:[ \n-]{NEXT_NAME_WORD}){{0,3}})(?![\w-])"
)


def find_introduced_names(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each name given after "my name is", "call me" or "my client"."""
    for m in _INTRODUCED.finditer(text):
        span = trimmed(text, *m.span(1))
        if span is not None and plausible_name(text[span[0] : span[1]]):
            yield span
