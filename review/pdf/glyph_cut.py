"""Remove single glyphs and image placements from a page (Django-free): hidden glyphs
that no redaction can reach without cutting a glyph a reader sees, and hidden images
another image is drawn over or beside (`drop_images`). A redaction removes every glyph
whose box it meets, so it cannot take text from under a glyph drawn over it: a name
under an old redaction box with "redacted" printed on the box (pymupdf's
test-707448.pdf), or a clipped-away second copy of a paragraph lying two points off the
copy a reader sees (pymupdf's test_4026.pdf).

MuPDF's sanitize filter rewrites the page's content, and each form it draws as an
instance of its own for this page, asking for every glyph shown whether to drop it, in
the order the page draws them. A glyph goes when its character and its origin are a
target's and as many glyphs of that character were drawn there before it as the target
says: an icon font's background glyph and the foreground drawn over it share an origin
and, unmapped, a character, and only the hidden one goes. An image goes when its box
is a target's and as many images were drawn at that box before it. Nothing else is
touched.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf
from pymupdf import mupdf

from review.pdf.geometry import Quad, area_of, contains_point, overlap, pdf_to_page
from review.pdf.painters import COVERED_SHARE
from review.pdf.slanted import SlantedGlyph, meets, slanted_glyphs

# Points between MuPDF's trace of a glyph's origin and the filter's: float noise only
# (under 0.001 on 685 public files). A wider reach took glyphs of tiny text, a few
# thousandths of a point apart, for one place and miscounted them (MuPDF.NET's TestPdf1).
_SAME_ORIGIN = 0.002
# Points between the paint log's box of an image and the filter's.
_SAME_BOX = 0.5

# Character, origin in unrotated page space, and how many glyphs of that character the
# page draws at that origin before this one (as `get_texttrace` lists them).
Glyph = tuple[str, tuple[float, float], int]


@dataclass
class _Target:
    origin: tuple[float, float]
    ranks: set[int]  # the occurrences to drop
    made: int  # how many targets were made before it
    seen: int = 0  # occurrences the filter has shown so far


# Glyphs by character and the cell of a grid, _SAME_ORIGIN wide, that holds their
# origin: two origins the same within it lie in the same or a neighbouring cell. A page
# of 13,000 hidden glyphs took minutes comparing each with every other.
_Cell = tuple[int, int, int]


def _cell(code: int, origin: tuple[float, float]) -> _Cell:
    x, y = origin
    if not (math.isfinite(x) and math.isfinite(y)):
        return code, 0, 0  # never the same origin as any: `same_origin` says so
    return code, math.floor(x / _SAME_ORIGIN), math.floor(y / _SAME_ORIGIN)


def _around(code: int, origin: tuple[float, float]) -> list[_Cell]:
    _, cx, cy = _cell(code, origin)
    return [(code, cx + dx, cy + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)]


def drop_glyphs(page: pymupdf.Page, glyphs: Sequence[Glyph]) -> None:
    """Remove from `page` each glyph of `glyphs`: its character at its origin, the
    occurrence it names."""
    if not glyphs:
        return
    to_page = pdf_to_page(page)  # unrotated page space, where the trace measures origins
    targets: dict[_Cell, list[_Target]] = {}
    made = 0
    for char, origin, rank in glyphs:
        near = [
            t
            for cell in _around(ord(char), origin)
            for t in targets.get(cell, ())
            if same_origin(t.origin, origin)
        ]
        if near:
            min(near, key=lambda t: t.made).ranks.add(rank)
        else:
            targets.setdefault(_cell(ord(char), origin), []).append(_Target(origin, {rank}, made))
            made += 1
    run_filter(page, _Chooser(targets, [], to_page))


def drop_slanted_glyphs_under(page: pymupdf.Page, boxes: Sequence[Quad]) -> None:
    """Remove each glyph of a slanted line (a diagonal stamp) that meets a box as the
    release gate measures it (`word_geometry.meets`): MuPDF's redaction measures such a
    glyph otherwise and left a stamp's letter that met a box, where the gate found it
    (docling-parse's rotated_text_05.pdf)."""
    drawn: dict[tuple[str, tuple[float, float]], int] = {}
    glyphs: list[Glyph] = []
    # In drawing order: the n-th glyph at an origin is its n-th drawing.
    for glyph in slanted_glyphs_under(page, boxes):
        key = (glyph.char, (round(glyph.origin[0], 2), round(glyph.origin[1], 2)))
        glyphs.append((glyph.char, glyph.origin, drawn.get(key, 0)))
        drawn[key] = drawn.get(key, 0) + 1
    drop_glyphs(page, glyphs)


def slanted_glyphs_under(page: pymupdf.Page, boxes: Sequence[Quad]) -> list[SlantedGlyph]:
    """The glyphs of slanted lines that meet a box as the release gate measures them."""
    textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_RAWDICT & ~pymupdf.TEXT_PRESERVE_IMAGES)
    return [g for g in slanted_glyphs(textpage) if any(meets(g.quad, box) for box in boxes)]


def drop_covered_glyphs(
    page: pymupdf.Page, boxes: Sequence[Quad], held: Sequence[tuple[Quad, Quad]] = ()
) -> None:
    """Remove each glyph whose box lies under a box as the hidden-content analysis
    judges a glyph covered (`painters.COVERED_SHARE` of it), and each glyph of a word
    a box holds (`held`: the word's box, the box) that meets the box as MuPDF's
    redaction measures it. A box narrowed off a word whose middle it does not hold
    (`text_reach.text_rect`) spared the word's glyphs that lie inside it all the same:
    a raised quote set before a word on the line below (pdfTeX's listings in a Python
    textbook), left under the black box, where the gate found it unseen. Narrowed off a
    line just above it, a box over a 120-point word spared the "n" of "on" in a line
    running up the margin, whose "o" it took (pdf2htmlEX's fontfile3_opentype.pdf): the
    gate found "n" under the box."""

    def taken(bbox: Quad) -> bool:
        area = area_of(bbox)
        if any(overlap(bbox, box) >= COVERED_SHARE * area for box in boxes):
            return True
        middle = _middle(bbox)
        return any(
            contains_point(word, middle) and meets(pymupdf.Rect(bbox).quad, box)
            for word, box in held
        )

    under = [
        (chr(char[0]), char[2], span["seqno"])
        for span in page.get_texttrace()
        for char in span["chars"]
        if area_of(glyph := _upright(char[3])) > 0 and taken(glyph)
    ]
    drop_glyphs(page, ranked(page, under))


def drop_backwards_glyphs(page: pymupdf.Page, boxes: Sequence[Quad]) -> None:
    """Remove each glyph whose box runs backwards (its font gives it a width below
    zero) and whose middle lies under a box. MuPDF's redaction never meets such a box:
    the "p" of "example", in a font whose widths the text's spacing makes up for, stayed
    under the black box (pymupdf's test_4944.pdf), where the gate found it."""
    under = [
        (chr(char[0]), char[2], span["seqno"])
        for span in page.get_texttrace()
        for char in span["chars"]
        if _runs_backwards(char[3])
        and any(contains_point(box, _middle(_upright(char[3]))) for box in boxes)
    ]
    drop_glyphs(page, ranked(page, under))


def _runs_backwards(box: Sequence[float]) -> bool:
    return box[2] < box[0] or box[3] < box[1]


def _upright(box: Sequence[float]) -> Quad:
    x0, y0, x1, y1 = box
    return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)


def _middle(box: Quad) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


class FilterChooser(mupdf.PdfSanitizeFilterOptions2):
    """What MuPDF's sanitize filter asks about each glyph and image (`run_filter`)."""

    def __init__(self) -> None:
        super().__init__()
        # An exception cannot cross MuPDF's C frames: kept, and raised after the filter.
        self.error: Exception | None = None


def run_filter(page: pymupdf.Page, chooser: FilterChooser) -> None:
    """Rewrite `page`'s content, and each form it draws as an instance of its own,
    through MuPDF's sanitize filter asking `chooser`."""
    factory = _SanitizeFactory(chooser)
    options = mupdf.PdfFilterOptions()
    options.recurse = 1
    options.instance_forms = 1
    options.add_factory(factory.internal())
    pdf_page = mupdf.pdf_page_from_fz_page(page.this)
    mupdf.pdf_filter_page_contents(pdf_page.doc(), pdf_page, options)
    if chooser.error is not None:
        raise chooser.error


def ranked(
    page: pymupdf.Page, glyphs: Sequence[tuple[str, tuple[float, float], int]]
) -> list[Glyph]:
    """Each (character, origin, seqno of its span in `get_texttrace`) as a Glyph: with
    how many glyphs of its character the page draws at its origin before it."""
    if not glyphs:
        return []
    drawn: dict[_Cell, list[tuple[int, tuple[float, float]]]] = {}
    for span in page.get_texttrace():
        for char in span["chars"]:
            drawn.setdefault(_cell(char[0], char[2]), []).append((span["seqno"], char[2]))
    return [
        (
            text,
            origin,
            sum(
                1
                for cell in _around(ord(text), origin)
                for n, at in drawn.get(cell, ())
                if n < seqno and same_origin(at, origin)
            ),
        )
        for text, origin, seqno in glyphs
    ]


# An image placement: its box in unrotated page space, and how many images the page
# draws at that box (`same_box`) before it.
Placement = tuple[Quad, int]


@dataclass
class _ImageTarget:
    box: Quad
    rank: int
    seen: int = 0  # placements at its box the filter has shown so far
    dropped: bool = False


def drop_images(page: pymupdf.Page, placements: Sequence[Placement]) -> list[Placement]:
    """Remove from `page` each image placement of `placements`; the ones it did not
    find (the gate judges those). A redaction cannot take an image another image is
    drawn over: it takes both (the covered second copy of a logo, pdfcpu's
    pike-stanford.pdf)."""
    if not placements:
        return []
    targets = [_ImageTarget(box, rank) for box, rank in placements]
    run_filter(page, _Chooser({}, targets, pdf_to_page(page)))
    return [(t.box, t.rank) for t in targets if not t.dropped]


def ranked_images(drawn: Sequence[Quad], hidden: Sequence[tuple[Quad, int]]) -> list[Placement]:
    """Each hidden image (its box, its index in `drawn`: the boxes of the page's images
    in painting order) as a Placement."""
    return [
        (box, sum(1 for other in drawn[:index] if same_box(other, box))) for box, index in hidden
    ]


class _Chooser(FilterChooser):
    def __init__(
        self,
        targets: dict[_Cell, list[_Target]],
        images: list[_ImageTarget],
        to_page: pymupdf.Matrix,
    ):
        super().__init__()
        self.use_virtual_text_filter()
        if images:
            self.use_virtual_image_filter()
        self.targets = targets
        self.images = images
        self.codes = {code for code, _, _ in targets}
        self.to_page = to_page

    def text_filter(self, ctx, ucsbuf, ucslen, trm, ctm, bbox, tr, ca, ca_stroke) -> int:  # noqa: ANN001, PLR0913
        try:
            chars = struct.unpack(
                f"{ucslen}i", bytes(mupdf.python_memoryview_from_memory(ucsbuf, 4 * ucslen, 0))
            )
            if not any(c in self.codes for c in chars):
                return 0
            x = trm.e * ctm.a + trm.f * ctm.c + ctm.e
            y = trm.e * ctm.b + trm.f * ctm.d + ctm.f
            at = pymupdf.Point(x, y) * self.to_page
            origin = (at.x, at.y)
            drop = False
            for target in (
                t for c in chars for cell in _around(c, origin) for t in self.targets.get(cell, ())
            ):
                if same_origin(target.origin, origin):
                    drop = drop or target.seen in target.ranks
                    target.seen += 1
            return int(drop)
        except Exception as exc:  # noqa: BLE001 - re-raised by run_filter
            self.error = exc
            return 0

    def image_filter(self, ctx, ctm, name, image, scissor):  # noqa: ANN001, ANN201, PLR0913
        # Called when there are images to drop: an image that is no target is kept. The
        # filter drops the image it gets back, so hand it a reference; None removes the
        # placement.
        try:
            if self.images:
                corners = [
                    pymupdf.Point(u * ctm.a + v * ctm.c + ctm.e, u * ctm.b + v * ctm.d + ctm.f)
                    * self.to_page
                    for u, v in ((0, 0), (1, 0), (0, 1), (1, 1))
                ]
                xs, ys = [c.x for c in corners], [c.y for c in corners]
                box = (min(xs), min(ys), max(xs), max(ys))
                drop = False
                for target in self.images:
                    if same_box(target.box, box):
                        if target.seen == target.rank:
                            target.dropped = drop = True
                        target.seen += 1
                if drop:
                    return None
        except Exception as exc:  # noqa: BLE001 - re-raised by run_filter
            self.error = exc
        return mupdf.ll_fz_keep_image(image)


class _SanitizeFactory(mupdf.PdfFilterFactory2):
    """MuPDF's own sanitize filter, asking `chooser` about each glyph."""

    def __init__(self, chooser: FilterChooser) -> None:
        super().__init__()
        self.use_virtual_filter()
        self.chooser = chooser  # not `options`: that names a field of the C struct

    def filter(self, ctx, doc, chain, struct_parents, transform, options):  # noqa: ANN001, ANN201, PLR0913
        return mupdf.ll_pdf_new_sanitize_filter(
            doc, chain, struct_parents, transform, options, self.chooser.internal()
        )


def same_box(a: Quad, b: Quad) -> bool:
    """Two boxes the paint log and the filter give for one image: apart by rounding."""
    return all(abs(p - q) <= _SAME_BOX for p, q in zip(a, b, strict=True))


def same_origin(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Two origins the trace and the filter give for one glyph: float noise apart."""
    return abs(a[0] - b[0]) < _SAME_ORIGIN and abs(a[1] - b[1]) < _SAME_ORIGIN
