"""Glyphs the output draws where the original drew none (Django-free).

Burn-in and sanitize take glyphs out; they never move one. MuPDF's content filter does,
now and then: it measures each glyph it removes in units of the font size in force, and
writes their advance as one "TJ" offset at the size of the text it shows next. A
footnote's marker set at 7 points inside a redacted name, the line going on at 12
points, moved the rest of the line 5.6 points right; and a row of "T"s growing from 20
to 30 points under a box (Aspose's Template.pdf) moved the text after them 29 points
left, under the box. The words were all there, so the release was shown as a reviewer
never saw it. The release gate counts such glyphs (`text_moved`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pymupdf

from review.pdf.geometry import quad
from review.pdf.word_geometry import Boxes

# How far from where the original drew a glyph its copy may lie: numbers written again
# by the filter are rounded.
PLACE_PT = 0.15


def moved_glyphs(original: pymupdf.Page, output: pymupdf.Page, boxes: Boxes) -> int:
    """How many glyphs (no spaces) `output` draws away from every box of `boxes` at an
    origin where `original` drew no glyph."""
    drawn = {_cell(char[2]) for span in original.get_texttrace() for char in span["chars"]}
    moved = 0
    for span in output.get_texttrace():
        for char in span["chars"]:
            if chr(char[0]).isspace() or _near(_cell(char[2]), drawn):
                continue
            if not boxes.touch(quad(char[3])):  # a box's reason stamp is no moved glyph
                moved += 1
    return moved


def _near(cell: tuple[int, int], drawn: set[tuple[int, int]]) -> bool:
    """Whether `cell` or one of its eight neighbours is in `drawn`: most glyphs stay in
    their own cell, so that is looked up first (looking up all nine for each glyph was
    a quarter of a release's time)."""
    if cell in drawn:
        return True
    i, j = cell
    return any((i + di, j + dj) in drawn for di in (-1, 0, 1) for dj in (-1, 0, 1))


def _cell(origin: tuple[float, float]) -> tuple[int, int]:
    return (round(origin[0] / PLACE_PT), round(origin[1] / PLACE_PT))


def shown_hidden_glyphs(
    original: pymupdf.Page,
    hidden: Iterable[tuple[str, tuple[float, float]]],
    output: pymupdf.Page,
    boxes: Boxes,
) -> int:
    """How many glyphs (character, origin) that `original` draws only `hidden` (each
    glyph the hidden-content analysis found) `output` draws again away from every box.
    Sanitize judges the output afresh: a glyph a rewrite uncovered is no longer hidden
    there (a stamp under the rest of a path a form left unpainted, which MuPDF filled
    with the page's next shape, was shown on release)."""
    hidden_at = Counter(_place(char, origin) for char, origin in hidden)
    if not hidden_at:
        return 0
    seen_at = Counter(
        _place(chr(char[0]), char[2]) for span in original.get_texttrace() for char in span["chars"]
    )
    seen_at.subtract(hidden_at)
    shown_at = Counter(
        place
        for span in output.get_texttrace()
        for char in span["chars"]
        if (place := _place(chr(char[0]), char[2])) in hidden_at and not boxes.touch(quad(char[3]))
    )
    return sum(max(0, count - max(0, seen_at[place])) for place, count in shown_at.items())


def _place(char: str, origin: tuple[float, float]) -> tuple[str, int, int]:
    return char, round(origin[0]), round(origin[1])
