"""A language model's reading of a person cut to the name it holds (Django-free): without
the header above it, the next cell's role or a field label, in whole words with the
particles that join them, continued where a name wraps onto the next line.
"""

from __future__ import annotations

import re

from review.pdf.name_words import (
    CAPITAL,
    EDGE_WORDS,
    LEGAL_FORM_AFTER,
    NAME_WORD,
    PARTICLE,
    TITLES,
    bare_word,
    plausible_name,
    trimmed,
    without_everyday_words,
)
from review.pdf.truecase import given_name

# The given name after a surname written first ("WILLIAMS, KAREN", "Gonzalez, Roberto").
# Not a firm's list of partners ("Johnson, Hardy and Smith").
_GIVEN_AFTER_COMMA = re.compile(
    rf",[ ]+({NAME_WORD}(?:[ ]{NAME_WORD})?)(?![\w-])(?![ ,]+(?:and|&)[ \n])"
)
# The surname before a given name in capitals, written first at a line's start or after a
# field's label ("SUBJECT: JOHNSON, MARCUS T.": the model reads "MARCUS T" alone).
_SURNAME_BEFORE = re.compile(rf"(?:^|\n|:)[ ]*([{CAPITAL}][{CAPITAL}'’-]+),[ ]+\Z")
# Given names in capitals opening the line before a name the model read in capitals
# ("MARCELO" of "MARCELO ANDRE CORTES VILLELA" heading a police order: it read the rest).
_CAPITALS_BEFORE = re.compile(rf"(?:^|\n)[ ]*((?:[{CAPITAL}][{CAPITAL}'’-]+[ ]+)+)\Z")
_TITLE_BEFORE = re.compile(rf"(?<![\w-])(?:{TITLES})\.?[ ]\Z")
# A possessive within a reading, more words after it.
_POSSESSIVE = re.compile(r"(?<=\w)['’]s(?=[ \n])")
# A web address, which no one's name holds.
_WEB_ADDRESS = re.compile(r"(?i)\bwww\.|://|\.(?:com|org|net|gov|edu|info|biz|io)\b")


def _value(text: str, span: tuple[int, int]) -> str:
    return text[span[0] : span[1]]


def name_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The name within a language model's person reading `text[start:end]`, or None
    when it holds none. Without a sentence around it the model reads across a table's
    cells and lines: the header above ("Email\nJean-Luc Moreau"), the next cell ("Hannah
    Schmidt Witness"), a field label ("Roberto DOB"), a rank alone ("Det"), half a
    hyphenated name ("Maria" of "Ana-Maria"). The name is the first line that reads as
    one, without the titles, roles and labels at its ends, in whole words, continued on
    the next line where it wraps; a surname written first at a line's start takes the
    given name after its comma ("WILLIAMS, KAREN", which alone is no acronym), and a
    given name in capitals the surname before it ("SUBJECT: JOHNSON, MARCUS T.")."""
    start, end = _with_particles(text, *_whole_words(text, start, end))
    possessive = _POSSESSIVE.search(text, start, end)
    if possessive is not None:
        # A name ends at its possessive: "Jane Doe's Motion" is Jane Doe's, and
        # "Petitioner’s Second Amended Petition" no one's.
        end = possessive.end()
    lines: list[tuple[int, int]] = []
    pos = start
    for line in text[start:end].split("\n"):
        lines.append((pos, pos + len(line)))
        pos += len(line) + 1
    named = [(i, span) for i, line in enumerate(lines) if (span := trimmed(text, *line))]
    if not named:
        return None
    index, name = named[0]
    if (
        len(named) > 1
        and _TITLE_BEFORE.search(text, max(0, name[0] - 8), name[0])
        and " " not in _value(text, name)
    ):
        # "Dr. Chen" ends its line and another person opens the next ("Karen Williams"):
        # the title cue reads the first, the model's reading is the second.
        index, name = named[1]
    if _value(text, name).isupper():
        capitals = without_everyday_words(text, *name)
        if capitals is None:
            return None
        name = capitals
    whole_line = trimmed(text, *lines[index], trim=False)
    given = _GIVEN_AFTER_COMMA.match(text, name[1])
    if given is not None and " " not in _value(text, name) and _opens_line(text, name[0]):
        surname_first = trimmed(text, name[0], given.end(1))
        if surname_first is not None and surname_first[1] > given.start(1):
            return surname_first
    surname = _SURNAME_BEFORE.search(text, max(0, name[0] - 40), name[0])
    if (
        surname is not None
        and _value(text, name).isupper()
        and bare_word(surname[1]) not in EDGE_WORDS
    ):
        return surname.start(1), name[1]
    if _value(text, name).isupper():
        before = _CAPITALS_BEFORE.search(text, max(0, name[0] - 60), name[0])
        if before is not None and all(given_name(word) for word in before[1].split()):
            name = before.start(1), name[1]
    value = _value(text, name)
    if not plausible_name(value) or (" " not in value and name != whole_line):
        return None  # one word left of a reading cut at its ends: "Role" of "Role Phone"
    name_start, name_end = name
    # A line read whole may wrap onto the next: the name goes on while lines read as one.
    next_line: tuple[int, int] | None = name
    while next_line == whole_line and index + 1 < len(lines):
        index += 1
        next_line = trimmed(text, *lines[index])
        whole_line = trimmed(text, *lines[index], trim=False)
        if next_line is None or not plausible_name(_value(text, next_line)):
            break  # the next cell's role or label ("Hannah Schmidt\nWitness")
        if next_line != whole_line or (
            " " in text[name_start:name_end] and " " in _value(text, next_line)
        ):
            break  # a name wraps once, mid-name: two whole names are two people (a list)
        name_end = next_line[1]
    if LEGAL_FORM_AFTER.match(text, name_end):
        return None  # a company named after its founders
    return name_start, name_end


def _whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """`start` and `end` widened to whole words, across hyphens and apostrophes inside
    a word ("Ana-Maria", "O'Connor"), never into an e-mail address's dots or @."""
    while start > 0 and (
        text[start - 1].isalpha()
        or (text[start - 1] in "-'’" and start > 1 and text[start - 2].isalpha())
    ):
        start -= 1
    while end < len(text) and (
        text[end].isalpha()
        or (text[end] == "-" and end + 1 < len(text) and text[end + 1].isalpha())
    ):
        end += 1
    return start, end


# Particles before a name reading, with the given name before them ("Ludwig van der" of
# "Ludwig van der Berg"; "Van der" opening a sentence), and particles with the surname
# after one ("Ludwig" + " van der Berg").
_PARTICLES_BEFORE = re.compile(rf"(?<![\w-])(?:{NAME_WORD}[ ])?(?:(?i:{PARTICLE})[ ]){{1,3}}\Z")
_PARTICLES_AFTER = re.compile(rf"(?:[ ]{PARTICLE}){{1,3}}[ ]{NAME_WORD}(?![\w-])")


def _with_particles(text: str, start: int, end: int) -> tuple[int, int]:
    """`start` and `end` widened over the particles of a name and the words they join
    it to: the model reads "Ludwig" and "Berg" of "Ludwig van der Berg"."""
    before = _PARTICLES_BEFORE.search(text, max(0, start - 60), start)
    after = _PARTICLES_AFTER.match(text, end)
    return (before.start() if before else start), (after.end() if after else end)


def _opens_line(text: str, start: int) -> bool:
    return not text[text.rfind("\n", 0, start) + 1 : start].strip()


def name_in_reading(text: str, recased: str, start: int, end: int) -> tuple[int, int] | None:
    """The name in the model's person reading `text[start:end]`: cut in the text as the
    model read it, or as written where that holds more of it (the surname in capitals
    before the given name the model read: "JOHNSON, MARCUS T")."""
    spans = [name_span(recased, start, end)]
    if recased is not text:
        spans.append(name_span(text, start, end))
    name = max((s for s in spans if s is not None), key=lambda s: s[1] - s[0], default=None)
    if name is not None and (_in_web_address(text, *name) or _ET_AL.match(text, *name)):
        return None
    if name is not None and _in_lower_case(recased[name[0] : name[1]]):
        return None  # no capital as written or re-cased: "summary judg-\nment"
    return name


def _in_lower_case(value: str) -> bool:
    """Letters in lower case and none in capitals (a script without case has neither)."""
    return any(c.islower() for c in value) and not any(c.isupper() for c in value)


# The "al." of "et al." after a party's name, which the model reads as a person.
_ET_AL = re.compile(r"(?<=et[ \n])al\Z")


def _in_web_address(text: str, start: int, end: int) -> bool:
    """`text[start:end]` is or is part of a web address: a tiled watermark's
    "www.apdf.com" and the "Irs" of "Www.Irs.Gov/Forms" were read as people. A name
    only beside one ("Jane Doe<jane@example.com>") is no part of it."""
    if _WEB_ADDRESS.search(text, start, end):
        return True
    joined = text[start - 1 : start] in (".", "/") or text[end : end + 1] in (".", "/")
    before = max(text.rfind(space, 0, start) for space in " \n\t") + 1
    after = [i for i in (text.find(space, end) for space in " \n\t") if i >= 0]
    return joined and _WEB_ADDRESS.search(text, before, min(after, default=len(text))) is not None
