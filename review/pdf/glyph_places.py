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
            x, y = char[2]
            if chr(char[0]).isspace() or any((i, j) in drawn for i, j in _cells_around(x, y)):
                continue
            if not boxes.touch(quad(char[3])):  # a box's reason stamp is no moved glyph
                moved += 1
    return moved


def _cell(origin: tuple[float, float]) -> tuple[int, int]:
    return (round(origin[0] / PLACE_PT), round(origin[1] / PLACE_PT))


def _cells_around(x: float, y: float) -> list[tuple[int, int]]:
    i, j = _cell((x, y))
    return [(i + di, j + dj) for di in (-1, 0, 1) for dj in (-1, 0, 1)]
