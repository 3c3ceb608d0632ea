"""Names known by where they stand (Django-free): a line that is only a name, over the
phone number or e-mail address that opens the next line (a contact list, a table's row:
"June Morris" over "(0115) 4960487"), or heading the few lines that end in a postal
address (a letter's addressee, a signature, an envelope: "Dreux Joly\\nPaxata\\nPSC 3294,
Box 9168"). With no sentence around it the language model misses such a name.

Above an address a firm's name stands as often as a person's ("Acme Widgets\\n12 Main
St"), so there the line must also look like a person's: its first word a given name,
or an initial or a particle between its words ("Mijail C Adomo", "Maika van de Noort").
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from review.pdf.given_names import WORD_GIVEN_NAMES, everyday_words, given_names
from review.pdf.name_words import (
    LEGAL_FORM_AFTER,
    NAME_WORD,
    NEXT_NAME_WORD,
    PARTICLE,
    plausible_name,
)
from review.pdf.patterns import ADDRESS, EMAIL, PERSON, PHONE, Hit, squash

# Weaker than the model's reading of a person.
CONTACT_NAME_CONFIDENCE = 0.7
# A line holding a name and nothing else.
_NAME_LINE = re.compile(rf"[ ]*({NAME_WORD}(?: {NEXT_NAME_WORD}){{1,3}})[ ,]*")
# Lines an addressee's name may stand above the address: a job title, a firm, the name
# again ("Mijail C Adomo\nAsc Partners\nMijail C Adomo\n935 Gordon Terrace").
_BLOCK_LINES = 3
_BLOCK_LINE_WORDS = 6
_INITIAL_OR_PARTICLE = re.compile(rf"[ ](?:[A-Z]\.?|{PARTICLE})[ ]")


def contact_names(text: str, hits: list[Hit]) -> Iterator[Hit]:
    """The names standing over the phones, e-mail addresses and addresses of `hits`
    that no person hit holds whole yet (the model may have read half of one, or run it
    into the job below: "Allan\nEchocardiographer")."""
    people = [h for h in hits if h.category == PERSON]
    for contact in hits:
        if contact.category not in (PHONE, EMAIL, ADDRESS):
            continue
        line_start = text.rfind("\n", 0, contact.start) + 1
        if text[line_start : contact.start].strip(" (+"):
            continue  # the value does not open its line
        for start, end in _names_above(text, line_start, address=contact.category == ADDRESS):
            if not any(p.start <= start and end <= p.end for p in people):
                name = Hit(
                    PERSON,
                    start,
                    end,
                    CONTACT_NAME_CONFIDENCE,
                    "cue.contact_name",
                    squash(text[start:end]),
                )
                people.append(name)
                yield name


def _names_above(text: str, line_start: int, *, address: bool) -> Iterator[tuple[int, int]]:
    """The name on the line right above `line_start`; above an address, each name on
    the few short lines of its block."""
    for _ in range(_BLOCK_LINES if address else 1):
        if line_start < 2:
            return
        above = text.rfind("\n", 0, line_start - 1) + 1
        line = _NAME_LINE.fullmatch(text, above, line_start - 1)
        if (
            line is not None
            and plausible_name(line[1])
            and not LEGAL_FORM_AFTER.search(line[1])
            and (not address or _looks_like_a_person(line[1]))
        ):
            yield line.span(1)
        if len(text[above : line_start - 1].split()) > _BLOCK_LINE_WORDS:
            return  # a sentence: the block began below it
        line_start = above


def _looks_like_a_person(name: str) -> bool:
    first = name.split()[0].casefold()
    given = (
        first in given_names() and first not in WORD_GIVEN_NAMES and first not in everyday_words()
    )
    return given or _INITIAL_OR_PARTICLE.search(name) is not None
