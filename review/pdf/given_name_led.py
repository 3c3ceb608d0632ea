"""Names known by their given name (Django-free), the weakest of the name cues `names`
runs: no title, role or field tells them, only the list of given names. A given name
followed by capitalised words, in a sentence where the language model reads no one
("complaint about Beate Ehlert", "Request for Ibrahim Scheel file"); a given name alone
("She said Isabelle had phoned"), as the model's place or organisation ("I spoke to
Siobhan") or read by no one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from spacy.lang.en.stop_words import STOP_WORDS

from review.pdf.addresses import is_street_type
from review.pdf.given_names import WORD_GIVEN_NAMES, everyday_words, given_names
from review.pdf.name_words import (
    CAPITAL,
    COMPANY_AFTER,
    LEGAL_FORM_AFTER,
    NAME_WORD,
    NEXT_NAME_WORD,
    RANK_WORDS,
    bare_word,
    plausible_name,
    trimmed,
)

# Weaker than the model's reading of a person.
GIVEN_NAME_LED_CONFIDENCE = 0.7
# A given name alone the model read as an organisation or a place.
GIVEN_NAME_CONFIDENCE = 0.7
# Before a place, not a person ("moved to Sydney", "born in Florence").
_PLACE_BEFORE = re.compile(
    r"(?<![\w-])(?i:in|at|to|from|near|into|via|outside|around|towards?"
    # or names one: "NORTHERN DISTRICT OF GEORGIA", "State of Virginia"
    r"|(?:district|state|county|city|commonwealth|province|territory|republic)[ ]of)[ ]\Z"
)


# Unless someone is spoken or turned to ("shouted at Gary", "said Gladys to Logan").
_SPEECH = (
    r"(?i:said|says|shouted|yelled|screamed|cried|whispered|replied|explained|lied|spoke|"
    r"talked|talking|speaking|wrote|waved|smiled|nodded|winked|pointed|apologi[sz]ed|"
    r"complained|turned)"
)
_ADDRESSED_BEFORE = re.compile(rf"(?<![\w-]){_SPEECH}[ ](?:(?i:to|at)|{NAME_WORD}[ ](?i:to))[ ]\Z")


def after_a_place_word(text: str, start: int) -> bool:
    """Whether a word that leads to a place ("to", "in") comes right before `start`,
    and not as the one someone speaks to."""
    return (
        _PLACE_BEFORE.search(text, max(0, start - 20), start) is not None
        and _ADDRESSED_BEFORE.search(text, max(0, start - 60), start) is None
    )


# The words listed with a word: after it ("Fleming, Armstrong and Flores"), and before
# it joined by "and" ("Armstrong and Flores"; not "Yesterday, Siobhan called").
_AND = r"(?:and|&|et|und|y|e)"  # "Paris et Fils", "Hijos y Ruiz"
_NEXT_LISTED = re.compile(rf"(?:,\s(?:{_AND}\s)?|\s{_AND}\s)({NAME_WORD})")
_LISTED_BEFORE = re.compile(rf"({NAME_WORD}),?\s{_AND}\s\Z")
_JOINED_NAME_AFTER = re.compile(rf"[ ]{_AND}[ ]{NAME_WORD}")


def joined_to_a_name(text: str, end: int) -> bool:
    """Whether another name is joined on after `end` as a firm's names are ("Pavón y
    Hierro S.Com.")."""
    return _JOINED_NAME_AFTER.match(text, end) is not None


def given_name_alone(text: str, start: int, end: int, category: str) -> bool:
    """Whether `text[start:end]`, the model's organisation or place (`category`) or a
    word no one read, is a given name alone ("I spoke to Siobhan", "Aleksandra checked
    the log"): one capitalised word of three letters or more, a given name and no
    everyday word, as is every word listed with it (a firm is named "Fleming, Armstrong
    and Flores"), and no place after a word that leads to one."""
    if category == "location" and after_a_place_word(text, start):
        return False
    words = [text[start:end]]
    position = end
    while (listed := _NEXT_LISTED.match(text, position)) is not None:
        words.append(listed[1])
        position = listed.end()
    position = start
    while (listed := _LISTED_BEFORE.search(text, max(0, position - 60), position)) is not None:
        words.append(listed[1])
        position = listed.start()
    return all(_given_name(word) for word in words)


def _given_name(word: str) -> bool:
    return (
        word.isalpha()
        and word[0].isupper()
        and not word.isupper()
        and len(word) >= 3
        and word.casefold() in given_names()
        and word.casefold() not in WORD_GIVEN_NAMES
    )


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
    "prize award fund group tech line township precinct borough".split()
)


# A given name alone that no one read: weaker still.
LONE_GIVEN_NAME_CONFIDENCE = 0.6
_CAPITALISED = re.compile(rf"(?<![\w'’.-])[{CAPITAL}][^\W\d_]{{2,}}(?![\w-])")
_CAPITALISED_NEXT = re.compile(rf"[ ]+[{CAPITAL}]")
_WORD_BEFORE = re.compile(r"(?:^|(?<=\n)|([.!?:][ ]+))?(\w+)[ ]+\Z")


def lone_given_names(text: str) -> Iterator[tuple[int, int]]:
    """Each given name written alone in a sentence ("She said Isabelle had phoned",
    "signed by Helene yesterday", "Then Lara left") as `given_name_alone` judges it,
    not run into another capitalised word: "Victoria Road" and "Lake Victoria" are no
    one's, though a sentence's first word may precede it ("Apparently Theresa was")."""
    for m in _CAPITALISED.finditer(text):
        start, end = m.span()
        word = m[0].casefold()
        if (
            word in everyday_words()
            or word in STOP_WORDS
            or word in RANK_WORDS  # "Maj. Dana Ruiz"
            or _CAPITALISED_NEXT.match(text, end)
            or _after_a_capitalised_word(text, start)
        ):
            continue
        if given_name_alone(text, start, end, "location"):
            yield start, end


def _after_a_capitalised_word(text: str, start: int) -> bool:
    """Whether the word before `start` is capitalised, other than a sentence's first
    word that is an everyday one ("Then", "Apparently")."""
    before = _WORD_BEFORE.search(text, max(0, start - 40), start)
    if before is None or not before[2][0].isupper():
        return False
    opens = before.start(2) == 0 or text[before.start(2) - 1] == "\n" or before[1] is not None
    folded = before[2].casefold()
    everyday = folded in STOP_WORDS or folded in everyday_words() or folded.endswith("ly")
    return not (opens and everyday)


# A name with a middle initial ("Szabina J Gelencsér", "Vide A. Persson"), whatever its
# given name: not a document's part, a grade or a unit ("Exhibit A Smith", "Plan B
# Options", "Vitamin D Levels").
_INITIALLED = re.compile(
    rf"(?<![\w.-])({NAME_WORD})[ ][{CAPITAL}]\.?[ ]({NAME_WORD})(?![\w-])(?![ ]{NAME_WORD})"
)
_LABEL_WORDS = frozenset(
    "section appendix schedule exhibit annex attachment form part plan grade vitamin type "
    "class group phase level tier block unit building room floor lot table figure chart "
    "item category option zone area sector division team squad platoon company battalion "
    "title article chapter rule count tab box line question step stage model series "
    "version hepatitis plate gate terminal wing ward bay pier dock track route highway "
    "interstate channel tower hall camp site field parcel tract list note page".split()
)


def _initialled_names(text: str) -> Iterator[tuple[int, int]]:
    """Each name of three words with a middle initial, its first and last word no
    everyday or label word, no place's or firm's."""
    for m in _INITIALLED.finditer(text):
        first, last = bare_word(m[1]), bare_word(m[2])
        if (
            len(first) < 3
            or m[1].isupper()
            or len(last) < 2
            or any(
                w in everyday_words() or w in STOP_WORDS or w in _LABEL_WORDS or w in RANK_WORDS
                for w in (first, last)
            )
            or last in _PLACE_WORDS
            or is_street_type(last)
            or not plausible_name(m[0])
            or COMPANY_AFTER.match(text, m.end())
            or LEGAL_FORM_AFTER.match(text, m.end())
            or _after_a_capitalised_word(text, m.start())  # "World War I Veterans"
        ):
            continue
        yield m.start(), m.end()


def given_name_led(text: str) -> Iterator[tuple[int, int]]:
    """Each name that opens with a given name (no everyday word; "Will Power" is
    none) and goes on in capitalised words that are no place's or institution's; and
    each with a middle initial, whatever its given name."""
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
    yield from _initialled_names(text)
