"""Names known by their given name alone (Django-free): a given name followed by
capitalised words, in a sentence where the language model reads no one ("complaint
about Beate Ehlert", "Request for Ibrahim Scheel file"). The weakest of the name cues
`names` runs: no title, role or field tells it, only the list of given names.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from review.pdf.addresses import is_street_type
from review.pdf.given_names import WORD_GIVEN_NAMES, everyday_words, given_names
from review.pdf.name_words import (
    COMPANY_AFTER,
    LEGAL_FORM_AFTER,
    NAME_WORD,
    NEXT_NAME_WORD,
    bare_word,
    plausible_name,
    trimmed,
)

# Weaker than the model's reading of a person.
GIVEN_NAME_LED_CONFIDENCE = 0.7

# A name in a plain sentence the model may not read ("complaint about Beate Ehlert",
# "Request for Ibrahim Scheel file"): a given name, then one or two capitalised words,
# tried at each capitalised word ("Emailed Elżbieta Szelest").
_GIVEN_NAME_LED = re.compile(rf"(?<![\w-])(?=({NAME_WORD}(?:[ ]{NEXT_NAME_WORD}){{1,2}})(?![\w-]))")
# Words that make a given name and a capitalised word a place or an institution
# ("Victoria Station", "Jordan Valley", "Morgan Library"), with the street types.
_PLACE_WORDS = frozenset(
    "hospital school college university academy station airport hotel church chapel "
    "centre center county city town village valley hall house bank trust foundation "
    "museum library stadium bridge square institute clinic gallery theatre theater "
    "prize award fund group tech line".split()
)


def given_name_led(text: str) -> Iterator[tuple[int, int]]:
    """Each name that opens with a given name (no everyday word; "Will Power" is
    none) and goes on in capitalised words that are no place's or institution's."""
    end = 0
    for m in _GIVEN_NAME_LED.finditer(text):
        if m.start(1) < end:
            continue  # inside the name found before
        words = m[1].split()
        given = words[0].casefold()
        if (
            words[0].isupper()  # in capitals: the model reads it re-cased
            or given not in given_names()
            or given in WORD_GIVEN_NAMES
            or given in everyday_words()
            or any(bare_word(w) in _PLACE_WORDS or is_street_type(bare_word(w)) for w in words)
        ):
            continue
        span = trimmed(text, m.start(1), m.end(1))
        if (
            span is not None
            and " " in text[span[0] : span[1]]
            and len(text[span[0] : span[1]].split()[-1]) > 1  # "Domingo S.A."
            and plausible_name(text[span[0] : span[1]])
            and not COMPANY_AFTER.match(text, span[1])
            and not LEGAL_FORM_AFTER.match(text, span[1])
        ):
            end = span[1]
            yield span
