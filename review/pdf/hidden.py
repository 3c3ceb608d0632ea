"""Find content a reader of the page cannot see (Django-free).

The reviewer approves what the page image shows. Whatever else a PDF carries on a page
is hidden content: detection shows it to the reviewer as `hidden_content` marks,
`sanitize` removes it, and the release gate (`verify`) runs this same analysis on the
output and fails with `unseen_content` if anything is left. The kinds:

- `outside_crop_box`: glyphs or images wholly outside the crop box (or the media box);
  a glyph the page edge cuts through was partly seen and stays;
- `covered`: text, or a whole image, painted over later by an opaque fill or image;
- `invisible`: text in render mode 3 or with zero opacity (an OCR layer lying on the
  scanned image it was read from, above or below it, is not hidden: the reviewer saw the
  image);
- `same_colour`: text in the colour of what lies behind it (white on white);
- `tiny`: text under 1 pt;
- `clipped`: text cut away by a clipping path;
- `hidden_layer`: text or images in an optional-content group that is off;
- `hidden_annotation`: an annotation that is hidden, or has contents but no appearance.

Everything is measured in PyMuPDF's unrotated page space (as `get_text` reports it),
where the visible area is the crop box's size from the origin. Most pages are settled
by one pass over their painting operations (`_PaintLog`), which proves nothing on them
can be hidden; the rest are analysed per glyph, from MuPDF's ordered record of what was
painted (`get_texttrace`, whose `seqno` indexes the paint log, and `get_drawings` for
fill colours and opacity).
"""

from __future__ import annotations

import math
import pathlib
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import pymupdf
from pymupdf import mupdf

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

TINY_PT = 1.0
# Channel difference (0-1) under which text and its background are the same colour.
SAME_COLOUR_DELTA = 0.03
# Share of a glyph's box a later opaque shape must cover to hide it.
COVERED_SHARE = 0.9
OPAQUE = 0.99
# A fill hides a glyph only if the rendered area has the fill's colour (within this
# many levels of 255) but for this share of its pixels (anti-aliased edges).
SHOW_THROUGH_DELTA = 48
SHOW_THROUGH_SHARE = 0.02
HIDDEN_ANNOT_FLAGS = pymupdf.PDF_ANNOT_IS_HIDDEN | pymupdf.PDF_ANNOT_IS_NO_VIEW
OCR_FONT = "GlyphLessFont"  # Tesseract's invisible text layer
OCR_LAYER = "ocr_layer"  # not hidden: the text of the scan it lies over
# With an unbounded clip rectangle, extraction drops only what clipping paths cut away;
# ligatures are expanded so characters count as in the trace.
CLIPPED_FLAGS = (pymupdf.TEXTFLAGS_RAWDICT | pymupdf.TEXT_CLIP) & ~pymupdf.TEXT_PRESERVE_LIGATURES

Quad = tuple[float, float, float, float]
UNBOUNDED: Quad = (-math.inf, -math.inf, math.inf, math.inf)
WHITE = (1.0, 1.0, 1.0)


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

    @property
    def has_invisible_text(self) -> bool:
        return bool(self.ocr_layer) or any(g.kind == INVISIBLE for g in self.hidden)

    def touches_visible(self, rect: Quad) -> bool:
        """Whether `rect` meets a glyph a reader sees."""
        return any(
            _intersects(rect, span.box) and any(_intersects(rect, _quad(c[3])) for c in span.chars)
            for span in self.visible
        )


def find_hidden(
    pdf: bytes | str | pathlib.Path | pymupdf.Document, *, pages: set[int] | None = None
) -> list[HiddenContent]:
    """Every piece of hidden content of every page (or of `pages`), runs of glyphs of
    one kind merged."""
    if isinstance(pdf, pymupdf.Document):
        doc = pdf
    elif isinstance(pdf, bytes):
        doc = pymupdf.open(stream=pdf, filetype="pdf")
    else:
        doc = pymupdf.open(pdf, filetype="pdf")
    try:
        layered = layers_on(doc)
        found: list[HiddenContent] = []
        for page in doc:
            if pages is None or page.number in pages:
                found.extend(page_hidden(page, layered[page.number] if layered else None))
        return found
    finally:
        if doc is not pdf:
            doc.close()


def page_hidden(page: pymupdf.Page, layered: pymupdf.Page | None = None) -> list[HiddenContent]:
    """Every piece of hidden content of one page, runs of glyphs of one kind merged.
    `layered` is the page of `layers_on` (None when no layer is off)."""
    analysis = analyse_page(page, layered)
    found = list(_merged(page.number, analysis.hidden))
    if page.annot_xrefs():  # one cheap call; most pages have no annotations
        found.extend(_hidden_annotations(page))
    return found


def analyse_page(
    page: pymupdf.Page,
    layered: pymupdf.Page | None = None,
    *,
    clipped_text: pymupdf.TextPage | None = None,
    exhaustive: bool = False,
) -> PageAnalysis:
    """Classify every glyph and image of `page`. `layered` is the same page with every
    optional-content group on (see `layers_on`), to find what an off layer hides.
    `clipped_text` is the page's text extracted with `CLIPPED_FLAGS`, when the caller
    has it already. `exhaustive` looks at every glyph even on a plain page.

    Most pages are plain (see `_PaintLog`): one pass over their painting proves that
    nothing on them is hidden, and `visible` is left empty as nobody needs it. On the
    others most spans are still plainly visible and settled as a whole; only the rest
    are looked at glyph by glyph."""
    crop = page.cropbox
    area: Quad = (0.0, 0.0, crop.width, crop.height)
    paint = _PaintLog.of(page, area)
    if paint.plain and layered is None and not exhaustive:
        return PageAnalysis(hidden=[], visible=[])
    log = paint.log
    trace = page.get_texttrace()
    painters = _Painters(page, paint) if any(_covers(kind) for kind, _ in log) else None
    clip_kept = _clip_kept(page, trace, clipped_text) if trace else None
    hidden: list[HiddenGlyph] = []
    visible: list[_Span] = []
    ocr_layer: list[Quad] = []
    for span in trace:
        seqno = span["seqno"]
        box = _quad(span["bbox"])
        span_kind = _span_kind(span, box, painters)
        if span_kind == OCR_LAYER:
            ocr_layer.append(box)  # neither seen nor hidden: the image shows it
            continue
        colour = _rgb(span["color"])
        if (
            span_kind is None
            and _within(box, area)
            and clip_kept is None
            and (painters is None or painters.untouched(box))
            and not _same_colour(colour, WHITE)
        ):
            visible.append(_Span(box, span["chars"]))
            continue
        seen = []
        kind = span_kind
        for char in span["chars"]:
            rect = _quad(char[3])
            if chr(char[0]).isspace():
                continue  # no ink: nothing to see, nothing to hide
            if _area(rect) == 0:
                # The second letter of a ligature ("fi") has no box of its own: it
                # shares the fate of the glyph it belongs to.
                rect = _point_box(char[2])
            elif not _intersects(rect, area):
                kind = OUTSIDE_CROP_BOX  # wholly: a glyph cut by the edge was partly seen
            elif span_kind is not None:
                kind = span_kind
            else:
                kind = _glyph_kind(char, rect, colour, clip_kept, painters, seqno)
            if kind is None:
                seen.append(char)
            else:
                hidden.append(HiddenGlyph(kind, rect, chr(char[0]), seqno))
        if seen:
            visible.append(_Span(box, tuple(seen)))
    for seqno, (kind, bbox) in enumerate(log):
        if kind != "fill-image":
            continue
        rect = _quad(bbox)
        if not _intersects(rect, area):
            hidden.append(HiddenGlyph(OUTSIDE_CROP_BOX, rect, "", seqno))
        elif painters is not None and painters.covered(rect, seqno, whole=True):
            hidden.append(HiddenGlyph(COVERED, rect, "", seqno))
    if layered is not None:
        hidden.extend(_off_layer_content(layered, page))
    return PageAnalysis(hidden=hidden, visible=visible, ocr_layer=ocr_layer)


class _PaintLog(mupdf.FzDevice2):
    """One pass over a page's painting, recording what `Page.get_bboxlog` records (the
    kind and box of each painting operation, in order, so an index is the seqno that
    `get_texttrace` and `get_drawings` report), what each operation can reach (its box
    within the bounds of the clips it paints through) and whether the page is plain.

    A page is plain when nothing on it can be hidden, judged by whole painting
    operations and always erring towards "not plain": every text is filled (no render
    mode 3 or clip modes), not transparent, at least 1.5 pt, inside the crop box and
    inside every clip (each a rectangle), on the bare page in a colour far from white or
    wholly on an opaque rectangle (or an image or shading) of a colour far from its own;
    every image lies inside the crop box; no fill, image or shading is painted over
    earlier images or over half of an earlier glyph (upright text: a burned-in box next
    to the words left of it on its line); no soft masks, tiling patterns or stroked
    text. Anything else sends the page to the glyph-by-glyph analysis, which decides."""

    _RGB = mupdf.FzColorspace(mupdf.FzColorspace.Fixed_RGB)
    _PARAMS = mupdf.FzColorParams()
    # Margins over the glyph analysis's own thresholds, so a plain page is one it would
    # also find nothing on.
    MIN_SIZE = 1.5 * TINY_PT
    COLOUR_DELTA = 0.1

    def __init__(self, area: Quad) -> None:
        super().__init__()
        self.area = area
        self.log: list[tuple[str, Quad]] = []
        # By seqno. A shading's own box is often unbounded (it extends past its ends) and
        # a fill's may run past its clip: only what a clip lets through can hide anything.
        self.reach: list[Quad] = []
        self.plain = True
        self._converted = mupdf.fz_convert_color2_v()
        self._params = self._PARAMS.internal()
        # Text (kept, with its matrix, to find its glyphs) and images painted so far.
        self._painted: list[tuple[Quad, mupdf.FzText | None, mupdf.FzMatrix | None]] = []
        self._bounds: Quad | None = None  # of `_painted`
        # Fills, images and shadings so far: box, colour when an opaque rectangle fill.
        self._covers: list[tuple[Quad, tuple[float, float, float] | None, bool]] = []
        self._clips: list[Quad | None] = []  # None: not a rectangle
        # The intersection of the bounding boxes of the clips in `_clips`, one per depth;
        # any clip's bounding box bounds what it lets through, rectangle or not.
        self._bounds_of_clips: list[Quad] = []
        for name in (
            "fill_path",
            "stroke_path",
            "clip_path",
            "clip_stroke_path",
            "fill_text",
            "stroke_text",
            "clip_text",
            "clip_stroke_text",
            "ignore_text",
            "fill_shade",
            "fill_image",
            "fill_image_mask",
            "clip_image_mask",
            "pop_clip",
            "begin_mask",
            "end_mask",
            "begin_tile",
        ):
            getattr(self, "use_virtual_" + name)()

    @classmethod
    def of(cls, page: pymupdf.Page, area: Quad) -> _PaintLog:
        device = cls(area)
        rotation = page.rotation
        if rotation:
            page.set_rotation(0)  # unrotated page space, as get_bboxlog and get_texttrace
        try:
            mupdf.fz_run_page(page.this, device, mupdf.FzMatrix(), mupdf.FzCookie())
            mupdf.fz_close_device(device)
        finally:
            if rotation:
                page.set_rotation(rotation)
        return device

    def _rgb(self, colorspace, color) -> tuple[float, float, float] | None:  # noqa: ANN001
        if not colorspace:
            return None  # a pattern: colour unknown
        rgb = self._converted
        mupdf.ll_fz_convert_color2(colorspace, color, self._RGB.m_internal, rgb, None, self._params)
        return (rgb.v0, rgb.v1, rgb.v2)

    def _paint_over(self, box: Quad) -> None:
        """A fill, image or shading: not plain if it lies over an earlier image or over
        half of an earlier glyph."""
        if self._bounds is None or not _intersects(box, self._bounds):
            return
        for earlier, text, ctm in self._painted:
            if not _intersects(box, earlier):
                continue
            if text is None or ctm is None or _glyph_under(text, ctm, box):
                self.plain = False
                return

    def _logged(self, kind: str, box: Quad) -> Quad:
        """Log a painting operation; what it can reach."""
        reach = _clamp(box, self._bounds_of_clips[-1]) if self._bounds_of_clips else box
        self.log.append((kind, box))
        self.reach.append(reach)
        return reach

    def _push_clip(self, box: Quad, rectangle: bool) -> None:
        self._clips.append(box if rectangle else None)
        outer = self._bounds_of_clips[-1] if self._bounds_of_clips else UNBOUNDED
        self._bounds_of_clips.append(_clamp(box, outer))

    def _painted_now(self, box: Quad, text=None, ctm=None) -> None:  # noqa: ANN001
        if text is not None:
            text, ctm = mupdf.FzText(mupdf.ll_fz_keep_text(text)), mupdf.FzMatrix(ctm)
        self._painted.append((box, text, ctm))
        b = self._bounds
        self._bounds = (
            box
            if b is None
            else (min(b[0], box[0]), min(b[1], box[1]), max(b[2], box[2]), max(b[3], box[3]))
        )

    def _text_plain(self, text, ctm, colorspace, color, alpha: float, box: Quad) -> bool:  # noqa: ANN001
        if alpha <= 0.0 or not _within(box, self.area):
            return False
        for clip in self._clips:
            if clip is None or not _within(box, clip):
                return False
        # Each span's size: the smaller side and the square root of the area of a unit
        # square under its matrix (a stretched or skewed glyph is as small as it looks).
        concat, hypot, minimum = mupdf.ll_fz_concat, math.hypot, self.MIN_SIZE
        span = text.head
        while span:
            m = concat(span.trm, ctm)
            a, b, c, d = m.a, m.b, m.c, m.d
            if hypot(a, b) < minimum or hypot(c, d) < minimum or abs(a * d - b * c) < minimum**2:
                return False
            span = span.next
        colour = self._rgb(colorspace, color)
        if colour is None:
            return False
        for cover, fill, is_shape in reversed(self._covers):
            if _intersects(box, cover):
                # The latest thing under the text is all its background.
                if not _within(box, cover) or not is_shape:
                    return False
                return fill is None or _far(colour, fill, self.COLOUR_DELTA)
        return _far(colour, WHITE, self.COLOUR_DELTA)

    def fill_text(self, ctx, text, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        box = _quad4(mupdf.ll_fz_bound_text(text, None, ctm))
        self._logged("fill-text", box)
        if self.plain:
            self.plain = self._text_plain(text, ctm, colorspace, color, alpha, box)
            self._painted_now(box, text, ctm)

    def stroke_text(self, ctx, text, stroke, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        self._logged("stroke-text", _quad4(mupdf.ll_fz_bound_text(text, stroke, ctm)))
        self.plain = False

    def ignore_text(self, ctx, text, ctm) -> None:  # noqa: ANN001
        self._logged("ignore-text", _quad4(mupdf.ll_fz_bound_text(text, None, ctm)))
        self.plain = False

    def fill_path(self, ctx, path, even_odd, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        reach = self._logged("fill-path", _quad4(mupdf.ll_fz_bound_path(path, None, ctm)))
        if self.plain:
            self._paint_over(reach)
            opaque_rectangle = alpha >= OPAQUE and mupdf.ll_fz_path_is_rect(path, ctm)
            colour = self._rgb(colorspace, color) if opaque_rectangle else None
            self._covers.append((reach, colour, colour is not None))

    def stroke_path(self, ctx, path, stroke, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        self._logged("stroke-path", _quad4(mupdf.ll_fz_bound_path(path, stroke, ctm)))

    def fill_shade(self, ctx, shade, ctm, alpha, params) -> None:  # noqa: ANN001
        reach = self._logged("fill-shade", _quad4(mupdf.ll_fz_bound_shade(shade, ctm)))
        if self.plain:
            self._paint_over(reach)
            self._covers.append((reach, None, True))

    def fill_image(self, ctx, image, ctm, alpha, params) -> None:  # noqa: ANN001
        box = _quad4(mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm))
        reach = self._logged("fill-image", box)
        if self.plain:
            self._paint_over(reach)
            self.plain = self.plain and _within(box, self.area)
            self._covers.append((reach, None, True))
            self._painted_now(box)

    def fill_image_mask(self, ctx, image, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        box = _quad4(mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm))
        reach = self._logged("fill-imgmask", box)
        if self.plain:
            self._paint_over(reach)
            self._covers.append((reach, None, False))

    def clip_path(self, ctx, path, even_odd, ctm, scissor) -> None:  # noqa: ANN001
        box = _quad4(mupdf.ll_fz_bound_path(path, None, ctm))
        self._push_clip(box, bool(mupdf.ll_fz_path_is_rect(path, ctm)))

    def clip_stroke_path(self, ctx, path, stroke, ctm, scissor) -> None:  # noqa: ANN001
        self._push_clip(_quad4(mupdf.ll_fz_bound_path(path, stroke, ctm)), False)

    def clip_text(self, ctx, text, ctm, scissor) -> None:  # noqa: ANN001
        self._push_clip(_quad4(mupdf.ll_fz_bound_text(text, None, ctm)), False)
        self.plain = False  # render modes 4 to 7

    def clip_stroke_text(self, ctx, text, stroke, ctm, scissor) -> None:  # noqa: ANN001
        self._push_clip(_quad4(mupdf.ll_fz_bound_text(text, stroke, ctm)), False)
        self.plain = False

    def clip_image_mask(self, ctx, image, ctm, scissor) -> None:  # noqa: ANN001
        self._push_clip(_quad4(mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm)), False)

    def pop_clip(self, ctx) -> None:  # noqa: ANN001
        if self._clips:
            self._clips.pop()
            self._bounds_of_clips.pop()

    def begin_mask(self, ctx, area, luminosity, colorspace, colour, params) -> None:  # noqa: ANN001
        self.plain = False  # a soft mask: what it lets through is not known here

    def end_mask(self, ctx, function) -> None:  # noqa: ANN001
        # The mask applies as a clip until its pop_clip. A luminosity mask's backdrop can
        # let paint through outside its area: no bound.
        self._push_clip(UNBOUNDED, False)

    def begin_tile(self, ctx, area, view, xstep, ystep, ctm, tile_id, doc_id) -> int:  # noqa: ANN001
        self.plain = False  # pattern cells are painted in pattern space
        return 0


def _glyph_under(text: mupdf.FzText, ctm: mupdf.FzMatrix, box: Quad) -> bool:
    """Whether `box` lies over half of a glyph of `text` (other than a space), each glyph
    measured as `get_texttrace` does (advance by ascender to descender); always true for
    text that is not upright, which this does not measure."""
    a, b, c, d, e, f = ctm.a, ctm.b, ctm.c, ctm.d, ctm.e, ctm.f
    span = text.m_internal.head
    while span:
        m = mupdf.ll_fz_concat(span.trm, ctm.internal())
        if m.b or m.c or m.a <= 0 or m.d >= 0:
            return True
        font, size = span.font, m.a
        ascender, descender = mupdf.ll_fz_font_ascender(font), mupdf.ll_fz_font_descender(font)
        if ascender < 1e-3:  # as get_texttrace: probably an OCR font
            ascender, descender = 0.9, -0.1
        above = ascender * size / (ascender - descender)
        below = descender * size / (ascender - descender)
        wrapped = mupdf.FzTextSpan(span)
        for i in range(span.len):
            item = wrapped.items(i)
            x = item.x * a + item.y * c + e
            y = item.x * b + item.y * d + f
            # No glyph advances further than twice the font size.
            if y - above >= box[3] or y - below <= box[1] or not box[0] - 2 * size < x < box[2]:
                continue
            if item.ucs >= 0 and chr(item.ucs).isspace():
                continue
            advance = mupdf.ll_fz_advance_glyph(font, item.gid, span.wmode) if item.gid >= 0 else 0
            glyph = (x, y - above, x + advance * size, y - below)
            if _overlap(glyph, box) >= 0.5 * _area(glyph):
                return True
        span = span.next
    return False


def _quad4(rect) -> Quad:  # noqa: ANN001
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def _far(a: tuple[float, float, float], b: tuple[float, float, float], delta: float) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) >= delta


def layers_on(doc: pymupdf.Document) -> pymupdf.Document | None:
    """A second copy of `doc` with every optional-content group on, or None when no
    group is off. MuPDF leaves off-layer content out of every trace and extraction."""
    if not any(not group["on"] for group in doc.get_ocgs().values()):
        return None
    copy = pymupdf.open("pdf", doc.tobytes())
    for config in copy.layer_ui_configs():
        copy.set_layer_ui_config(config["number"], pymupdf.PDF_OC_ON)
    return copy


def _off_layer_content(layered: pymupdf.Page, page: pymupdf.Page) -> Iterator[HiddenGlyph]:
    off = {group["name"] for group in page.parent.get_ocgs().values() if not group["on"]}
    for span in layered.get_texttrace():
        if span.get("layer") in off:
            for char in span["chars"]:
                yield HiddenGlyph(HIDDEN_LAYER, _quad(char[3]), chr(char[0]), span["seqno"])
    for seqno, (kind, bbox, layer) in enumerate(layered.get_bboxlog(layers=True)):
        if kind == "fill-image" and layer in off:
            yield HiddenGlyph(HIDDEN_LAYER, _quad(bbox), "", seqno)


def _span_kind(span: dict, box: Quad, painters: _Painters | None) -> str | None:
    """What hides a whole span: its render mode, its opacity, its size."""
    if span["type"] in (2, 3) or span.get("opacity", 1.0) <= 0.0:  # clip-only or no paint
        over_image = painters is not None and painters.on_image(box)
        if over_image or span.get("font", "").split("+")[-1] == OCR_FONT:
            return OCR_LAYER
        return INVISIBLE
    if span["size"] < TINY_PT:
        return TINY
    return None


def _glyph_kind(
    char: tuple,
    rect: Quad,
    colour: tuple[float, float, float],
    clip_kept: set[tuple[str, int, int]] | None,
    painters: _Painters | None,
    seqno: int,
) -> str | None:
    if clip_kept is not None and _char_key(char) not in clip_kept:
        return CLIPPED
    if painters is not None and painters.covered(rect, seqno):
        return COVERED
    background = painters.background(rect, seqno) if painters is not None else WHITE
    if background is not None and _same_colour(colour, background):
        return SAME_COLOUR
    return None


def _clip_kept(
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
    kept = set()
    for block in page.get_text("rawdict", textpage=clipped)["blocks"]:
        for line in block.get("lines", ()):
            for span in line["spans"]:
                for char in span["chars"]:
                    kept.add(_key(char["c"], char["origin"]))
    return kept


def clipped_textpage(page: pymupdf.Page) -> pymupdf.TextPage:
    """The page's text as a reader sees it: everything a clipping path leaves, wherever
    it lies (outside the crop box too), ligatures expanded."""
    return page.get_textpage(flags=CLIPPED_FLAGS, clip=pymupdf.INFINITE_RECT())


def _char_key(char: tuple) -> tuple[str, int, int]:
    """A traced glyph's key, its character as `CLIPPED_FLAGS` extraction writes it: a
    ligature's first letter at its origin ("ﬁ" as "f"), an unknown one as its glyph id."""
    c, glyph = chr(char[0]), char[1]
    if c == "\ufffd" and glyph >= 0:
        c = chr(glyph)
    return _key(_expanded(c)[0], char[2])


def _expanded(c: str) -> str:
    """A ligature ("ﬁ", U+FB00 to U+FB06) as the letters extraction expands it to."""
    return unicodedata.normalize("NFKC", c) if "\ufb00" <= c <= "\ufb06" else c


def _key(c: str, origin: Sequence[float]) -> tuple[str, int, int]:
    # Extraction writes a non-breaking hyphen as "-" (seen with MuPDF 1.28): one key.
    return "-" if c == "\u2011" else c, round(origin[0] * 4), round(origin[1] * 4)


def _covers(kind: str) -> bool:
    return kind in ("fill-path", "fill-image", "fill-shade")


class _Painters:
    """The opaque fills and images of a page, in painting order."""

    def __init__(self, page: pymupdf.Page, paint: _PaintLog) -> None:
        self.page = page
        log = paint.log
        self._blending: bool | None = None
        self.shapes: list[tuple[int, Quad, tuple[float, float, float] | None, bool]] = []
        fills = {}
        if any(kind == "fill-path" for kind, _ in log):
            for drawing in page.get_drawings():
                if drawing.get("fill") is not None:
                    fills[drawing["seqno"]] = drawing
        masked = (
            {_rounded(_quad(i["bbox"])) for i in page.get_image_info() if i.get("has-mask")}
            if any(kind == "fill-image" for kind, _ in log)
            else set()
        )
        for seqno, ((kind, bbox), reach) in enumerate(zip(log, paint.reach, strict=True)):
            if kind == "fill-path":
                drawing = fills.get(seqno)
                if drawing is None or (drawing.get("fill_opacity") or 1.0) < OPAQUE:
                    continue
                if not _is_rectangle(drawing):
                    continue  # a curve or polygon: its bounding box overstates it
                self.shapes.append((seqno, reach, _rgb(drawing["fill"]), False))
            elif kind == "fill-image" and _rounded(bbox) not in masked:
                self.shapes.append((seqno, reach, None, True))
            elif kind == "fill-shade":
                self.shapes.append((seqno, reach, None, False))

    def covered(self, rect: Quad, seqno: int, *, whole: bool = False) -> bool:
        share = 1.0 if whole else COVERED_SHARE
        area = _area(rect)
        return any(
            later > seqno
            and _overlap(rect, shape) >= share * area
            and not (colour is not None and self._shows_through(rect, shape, colour))
            for later, shape, colour, _ in self.shapes
        )

    def _shows_through(self, rect: Quad, shape: Quad, colour: tuple[float, float, float]) -> bool:
        """Whether what lies under an opaque fill still shows: a highlighter's rectangle
        painted in Multiply blend mode hides nothing. MuPDF reports no blend mode per
        fill, so when the document uses one, the page is rendered where the fill lies
        over the glyph and the glyph counts as covered only if every pixel there has the
        fill's colour."""
        if self._blending is None:
            self._blending = _uses_blend_modes(self.page.parent)
        if not self._blending:
            return False
        clip = (
            pymupdf.Rect(
                max(rect[0], shape[0]),
                max(rect[1], shape[1]),
                min(rect[2], shape[2]),
                min(rect[3], shape[3]),
            )
            * self.page.rotation_matrix  # rendering works on the page as shown
        )
        pix = self.page.get_pixmap(clip=clip, dpi=144, alpha=False, colorspace=pymupdf.csRGB)
        fill = [round(channel * 255) for channel in colour]
        samples, stride = pix.samples, pix.n
        off = sum(
            1
            for i in range(0, len(samples), stride)
            if max(abs(samples[i + c] - fill[c]) for c in range(3)) > SHOW_THROUGH_DELTA
        )
        return off > SHOW_THROUGH_SHARE * (len(samples) // stride)

    def untouched(self, box: Quad) -> bool:
        """No fill, image or shading anywhere over or under `box`."""
        return not any(_intersects(box, shape) for _, shape, _, _ in self.shapes)

    def on_image(self, rect: Quad) -> bool:
        """`rect` lies on an image, painted before or after it (OCR tools do both)."""
        return any(
            is_image and _contains_point(shape, _centre(rect))
            for _, shape, _, is_image in self.shapes
        )

    def background(self, rect: Quad, seqno: int) -> tuple[float, float, float] | None:
        """The colour behind `rect`: the last opaque fill painted before it, white for
        the bare page, None when it is an image or a shading (colour unknown)."""
        for earlier, shape, colour, _ in reversed(self.shapes):
            if earlier < seqno and _contains_point(shape, _centre(rect)):
                return colour
        return WHITE


def _uses_blend_modes(doc: pymupdf.Document) -> bool:
    """Some graphics state of the document paints with a blend mode other than Normal."""
    for xref in range(1, doc.xref_length()):
        kind, value = doc.xref_get_key(xref, "BM")
        if kind != "null" and value not in ("/Normal", "/Compatible"):
            return True
    return False


def _is_rectangle(drawing: dict) -> bool:
    items = drawing.get("items", ())
    if all(item[0] in ("re", "qu") for item in items):
        return True
    # Four straight sides that close on the drawing's own box: a rectangle too.
    rect = drawing["rect"]
    points = [point for item in items if item[0] == "l" for point in item[1:3]]
    return (
        len(items) in (3, 4)
        and all(item[0] == "l" for item in items)
        and all(
            (abs(p.x - rect.x0) < 0.5 or abs(p.x - rect.x1) < 0.5)
            and (abs(p.y - rect.y0) < 0.5 or abs(p.y - rect.y1) < 0.5)
            for p in points
        )
    )


def _hidden_annotations(page: pymupdf.Page) -> Iterator[HiddenContent]:
    for annot in page.annots():
        text = str(annot.info.get("content", "") or "")
        no_appearance = page.parent.xref_get_key(annot.xref, "AP")[0] == "null"
        if annot.flags & HIDDEN_ANNOT_FLAGS or (no_appearance and text.strip()):
            yield HiddenContent(page.number, HIDDEN_ANNOTATION, _quad(annot.rect), text)


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


def _rgb(colour: Sequence[float] | float | int | None) -> tuple[float, float, float]:
    if colour is None:
        return (0.0, 0.0, 0.0)
    if isinstance(colour, int | float):  # sRGB packed as an int by some PyMuPDF calls
        value = int(colour)
        return ((value >> 16 & 255) / 255, (value >> 8 & 255) / 255, (value & 255) / 255)
    values = tuple(float(v) for v in colour)
    if len(values) == 1:
        return (values[0], values[0], values[0])
    if len(values) == 4:
        c, m, y, k = values
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    if len(values) == 3:
        return (values[0], values[1], values[2])
    return (0.0, 0.0, 0.0)


def _same_colour(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) < SAME_COLOUR_DELTA


def _quad(rect: Sequence[float] | pymupdf.Rect) -> Quad:
    return (float(rect[0]), float(rect[1]), float(rect[2]), float(rect[3]))


def _point_box(origin: Sequence[float]) -> Quad:
    x, y = float(origin[0]), float(origin[1])
    return (x, y - 0.01, x + 0.01, y)


def _rounded(rect: Quad) -> tuple[int, int, int, int]:
    return (round(rect[0]), round(rect[1]), round(rect[2]), round(rect[3]))


def _area(rect: Quad) -> float:
    return max(0.0, rect[2] - rect[0]) * max(0.0, rect[3] - rect[1])


def _overlap(a: Quad, b: Quad) -> float:
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width * height if width > 0 and height > 0 else 0.0


def _clamp(a: Quad, b: Quad) -> Quad:
    """The part of `a` inside `b`: a box of no area where they do not meet."""
    x0, y0 = max(a[0], b[0]), max(a[1], b[1])
    return (x0, y0, max(x0, min(a[2], b[2])), max(y0, min(a[3], b[3])))


def _within(a: Quad, b: Quad) -> bool:
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def _intersects(a: Quad, b: Quad) -> bool:
    return a[0] < b[2] and a[2] > b[0] and a[1] < b[3] and a[3] > b[1]


def _centre(rect: Quad) -> tuple[float, float]:
    return ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)


def _contains_point(rect: Quad, point: tuple[float, float]) -> bool:
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]
