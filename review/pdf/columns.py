"""Names in a table's column of names (Django-free).

A witness list, a contact log or a distribution list puts one person a row, the name in
a cell of its own. With no sentence around it the language model reads some of those
names and misses others ("Emily Brown  Investigator  (312) 555-0199"). A column is a
column of names when the model read one of its cells as a name exactly, or when its
heading says so ("Witness", "Contact" over a table of three columns or more); its other
cells, in rows of the same table, are names too where they read as one.

A line's cells (`line_cells`) serve `form_fields` too.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from review.pdf.name_words import NAME_WORD, NEXT_NAME_WORD, plausible_name
from review.pdf.pagetext import PageText
from review.pdf.patterns import PERSON, Hit, squash

# Weaker than the model's own reading, as a name above a phone number is.
NAME_COLUMN_CONFIDENCE = 0.7
# Cells of one column start within this many points of each other.
ALIGNED_PT = 2.0
# A gap between two words of a line wider than this share of their height parts two
# cells (a space is about a quarter of it; justified text stretches it to a half).
_CELL_GAP = 0.6
# Rows further apart than this many row heights belong to different tables.
_ROWS_APART = 3.0
_NAME_CELL = re.compile(rf"{NAME_WORD}(?: {NEXT_NAME_WORD}){{1,3}}")
# Headings of a column of people. A form's "Name" label has one value beside it; a
# table's heading row has at least this many cells.
_NAME_HEADINGS = frozenset(
    (
        "name", "names", "full name", "contact", "contact name", "person", "witness",
        "witnesses", "attendee", "attendees", "employee", "recipient", "requester",
        "applicant", "claimant", "complainant", "patient", "tenant", "interviewee",
        "participant",
    )
)  # fmt: skip
_HEADING_ROW_CELLS = 3


@dataclass
class Cell:
    start: int  # offsets of its text in the page text, trailing punctuation left out
    end: int
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def middle(self) -> float:
        return (self.y0 + self.y1) / 2


def column_names(page_text: PageText, hits: list[Hit]) -> list[Hit]:
    """Names in the first cell of table rows, in the column of a cell that a person
    hit reads exactly; none where no such cell is the first of a row."""
    text = page_text.text
    if "\n" not in text:
        return []
    people = {(h.start, h.end) for h in hits if h.category == PERSON}
    cells = line_cells(page_text)
    rows = _rows(cells)
    in_rows = [c for c in cells if len(rows[id(c)]) > 1]  # cells of a table's rows
    found: list[Hit] = []
    for column in _columns(in_rows):
        heading = column[0]
        if not (
            any((c.start, c.end) in people for c in column)
            or (
                text[heading.start : heading.end].casefold() in _NAME_HEADINGS
                and len(rows[id(heading)]) >= _HEADING_ROW_CELLS
            )
        ):
            continue
        for cell in column:
            value = text[cell.start : cell.end]
            if (
                _NAME_CELL.fullmatch(value)
                and plausible_name(value)
                and not any(h.start < cell.end and cell.start < h.end for h in hits)
            ):
                found.append(
                    Hit(
                        PERSON,
                        cell.start,
                        cell.end,
                        NAME_COLUMN_CONFIDENCE,
                        "cue.name_column",
                        squash(value),
                    )
                )
    return found


def line_cells(page_text: PageText) -> list[Cell]:
    """Runs of words of one line with no wide gap between them."""
    cells: list[Cell] = []
    previous: tuple | None = None
    for word, start in zip(page_text.words, page_text.starts, strict=True):
        end = start + len(word[4])
        if (
            previous is not None
            and (word[5], word[6]) == (previous[5], previous[6])
            and word[0] - previous[2] < _CELL_GAP * (word[3] - word[1])
        ):
            cell = cells[-1]
            cell.end = end
            cell.x1, cell.y0, cell.y1 = word[2], min(cell.y0, word[1]), max(cell.y1, word[3])
        else:
            cells.append(Cell(start, end, *word[:4]))
        previous = word
    for cell in cells:
        while cell.end > cell.start and page_text.text[cell.end - 1] in ",;:.":
            cell.end -= 1
    return cells


def _rows(cells: list[Cell]) -> dict[int, list[Cell]]:
    """By id() of each cell, the cells of its row: those its middle lies within."""
    by_top = sorted(cells, key=lambda c: c.y0)
    tops = [c.y0 for c in by_top]
    tallest = max((c.y1 - c.y0 for c in cells), default=0.0)
    rows = {}
    for cell in cells:
        first = bisect.bisect_left(tops, cell.middle - tallest)
        last = bisect.bisect_left(tops, cell.middle)
        rows[id(cell)] = [o for o in by_top[first:last] if cell.middle < o.y1]
    return rows


def _columns(cells: list[Cell]) -> list[list[Cell]]:
    """Cells starting at one x, split where rows lie too far apart to be one table."""
    aligned: list[list[Cell]] = []
    for cell in sorted(cells, key=lambda c: c.x0):
        if aligned and cell.x0 - aligned[-1][0].x0 <= ALIGNED_PT:
            aligned[-1].append(cell)
        else:
            aligned.append([cell])
    columns: list[list[Cell]] = []
    for group in aligned:
        group.sort(key=lambda c: c.y0)
        columns.append([group[0]])
        for above, cell in zip(group, group[1:], strict=False):
            if cell.y0 - above.y1 > _ROWS_APART * (above.y1 - above.y0):
                columns.append([])
            columns[-1].append(cell)
    return columns
