"""Text only added to the clip (Django-free). Render mode 7 paints nothing: a word set in
it shows only where something painted later falls through its glyphs (a picture cut to
the shape of a title). MuPDF's trace, which the hidden-content analysis reads glyph by
glyph, leaves such text out, and extraction reads it: a name set in mode 7 with nothing
painted through it was released as text no reader saw. Its glyphs are found as
extraction has them and the trace does not, and judged by the page's pixels.
"""

from __future__ import annotations

from collections.abc import Iterator

import pymupdf

from review.pdf.geometry import Quad, area_of, flat_along, quad
from review.pdf.painters import Painters

_PLACES = 1  # origins are matched to the tenth of a point


def clip_only_glyphs(
    page: pymupdf.Page, trace: list[dict], painters: Painters
) -> Iterator[tuple[str, Quad, tuple[float, float]]]:
    """The character, box and origin of each glyph extraction reads and the trace does
    not, where the page drawn without its text looks the same."""
    traced = {(char[0], *_key(char[2])) for span in trace for char in span["chars"]}
    flags = pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES
    for block in page.get_text("rawdict", flags=flags)["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                clip_only = False  # the verdict on the glyph before, in this span
                for char in span["chars"]:
                    text, origin, rect = char["c"], tuple(char["origin"]), quad(char["bbox"])
                    if area_of(rect) == 0 or flat_along(rect, line["dir"]):
                        # The second letter of a ligature ("fi"): extraction puts it at
                        # the ligature's end, the trace at its start. It goes with its
                        # glyph (pdf-lib's us_constitution.pdf: every "i" of a "fi" was
                        # taken for unseen on a page that clips to text elsewhere).
                        if clip_only and not text.isspace():
                            yield text, rect, origin
                        continue
                    if text.isspace() or (ord(text), *_key(origin)) in traced:
                        clip_only = False
                        continue
                    clip_only = not painters.text_shows(rect)
                    if clip_only:
                        yield text, rect, origin


def _key(origin: tuple[float, float]) -> tuple[float, float]:
    return round(origin[0], _PLACES), round(origin[1], _PLACES)
