"""Every hit of a detection policy's categories in one text (`Finder`): the project's
pattern detectors, phone numbers in the policy's regions and, in full mode, Presidio's
analyzer with the spaCy recogniser; then the search terms. Django-free."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import phonenumbers
from phonenumbers import Leniency

from review.pdf import nlp, truecase
from review.pdf.contact_names import CONTACT_NAME_CONFIDENCE, contact_names
from review.pdf.detection_policy import DetectionPolicy
from review.pdf.given_name_led import GIVEN_NAME_CONFIDENCE, given_name_alone
from review.pdf.name_span import name_in_reading
from review.pdf.name_words import CAPITAL, NAME_WORD, TITLES, plausible_name
from review.pdf.names import SIGNED_NAME
from review.pdf.pagetext import unquoted
from review.pdf.patterns import (
    CUE_BUT_INVALID,
    DETECTORS,
    LOCATION,
    NER_CATEGORIES,
    ORGANIZATION,
    PATTERN_CATEGORIES,
    PERSON,
    PHONE,
    PHONE_CUE,
    SEARCH_TERM,
    Hit,
    cue_before,
    digits_of,
    squash,
)
from review.pdf.speakers import speakers

POSSIBLE = Leniency.POSSIBLE
_FIRST_DIGIT = re.compile(r"\d")
# Fewest digits of a number proposed for its phone label alone (a local "555-0143" has 7).
_CUED_PHONE_DIGITS = 5
# A number as phones are written anywhere ("72 128 827", "0688 872 49 99", "(37)
# 788-063"): what follows a phone label when no region's plan knows it.
_PHONE_SHAPE = re.compile(r"(?<![\w+])\+?\(?\d[\d ()./-]{3,20}\d(?![\w-])")
_SHAPED_PHONE_DIGITS = (7, 15)
# A number with its phone label after it, closing the entry, as signature blocks write
# them ("416 60 039 office\n", "(37) 788-063-Office,07700 063 966-Fax"); not "the
# 2019-2020 work plan".
_LABEL_AFTER = re.compile(
    r"(?<![\w+])(\+?\(?\d[\d ()./-]{3,20}\d)(?:[ ]?-[ ]?|[ ]+)"
    r"(?i:office|fax|mobile|cell|home|work|tel|phone)\b(?=[ ]*(?:\n|$|[,;\\|)+(\d]))"
)


def search_pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """One case-insensitive pattern for all terms.

    Any whitespace (line breaks included) may separate a term's words, and a line
    break, with or without a hyphen, may split a word ("Jo-\\nhnson").
    """
    alternatives = []
    for term in sorted({t.strip() for t in terms if t.strip()}, key=len, reverse=True):
        words = ["(?:-?\n)?".join(re.escape(c) for c in word) for word in term.split()]
        alternatives.append(r"\s+".join(words))
    if not alternatives:
        return None
    firsts = sorted(
        {c for t in terms if t.strip() for c in (t.strip()[0].lower(), t.strip()[0].upper())}
    )
    lead = "(?=[" + "".join(re.escape(c) for c in firsts) + "])"
    return re.compile(lead + r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.I)


class Finder:
    """Every hit of the policy's categories in a text: the project's pattern detectors,
    phones in the policy's regions and, in full mode, Presidio's analyzer over all of
    them with the spaCy recogniser (see nlp.py). Overlaps are resolved, then the
    search-term hits are added: they are the caller's explicit ask, never suppressed."""

    def __init__(self, policy: DetectionPolicy) -> None:
        self.policy = policy
        self.floors = {
            c: policy.threshold(c)
            for c in (*PATTERN_CATEGORIES, *NER_CATEGORIES)
            if policy.enabled(c) and (policy.ner or c not in NER_CATEGORIES)
        }
        self.search = (
            search_pattern(policy.search_terms)
            if policy.enabled(SEARCH_TERM) and policy.threshold(SEARCH_TERM) <= 1.0
            else None
        )
        self.project = nlp.ProjectRecognizer(self.floors, self._project_hits)
        # With people wanted, the model's places and organisations are read as well,
        # wanted or not: it reads people as both (a given name alone, a person among a
        # table's cells), and what is left of them once the people are taken out is
        # dropped at the floors.
        self.readings = sorted(
            set(self.floors) | ({LOCATION, ORGANIZATION} if PERSON in self.floors else set())
        )
        self._text: str | None = None  # the page text being analysed, as written
        self._cue_people: list[Hit] = []  # the names the project's cues read in it

    def _project_hits(self, text: str) -> Iterator[tuple[str, int, int, float, str, Hit]]:
        # The analyzer hands over the text with line breaks as spaces; the project's
        # detectors read the breaks themselves (hyphenation, wrapped addresses).
        if self._text is not None and len(self._text) == len(text):
            text = self._text
        for categories, finder in DETECTORS:
            if not categories.isdisjoint(self.floors):
                for h in finder(text):
                    if h.category == PERSON:
                        self._cue_people.append(h)
                    yield h.category, h.start, h.end, h.confidence, h.detector, h

    def hits(self, text: str) -> list[Hit]:
        text = unquoted(text)
        # Line breaks read as spaces (same offsets): a value wrapped onto the next line
        # is still one value to the phone matcher and the language model.
        flowing = text.replace("\n", " ")
        self._text = text
        self._cue_people = []
        analyzed = self.policy.ner and not self.floors.keys().isdisjoint(NER_CATEGORIES)
        # The model reads lines in capitals re-cased; the project's detectors read the
        # text as written (`_project_hits`).
        recased = truecase.for_model(text) if analyzed else text
        if analyzed:
            found = nlp.analyze(
                recased.replace("\n", " "),
                pipeline=self.policy.nlp_pipeline,
                project=self.project,
                categories=self.readings,
                phone_regions=self.policy.phone_regions if PHONE in self.floors else (),
            )
            # Presidio drops a name a cue read inside a longer reading of the model, which
            # `name_span` may cut to another line ("Sean\nOfficer Delgado", a signature
            # over the next line, is "Sean"): the cue's name stays.
            kept = {id(f.payload) for f in found}
            found.extend(
                nlp.Found(h.category, h.start, h.end, h.confidence, h.detector, h)
                for h in self._cue_people
                if id(h) not in kept
            )
        else:
            found = [
                nlp.Found(h.category, h.start, h.end, h.confidence, h.detector, h)
                for *_, h in self._project_hits(text)
            ]
        if analyzed and PERSON in self.floors:
            found.extend(self._people_in_cells(recased, found))
        if PHONE in self.floors:
            # Phones the project's detectors have not read; in full mode the analyzer
            # read the flowing text already, and only a number it ran into the next
            # table cell is left to read.
            claimed = [(f.start, f.end) for f in found if f.category != PHONE]
            read = [(f.start, f.end) for f in found if f.category == PHONE]
            found.extend(
                nlp.phones(
                    text,
                    self.policy.phone_regions,
                    claimed,
                    read=read,
                    lines_apart_only=analyzed,
                )
            )
        if PHONE in self.floors:
            # A number already read as a phone after its label wins over the weak
            # reading anyway: no need to look again.
            read = [
                (f.start, f.end)
                for f in found
                if f.category == PHONE and f.score >= self.floors[PHONE]
            ]
            found.extend(self._cued_phones(flowing, read))
            found.extend(self._labelled_after_phones(text, read))
        candidates = [self._hit(text, f, recased) for f in found]
        # A weak hit with a reason (a number after its label that fails validation) is
        # proposed whatever the floor: the label announces it.
        hits = _resolve_overlaps(
            [
                h
                for h in candidates
                if h is not None
                and (h.confidence >= self.floors.get(h.category, 2.0) or h.reason is not None)
            ]
        )
        # A place or organisation that is a validated value's label, or runs over the
        # value, is the model misreading the label ("SSN" as an organisation).
        values = [h for h in hits if h.category not in NER_CATEGORIES]
        hits = [
            h
            for h in hits
            if h.category not in (LOCATION, ORGANIZATION)
            or not any(v.start < h.end + 3 and h.start < v.end for v in values)
        ]
        people = [h for h in hits if h.category == PERSON]
        hits = [
            h
            for h in hits
            if h.category not in (LOCATION, ORGANIZATION)
            or not any(_misread_person(text, h, p) for p in people)
        ]
        if self.floors.get(PERSON, 2.0) <= CONTACT_NAME_CONFIDENCE:
            hits.extend(contact_names(text, hits))
            hits.extend(_listed_names(text, hits))
            hits.extend(
                Hit(PERSON, a, b, CONTACT_NAME_CONFIDENCE, "cue.speaker_named", squash(text[a:b]))
                for a, b in speakers(
                    text,
                    [(h.start, h.end) for h in hits if h.category == PERSON],
                    [(h.start, h.end) for h in hits],
                )
            )
        if self.search is not None:
            hits.extend(
                Hit(SEARCH_TERM, m.start(), m.end(), 1.0, "search_term", squash(m[0]))
                for m in self.search.finditer(text)
            )
        return hits

    def _people_in_cells(self, text: str, found: list[nlp.Found]) -> Iterator[nlp.Found]:
        """The model's people in each line of an organisation or a place it read across
        a table's cells ("KGaA\nCity\nBonn\nClaimant Jorge Pavón" hid the claimant):
        each line of such a reading read again on its own."""
        for reading in found:
            lines = text[reading.start : reading.end].split("\n")
            if reading.category not in (ORGANIZATION, LOCATION) or len(lines) < 2:
                continue
            start = reading.start
            for line in lines:
                if " " in line.strip():
                    for person in nlp.analyze(
                        line,
                        pipeline=self.policy.nlp_pipeline,
                        project=self.project,
                        categories=[PERSON],
                        phone_regions=(),
                    ):
                        if person.category == PERSON and person.payload is None:
                            yield replace(
                                person, start=start + person.start, end=start + person.end
                            )
                start += len(line) + 1

    def _cued_phones(self, text: str, read: list[tuple[int, int]]) -> Iterator[nlp.Found]:
        """A number right after a phone label that is a possible number of one of the
        regions but not a valid one: proposed weakly, never dropped. Not looked for
        where a phone was `read` already."""
        for cue in PHONE_CUE.finditer(text):
            start = cue.end()
            window = text[start : start + 40]
            digit = _FIRST_DIGIT.search(window)
            if digit is None or any(a <= start + digit.start() < b for a, b in read):
                continue
            spans = [
                (m.start, m.end, "phonenumbers.phone_cue")
                for region in self.policy.phone_regions
                for m in phonenumbers.PhoneNumberMatcher(window, region, leniency=POSSIBLE)
                # "call on 14 June": a day, a count or an extension
                if len(digits_of(m.raw_string)) >= _CUED_PHONE_DIGITS
                and _right_after_label(window, m.start)
            ]
            if not spans:
                # A number of a plan the policy does not read: still the number the label
                # gives, proposed for a person to judge rather than left in the clear.
                lowest, highest = _SHAPED_PHONE_DIGITS
                spans = [
                    (m.start(), m.end(), "regex.phone_cue_shape")
                    for m in _PHONE_SHAPE.finditer(window)
                    if lowest <= len(digits_of(m.group())) <= highest
                    and _right_after_label(window, m.start())
                ]
            yield from _weak_phones(window, start, spans)

    @staticmethod
    def _labelled_after_phones(text: str, read: list[tuple[int, int]]) -> Iterator[nlp.Found]:
        """A number its phone label follows, closing the entry (`_LABEL_AFTER`; in
        `text` with its line breaks), that no region's plan reads: proposed weakly, as
        after a label. Not looked for where a phone was `read` already."""
        lowest, highest = _SHAPED_PHONE_DIGITS
        for m in _LABEL_AFTER.finditer(text):
            if lowest <= len(digits_of(m[1])) <= highest and not any(
                a < m.end(1) and m.start(1) < b for a, b in read
            ):
                yield from _weak_phones(text, 0, [(*m.span(1), "regex.phone_label_after")])

    @staticmethod
    def _hit(text: str, found: nlp.Found, recased: str) -> Hit | None:
        """The hit of one analyzer result in `text`; a reading of the model is cut to
        its name or judged a given name in `recased`, the text as the model read it
        (its words in capitals re-cased)."""
        if isinstance(found.payload, Hit):
            return found.payload
        start, end = found.start, found.end
        while end > start and not text[end - 1].isalnum():
            end -= 1  # spaCy keeps a trailing full stop or a possessive's apostrophe
        if end - start < 2:
            return None
        value = text[start:end]
        if found.category == PHONE:
            # A number valid in a region's plan, a little weaker than the project's own
            # readings (an SSN after its label is not a French phone number); a bare run
            # of digits only after a phone label (it may be any serial number).
            if value.isdigit() and not (
                value.startswith("0") or cue_before(PHONE_CUE, text, start, 60)
            ):
                return None  # a national number opens with its trunk prefix 0
            return Hit(PHONE, start, end, 0.75, "phonenumbers.phone", digits_of(value))
        while start < end and not text[start].isalnum():
            # Nor is a bullet or a bracket before a reading part of it: a list's bullet,
            # its glyph's box as tall as three lines, made the box take the next line's
            # bullet (tabula-java's us-005.pdf).
            start += 1
        if end - start < 2:
            return None
        value = text[start:end]
        if found.category == PERSON:
            # The model runs a name into the lines and cells around it ("Valerie
            # Ramirez\nCase Officer", "Email\nJean-Luc Moreau", "Roberto DOB").
            span = name_in_reading(text, recased, start, end)
            if span is None:
                return None
            start, end = span
            value = text[start:end]
        if not any(c.isalpha() for c in value):
            return None  # the small model calls a date or a number a place now and then
        if found.category in (LOCATION, ORGANIZATION) and given_name_alone(
            recased, start, end, found.category
        ):
            detector = f"spacy.{found.category}>given_name"
            return Hit(PERSON, start, end, GIVEN_NAME_CONFIDENCE, detector, squash(value))
        detector = "spacy." + found.category
        # The small model calls "SSN 099666655" an organisation: a place or an
        # organisation never outweighs a validated pattern lying inside it.
        score = found.score if found.category == PERSON else min(found.score, 0.6)
        return Hit(found.category, start, end, round(score, 4), detector, squash(value))


# A name written as an initial and a surname ("J. Okafor", "Ms J Kaur"), standing in a
# list: followed by its part in brackets perhaps, then by a comma, "and" or the line's end.
_LISTED_INITIALLED = re.compile(
    rf"(?<![\w.-])((?:(?:{TITLES})\.?[ ])?[{CAPITAL}]\.?[ ]{NAME_WORD})"
    r"(?=[ ]?(?:\([^()\n]{1,30}\))?(?:[,;]|[ ](?:and|&)[ ]|\.?[ ]*(?:\n|$)))"
)


def _listed_names(text: str, hits: list[Hit]) -> Iterator[Hit]:
    """The other names of a list of initials and surnames the model read two or more of
    ("J. Okafor (chair), L. Brandt and S. Iqbal": it read the last two; one reading alone
    may be the model's mistake, "C. Methods" of an outline's headings)."""
    people = [h for h in hits if h.category == PERSON]
    lines = Counter(
        (
            text.rfind("\n", 0, p.start) + 1,
            end if (end := text.find("\n", p.end)) >= 0 else len(text),
        )
        for p in people
        if _LISTED_INITIALLED.fullmatch(text, p.start, p.end) is not None
    )
    for start, end in sorted(line for line, read in lines.items() if read >= 2):
        for m in _LISTED_INITIALLED.finditer(text, start, end):
            a, b = m.span(1)
            if plausible_name(m[1]) and not any(p.start < b and a < p.end for p in people):
                name = Hit(PERSON, a, b, CONTACT_NAME_CONFIDENCE, "cue.listed_name", squash(m[1]))
                people.append(name)
                yield name


_TITLE = re.compile(rf"(?:{TITLES})\.?")
_POSSESSIVE = re.compile(r"['’]s?")


def _weak_phones(
    window: str, offset: int, spans: list[tuple[int, int, str]]
) -> Iterator[nlp.Found]:
    """A weak phone hit with its reason for each (start, end, detector) of `window`,
    which starts at `offset` in the page text."""
    for m_start, m_end, detector in spans:
        hit = Hit(
            PHONE,
            offset + m_start,
            offset + m_end,
            0.3,
            detector,
            digits_of(window[m_start:m_end]),
            CUE_BUT_INVALID,
        )
        yield nlp.Found(PHONE, hit.start, hit.end, hit.confidence, hit.detector, hit)


def _misread_person(text: str, reading: Hit, person: Hit) -> bool:
    """Whether a place or organisation `reading` is the model misreading `person`: it
    holds the name with at most a title before it, a possessive after it, or the next
    lines after it ("Mr Adeyemi-Clarke"; a signature read with the job below it)."""
    if not reading.start <= person.start < person.end <= reading.end:
        return False
    before = text[reading.start : person.start].strip()
    after = text[person.end : reading.end]
    return (not before or _TITLE.fullmatch(before) is not None) and (
        not after or after.startswith("\n") or _POSSESSIVE.fullmatch(after) is not None
    )


def _resolve_overlaps(hits: list[Hit]) -> list[Hit]:
    """Keep the strongest hit where pattern hits overlap.

    Two hits of one category that overlap are one finding (NANP and E.164 both see
    "+1 202 555 0143"); a hit lying inside a stronger hit of another category is the
    weaker reading of the same characters (an account number that is an SSN). A weaker
    name, place or organisation that holds a stronger one of its category whole reads
    more of it and takes its place: dropping the longer reading would leave the rest of
    the name unproposed. Not a signature's: it is its line whole, and what a reading adds
    to it is the next line ("Thanks,\nPriya\nNoted, will do." read "Priya\nNoted").
    """
    ordered = sorted(hits, key=lambda h: (-h.confidence, -(h.end - h.start), h.start, h.category))
    kept: list[Hit] = []
    for hit in ordered:
        clash = False
        for index, other in enumerate(kept):
            if other.category == hit.category:
                clash = hit.start < other.end and other.start < hit.end
                if (
                    clash
                    and hit.category in NER_CATEGORIES
                    and hit.start <= other.start
                    and other.end <= hit.end
                    and hit.end - hit.start > other.end - other.start
                    and other.detector != SIGNED_NAME
                ):
                    kept[index] = hit
            else:
                clash = other.start <= hit.start and hit.end <= other.end
            if clash:
                break
        if not clash:
            kept.append(hit)
    return kept


def _right_after_label(window: str, start: int) -> bool:
    """The label, then at most a few words ("number", "on"), then the number."""
    return start <= 16 and not any(ch.isdigit() for ch in window[:start])
