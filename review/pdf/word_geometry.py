"""Where a page's words lie against the approved boxes: the geometry of the release gate.

`verify.py` asks this module which words a box covers (`Boxes.covers`: across the line
the box holds the word's centre, along it they overlap by more than `TOLERANCE_PT`),
which it only touches, what burn-in cut short of a word a box reached into
(`cut_short`), which words hidden glyphs reach into (`PageWords.visible`), how many
visible words away from every box an output page lost (`missing`), and which glyphs of
a slanted line, or which part of a word joined across two lines, meet a box
(`Boxes.under`). Rectangles are plain (x0, y0, x1, y1) tuples in unrotated page space,
as PyMuPDF reports words.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import pymupdf

from review.pdf.geometry import (
    BoxGrid,
    Quad,
    area_of,
    around,
    centre,
    contains_point,
    intersects,
    within,
)
from review.pdf.slanted import SLANT, SlantedGlyph, meets, own_glyphs
from review.pdf.words import RawWord, words_of

# Words that only graze a box (a neighbour cut at the box edge) are not "under" it: along
# the line, the overlap must exceed this many points.
TOLERANCE_PT = 1.0
# How far past a word's box a point still lies in it (`PageWords.holding`).
_ON_EDGE = 0.05


@dataclass
class PageWords:
    words: list[tuple[Quad, str]]
    # Most lines run down the unrotated page (text drawn to be read on a rotated page):
    # "along the line" is then y.
    vertical: bool = False
    hidden: list[Quad] = field(default_factory=list)  # boxes of hidden glyphs, when known
    # Boxes of the words whose own line runs the other way: a map's title set up its
    # side (pdfminer's issue-1008 sample), a table's turned column heads.
    crosswise: set[Quad] = field(default_factory=set)
    # Boxes of the glyphs alone on their lines, whose way nothing tells (`ways`).
    lone: set[Quad] = field(default_factory=set)

    def runs_down(self, rect: Quad) -> bool:
        """Whether the line of the word boxed `rect` runs down the unrotated page."""
        return self.vertical != (rect in self.crosswise)

    def ways(self, rect: Quad) -> tuple[bool, ...]:
        """The ways the word boxed `rect` is judged under a box in: its line's, or both
        for a glyph alone on its line, which is under a box only if it is either way.
        The "E" that ends "TRUMP/VANC" on the next line of a column head, set across a
        sheet of figures that runs down the page (openelections' Summit County report),
        reaches 1.6 points into a box over that line; taken the figures' way, it was
        held along its line, and the release was refused."""
        return (False, True) if rect in self.lone else (self.runs_down(rect),)

    def holding(self, points: Iterable[tuple[float, float]]) -> list[Quad]:
        """The boxes of the words each of `points` (a glyph's origin) lies in, edges
        included: a hidden glyph's own box may lie past its word's as extracted (a font
        whose first glyph draws the whole word and the others nothing, in a financial
        disclosure's OCR: "fonn" lost its empty last "n" and seemed lost whole)."""
        rects = [rect for rect, _ in self.words]
        grid = BoxGrid.over(rects)
        e = _ON_EDGE
        return [
            rects[i]
            for x, y in points
            for i in grid.near((x - e, y - e, x + e, y + e))
            if contains_point(
                (rects[i][0] - e, rects[i][1] - e, rects[i][2] + e, rects[i][3] + e), (x, y)
            )
        ]

    def visible(self) -> Iterable[tuple[Quad, str]]:
        if not self.hidden:
            return self.words
        return self._not_hidden()

    def _not_hidden(self) -> Iterator[tuple[Quad, str]]:
        # Only hidden boxes that meet a word can cover it: a page of 8,000 words and
        # 16,000 hidden glyphs (pdfcpu's TextDemoColumnAnchoredWithOffset.pdf) took a
        # minute comparing every word with every glyph.
        grid = BoxGrid.over(self.hidden)
        for rect, text in self.words:
            near = [self.hidden[i] for i in grid.near(rect)]
            if not _partly_hidden(rect, near, self.runs_down(rect)):
                yield rect, text


def page_words(textpage: pymupdf.TextPage) -> PageWords:
    """The words a reader sees, wherever they lie (outside the crop box too): what a
    clipping path cut away is `unseen_content`'s business."""
    found = words_of(textpage)
    vertical = _runs_down(found)
    on_line = Counter((w[5], w[6]) for w in found)
    return PageWords(
        words=[(w[:4], w[4]) for w in found],
        vertical=vertical,
        crosswise=_crosswise(found, vertical, textpage),
        lone={w[:4] for w in found if len(w[4]) < 2 and on_line[w[5], w[6]] == 1},
    )


def _runs_down(words: Sequence[RawWord]) -> bool:
    """Most lines of several words run down the page: each later word of a line votes
    by the axis along which it lies from the line's first word."""
    first: dict[tuple[int, int], tuple[float, float]] = {}
    down = across = 0
    half = len(words) / 2  # more votes than the rest can outweigh: the count is settled
    for x0, y0, x1, y1, _, block, line, _ in words:
        start = first.get((block, line))
        if start is None:
            first[block, line] = (x0 + x1, y0 + y1)
        elif abs(y0 + y1 - start[1]) > abs(x0 + x1 - start[0]):
            down += 1
            if down > half:
                return True
        elif (x0 + x1, y0 + y1) != start:
            across += 1
            if across >= half:
                return False
    return down > across


def _crosswise(words: Sequence[RawWord], vertical: bool, textpage: pymupdf.TextPage) -> set[Quad]:
    """The boxes of words on lines that run across the page's own way: a line of several
    words by where its last word lies from its first, a word alone by its shape (a
    word of a few letters set down the page is taller than it is wide). Where a lone
    word's shape says it runs across the page's way, or says neither, MuPDF's direction
    of its line has the last word: "if:" in 10 points on a line 13.5 points high is
    taller than wide, and was measured as set down the page, under a box 2 points into
    its line's leading (the IRS's fd_ins_1116.pdf, refused at the gate); "Cast" in 8
    points, 16.5 wide and 11 high, on a page of column heads set down it, was taken for
    one of them, under a box over "Votes" 1.6 points into its line, and so was "JC" over
    "Mautz" (election reports of Kansas counties)."""
    lines: dict[tuple[int, int], list[RawWord]] = {}
    for word in words:
        lines.setdefault((word[5], word[6]), []).append(word)
    crosswise: set[Quad] = set()
    directions: _Lines | None = None
    for line in lines.values():
        x0, y0, x1, y1, text = line[0][:5]
        if len(line) > 1:
            last = line[-1]
            down = abs(last[1] + last[3] - y0 - y1) > abs(last[0] + last[2] - x0 - x1)
        elif len(text) < 2:
            continue  # one glyph: the page's way, as its neighbours' (pdf.js's issue6387.pdf)
        else:
            # Under three letters the shape tells nothing, and MuPDF's line says ("JC").
            tall = len(text) >= 3 and y1 - y0 > 1.5 * (x1 - x0)
            wide = len(text) >= 3 and x1 - x0 > 1.5 * (y1 - y0)
            down = tall if tall or wide else vertical
            if down != vertical or not (tall or wide):
                if directions is None:
                    directions = _lines_down(textpage)
                down = _runs_down_on_its_line(line[0][:4], directions, down)
        if down != vertical:
            crosswise.update(word[:4] for word in line)
    return crosswise


@dataclass(frozen=True)
class _Lines:
    """Each line's box, and whether it runs down the page in MuPDF's own reading of it
    (found by box: extractDICT numbers blocks its own way), by where the boxes lie: a
    table of figures is thousands of lone words, each looked up here."""

    boxes: list[Quad]
    down: list[bool]
    grid: BoxGrid


def _lines_down(textpage: pymupdf.TextPage) -> _Lines:
    lines = [line for block in textpage.extractDICT()["blocks"] for line in block.get("lines", ())]
    boxes = [(x0 - 1, y0 - 1, x1 + 1, y1 + 1) for x0, y0, x1, y1 in (ln["bbox"] for ln in lines)]
    down = [abs(line["dir"][1]) > abs(line["dir"][0]) for line in lines]
    return _Lines(boxes, down, BoxGrid.over(boxes))


def _runs_down_on_its_line(rect: Quad, lines: _Lines, guess: bool) -> bool:
    """As the tightest line around the word runs: a column of kana set down the page,
    each its own line, lies within a line of the same text set across (pdf.js's
    issue6387.pdf)."""
    around = [i for i in lines.grid.near(rect) if within(rect, lines.boxes[i])]
    if not around:
        return guess
    return lines.down[min(around, key=lambda i: area_of(lines.boxes[i]))]


def missing(before: PageWords, after: PageWords, boxes: Boxes) -> int:
    kept = [
        (rect, _without_marks(text)) for rect, text in before.visible() if not boxes.touch(rect)
    ]
    present = [(rect, _without_marks(text)) for rect, text in after.words]
    lost = Counter(text for _, text in kept) - Counter(text for _, text in present)
    if not lost:
        return 0
    # A word now read as part of its neighbour is still there: two runs of text that
    # what a box took stood between are extracted as one word where they nearly touch
    # ("”" and "or" around Arabic words, read "”or"; PyMuPDF's test-E+A.pdf); so is one
    # read across two, its glyphs where they were (a rewritten line of dots read
    # "somewhere..." and ")." where it read "somewhere.", "." and ".).", a LaTeX manual in
    # vanillapdf's test data). Of the words missing by count, only those that the output
    # words where they were, read along their line, do not spell are lost.
    gone = Counter(
        text
        for rect, text in kept
        if lost[text] > 0 and not any(text in line for line in _read_along(present, rect))
    )
    return sum(min(count, gone[text]) for text, count in lost.items())


def appeared(before: PageWords, after: PageWords, boxes: Boxes) -> int:
    """How many words the output page shows away from every box that the original page
    did not show where they are: text no reviewer saw. A word the output reads from
    pieces of the original's words where it lies is no new text: what burn-in left of a
    word ("(chang" of "(changes"), or two runs now read as one ("”" and "or")."""
    shown = [(rect, _without_marks(text)) for rect, text in after.words if not boxes.touch(rect)]
    known = [(rect, _without_marks(text)) for rect, text in before.words]
    new = Counter(text for _, text in shown) - Counter(text for _, text in known)
    if not new:
        return 0
    grid = BoxGrid.over([rect for rect, _ in known])
    unexplained = Counter(
        text
        for rect, text in shown
        if new[text] > 0 and not _pieced(text, [known[i] for i in grid.near(rect)], rect)
    )
    return sum(min(count, unexplained[text]) for text, count in new.items())


def _pieced(text: str, near: Sequence[tuple[Quad, str]], rect: Quad) -> bool:
    """Whether `text` is made of the letters of the words of `near` that meet `rect`, in
    their order along the line, some left out: glyphs a box or sanitize took from between
    them ("tÞ~" of "tð" and "Þ~" once a hidden "ð" went, PyMuPDF's test_3780.pdf). A
    line may run across the page or down it, either way (letters set one by one along a
    curve, right to left: "Th" of "h" and "T", PoC||GTFO 3:4)."""
    for line in _read_along(near, rect):
        letters = iter(line)
        if all(char in letters for char in text):  # a subsequence: `in` consumes
            return True
    return False


def _read_along(words: Sequence[tuple[Quad, str]], rect: Quad) -> Iterator[str]:
    """The words that meet `rect`, joined in their order along a line across the page
    and down it, each way."""
    meeting = [(where, word) for where, word in words if intersects(where, rect)]
    for axis in (0, 1):
        ordered = sorted(meeting, key=lambda pair: pair[0][axis])
        for line in (ordered, ordered[::-1]):
            yield "".join(word for _, word in line)


def _without_marks(text: str) -> str:
    """The word without combining marks and format characters. A mark has no width of
    its own, so extraction joins it to whatever glyph precedes it in the content:
    pdflatex draws "x" with a zero-width slash (U+0338) before "=" for "not equal"; with
    "x" under a box and the slash beside it, the slash joins the last word before the box
    ("je" comes out as "je" and the slash, GeoTopo in py-pdf's sample files), and that
    word is no more lost than the slash is. A zero-width space (U+200B) shows nothing
    and sanitize removes it as hidden content of no size: "Age:" is the "Age:\u200b" it
    was (a résumé in PyMuPDF-Utilities, refused as collateral damage)."""
    if text.isascii():
        return text
    return "".join(
        char
        for char in text
        if not unicodedata.combining(char) and unicodedata.category(char) != "Cf"
    )


def _axes(rect: Quad, vertical: bool) -> Quad:
    """`rect` as (start, end) along its line, then (start, end) across it."""
    if vertical:
        return rect[1], rect[3], rect[0], rect[2]
    return rect[0], rect[2], rect[1], rect[3]


class Boxes:
    """The approved boxes of one page. Plain loops with the cheapest test first: these
    run once or twice for every word of the document."""

    def __init__(self, quads: list[Quad]) -> None:
        self.quads = quads
        # Each box as `_axes` gives it, for lines along x and for lines along y.
        self._by_axes = ([_axes(q, False) for q in quads], [_axes(q, True) for q in quads])

    def covers(self, rect: Quad, vertical: bool) -> bool:
        """The word is under some box: across its line the box holds the word's centre
        (line boxes include the leading, so on tight lines a neighbour's reaches into the
        box), and along it they overlap by more than the tolerance, or for large type by
        more than a twentieth of the line's height: burn-in keeps a glyph whose box, a
        tenth of its width in from each side, misses the box, and a margin letter "J"
        70 points tall reached 2.9 points into a box by its advance, its ink clear (the
        IRS's 1040-EZ instructions, refused)."""
        if not self.quads:
            return False
        start, end, top, bottom = _axes(rect, vertical)
        centre = (top + bottom) / 2
        tolerance = max(TOLERANCE_PT, (bottom - top) / 20)
        for box_start, box_end, box_top, box_bottom in self._by_axes[vertical]:
            if box_top <= centre <= box_bottom and (
                min(end, box_end) - max(start, box_start) > tolerance
            ):
                return True
        return False

    def under(
        self,
        rect: Quad,
        vertical: bool,
        slanted: Sequence[SlantedGlyph],
        runs: Sequence[Quad],
    ) -> bool:
        """`covers`, and for a word of slanted glyphs (`slanted_glyphs`) one of the
        glyphs itself meets a box as burn-in measures it: the word's box is the box
        around them, and reaches far into corners they never touch. A word extraction
        joined from glyphs of two lines (`glyph_runs`) is under a box only where the
        part on one of them is: once a box took "Hom." from "ist Hom.", the "=" of a
        displayed formula just below runs on "ist" into "ist=", whose box reaches into
        the mark that neither part does (a LaTeX script, py-pdf's GeoTopo sample)."""
        if not self.covers(rect, vertical):
            return False
        glyphs = own_glyphs(rect, slanted)
        if glyphs:
            return any(meets(glyph.quad, box) for glyph in glyphs for box in self.quads)
        parts = _lines_of(rect, vertical, runs)
        return len(parts) < 2 or any(self.covers(part, vertical) for part in parts)

    def touch(self, rect: Quad) -> bool:
        """`rect` comes within the tolerance of some box: not a collateral witness."""
        for box in self.quads:
            if (
                rect[1] < box[3] + TOLERANCE_PT
                and rect[3] > box[1] - TOLERANCE_PT
                and rect[0] < box[2] + TOLERANCE_PT
                and rect[2] > box[0] - TOLERANCE_PT
            ):
                return True
        return False


def glyph_runs(textpage: pymupdf.TextPage) -> list[Quad]:
    """The box of each run of glyphs between spaces within one span, on lines along a
    page axis: each lies within one word, at one size on one baseline."""
    runs = []
    for block in textpage.extractRAWDICT()["blocks"]:
        for line in block.get("lines", ()):
            if min(abs(d) for d in line["dir"]) >= SLANT:
                continue
            for span in line["spans"]:
                run: list[Quad] = []
                for char in [*span["chars"], None]:
                    if char is not None and not char["c"].isspace():
                        run.append(char["bbox"])
                    elif run:
                        runs.append(around(run))
                        run = []
    return runs


def inner_words(rect: Quad, words: Sequence[Quad]) -> list[Quad]:
    """The `words` within the word boxed `rect`, give or take float noise: a subscript
    extraction joins with the text after it holds the operator above the subscript
    ("max" over "t=0,...,k+1", science-parse's smith07.pdf)."""
    reach = _grown(rect, TOLERANCE_PT / 100)
    return [word for word in words if word != rect and within(word, reach)]


def own_runs(inner: Sequence[Quad], runs: Sequence[Quad]) -> list[Quad]:
    """`runs` but those of the `inner` words: their glyphs, not the holding word's."""
    return [run for run in runs if not any(within(run, word) for word in inner)]


def _lines_of(rect: Quad, vertical: bool, runs: Sequence[Quad]) -> list[Quad]:
    """The word boxed `rect`, one box for each extent across the line its runs have."""
    parts: dict[tuple[float, float], list[Quad]] = {}
    for run in runs:
        if contains_point(rect, centre(run)):
            _, _, top, bottom = _axes(run, vertical)
            parts.setdefault((round(top, 1), round(bottom, 1)), []).append(run)
    return [around(part) for part in parts.values()]


def cut_short(after: PageWords, before: PageWords, boxes: Boxes) -> set[tuple[Quad, str]]:
    """The output words that are what burn-in left of an original word a box reached
    into: MuPDF removes every glyph a box touches, so "(changes" beside a box can come out
    as "(chang", and "VETERAN/CLAIMANT" half under one as "VETERAN/". Neither is an
    occurrence of a redacted "Chang" or "Veteran": the reviewer saw both on the preview.
    What is left under a box is `text_under_box`'s business."""
    reached = [(rect, word) for rect, word in before.words if boxes.touch(rect)]
    return left_of(after.words if reached else (), reached)


def left_of(
    words: Iterable[tuple[Quad, str]], originals: Sequence[tuple[Quad, str]]
) -> set[tuple[Quad, str]]:
    """The `words` that are part of one of the `originals` where it was: what was left
    of it once some of its glyphs went."""
    return {
        (rect, text)
        for rect, text in words
        if any(
            text != word and text in word and within(rect, _grown(original, TOLERANCE_PT))
            for original, word in originals
        )
    }


def _grown(rect: Quad, by: float) -> Quad:
    return (rect[0] - by, rect[1] - by, rect[2] + by, rect[3] + by)


def _partly_hidden(rect: Quad, hidden: Sequence[Quad], vertical: bool) -> bool:
    """Hidden glyphs on the word's line cover more than a point of it (or half of a
    word shorter than two): sanitize cuts them, so the word may come out shorter (one
    the page edge cuts through loses its letters outside the crop box: PyMuPDF's
    manual, a code listing running off the page). Measured along the line, not by
    area: an OCR layer's span boxes can be shorter or taller than the words extracted
    from it. A box is on the line when one holds the other's centre."""
    start, end, top, bottom = _axes(rect, vertical)
    centre = (top + bottom) / 2
    pieces = []
    for box in hidden:
        box_start, box_end, box_top, box_bottom = _axes(box, vertical)
        if box_start >= end or box_end <= start:
            continue
        if top <= (box_top + box_bottom) / 2 <= bottom or box_top <= centre <= box_bottom:
            pieces.append((max(start, box_start), min(end, box_end)))
    covered, reached = 0.0, start
    for piece_start, piece_end in sorted(pieces):  # their union: spans and glyphs overlap
        if piece_end > reached:
            covered += piece_end - max(piece_start, reached)
            reached = piece_end
    return covered > 0 and covered >= min(TOLERANCE_PT, 0.5 * (end - start))
