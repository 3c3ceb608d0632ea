"""Names people give for themselves or for their client (Django-free): "My name is
Willemine ten Pas", "everyone calls me Aantje", "my client, Ravil Yefimov", "Her maiden
name is Sandgreen", "my grandmother was called Lily Nolan"; in a line written without
capitals too ("my name is borna jerković"). The
language model reads a name it has not seen by halves, or as a place or an
organisation; the words before it say what it is."""

from __future__ import annotations

import re
from collections.abc import Iterator

from spacy.lang.en.stop_words import STOP_WORDS

from review.pdf.given_names import everyday_words
from review.pdf.name_words import NAME_WORD, NEXT_NAME_WORD, plausible_name, trimmed

# Days and months follow "call me" as often as names do ("call me Monday").
_NOT_A_NAME = (
    r"(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Tomorrow|Today|"
    r"Tonight|Later|Back|January|February|March|April|May|June|July|August|September|"
    r"October|November|December)\b)"
)
_CUE = (
    r"(?<![\w-])(?i:my[ ]name[ ]is|my[ ]name's|my[ ]name[ ]was|i[ ]am[ ]called|"
    r"i'm[ ]called|calls?[ ]me|my[ ]client,?|"
    # Someone, not something ("the system is called Project Phoenix"); a form's "Last
    # name:" field is the field cues' (`names`).
    r"(?:he|she|who|[a-z]*(?:mother|father|son|daughter|brother|sister|wife|husband|child|"
    r"kid|boy|girl|man|woman|baby|friend|partner|uncle|aunt|cousin|nephew|niece|neighbou?r|"
    r"client|patient|victim|suspect|witness|person))[ ](?:was|is)[ ]called|"
    r"(?:first|last|middle|maiden|family|given|full|birth)[ ]name(?:[ ]is|[ ]was|['’]s|\?))"
    r"[ \n]"
)
_INTRODUCED = re.compile(
    rf"{_CUE}{_NOT_A_NAME}({NAME_WORD}(?:[ \n-]{NEXT_NAME_WORD}){{0,3}})(?![\w-])"
)
# The same in a line written without capitals ("my name is borna jerković but ..."): the
# words up to the first everyday one.
_INTRODUCED_IN_LOWER_CASE = re.compile(rf"{_CUE}((?:[^\W\d_]{{2,}}[ ]?){{1,3}})")


def find_introduced_names(text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each name given after "my name is", "call me", "my client",
    "was called" or "last name"."""
    for m in _INTRODUCED.finditer(text):
        span = trimmed(text, *m.span(1))
        if span is not None and plausible_name(text[span[0] : span[1]]):
            yield span
    for m in _INTRODUCED_IN_LOWER_CASE.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        if any(c.isupper() for c in text[line_start : line_end if line_end >= 0 else None]):
            continue
        end = m.start(1)
        for word in m[1].split():
            if word in STOP_WORDS or word in everyday_words():
                break
            end = text.index(word, end) + len(word)
        if end > m.start(1):
            yield m.start(1), end
