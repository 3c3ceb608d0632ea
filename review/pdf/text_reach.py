"""Which part of a redaction box takes text (Django-free): MuPDF's redaction takes
every glyph a box touches, whole, and line boxes include the leading, so a box over one
line of a tightly set page would take words of the lines above and below. `text_rect`
narrows a box off the words it only grazes; `redact` redacts the text with it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pymupdf

from review.pdf.geometry import BoxGrid, Quad, intersects
from review.pdf.slanted import SLANT
from review.pdf.word_geometry import TOLERANCE_PT
from review.pdf.words import words_of

# Points between a narrowed box and the line it spares: MuPDF counts a touch as a hit.
_CLEAR = 0.05
# Points either side of the middle of a line a box holds that its text box keeps.
_HELD = 1.0
# Points a line's box may miss a word of it by (float noise).
_ROUNDING = 0.01
# Points around a word within which the lines that may hold it are looked for.
_SLACK = 2 * _ROUNDING
# A word of text: its box (x0, y0, x1, y1), and whether its line runs along x (else
# along y). Words of slanted lines are left out: a box is never narrowed off them.
Word = tuple[Quad, bool]


def text_words(page: pymupdf.Page) -> tuple[list[Word], bool]:
    """The page's words, with their line's direction, which `extractWORDS` does not
    give, and whether some line is slanted: where every line runs along x (most pages),
    all of them do; else each word takes the direction of the smallest line that holds
    it whole, or of one that holds its centre (a diagonal stamp's word has its centre
    on a line of the text it is stamped over)."""
    textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
    lines: list[tuple[Quad, tuple[float, float]]] = [
        (tuple(line["bbox"]), line["dir"])
        for block in textpage.extractDICT()["blocks"]
        for line in block.get("lines", ())
    ]
    across = all(abs(sin) < 0.01 for _, (_, sin) in lines)
    slanted = not across and any(min(abs(cos), abs(sin)) >= SLANT for _, (cos, sin) in lines)
    # Only the lines near a word are looked at: a page of rotated tables, thousands of
    # words and lines, took minutes (PdfPig's fseprd1102849.pdf).
    grid = None if across else BoxGrid.over([box for box, _ in lines])
    words: list[Word] = []
    for x0, y0, x1, y1, *_ in words_of(textpage):
        if not (x0 < x1 and y0 < y1):
            continue
        if grid is None:  # every line runs along x
            words.append(((x0, y0, x1, y1), True))
            continue
        near = [lines[i] for i in grid.near((x0 - _SLACK, y0 - _SLACK, x1 + _SLACK, y1 + _SLACK))]
        holding = [(_area(box), way) for box, way in near if _holds(box, (x0, y0, x1, y1))]
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        cos, sin = (
            min(holding)[1]
            if holding
            else next(
                (way for (a, b, c, d), way in near if a <= cx < c and b <= cy < d), (1.0, 0.0)
            )
        )
        if abs(sin) < 0.01 or abs(cos) < 0.01:
            words.append(((x0, y0, x1, y1), abs(sin) < 0.01))
    return words, slanted


def _along(box: Quad, bounds: Quad, axis: int) -> float:
    """How far `box` and `bounds` overlap along `axis` (0: x, 1: y)."""
    return min(box[axis + 2], bounds[axis + 2]) - max(box[axis], bounds[axis])


def _area(box: Quad) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _holds(box: Quad, word: Quad) -> bool:
    """The line's box, give or take `_ROUNDING`, holds the word's."""
    return (
        box[0] - _ROUNDING <= word[0]
        and word[2] <= box[2] + _ROUNDING
        and box[1] - _ROUNDING <= word[1]
        and word[3] <= box[3] + _ROUNDING
    )


def text_rect(rect: pymupdf.Rect, words: Sequence[Word]) -> tuple[pymupdf.Rect, list[Quad]]:
    """The part of a box whose text the burn-in takes, and the boxes of the words the
    box holds.

    MuPDF takes every glyph a box touches, whole. Line boxes include the leading, so a
    box over one line of a tightly set page reaches a point or two into the lines above
    and below, and would take their words too. A word is under a box when the box holds
    its middle across the line and overlaps it along the line by more than a tolerance,
    as the release gate judges it (`Boxes.covers`): the box is narrowed off each word it
    only grazes, never past the middle of a word it holds (then the grazed word goes
    too, as before). Glyphs no word accounts for go wherever the narrowed box touches
    them.

    Words, not lines: a formula with a fraction or subscripts makes its line twice as
    tall as the words beside it, and the line's middle falls outside a box that holds
    theirs (pdflatex's "die Ebene H", GeoTopo in py-pdf's sample files).

    Narrowed off a word of one direction, the box may spare glyphs of a word of the
    other that it holds: `glyph_cut.drop_covered_glyphs` takes those."""
    if rect.is_empty:
        return rect, []
    edges = [rect.x0, rect.y0, rect.x1, rect.y1]
    bounds = (rect.x0, rect.y0, rect.x1, rect.y1)
    held: list[tuple[int, float]] = []
    held_words: list[Quad] = []
    for box, along_x in words:
        if not intersects(box, bounds):
            continue
        axis = 1 if along_x else 0  # across the line: y for a line along x
        low, high = box[axis], box[axis + 2]
        middle = (low + high) / 2
        if bounds[axis] <= middle <= bounds[axis + 2]:
            if _along(box, bounds, 1 - axis) > max(TOLERANCE_PT, (high - low) / 20):
                held.append((axis, middle))
                held_words.append(box)
            # Else the box only touches its side, a word it does not hold either: a
            # drop cap three lines tall that a box over the word after it met by
            # 0.0003 pt held the box down to the cap's middle, into the next line, whose
            # words went (tabula-java's labor.pdf).
        elif middle < rect[axis]:
            edges[axis] = max(edges[axis], high + _CLEAR)
        else:
            edges[axis + 2] = min(edges[axis + 2], low - _CLEAR)
    for axis, middle in held:
        # A band through the middle at least: narrowed off tall words on both sides (a
        # heading set between two lines whose boxes reach over it), the box kept no
        # height and took none of the heading's glyphs (PyMuPDF's test_2979.pdf).
        edges[axis] = min(edges[axis], max(bounds[axis], middle - _HELD))
        edges[axis + 2] = max(edges[axis + 2], min(bounds[axis + 2], middle + _HELD))
    return pymupdf.Rect(*edges), held_words
