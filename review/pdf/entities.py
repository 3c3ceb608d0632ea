"""Every occurrence of a named entity (Django-free): a name, place or organisation the
language model found once, in this document or in another of the submission, is
proposed wherever it is written, in the forms people write it (possessive, any case,
the surname after a title, "J. Doe" for "Jane Doe" where no one else is "J. Doe"), and
all its places form one group the reviewer decides with one key."""

from __future__ import annotations

import re
from dataclasses import dataclass

from review.pdf.detection_policy import DetectionPolicy
from review.pdf.pagetext import SOURCE_OCR, SOURCE_TEXT, Found, PageText
from review.pdf.patterns import NER_CATEGORIES, PERSON, Hit, squash

_TITLES = (
    r"Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Lord|Lady|Judge|Officer|Det|Sgt|Capt|"
    r"Herr|Frau|M|Mme|Mlle|Me|Sr|Sra|Srta|Don|Doña"
)
_POSSESSIVE = r"(?:['’]s)?"


@dataclass(frozen=True)
class _Entity:
    category: str
    tokens: tuple[str, ...]  # the name as written, split on whitespace

    @property
    def key(self) -> str:
        return " ".join(self.tokens).casefold()


def _entities(
    found: list[Found], texts: list[tuple[int, PageText, str]], policy: DetectionPolicy
) -> list[_Entity]:
    """Named entities worth proposing everywhere: what NER found here (two words at
    least, or one of four letters or more) and what it found in the submission's
    other documents."""
    pages = {index: page_text for index, page_text, _ in texts}
    seen: dict[tuple[str, str], _Entity] = {}
    raw = [
        (f.hit.category, pages[f.page].text[f.hit.start : f.hit.end])
        for f in found
        if f.hit.category in NER_CATEGORIES and f.source in (SOURCE_TEXT, SOURCE_OCR)
    ]
    for category, text in [*raw, *policy.known_entities]:
        tokens = tuple(text.split())
        if not tokens or (len(tokens) == 1 and len(tokens[0]) < 4):
            continue
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
    return sorted(kept, key=lambda e: (-len(e.key), e.category, e.key))


def _initial_form(e: _Entity) -> str:
    return f"{e.tokens[0][0]}.{e.tokens[-1]}".casefold()


def _entity_patterns(entities: list[_Entity]) -> list[tuple[_Entity, re.Pattern[str]]]:
    """Each entity's written forms: the whole name in any case, possessive allowed;
    for a person also the surname after a title ("Ms. Doe") and the initial with the
    surname ("J. Doe") where no other person shares that initial and surname."""
    initials: dict[str, set[str]] = {}
    for e in entities:
        if e.category == PERSON and len(e.tokens) >= 2:
            initials.setdefault(_initial_form(e), set()).add(e.key)
    patterns = []
    for e in entities:
        gap = r"(?:[ \n]|-\n)"
        whole = gap.join(re.escape(t) for t in e.tokens)
        flags = re.IGNORECASE if len(e.tokens) > 1 else 0
        forms = [rf"(?<![\w-])({whole}){_POSSESSIVE}(?![\w-])"]
        if e.category == PERSON and len(e.tokens) >= 2:
            surname = re.escape(e.tokens[-1])
            forms.append(rf"(?<![\w-])(?:{_TITLES})\.?{gap}({surname}){_POSSESSIVE}(?![\w-])")
            if len(initials[_initial_form(e)]) == 1:
                initial = re.escape(e.tokens[0][0])
                forms.append(rf"(?<![\w-])({initial}\.{gap}?{surname}){_POSSESSIVE}(?![\w-])")
        patterns.append((e, re.compile("|".join(forms), flags)))
    return patterns


def every_occurrence(
    found: list[Found],
    texts: list[tuple[int, PageText, str]],
    policy: DetectionPolicy,
) -> tuple[list[_Entity], list[Found], dict[int, str]]:
    """Propose each named entity at every place it is written, and tie all of its
    places into one group: (the entities, the new finds, group by id() of a find)."""
    entities = _entities(found, texts, policy)
    groups: dict[int, str] = {}
    if not entities:
        return entities, [], groups
    by_page: dict[int, list[Found]] = {}
    for f in found:
        by_page.setdefault(f.page, []).append(f)
    added: list[Found] = []
    for entity, pattern in _entity_patterns(entities):
        group = "e" + policy.text_hash(f"{entity.category}|{entity.key}")[:15]
        for index, page_text, source in texts:
            for m in pattern.finditer(page_text.text):
                # Each form captures the name itself (not its title or possessive).
                start, end = next(m.span(g) for g in range(1, len(m.groups()) + 1) if m.group(g))
                known = [
                    f
                    for f in by_page.get(index, ())
                    if f.hit.category == entity.category and f.hit.start < end and start < f.hit.end
                ]
                if known:
                    for f in known:
                        groups.setdefault(id(f), group)
                    continue
                rects = page_text.boxes(start, end)
                if not rects:
                    continue
                value = page_text.text[start:end]
                hit = Hit(
                    entity.category, start, end, 0.8, "entity.every_occurrence", squash(value)
                )
                f = Found(index, rects, hit, source, policy.text_hash(hit.normalized))
                by_page.setdefault(index, []).append(f)
                groups[id(f)] = group
                added.append(f)
    return entities, added, groups
