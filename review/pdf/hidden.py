"""Find content a reader of the page cannot see (Django-free).

The reviewer approves what the page image shows. Whatever else a PDF carries on a page
is hidden content: detection shows it to the reviewer as `hidden_content` marks,
`sanitize` removes it, and the release gate (`verify`) runs this same analysis on the
output and fails with `unseen_content` if anything is left. The kinds:

- `outside_crop_box`: glyphs or images wholly outside the crop box (or the media box);
  a glyph the page edge cuts through was partly seen and stays;
- `covered`: text, or a whole image, painted over later by an opaque fill or image
  (a glyph by its ink: `ink_boxes`; text under paint in another blend mode than
  Normal: if the page renders the same without it);
- `invisible`: text in render mode 3 or with zero opacity (an OCR layer lying on the
  scanned image it was read from, above or below it, is not hidden: the reviewer saw the
  image);
- `same_colour`: text in the colour of what lies behind it (white on white, or at under
  3% opacity; on an image or a shading, or through a soft mask, if the page renders the
  same without it);
- `tiny`: text under 1 pt;
- `clipped`: text cut away by a clipping path, or only added to one (render mode 7)
  where nothing painted through it shows (`clip_only_text`);
- `hidden_layer`: text or images in an optional-content group that is off;
- `hidden_annotation`: an annotation not drawn (`on_screen.py`), or with contents only.

A glyph the page also draws where it is seen (the same character at the same origin,
within a point) hides nothing, whatever covers or clips its other copy: fake bold, and
text some producers write twice, once under a panel and once over it (pdfplumber's
issue-71-duplicate-chars-2.pdf). Invisible text stays invisible text.

Everything is measured in PyMuPDF's unrotated page space (as `get_text` reports it),
where the visible area is the crop box's size from the origin. Most pages are settled
by one pass over their painting operations (`paintlog.PaintLog`), which proves nothing
on them can be hidden; the rest are analysed per glyph, from MuPDF's ordered record of
what was painted (`get_texttrace`, whose `seqno` indexes the paint log, and
`get_drawings` for fill colours and opacity).
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import pymupdf

from review.pdf.clip_only_text import clip_only_glyphs
from review.pdf.geometry import Quad, area_of, flat_along, intersects, quad, within
from review.pdf.glyph_ink import judged_at, seen_on_glyphs
from review.pdf.glyph_keys import UNKNOWN, char_key, drawn_again, kept, kept_by_clips
from review.pdf.ink_boxes import block_glyphs, inks_painted_over
from review.pdf.layers import content_off_layers, layers_on
from review.pdf.misplaced_objects import open_settled
from review.pdf.on_screen import HIDDEN_ANNOT_FLAGS, drawn_on_screen
from review.pdf.painters import Painters, to_rgb
from review.pdf.paintlog import SAME_COLOUR_DELTA, TINY_PT, WHITE, PaintLog, same_colour
from review.pdf.prepare import prepare_to_read
from review.pdf.render import MUPDF_ERRORS

OUTSIDE_CROP_BOX = "outside_crop_box"
COVERED = "covered"
INVISIBLE = "invisible"
SAME_COLOUR = "same_colour"
TINY = "tiny"
CLIPPED = "clipped"
HIDDEN_LAYER = "hidden_layer"
HIDDEN_ANNOTATION = "hidden_annotation"
KINDS = (
    OUTSIDE_CROP_BOX,
    COVERED,
    INVISIBLE,
    SAME_COLOUR,
    TINY,
    CLIPPED,
    HIDDEN_LAYER,
    HIDDEN_ANNOTATION,
)

OCR_FONT = "GlyphLessFont"  # Tesseract's invisible text layer
OCR_LAYER = "ocr_layer"  # not hidden: the text of the scan it lies over


@dataclass(frozen=True)
class HiddenContent:
    page: int  # 0-based
    kind: str
    rect: Quad | None  # unrotated page space; None when the page shows nothing of it
    text: str  # the hidden text itself; "" for an image


@dataclass(frozen=True)
class HiddenGlyph:
    """One hidden glyph (or image), as sanitize removes it."""

    kind: str
    rect: Quad
    text: str
    seqno: int
    origin: tuple[float, float] | None = None  # a glyph's, to remove it alone


@dataclass(frozen=True)
class _Span:
    box: Quad
    chars: Sequence[tuple]  # MuPDF's (unicode, glyph, origin, bbox) of the seen glyphs


@dataclass(frozen=True)
class PageAnalysis:
    hidden: list[HiddenGlyph]
    # What a reader sees, by span (sanitize must keep it); empty on a plain page.
    visible: list[_Span]
    # Invisible OCR text over its scan: seen as the image, dropped by sanitize all the same.
    ocr_layer: list[Quad] = field(default_factory=list)
    actual_text: bool = False  # `PaintLog.actual_text`

    @property
    def has_invisible_text(self) -> bool:
        return bool(self.ocr_layer) or any(g.kind == INVISIBLE for g in self.hidden)


def find_hidden(
    pdf: bytes | str | pathlib.Path | pymupdf.Document, *, pages: set[int] | None = None
) -> list[HiddenContent]:
    """Every piece of hidden content of every page (or of `pages`), runs of glyphs of
    one kind merged."""
    if isinstance(pdf, pymupdf.Document):
        doc = pdf
    else:
        doc = open_settled(pdf if isinstance(pdf, bytes) else pathlib.Path(pdf))
    if doc is not pdf:
        prepare_to_read(doc)  # as detection read the pages and hashed their glyphs
    try:
        layered = layers_on(doc)
        found: list[HiddenContent] = []
        for page in doc:
            if pages is None or page.number in pages:
                found.extend(page_hidden(page, layered[page.number] if layered else None)[0])
        return found
    finally:
        if doc is not pdf:
            doc.close()


def page_hidden(
    page: pymupdf.Page, layered: pymupdf.Page | None = None
) -> tuple[list[HiddenContent], bool]:
    """Every piece of hidden content of one page, runs of glyphs of one kind merged, and
    whether some /ActualText stands in for drawn glyphs. `layered` is the page of
    `layers_on` (None when no layer is off)."""
    analysis = analyse_page(page, layered)
    found = list(_merged(page.number, analysis.hidden))
    if page.annot_xrefs():  # one cheap call; most pages have no annotations
        found.extend(_hidden_annotations(page))
    return found, analysis.actual_text


def analyse_page(
    page: pymupdf.Page,
    layered: pymupdf.Page | None = None,
    *,
    clipped_text: pymupdf.TextPage | None = None,
    exhaustive: bool = False,
) -> PageAnalysis:
    """Classify every glyph and image of `page`. `layered` is the same page with every
    optional-content group on (see `layers_on`), to find what an off layer hides.
    `clipped_text` is `glyph_keys.clipped_textpage(page)`, when the caller has it
    already. `exhaustive` looks at every glyph even on a plain page.

    Most pages are plain (see `PaintLog`): one pass over their painting proves that
    nothing on them is hidden, and `visible` is left empty as nobody needs it. On the
    others most spans are still plainly visible and settled as a whole; only the rest
    are looked at glyph by glyph."""
    crop = page.cropbox
    area: Quad = (0.0, 0.0, crop.width, crop.height)
    paint = PaintLog.of(page, area)
    if paint.plain and layered is None and not exhaustive:
        return PageAnalysis(hidden=[], visible=[], actual_text=paint.actual_text)
    log = paint.log
    trace = page.get_texttrace()
    blocks = block_glyphs(page, area, trace)
    covers = blocks or paint.masked or paint.text_clips or any(_covers(k) for k, _ in log)
    painters = Painters(page, paint) if covers else None
    if blocks and painters is not None:
        painters.cover_with(blocks)
    clip_kept = kept_by_clips(page, trace, clipped_text) if trace else None
    inks = inks_painted_over(page, area, trace, painters) if painters is not None else {}
    hidden: list[HiddenGlyph] = []
    hidden_chars: list[tuple] = []  # the trace's record of each hidden glyph
    same: list[tuple[int, tuple[Quad, int, tuple[float, float, float]]]] = []  # by index
    visible: list[_Span] = []
    ocr_layer: list[Quad] = []
    for span in trace:
        seqno = span["seqno"]
        box = quad(span["bbox"])
        # A Type 3 glyph MuPDF drew itself is seen as that drawing, in colours of its
        # own; the trace has it as invisible text in no colour.
        drawn = seqno in paint.drawn_glyphs
        span_kind = None if drawn else _span_kind(span, box, painters, paint)
        span_kind = TINY if seqno in paint.flat_text else span_kind  # no size one way
        if span_kind == OCR_LAYER:
            # Neither seen nor hidden: the image shows it.
            ocr_layer.append(_where_extracted(span, _with_last_advance(span, box)))
            continue
        colour = None if drawn else to_rgb(span["color"])
        if (
            span_kind is None
            and within(box, area)
            and clip_kept is None
            and (painters is None or painters.untouched(box) and not painters.masked(seqno))
            and (colour is None or not same_colour(colour, WHITE))
        ):
            visible.append(_Span(box, span["chars"]))
            continue
        seen = []
        kind = span_kind
        # A pattern cell's glyph is seen wherever the pattern fills: cut by the fill's
        # edge or the page's (not the cell's), it is the same glyph as in the cells
        # within (iText's text pattern: every page filled with it was refused).
        tiled = seqno in paint.tiled and intersects(paint.tiled[seqno], area)
        # Ink wholly off the page, though glyph boxes reach onto it (pdf.js's issue19326).
        ink = paint.log[seqno][1] if seqno < len(paint.log) else box
        off_page = not within(box, area) and area_of(ink) > 0 and not intersects(ink, area)
        for char in span["chars"]:
            rect = quad(char[3])
            if chr(char[0]).isspace():
                continue  # no ink: nothing to see, nothing to hide
            if area_of(rect) == 0 or flat_along(rect, span["dir"]):
                # The second letter of a ligature ("fi") has no box of its own: it
                # shares the fate of the glyph it belongs to.
                rect = _point_box(char[2])
            elif not intersects(rect, area) or off_page:
                # Wholly: a glyph cut by the edge was partly seen.
                kind = None if tiled else OUTSIDE_CROP_BOX
            elif span_kind is not None:
                kind = span_kind
            else:
                # Held by its clips and the page, a glyph extraction places elsewhere
                # (a combining mark) is clipped by nothing.
                may_cut = paint.clips_may_cut(seqno, rect) or not within(rect, area)
                cut = clip_kept if may_cut else None
                ink = inks.get((seqno, char[2]))
                kind = _glyph_kind(char, rect, ink, colour, cut, painters, seqno)
                cut_by_the_fill = tiled and intersects(rect, paint.cells[seqno])
                kind = None if cut_by_the_fill and kind == CLIPPED else kind
            if kind is None:
                seen.append(char)
            else:
                if kind == SAME_COLOUR and colour is not None:
                    same.append((len(hidden), (rect, seqno, colour)))
                hidden.append(HiddenGlyph(kind, rect, chr(char[0]), seqno, char[2]))
                hidden_chars.append(char)
        if seen:
            visible.append(_Span(box, tuple(seen)))
    if same:  # judged again over the glyphs they lie on
        on_glyphs = seen_on_glyphs(page, area, painters, [glyph for _, glyph in same])
        shown = {index for (index, _), on_ink in zip(same, on_glyphs, strict=True) if on_ink}
        visible.extend(_Span(hidden[i].rect, (hidden_chars[i],)) for i in sorted(shown))
        hidden = [glyph for i, glyph in enumerate(hidden) if i not in shown]
        hidden_chars = [char for i, char in enumerate(hidden_chars) if i not in shown]
    if paint.text_clips and painters is not None:
        for text, rect, origin in clip_only_glyphs(page, trace, painters):
            hidden.append(HiddenGlyph(CLIPPED, rect, text, -1, origin))
            hidden_chars.append((ord(text), -1, origin, rect))
    if hidden and visible:
        hidden = _not_drawn_again(hidden, hidden_chars, visible)
    # An image in a pattern cell is seen wherever the pattern's fill is; one drawing a
    # soft mask is no paint of its own.
    images = [
        (seqno, paint.tiled.get(seqno) or quad(bbox))
        for seqno, (kind, bbox) in enumerate(log)
        if kind == "fill-image" and seqno not in paint.mask_content
    ]
    hidden_images = []
    for seqno, rect in images:
        if not intersects(rect, area):
            hidden_images.append(HiddenGlyph(OUTSIDE_CROP_BOX, rect, "", seqno))
        elif painters is not None and painters.covered(rect, seqno, whole=True):
            hidden_images.append(HiddenGlyph(COVERED, rect, "", seqno))
    if hidden_images:
        unseen = {g.seqno for g in hidden_images}
        shown = _images_seen_whole(paint.images, images, area, painters, paint.tiled, unseen)
        hidden.extend(g for g in hidden_images if paint.images[g.seqno] not in shown)
    if layered is not None:
        hidden.extend(
            HiddenGlyph(HIDDEN_LAYER, rect, text, seqno)
            for rect, text, seqno in content_off_layers(layered, page, trace)
        )
    return PageAnalysis(hidden, visible, ocr_layer, paint.actual_text)


def _with_last_advance(span: dict, box: Quad) -> Quad:
    """An OCR layer's span whose glyphs the trace gives no width, reaching one glyph's
    advance past its last origin, where extraction ends its last word. Tesseract's
    GlyphLessFont sets every glyph half an em wide and the trace measures none: a word
    of one letter had no width at all, and the gate counted each as lost (pymupdf's
    test_4670.pdf, an OCR'd scan)."""
    chars = span["chars"]
    x0, y0, x1, y1 = chars[-1][3]
    if x0 != x1 and y0 != y1:
        return box
    (fx, fy), (lx, ly) = chars[0][2], chars[-1][2]
    step = math.hypot(lx - fx, ly - fy) / (len(chars) - 1) if len(chars) > 1 else span["size"] / 2
    cos, sin = span["dir"]
    x, y = lx + cos * step, ly + sin * step
    return (min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y))


def _where_extracted(span: dict, box: Quad) -> Quad:
    """An OCR layer's span of vertical writing, reaching also where extraction puts its
    words: one em further down the line of writing than the glyphs are drawn (MuPDF
    1.28; the trace has them where their ink is). The gate matches the words it lost
    to the layer by their extracted boxes (pdfplumber's pr-136-example.pdf, a seal's
    character read by OCR)."""
    if not span.get("wmode"):
        return box
    cos, sin = span["dir"]
    dx, dy = -sin * span["size"], cos * span["size"]  # down the line of writing
    x0, y0, x1, y1 = box
    return (min(x0, x0 + dx), min(y0, y0 + dy), max(x1, x1 + dx), max(y1, y1 + dy))


def _not_drawn_again(
    hidden: list[HiddenGlyph], chars: list[tuple], visible: list[_Span]
) -> list[HiddenGlyph]:
    """The hidden glyphs but those the page shows again, seen, at their place (see the
    module's docstring). Invisible glyphs all stay, and so do glyphs the font does not
    map: one of those is no twin of another just for lying at the same place."""
    shown = {char_key(char) for span in visible for char in span.chars}
    return [
        glyph
        for glyph, char, twin in zip(hidden, chars, drawn_again(chars, shown), strict=True)
        if glyph.kind == INVISIBLE or char_key(char)[0] == UNKNOWN or not twin
    ]


def _images_seen_whole(
    identities: dict[int, int],
    images: list[tuple[int, Quad]],
    area: Quad,
    painters: Painters | None,
    tiled: dict[int, Quad],
    unseen: set[int],
) -> set[int]:
    """The images (`PaintLog.images`) the page also draws where they are seen whole:
    inside the crop box, nothing painted over them later; and a pattern's cell image
    that a fill of it shows (`tiled`, not `unseen`). Another placement of such an image
    hides nothing a reader did not see (a chart's hatching tiles, some under its bars,
    pdf.js's tracemonkey.pdf; a logo drawn twice; a table's border drawn in each cell of
    a pattern, the last cells past the page edge, pymupdf's bug1945.pdf; a textured page
    background, split around marks into fills of which most lie under a white panel,
    pdfcpu's GoForOptimization.pdf)."""
    return {
        identities[seqno]
        for seqno, rect in images
        if within(rect, area)
        and (painters is None or not painters.painted_over(rect, seqno))
        or seqno in tiled
        and seqno not in unseen
    }


def _span_kind(span: dict, box: Quad, painters: Painters | None, paint: PaintLog) -> str | None:
    """What hides a whole span: its render mode, its opacity, its size."""
    opacity = span.get("opacity", 1.0)
    # Clip-only, no paint, or too faint to differ from what it lies on by more than two
    # colours that count as the same (text at 1% opacity was taken for seen).
    if span["type"] in (2, 3) or opacity < SAME_COLOUR_DELTA:
        over_image = painters is not None and painters.on_image(box)
        if over_image or span.get("font", "").split("+")[-1] == OCR_FONT:
            return OCR_LAYER
        return INVISIBLE if span["type"] in (2, 3) or opacity <= 0.0 else SAME_COLOUR
    # Each glyph's advance, and where a Type 3 font draws glyphs large at that size: its
    # matrix may draw a title set at 0.12 pt 12 pt large (pdf.js's issue14999_reduced.pdf).
    small = all(max(b[2] - b[0], b[3] - b[1]) < 2 * TINY_PT for *_, b in span["chars"])
    drawn_large_from = 0.99 * paint.large_type3.get(span["font"], math.inf)
    return TINY if small and span["size"] < min(TINY_PT, drawn_large_from) else None


def _glyph_kind(  # noqa: PLR0913
    char: tuple,
    rect: Quad,
    ink: Quad | None,
    colour: tuple[float, float, float] | None,
    clip_kept: set[tuple[str, int, int]] | None,
    painters: Painters | None,
    seqno: int,
) -> str | None:
    if clip_kept is not None and not kept(char, clip_kept):
        return CLIPPED
    if painters is not None and painters.masked(seqno) and not painters.text_shows(rect):
        return SAME_COLOUR  # a soft mask lets none of it through
    if painters is not None and painters.blended_over(rect, seqno):
        if painters.text_shows(rect):
            return None
        return _glyph_kind(char, rect, ink, colour, None, None, seqno) or COVERED
    if painters is not None and painters.covered(ink or rect, seqno):
        return COVERED
    if colour is None:
        return None
    if painters is None:
        return SAME_COLOUR if same_colour(colour, WHITE) else None
    unknown = False  # an image or a shading may lie behind: the page's pixels tell
    for part in judged_at(rect):
        backgrounds = painters.backgrounds(part, seqno)
        if backgrounds is None:
            unknown = True
        elif not all(same_colour(colour, b) for b in backgrounds):
            return None
    return None if unknown and painters.text_shows(rect) else SAME_COLOUR


def _covers(kind: str) -> bool:
    return kind in ("fill-path", "stroke-path", "fill-image", "fill-shade")


def _hidden_annotations(page: pymupdf.Page) -> Iterator[HiddenContent]:
    for annot in page.annots():
        text = str(annot.info.get("content", "") or "")
        no_appearance = page.parent.xref_get_key(annot.xref, "AP")[0] == "null"
        if annot.flags & HIDDEN_ANNOT_FLAGS or (no_appearance and text.strip()):
            yield HiddenContent(page.number, HIDDEN_ANNOTATION, quad(annot.rect), text)
    # A form field MuPDF does not show on screen (`on_screen.py`). PyMuPDF lists a page's
    # fields apart, and not at all when their tree runs in a cycle; detection then reads
    # the values off the fields' own dictionaries.
    try:
        widgets = list(page.widgets())
    except MUPDF_ERRORS:
        widgets = []
    pdf = pymupdf.mupdf.pdf_specifics(page.parent.this)
    for widget in widgets:
        if not drawn_on_screen(pymupdf.mupdf.pdf_load_object(pdf, widget.xref)):
            text = str(widget.field_value or "")
            yield HiddenContent(page.number, HIDDEN_ANNOTATION, quad(widget.rect), text)


def _merged(page: int, glyphs: Iterable[HiddenGlyph]) -> Iterator[HiddenContent]:
    """Consecutive glyphs of one kind and one painting operation become one finding."""
    run: list[HiddenGlyph] = []
    for glyph in [*glyphs, None]:
        if run and (glyph is None or (glyph.kind, glyph.seqno) != (run[0].kind, run[0].seqno)):
            rect = (
                min(g.rect[0] for g in run),
                min(g.rect[1] for g in run),
                max(g.rect[2] for g in run),
                max(g.rect[3] for g in run),
            )
            yield HiddenContent(page, run[0].kind, rect, "".join(g.text for g in run).strip())
            run = []
        if glyph is not None:
            run.append(glyph)


def _point_box(origin: Sequence[float]) -> Quad:
    x, y = float(origin[0]), float(origin[1])
    return (x, y - 0.01, x + 0.01, y)
