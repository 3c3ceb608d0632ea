"""Lines written in capitals or all in lower case, re-cased for the language model
(Django-free).

Police narratives, court captions and file headers are often all in capitals, where
the small English pipeline reads no one ("SUSPECT IDENTIFIED AS DWAYNE LOCKHART":
nothing; "OFC MARTINEZ": an organisation). The model is handed each such line as a
writer would have cased it: its words in lower case (codes such as "AB123" as they
are), the first word of a sentence capitalised, and the words that name people: a
given name (no everyday word), the word after a given name, a title, a rank or an
initial, and a surname before its given name ("LOCKHART, DWAYNE"). The text keeps its
length, so what the model reads maps back onto the text as written; the project's own
detectors read the text as written.

Chat logs, texts and hurried e-mails are often written without capitals ("follow up with
patricia desrosiers", "my name is borna"), where the model reads no one either. A line
with no capital letter whose writer plainly skips them (it opens a sentence in lower
case, has one inside it, or writes the pronoun "i") gets the same treatment; a wrapped
line of ordinary prose has none of these marks and is left as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from spacy.lang.en.stop_words import STOP_WORDS

from review.pdf.given_names import WORD_GIVEN_NAMES, everyday_words, given_names
from review.pdf.name_words import OFFICER_RANK_WORDS, TITLE_WORDS

# A line is in capitals when this share of its letters is (a caption's "and" aside) and
# it has two words of three letters or more in capitals.
_CAPITALS_SHARE = 0.8
# Words of letters only: "GB90ZDKR4344" and "AB123" are codes, which stay as written.
_WORD = re.compile(r"(?<!\w)[^\W\d_]+(?:['’-][^\W\d_]+)*(?!\w)")
_SENTENCE_END = re.compile(r"(?:\A|[.!?:])\s*\Z")
# The pronoun "i" ("i'm"; not the numeral of "(i)"), and a line that skips capitals: it
# has the pronoun or a sentence opened in lower case.
_PRONOUN = re.compile(r"(?<![\w'’(])i(?=['’](?:m|ve|d|ll)\b|[ ,]|\Z)")
_SKIPS_CAPITALS = re.compile(rf"[.!?]\s+[^\W\d_]|{_PRONOUN.pattern}")
# Given names this short name someone only before a surname ("ANA LOPEZ"): alone they are
# as often a word or an abbreviation; some always are ("WHITE VAN PARKED").
_SHORT_GIVEN_NAME = 3
_SHORT_WORDS = frozenset(
    "van von del el lo ion jet mad odd owe paw rim rut sad tan tea toy uni vid sys dwi nil "
    "lan ira isa sep mar pol gal fem ver vi om ib ibn".split()
)


def for_model(text: str) -> str:
    """`text` with each line in capitals or in lower case re-cased; the same length,
    other lines as written. A name may wrap from one such line onto the next."""
    out = list(text)
    recased: set[int] = set()  # positions on lines in capitals or in lower case
    in_capitals: set[int] = set()  # positions on lines in capitals
    opening: set[int] = set()  # lines in capitals under one that is not: a new field
    position, above, previous = 0, False, ""
    for line in text.split("\n"):
        if _in_lower_case(line, previous):
            recased.update(range(position, position + len(line)))
            for pronoun in _PRONOUN.finditer(line):
                out[position + pronoun.start()] = "I"
        elif _in_capitals(line):
            recased.update(range(position, position + len(line)))
            in_capitals.update(range(position, position + len(line)))
            for word in _WORD.finditer(line):
                if word[0] != "I":  # the pronoun is written so
                    out[position + word.start() : position + word.end()] = _lower(word[0])
            if not above:
                opening.add(position)
        above = position in recased
        position += len(line) + 1
        previous = line
    if not recased:
        return text  # the same object: nothing to re-read
    words = [m for m in _WORD.finditer(text) if m.start() in recased]
    for i, m in enumerate(words):
        if m.start() in in_capitals and m[0].islower():
            continue  # written in lower case among capitals: "MORTIMER v. BACA", "de"
        line_opens = text.rfind("\n", 0, m.start()) + 1
        first = line_opens in opening and not text[line_opens : m.start()].strip()
        if first or any(_capitalised(words, i, text)):
            out[m.start() : m.end()] = _name_case(m[0])
    return "".join(out)


def as_written(text: str) -> Iterator[str]:
    """The lines of `text` that `for_model` leaves as written: neither in capitals nor
    in lower case, where a word's case says what it is."""
    previous = ""
    for line in text.split("\n"):
        if not (_in_lower_case(line, previous) or _in_capitals(line)):
            yield line
        previous = line


def _in_capitals(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    upper = sum(c.isupper() for c in letters)
    words = sum(1 for m in _WORD.finditer(line) if len(m[0]) >= 3 and m[0].isupper())
    return words >= 2 and upper >= _CAPITALS_SHARE * len(letters)


def _in_lower_case(line: str, previous: str) -> bool:
    """A line of two words or more without a capital, whose writer skips capitals: it
    opens a sentence in lower case (`previous` ends one, or there is none), or has one
    opened in lower case inside it, or the pronoun "i"."""
    if any(c.isupper() for c in line) or sum(1 for m in _WORD.finditer(line)) < 2:
        return False
    opens = line[:1].isalpha() and _SENTENCE_END.search(previous) is not None
    return opens or _SKIPS_CAPITALS.search(line) is not None


def _lower(word: str) -> str:
    # Character by character, so the length stays ("İ" lowers to two characters).
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in word)


def _name_case(word: str) -> str:
    """A name's word as written in a sentence: its first letter, and each after an
    apostrophe or a hyphen, in capitals, the others in lower case ("O'Neill",
    "Smith-Jones")."""
    return "".join(
        _upper(c) if i == 0 or word[i - 1] in "'’-" else _lower(c) for i, c in enumerate(word)
    )


def _upper(letter: str) -> str:
    # So the length stays ("ß" uppers to two characters).
    return letter.upper() if len(letter.upper()) == 1 else letter


def given_name(word: str) -> bool:
    folded = word.casefold()
    return (
        folded in given_names()
        and folded not in WORD_GIVEN_NAMES
        and folded not in STOP_WORDS
        and folded not in everyday_words()
        and folded not in _SHORT_WORDS
    )


def _surname(word: str) -> bool:
    return word.casefold() not in STOP_WORDS and len(word) >= 2


def _title(word: str) -> bool:
    folded = word.casefold()
    return (folded in TITLE_WORDS or folded in OFFICER_RANK_WORDS) and folded not in STOP_WORDS


def _initial(word: re.Match[str], text: str) -> bool:
    return len(word[0]) == 1 and text[word.end() : word.end() + 1] == "."


def _capitalised(words: list[re.Match[str]], i: int, text: str) -> Iterator[bool]:
    """Whether the `i`th of the `words` (those on lines in capitals) opens a sentence
    or is part of a name, as the module's doc tells."""
    word, before = words[i], words[i - 1] if i else None
    yield _SENTENCE_END.search(text, max(0, word.start() - 40), word.start()) is not None
    if given_name(word[0]):
        yield len(word[0]) > _SHORT_GIVEN_NAME or _before_surname(words, i, text)
    yield (_title(word[0]) or _initial(word, text)) and _before_surname(words, i, text)
    if before is not None and _adjacent(before, word, text) and _surname(word[0]):
        yield given_name(before[0]) or _title(before[0]) or _initial(before, text)
    yield given_name(_next(words, i)) and text[word.end() : word.end() + 2] == ", "
    if before is not None and text[before.end() : before.end() + 2] == ", ":
        yield given_name(word[0]) and _surname(before[0])


def _next(words: list[re.Match[str]], i: int) -> str:
    return words[i + 1][0] if i + 1 < len(words) else ""


def _adjacent(before: re.Match[str], word: re.Match[str], text: str) -> bool:
    return text[before.end() : word.start()] in (" ", "\n", ". ", ".\n")


def _before_surname(words: list[re.Match[str]], i: int, text: str) -> bool:
    return (
        i + 1 < len(words) and _adjacent(words[i], words[i + 1], text) and _surname(words[i + 1][0])
    )
