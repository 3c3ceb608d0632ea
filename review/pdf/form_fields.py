"""Values a form sets apart from their labels (Django-free).

A form set in boxes puts each label above its value, or under the line the value is
written on, with no colon to tie them on one line: a W-2's "Last name" over "Hodges", a
consent form's "04/14/1995" over "Date of Birth". The model, reading the surname alone,
found no one there, and a date is a date of birth only after its cue. The cell just
under a label for a name or a part of one is a name where it reads as one; the cell
under or over a label for a date of birth is one where it is a real date.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from review.pdf.columns import ALIGNED_PT, Cell, line_cells
from review.pdf.given_names import everyday_words
from review.pdf.identifiers import DOB, names_a_birth_date, real_date
from review.pdf.name_words import (
    INITIAL,
    NAME_WORD,
    NEXT_NAME_WORD,
    NOT_PERSON_QUALIFIERS,
    PERSON_QUALIFIERS,
    plausible_name,
)
from review.pdf.pagetext import PageText
from review.pdf.patterns import PERSON, Hit, squash

# Weaker than a cue on the value's own line, as a name in a column of names is.
LABELLED_CONFIDENCE = 0.7
# A form's label for a name or a part of one ("e Employee's first name and initial",
# "RECIPIENT'S name", "Surname"); longer than this many words, it is a sentence.
_NAME_LABEL = re.compile(
    r"(?i:(?<![\w'’-])(?:(?:last|first|given|family|middle|maiden|full|legal)[ ])?names?"
    r"|surnames?|forenames?)(?![\w'’-])"
)
_LABEL_WORDS = 8
_NAME_OF = re.compile(r"[ ]of[ ]")
_NAME_OF_PERSON = re.compile(rf"[ ]of[ ](?:the[ ])?(?i:{PERSON_QUALIFIERS})(?![\w])")
# A value is set at least this share of its label's height.
_VALUE_HEIGHT = 0.8
# The value lies within this many label heights under (or over) its label.
_VALUE_APART = 2.5
_NAME_VALUE = re.compile(rf"{NAME_WORD}(?:[ ](?:{INITIAL}|{NEXT_NAME_WORD})){{0,3}}")


def labelled_values(page_text: PageText, hits: list[Hit], floors: Mapping[str, float]) -> list[Hit]:
    """Names (PERSON) and dates of birth (DOB) set apart from their form's label, where
    no hit has them, of the categories whose `floors` (the policy's least confidence by
    category) admit them."""
    wanted = {c for c in (PERSON, DOB) if floors.get(c, 2.0) <= LABELLED_CONFIDENCE}
    if not wanted:
        return []
    text = page_text.text
    cells = line_cells(page_text)
    found: list[Hit] = []
    for label in cells:
        words = text[label.start : label.end]
        if len(words.split()) > _LABEL_WORDS:
            continue  # a sentence, no label
        for category, value_cell in _values_of(label, words, cells, text, wanted):
            value = text[value_cell.start : value_cell.end]
            if not any(
                h.start < value_cell.end and value_cell.start < h.end for h in (*hits, *found)
            ):
                reason = "cue.labelled_name" if category == PERSON else "cue.labelled_dob"
                found.append(
                    Hit(
                        category,
                        value_cell.start,
                        value_cell.end,
                        LABELLED_CONFIDENCE,
                        reason,
                        squash(value),
                    )
                )
    return found


def _values_of(
    label: Cell, words: str, cells: list[Cell], text: str, wanted: set[str]
) -> Iterator[tuple[str, Cell]]:
    if PERSON in wanted and (value := _value_under(label, cells, text)) is not None:
        name = text[value.start : value.end]
        if (
            _NAME_VALUE.fullmatch(name)
            and plausible_name(name.title() if name.isupper() else name)
            and not set(name.casefold().split()) <= everyday_words()  # "This", "Country"
        ):
            yield PERSON, value
    if DOB in wanted and names_a_birth_date(words):
        for value in (_cell_under(label, cells), _cell_over(label, cells)):
            if value is not None and real_date(text[value.start : value.end]):
                yield DOB, value


def _value_under(label: Cell, cells: list[Cell], text: str) -> Cell | None:
    """The cell under `label` where `label` is a form's label for a person's name and
    its value is set under it, not beside it."""
    words = text[label.start : label.end]
    m = _NAME_LABEL.search(words)
    if m is None:
        return None
    whose = words[: m.start()].split()[-1:]
    if whose and re.sub(r"['’]s$", "", whose[0]).casefold() in NOT_PERSON_QUALIFIERS:
        return None  # "Employer's name", "File name"
    if _NAME_OF.match(words, m.end()) and not _NAME_OF_PERSON.match(words, m.end()):
        return None  # "Name of exchange on which registered"
    value = _cell_under(label, cells)
    if value is None:
        return None
    if value.y1 - value.y0 < _VALUE_HEIGHT * (label.y1 - label.y0):
        return None  # smaller than its label: the next label ("PCBA name" over "DRAWING NO")
    beside_label, beside_value = _next_in_row(label, cells), _next_in_row(value, cells)
    if (
        beside_label is not None
        and beside_value is not None
        and abs(beside_label.x0 - beside_value.x0) <= ALIGNED_PT
    ):
        return None  # rows of labels, each with its value beside it ("Name", "Id", "Age")
    return value


def _cell_under(label: Cell, cells: list[Cell]) -> Cell | None:
    """The first cell under `label`, across its width, within `_VALUE_APART`."""
    reach = label.y1 + _VALUE_APART * (label.y1 - label.y0)
    under = [c for c in cells if label.middle < c.y0 <= reach and _across(label, c)]
    return min(under, key=lambda c: c.y0, default=None)


def _cell_over(label: Cell, cells: list[Cell]) -> Cell | None:
    """The last cell over `label`, across its width, within `_VALUE_APART`: a form that
    sets its labels under the line the value is written on."""
    reach = label.y0 - _VALUE_APART * (label.y1 - label.y0)
    over = [c for c in cells if reach <= c.y1 < label.middle and _across(label, c)]
    return max(over, key=lambda c: c.y1, default=None)


def _across(label: Cell, cell: Cell) -> bool:
    return cell.x0 < label.x1 and label.x0 < cell.x1


def _next_in_row(cell: Cell, cells: list[Cell]) -> Cell | None:
    beside = [c for c in cells if c.x0 > cell.x1 and c.y0 < cell.middle < c.y1]
    return min(beside, key=lambda c: c.x0, default=None)
