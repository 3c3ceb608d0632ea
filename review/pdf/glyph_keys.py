"""Which traced glyph is which extracted character (Django-free).

The hidden-content analysis (`hidden.py`) reads glyphs from MuPDF's trace, which gives
each glyph's character code, origin and box, and needs to know which of them extraction
also finds: what a clipping path leaves (`kept_by_clips`), and which hidden glyph the page
shows again where it is seen. Both sides are keyed by character and origin in quarter
points (`char_key`), with the differences between the two reconciled: ligatures, hyphens
extraction writes as "-", characters no font maps.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import pymupdf

# The character of a key by origin alone (`char_key`).
UNKNOWN = ""
# What extraction writes for a glyph it finds no Unicode for.
UNMAPPED = "\ufffd"
SHOWN_AS_HYPHEN = frozenset("\u2011\u00ad")
# Quarter points (`_key`) within which a kept or seen glyph stands for a traced one
# (`kept`).
_FAKE_BOLD_REACH = 4
# With an unbounded clip rectangle, extraction drops only what clipping paths cut away;
# ligatures are expanded so characters count as in the trace, and glyphs are read as
# drawn, as the trace reads them, not as a marked-content /ActualText says (an empty one
# made a shipping order's addresses look clipped away, PyMuPDF's test_4546.pdf). No
# images: a broken one fails the whole extraction (pdf.js's issue6113.pdf).
CLIPPED_FLAGS = (
    pymupdf.TEXTFLAGS_RAWDICT | pymupdf.TEXT_CLIP | pymupdf.TEXT_IGNORE_ACTUALTEXT
) & ~(pymupdf.TEXT_PRESERVE_LIGATURES | pymupdf.TEXT_PRESERVE_IMAGES)


def kept_by_clips(
    page: pymupdf.Page, trace: list[dict], clipped: pymupdf.TextPage | None
) -> set[tuple[str, int, int]] | None:
    """Glyphs that survive their clipping paths, keyed by character and origin; None
    when clipping cuts no glyph on the page (the common case: the clip-aware text has
    as many characters as the trace, ligatures expanded in both)."""
    clipped = clipped or clipped_textpage(page)
    traced = "".join(_expanded(chr(char[0])) for span in trace for char in span["chars"])
    text = page.get_text("text", textpage=clipped)
    if len("".join(traced.split())) == len("".join(text.split())):
        return None
    kept: set[tuple[str, int, int]] = set()
    for block in page.get_text("rawdict", textpage=clipped)["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                for char in span["chars"]:
                    origin = char["origin"]
                    places = [origin]
                    if line["wmode"] == 1:
                        # Extraction puts a glyph of a vertical font (/Identity-V) a font
                        # size along its line from the pen position the trace gives
                        # (PDFBox's PDFBOX-3127 VFont.pdf, a notice set that way).
                        (dx, dy), size = line["dir"], span["size"]
                        places.append((origin[0] - size * dx, origin[1] - size * dy))
                    for place in places:
                        key = _key(char["c"], place)
                        kept.update((key, (UNKNOWN, *key[1:])))
    return kept


def kept(char: tuple, kept: set[tuple[str, int, int]]) -> bool:
    """Whether `kept` holds the traced glyph `char`, or the same character a fraction of
    a point away: a glyph drawn several times over itself (fake bold, pdf.js's
    bug900822.pdf) is traced each time and extracted once. A glyph that extraction
    could not map (U+FFFD) at the glyph's origin is the glyph too: the trace may name
    the character the font draws where extraction finds no Unicode for it (the dot
    leaders of a rotated table in tabula's and camelot's rotated_page.pdf). So is the
    first letter of a presentation form that extraction writes decomposed (Hebrew
    alef with dagesh, U+FB30, as alef and then the dagesh: PDFBox's
    PDFBOX-4531-bidi-ligature-1.pdf, where sanitize cut it as clipped)."""
    c, x, y = char_key(char)
    forms = {c, unicodedata.normalize("NFKD", c)[:1] or c}
    if any((form, x, y) in kept for form in forms) or (UNMAPPED, x, y) in kept:
        return True
    reach = range(-_FAKE_BOLD_REACH, _FAKE_BOLD_REACH + 1)
    return any((form, x + dx, y + dy) in kept for form in forms for dx in reach for dy in reach)


def drawn_again(chars: Sequence[tuple], shown: set[tuple[str, int, int]]) -> list[bool]:
    """For each traced glyph of `chars`, whether `shown` holds it (`kept`). A glyph
    beyond the reach of every glyph `shown` holds is looked up no further: a county's
    report draws its whole sheet on each of its 122 pages, 31,000 glyphs beyond each
    crop box, and looking each up around its place took sanitize a minute."""
    if not shown:
        return [False] * len(chars)
    xs, ys = [key[1] for key in shown], [key[2] for key in shown]
    x0, x1 = min(xs) - _FAKE_BOLD_REACH, max(xs) + _FAKE_BOLD_REACH
    y0, y1 = min(ys) - _FAKE_BOLD_REACH, max(ys) + _FAKE_BOLD_REACH
    return [
        x0 <= x <= x1 and y0 <= y <= y1 and kept(char, shown)
        for char in chars
        for _, x, y in (char_key(char),)
    ]


def clipped_textpage(page: pymupdf.Page) -> pymupdf.TextPage:
    """The page's text as a reader sees it: everything a clipping path leaves, wherever
    it lies (outside the crop box too), ligatures expanded."""
    return page.get_textpage(flags=CLIPPED_FLAGS, clip=pymupdf.INFINITE_RECT())


def redaction_boxes(
    page: pymupdf.Page, *, clipped_away: bool = False
) -> dict[tuple[str, int, int], tuple[float, float, float, float]]:
    """Each glyph's box as MuPDF's redaction measures it, keyed as `char_key` keys a
    traced glyph: the font's ascent and descent through the whole text matrix, where the
    trace sizes a Type 3 glyph by the font size alone (pdf.js's bug1513120_reduced.pdf
    sets its text at 0.24 pt in fonts whose own matrix draws it 11 pt tall). Of the
    glyphs a reader sees, or with `clipped_away` of those a clip hides too."""
    textpage = (
        page.get_textpage(flags=CLIPPED_FLAGS & ~pymupdf.TEXT_CLIP, clip=pymupdf.INFINITE_RECT())
        if clipped_away
        else clipped_textpage(page)
    )
    boxes = {}
    for block in textpage.extractRAWDICT()["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                for char in span["chars"]:
                    c, (x0, y0, x1, y1) = char["c"], char["bbox"]
                    unknown = c == UNMAPPED or unicodedata.category(c) == "Co"
                    boxes[_key(UNKNOWN if unknown else c, char["origin"])] = (x0, y0, x1, y1)
    return boxes


def char_key(char: tuple) -> tuple[str, int, int]:
    """A traced glyph's key, its character as `CLIPPED_FLAGS` extraction writes it: a
    ligature's first letter at its origin ("ﬁ" as "f"). A character the font does not
    map (U+FFFD) is keyed by its origin alone: extraction writes its character code,
    which the trace does not give (a Wingdings tick, pdf.js's issue6127.pdf); so is a
    private-use one, which extraction writes as the producer's /ActualText says (a flag
    emoji, py-pdf's sample Google Docs document)."""
    c = chr(char[0])
    unknown = c == UNMAPPED or unicodedata.category(c) == "Co"
    return _key(UNKNOWN if unknown else _expanded(c)[0], char[2])


def _expanded(c: str) -> str:
    """A ligature ("ﬁ", U+FB00 to U+FB06) as the letters extraction expands it to, and
    an Arabic presentation form (U+FB50 to U+FDFF, U+FE70 to U+FEFF) as the letter
    extraction writes for it ("ﺍ" as "ا", pdf.js's ThuluthFeatures.pdf)."""
    if "\ufb00" <= c <= "\ufb06" or "\ufb50" <= c <= "\ufdff" or "\ufe70" <= c <= "\ufeff":
        return unicodedata.normalize("NFKC", c)
    return c


def _key(c: str, origin: Sequence[float]) -> tuple[str, int, int]:
    # Extraction writes a non-breaking hyphen as "-" (seen with MuPDF 1.28), and a soft
    # hyphen where the producer's /ActualText says "-" (pdfplumber's issue-71 PDF): one
    # key for the three, so the trace and extraction agree either way.
    return "-" if c in SHOWN_AS_HYPHEN else c, round(origin[0] * 4), round(origin[1] * 4)
