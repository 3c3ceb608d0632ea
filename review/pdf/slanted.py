"""The glyphs of slanted lines (Django-free), as the burn-in and the release gate judge
them against the boxes: one by one, each where it lies, not by the upright box around
a word, which reaches far into corners its glyphs never touch. A diagonal watermark
over text that marks cover, a table's column heads set at 45 degrees."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf

from review.pdf.geometry import Quad, around, within

# A line is slanted when it runs at more than about 3 degrees from both page axes.
SLANT = 0.05


@dataclass(frozen=True)
class SlantedGlyph:
    box: Quad  # as extraction boxes it, upright
    quad: pymupdf.Quad  # where it lies
    char: str
    origin: tuple[float, float]
    line: int  # which slanted line of the page it is on


def slanted_glyphs(textpage: pymupdf.TextPage) -> list[SlantedGlyph]:
    """The glyphs of lines that run neither across nor down the page."""
    found = []
    lines = (
        line for block in textpage.extractRAWDICT()["blocks"] for line in block.get("lines", ())
    )
    for number, line in enumerate(lines):
        cos, sin = line["dir"]
        if min(abs(cos), abs(sin)) < SLANT:
            continue
        for span in line["spans"]:
            for char in span["chars"]:
                glyph = pymupdf.recover_char_quad(line["dir"], span, char)
                found.append(
                    SlantedGlyph(
                        tuple(char["bbox"]), glyph, char["c"], tuple(char["origin"]), number
                    )
                )
    return found


def own_glyphs(rect: Quad, slanted: Sequence[SlantedGlyph]) -> list[SlantedGlyph]:
    """The glyphs of the slanted word boxed `rect`: of the glyphs within its box, those
    of the line whose glyphs there make that box. Column heads set at 45 degrees lie
    one in the other's box: "Clinton/Timothy" passes through the corner of the box of
    "Rodham" above it, and a mark over "Kaine" below met "/T" there, not "Rodham" (an
    election report of Decatur County, Kansas, refused for a redacted word left)."""
    lines: dict[int, list[SlantedGlyph]] = {}
    for glyph in slanted:
        if within(glyph.box, rect):
            lines.setdefault(glyph.line, []).append(glyph)
    if not lines:
        return []

    def misfit(glyphs: list[SlantedGlyph]) -> float:
        box = around([glyph.box for glyph in glyphs])
        return sum(abs(a - b) for a, b in zip(box, rect, strict=True))

    return min(lines.values(), key=misfit)


def meets(glyph: pymupdf.Quad, box: Quad) -> bool:
    """The glyph, shrunk by a tenth of its width and height on each side (as MuPDF's
    redaction measures a glyph, see `sanitize._cuts_visible`), overlaps the box: no
    axis of either separates them."""
    across, down = (glyph.ur - glyph.ul) * 0.1, (glyph.ll - glyph.ul) * 0.1
    inner = [
        glyph.ul + across + down,
        glyph.ur - across + down,
        glyph.lr - across - down,
        glyph.ll + across - down,
    ]
    corners = [(point.x, point.y) for point in inner]
    box_corners = [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]
    edges = [(1.0, 0.0), (0.0, 1.0), (across.x, across.y), (down.x, down.y)]
    for dx, dy in edges:
        ours = [x * -dy + y * dx for x, y in corners]
        theirs = [x * -dy + y * dx for x, y in box_corners]
        if max(ours) <= min(theirs) or max(theirs) <= min(ours):
            return False
    return True
