"""Every occurrence of a named entity (Django-free): a name, place or organisation the
language model found once, in this document or in another of the submission, is
proposed wherever it is written, in the forms people write it (possessive, any case,
the surname after a title, surname first ("DOE, JANE"), "J. Doe" for "Jane Doe" where
no one else is "J. Doe", the surname or the given name alone where it is no one else's:
"Thompson said", "Patel's", "Hi Priya,"), and all its places form one group the
reviewer decides with one key. Numbers proposed for their label are
`number_occurrences`'s."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from review.pdf.common_words import common_words, everyday
from review.pdf.detection_policy import DetectionPolicy
from review.pdf.given_name_led import after_a_place_word, joined_to_a_name
from review.pdf.given_names import WORD_GIVEN_NAMES, given_names
from review.pdf.name_words import CAPITAL, NAME_WORD, PARTICLE, TITLES
from review.pdf.page_skeletons import Skeletons, written
from review.pdf.pagetext import SOURCE_OCR, SOURCE_TEXT, Found, PageText
from review.pdf.patterns import (
    LOCATION,
    NER_CATEGORIES,
    ORGANIZATION,
    PERSON,
    Hit,
    squash,
)

_POSSESSIVE = r"(?:['’]s)?"
_POSSESSIVE_END = re.compile(r"['’]s?$")
# Where a written form starts and ends: not inside a word, nor in an e-mail address's
# local part ("h.schmidt@" is no "H. Schmidt"; the address is a finding of its own).
# Digits may run on: an author's affiliation marks after ("Bastien1,2*" in a paper's
# byline, which the gate found unredacted beside the redacted "Bastien R" of its
# citation), a footnote's number before ("24Manchester's", PoC||GTFO 13:7); and so may
# one small Greek letter after a Latin name, an affiliation mark too ("Kuehlα", in
# papermage's own paper).
# Hyphens and dashes a name's parts are joined with, as fonts' maps write them: "Quan" is
# no word of its own in "Quan‑Yang Duh" (U+2011); nor is "Yang".
_HYPHENS = "\u2010\u2011\u2012\u2013\u2212\ufe63\uff0d-"  # "-" last: no range
# A case number's judges come after its hyphens ("15-60185-CIV-CANNON/Hunt"): a hyphen
# after digits or a docket's kind ends no name's first part.
_DOCKET_HYPHEN = r"(?<=\d-)|(?<=[-\d](?i:civ)-)|(?<=[-\d](?i:cv|cr|mj)-)"
_START = rf"(?:(?<![^\W\d]|[{_HYPHENS}])|{_DOCKET_HYPHEN})"
_AFFILIATION_MARK = r"(?<=[A-Za-z\u00c0-\u024f])[\u03b1-\u03c9](?![^\W\d])"
_END = rf"(?!(?!{_AFFILIATION_MARK})[^\W\d]|[{_HYPHENS}]|\d*@)"
# A name written surname first ("WILLIAMS, KAREN", "Gonzalez, Roberto").
_PARTICLE = re.compile(PARTICLE)
_SURNAME_FIRST = re.compile(r"(\S+),\s+(\S+(?:\s+\S+)?)")
# A surname alone stands for its person from this length on: shorter ones ("Doe", "Li",
# "Day") are too often other words or other people; a title still ties them ("Ms. Doe").
# A given name from three letters ("Ewa", "Raj"), everyday words aside.
_LONE_SURNAME_LEN = 4
_LONE_GIVEN_NAME_LEN = 3
_TITLE_ROOM = max(map(len, TITLES.split("|"))) + 8  # a title, its period, a gap, "'s"
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")  # letters: "o'neill", "smith-jones"


@dataclass(frozen=True)
class _Entity:
    category: str
    tokens: tuple[str, ...]  # the name as written, split on whitespace

    @property
    def key(self) -> str:
        return " ".join(self.tokens).casefold()


def _entities(
    found: list[Found],
    texts: list[tuple[int, PageText, str]],
    policy: DetectionPolicy,
    common: set[str],
) -> list[_Entity]:
    """Named entities worth proposing everywhere: what NER found here (two words at
    least, or one of four letters or more) and what it found in the submission's
    other documents."""
    pages = {index: page_text for index, page_text, _ in texts}
    seen: dict[tuple[str, str], _Entity] = {}
    read = [
        f
        for f in found
        if f.hit.category in NER_CATEGORIES and f.source in (SOURCE_TEXT, SOURCE_OCR)
    ]
    raw = [(f.hit.category, _unbroken(pages[f.page].text[f.hit.start : f.hit.end])) for f in read]
    # A word read as a place that is a person's surname or given name, and never after a
    # word that leads to a place nor in a firm's name, is the model misreading the person
    # ("Okoro stated" read as a place beside "Tremaine Okoro"); "flew to London" keeps
    # London a place.
    name_words = {
        _bare(word)
        for category, text in raw
        if category == PERSON and len(tokens := _name_tokens(text)) >= 2
        for word in (tokens[0], tokens[-1])
    }
    placed = {
        _bare(pages[f.page].text[f.hit.start : f.hit.end])
        for f in read
        if f.hit.category == LOCATION and _place_or_firm(pages[f.page].text, f.hit)
    }
    misread_places = {
        _bare(text)
        for category, text in raw
        if category == LOCATION and " " not in text.strip() and _bare(text) in name_words - placed
    }
    for category, text in [*raw, *policy.known_entities]:
        if category == LOCATION and _bare(text) in misread_places:
            continue
        tokens = _name_tokens(text) if category == PERSON else tuple(text.split())
        if not tokens or (len(tokens) == 1 and len(tokens[0]) < 4):
            continue
        if category == PERSON and everyday(tokens, common):
            continue  # a form's labels read as a person ("Check", "Employed\nNot")
        entity = _Entity(category, tokens)
        seen.setdefault((category, entity.key), entity)
    # "J. Doe" is a written form of "Jane Doe" when she is the only such person: one
    # entity. Fuller names first, so they claim the places their forms cover.
    full = [e for e in seen.values() if e.category == PERSON and len(e.tokens) >= 2]
    kept = [
        e
        for e in seen.values()
        if not (
            e.category == PERSON
            and len(e.tokens) == 2
            and re.fullmatch(r"\w\.?", e.tokens[0])
            and sum(_initial_form(f) == _initial_form(e) and f is not e for f in full) == 1
        )
    ]
    # A lone surname or given name the model or a cue found (as a person, or misread
    # as an organisation) is that person written shortly: one entity too. A place or an
    # organisation read where the same words are read as a person elsewhere is the
    # model misreading them ("Chloe" a place in one sentence, greeted in another).
    lone = _lone_names(kept, common)
    people = {e.key for e in kept if e.category == PERSON}
    kept = [
        e
        for e in kept
        if not (
            e.category in (PERSON, ORGANIZATION)
            and _bare(e.tokens[-1]) in lone
            and (len(e.tokens) == 1 or e.key == _particle_surname(lone[_bare(e.tokens[-1])]))
        )
        and not (e.category in (LOCATION, ORGANIZATION) and e.key in people)
    ]
    kept.extend(_family_names(kept))
    return sorted(kept, key=lambda e: (-len(e.key), e.category, e.key))


def _common_word_read(f: Found, pages: dict[int, PageText], common: set[str]) -> bool:
    """The model's reading of a person that is one of the document's `common` words."""
    if f.hit.category != PERSON or not f.hit.detector.startswith("spacy.") or f.page not in pages:
        return False
    return everyday(pages[f.page].text[f.hit.start : f.hit.end].split(), common)


def _family_names(entities: list[_Entity]) -> list[_Entity]:
    """Surnames two people or more share ("Aisha Patel and her brother Ravi Patel"):
    written alone, they are one of the family's, proposed in a group of their own.
    Four letters or more, and no place's name, as a surname alone."""
    families: dict[str, set[str]] = {}
    written: dict[str, str] = {}
    places: set[str] = set()
    single: set[str] = set()
    for e in entities:
        if (
            e.category == PERSON
            and len(e.tokens) >= 2
            and not _PARTICLE.fullmatch(e.tokens[0].casefold())
        ):
            families.setdefault(_bare(e.tokens[-1]), set()).add(e.key)
            written.setdefault(_bare(e.tokens[-1]), _POSSESSIVE_END.sub("", e.tokens[-1]))
        elif len(e.tokens) == 1:
            (places if e.category == LOCATION else single).add(_bare(e.tokens[0]))
    return [
        _Entity(PERSON, (written[surname],))
        for surname, keys in families.items()
        if len(keys) >= 2
        and len(surname) >= _LONE_SURNAME_LEN
        and _WORD.fullmatch(surname) is not None
        and surname not in places | single
    ]


def _name_tokens(text: str) -> tuple[str, ...]:
    """A person's name in reading order, given name first ("WILLIAMS, KAREN" is Karen
    Williams), a name all in capitals as names are usually written, so that its other
    forms ("Ms. Williams", "Williams said") are found too."""
    surname_first = _SURNAME_FIRST.fullmatch(text)
    words = [*surname_first[2].split(), surname_first[1]] if surname_first else text.split()
    if words:  # the model reads a byline's affiliation mark with the name ("Kuehlα")
        words[-1] = re.sub(f"{_AFFILIATION_MARK}$", "", words[-1])
    if text.isupper():
        words = [w.title() for w in words]
    return tuple(words)


def _bare(word: str) -> str:
    """A word without its possessive, case folded: "Patel's" is "patel"."""
    return _POSSESSIVE_END.sub("", word).casefold()


def _lone_names(entities: Iterable[_Entity], common: set[str]) -> dict[str, _Entity]:
    """Surnames and given names that, written alone, name one person: the last or the
    first word of exactly one person's name of two words or more (in either place), long
    enough, no place's name ("London" of "Jack London" may be the city) and no word the
    document writes in lower case (`common`: "Debtor" of a form's "Debtor Spouse", read
    as a person, stood for him on every page); a given name also no everyday word
    ("Will")."""
    people: dict[str, set[str]] = {}  # name word: the people it is a name word of
    places = set()
    named: dict[str, _Entity] = {}
    long_enough = set()
    for e in entities:
        # A surname with its particles ("Van der Berg") is no person of its own.
        if (
            e.category == PERSON
            and len(e.tokens) >= 2
            and not _PARTICLE.fullmatch(e.tokens[0].casefold())
        ):
            named[e.key] = e
            surname, given = _bare(e.tokens[-1]), _bare(e.tokens[0])
            for word in (surname, given):
                people.setdefault(word, set()).add(e.key)
            if len(surname) >= _LONE_SURNAME_LEN:
                long_enough.add(surname)
            if len(given) >= _LONE_GIVEN_NAME_LEN and given not in WORD_GIVEN_NAMES:
                long_enough.add(given)
        elif e.category == LOCATION and len(e.tokens) == 1:
            places.add(_bare(e.tokens[0]))
    return {
        word: named[next(iter(keys))]
        for word, keys in people.items()
        if len(keys) == 1
        and word in long_enough
        and _WORD.fullmatch(word) is not None
        and word not in places
        and word not in common
    }


def _particle_surname(e: _Entity) -> str | None:
    """The surname with its particles, case folded ("van der berg" of "Ludwig van der
    Berg"), or None when the name has no particles."""
    for index, token in enumerate(e.tokens[1:-1], start=1):
        if _PARTICLE.fullmatch(token):
            return " ".join(e.tokens[index:]).casefold()
    return None


def _initial_form(e: _Entity) -> str:
    return f"{e.tokens[0][0]}.{e.tokens[-1]}".casefold()


# A line broken inside a word with a hyphen: the next line goes on in lower case.
_BROKEN_WORD = re.compile(r"(?<=[^\W\d_])-\n(?=(\w))")


def _unbroken(text: str) -> str:
    """`text` with the words a line broke with a soft hyphen joined: "Wojcie-\nchowska"
    is "Wojciechowska", "Oyelaran-\nSmith" stays."""
    return _BROKEN_WORD.sub(lambda m: "" if m[1].islower() else m[0], text)


def _entity_patterns(
    entities: list[_Entity], lone: dict[str, _Entity]
) -> list[tuple[_Entity, re.Pattern[str]]]:
    """Each entity's written forms: the whole name in any case (of one word: a person's
    capitalised, an organisation's or a place's as written or in capitals), possessive
    allowed; for a person also the surname after a title ("Ms. Doe") where no one else
    has that surname (else it is the family's, `_family_names`), the name surname first
    ("Doe, Jane", as records and file headers write it), the initial with the surname
    ("J. Doe") where no other person shares that initial and surname, and the surname or
    the given name alone, capitalised, where it is one of the `lone` names (a lower-case
    "young" is a word, not Ms. Young); a given name not before another name ("Priya
    Shah" is someone else than Priya Raghunathan)."""
    initials: dict[str, set[str]] = {}
    families: dict[str, set[str]] = {}
    for e in entities:
        if e.category == PERSON and len(e.tokens) >= 2:
            initials.setdefault(_initial_form(e), set()).add(e.key)
            families.setdefault(_bare(e.tokens[-1]), set()).add(e.key)
    patterns = []
    for e in entities:
        gap = r"(?:[ \n]|-\n)"
        whole = gap.join(written(t) for t in e.tokens)
        flags = re.IGNORECASE if len(e.tokens) > 1 else 0
        if e.category == PERSON and len(e.tokens) == 1:
            # Capitalised, in any case after it ("Priya", "PATEL"; not "young").
            whole = rf"(?=[{CAPITAL}])(?i:{whole})"
        elif len(e.tokens) == 1 and e.tokens[0].upper() != e.tokens[0]:
            # As written, or in capitals: a heading's "DAIMLER-BENZ" (not "Us" of "US").
            whole = rf"(?:{whole}|{written(e.tokens[0].upper())})"
        forms = [rf"{_START}({whole}){_POSSESSIVE}{_END}"]
        if e.category != PERSON and len(e.tokens) == 1 and e.tokens[0].lower() != e.tokens[0]:
            # In lower case in a web address: "apple.com/itunes/starbucks", a page's
            # name too ("hpc/slingshot-interconnect.html").
            low = written(e.tokens[0].lower())
            forms.append(rf"(?<=[/.@])({low})(?![^\W\d])|{_START}({low})(?=\.[a-z]{{2,}})")
        if e.category == PERSON and len(e.tokens) >= 2:
            # With its particles, or the last word alone: "Van der Berg", "García".
            with_particles = _particle_surname(e)
            surname = written(e.tokens[-1])
            if with_particles is not None:
                surname = f"(?:{gap.join(map(written, with_particles.split()))}|{surname})"
            if len(families[_bare(e.tokens[-1])]) == 1:  # "Ms. Patel" of two is the family's
                forms.append(rf"{_START}(?:{TITLES})\.?{gap}({surname}){_POSSESSIVE}{_END}")
            given = written(e.tokens[0])
            forms.append(rf"{_START}({surname},{gap}{given}){_END}")  # "DOE, JANE"
            if len(initials[_initial_form(e)]) == 1:
                initial = re.escape(e.tokens[0][0])
                forms.append(rf"{_START}({initial}\.{gap}?{surname}){_POSSESSIVE}{_END}")
            if lone.get(_bare(e.tokens[-1])) is e:
                # Capitalised, in any case after it: "McAllister" of "MCALLISTER, RYAN".
                forms.append(rf"{_START}((?-i:(?=[{CAPITAL}]))(?i:{surname})){_POSSESSIVE}{_END}")
            if lone.get(_bare(e.tokens[0])) is e:
                forms.append(
                    rf"{_START}((?-i:(?=[{CAPITAL}]))(?i:{given})){_POSSESSIVE}{_END}"
                    rf"(?-i:(?![ ]{NAME_WORD}))"
                )
        patterns.append((e, re.compile("|".join(forms), flags)))
    return patterns


def every_occurrence(
    found: list[Found],
    texts: list[tuple[int, PageText, str]],
    policy: DetectionPolicy,
) -> tuple[list[_Entity], list[Found], dict[int, str]]:
    """Propose each named entity at every place it is written, and tie all of its
    places into one group: (the entities, the new finds, group by id() of a find).
    The model's readings of one word the document writes in lower case elsewhere are
    taken out of `found` ("Lease will be assumed", "Copy the value from" on a form)."""
    pages = {index: page_text for index, page_text, _ in texts}
    common = common_words(page_text.text for page_text in pages.values())
    found[:] = [f for f in found if not _common_word_read(f, pages, common)]
    entities = _entities(found, texts, policy, common)
    groups: dict[int, str] = {}
    if not entities:
        return entities, [], groups
    lone = _lone_names(entities, common)
    people = {e.key for e in entities if e.category == PERSON}
    by_page: dict[int, list[Found]] = {}
    for f in found:
        if f.hit.category in (ORGANIZATION, LOCATION) and f.source in (SOURCE_TEXT, SOURCE_OCR):
            read = " ".join(pages[f.page].text[f.hit.start : f.hit.end].split()).casefold()
            if read in people or (
                _bare(read) in lone
                and (
                    f.hit.category == ORGANIZATION or not _place_or_firm(pages[f.page].text, f.hit)
                )
            ):
                # The small model reads a person's name, or a surname or a given name
                # alone, as an organisation or a place ("Thompson noted", "Thanks
                # Marek", "Okoro stated"): it is the person it names.
                f.hit = replace(f.hit, category=PERSON, detector=f.hit.detector + ">person")
        by_page.setdefault(f.page, []).append(f)
    added: list[Found] = []
    skeletons = Skeletons(page_text.text for _, page_text, _ in texts)
    for entity, pattern in _entity_patterns(entities, lone):
        group = "e" + policy.text_hash(f"{entity.category}|{entity.key}")[:15]
        capitalised = entity.category == PERSON and not " ".join(entity.tokens).islower()
        for i, m in skeletons.matches(pattern, *_anchors(entity, lone)):
            index, page_text, source = texts[i]
            # Each form captures the name itself (not its title or possessive).
            start, end = next(m.span(g) for g in range(1, len(m.groups()) + 1) if m.group(g))
            if capitalised and page_text.text[start:end].islower():
                continue  # the words of "Sole Proprietor", read as a person, not him
            detector, group_here = "entity.every_occurrence", group
            relative = _relative_before(page_text.text, start, end, entity)
            if relative is not None:
                # Another of the family ("TANYA JACKSON"'s son "DESHAWN JACKSON"):
                # their whole name, in a group of their own.
                start, detector = relative, "entity.relative"
                name = " ".join(page_text.text[start:end].split()).casefold()
                group_here = "e" + policy.text_hash(f"{PERSON}|{name}")[:15]
            known = [
                f
                for f in by_page.get(index, ())
                if f.hit.category == entity.category and f.hit.start < end and start < f.hit.end
            ]
            for f in known:
                groups.setdefault(id(f), group_here)
            if _covered(start, end, known, page_text.text):
                continue
            rects = page_text.boxes(start, end)
            if not rects:
                continue
            value = page_text.text[start:end]
            hit = Hit(entity.category, start, end, 0.8, detector, squash(value))
            f = Found(index, rects, hit, source, policy.text_hash(hit.normalized))
            by_page.setdefault(index, []).append(f)
            groups[id(f)] = group_here
            added.append(f)
    return entities, added, groups


def _anchors(entity: _Entity, lone: dict[str, _Entity]) -> tuple[list[set[str]], int]:
    """Word sets every form `_entity_patterns` writes holds a word of each of (in its
    cases): a person's surname, and the given name if written alone too; a place's or
    firm's first or last word. And a length past any form: "-\\n" between letters, a title."""
    cases = (str, str.upper, str.lower, str.casefold)
    first, last = ({f(w) for f in cases} for w in (entity.tokens[0], entity.tokens[-1]))
    person = entity.category == PERSON and len(entity.tokens) >= 2
    alone = lone.get(_bare(entity.tokens[0])) is entity
    choices = ([last | first] if alone else [last]) if person else [first, last]
    longest = max(len(f(" ".join(entity.tokens))) for f in cases)
    return choices, 3 * longest + 2 * len(entity.tokens) + _TITLE_ROOM


def _place_or_firm(text: str, hit: Hit) -> bool:
    """Whether the model's place `hit` reads as one: after a word that leads to a place,
    or a word of a firm's name ("flew to London", "Pavón y Hierro S.Com.")."""
    return after_a_place_word(text, hit.start) or joined_to_a_name(text, hit.end)


def _covered(start: int, end: int, finds: list[Found], text: str) -> bool:
    """Whether the letters of `text[start:end]` all lie in `finds`: a find that holds
    only part of a name ("Aleksandra Wojcie-" of a name the line broke) leaves the rest
    to propose."""
    return all(
        any(f.hit.start <= i < f.hit.end for f in finds)
        for i in range(start, end)
        if text[i].isalnum()
    )


_WORD_BEFORE = re.compile(rf"({NAME_WORD})(?:[ \n]|-\n)\Z")


def _relative_before(text: str, start: int, end: int, entity: _Entity) -> int | None:
    """Where the name begins when the surname alone of `entity` (a person, or a family's
    surname) at `text[start:end]` follows another given name than theirs: a relative
    the model did not read (the start of that given name), else None."""
    if entity.category != PERSON or _bare(text[start:end]) != _bare(entity.tokens[-1]):
        return None
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if before is None:
        return None
    given = before[1].casefold()
    if (
        (len(entity.tokens) >= 2 and given == _bare(entity.tokens[0]))
        or given not in given_names()
        or given in WORD_GIVEN_NAMES
        or before[1].isupper() != text[start:end].isupper()  # "JACKSON" after "Dear"
    ):
        return None
    return before.start(1)
