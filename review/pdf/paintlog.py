"""One pass over a page's painting (Django-free), for the hidden-content analysis.

`PaintLog` is a MuPDF device run once over a page. It records what `Page.get_bboxlog`
records (the kind and box of each painting operation, in order), what each operation
can reach through its clips, and whether the page is plain: nothing on it can be hidden.
Most pages are, and that one pass settles them; `hidden` analyses the others glyph by
glyph, asking `painters.Painters` (built from the same log) what covers a glyph and
what lies behind it.
"""

from __future__ import annotations

import math
from typing import Self

import pymupdf
from pymupdf import mupdf

from review.pdf.clip_shapes import Clip, ClipShape, UnreadOutlines
from review.pdf.geometry import UNBOUNDED, Quad, clamp_to, intersects, within
from review.pdf.paint_text import (
    drawn_type3_glyph,
    flat,
    glyph_under,
    has_blocks,
    large_type3_fonts,
)

TINY_PT = 1.0  # text under this size is hidden (`hidden.TINY`)
OPAQUE = 0.99
# Strokes at least this wide may cover a glyph or lie behind one (the plain page's least
# text size: a thinner line hides no glyph a reader could read). A name struck through
# with a line 16 points wide was taken for seen (`painters`, `stroke_bands`).
WIDE_STROKE_PT = 1.5
# Points by which a drawing may fall short of its pattern cell and still fill it.
_CELL_SLACK = 0.5
# Texts and images a page may paint before it is proved plain the slow way no more.
PLAIN_PROOF_LIMIT = 5_000
WHITE = (1.0, 1.0, 1.0)
# Channel difference (0-1) under which text and its background are the same colour.
SAME_COLOUR_DELTA = 0.03


def same_colour(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) < SAME_COLOUR_DELTA


class PaintLog(mupdf.FzDevice2):
    """One pass over a page's painting, recording what `Page.get_bboxlog` records (the
    kind and box of each painting operation, in order, so an index is the seqno that
    `get_texttrace` reports; `get_drawings` skips paths of nothing), what each can reach
    (its box within the bounds of the clips it paints through) and whether it is plain.

    A page is plain when nothing on it can be hidden, judged by whole painting
    operations and always erring towards "not plain": every text is filled (no render
    mode 3 or clip modes), not transparent, at least 1.5 pt, inside the crop box and
    inside every clip (each a rectangle), on the bare page in a colour far from white or
    wholly on an opaque rectangle (or an unmasked image or a shading) of a colour far from its own;
    every image lies inside the crop box; no fill, image or shading is painted over
    earlier images or over half of an earlier glyph (upright text: a burned-in box next
    to the words left of it on its line), and no wide stroke over or under a glyph; no
    soft masks, tiling patterns or stroked text. Anything else sends the page to the glyph-by-glyph analysis, which decides."""

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
        # Seqnos of the invisible text MuPDF adds after drawing a Type 3 glyph itself
        # (`paint_text.drawn_type3_glyph`): seen, as the drawing just before it.
        self.drawn_glyphs: set[int] = set()
        self._block_fonts: dict[str, bool] = {}  # `paint_text.has_blocks`
        # Seqnos of text drawn flat: through a matrix that maps its glyphs to no area.
        self.flat_text: set[int] = set()
        # By name, the least size a Type 3 font is set in where it draws a glyph large,
        # however small that size (`paint_text.large_type3_fonts`).
        self.large_type3: dict[str, float] = {}
        self._converted = mupdf.fz_convert_color2_v()
        self._params = self._PARAMS.internal()
        # Text (kept, with its matrix, to find its glyphs) and images painted so far.
        self._painted: list[tuple[Quad, mupdf.FzText | None, mupdf.FzMatrix | None]] = []
        self._bounds: Quad | None = None  # of `_painted`
        # Fills, images and shadings so far: box, colour when an opaque rectangle fill.
        self._covers: list[tuple[Quad, tuple[float, float, float] | None]] = []
        self._clips: list[Quad | None] = []  # None: not a rectangle
        # By depth as `_clips`, the outline of a clipping path that is no rectangle, or
        # `UnreadOutlines` for a clip of glyphs or strokes; None for a rectangle or a
        # mask (its box bounds it).
        self._clip_shapes: list[Clip | None] = []
        # By seqno, the outlines of the clips an operation was painted through, and the
        # bounds of them all where each is a rectangle (None: one is not; no entry: none).
        self.clip_shapes: dict[int, tuple[Clip, ...]] = {}
        self.clip_bounds: dict[int, Quad | None] = {}
        self._defining_masks = 0  # depth of soft masks whose content is being drawn
        # Seqnos of fills, images and shadings that hide nothing under them: painted
        # translucent (`see_through`, with their opacity), or drawing a soft mask's
        # content (`mask_content`), which is not painted on the page at all (a drop
        # shadow's mask image over a heading, pdf.js's issue14297.pdf). What a soft mask
        # lets through is not known, so paint through one still covers.
        self.see_through: dict[int, float] = {}
        self.mask_content: set[int] = set()
        # The opacity of the transparency groups being drawn, multiplied, innermost last:
        # a group's opacity applies to all it paints (an opaque fill in a form drawn with
        # "/ca .15" over a tax form's notes tints them; it hides nothing).
        self._group_alphas: list[float] = [1.0]
        # The blend mode of each group being drawn, and whether it is a knockout group.
        self._group_modes: list[tuple[int, bool]] = [(mupdf.FZ_BLEND_NORMAL, False)]
        # Seqnos painted in a group of another blend mode than Normal: what they paint
        # over may show through, which `painters.text_shows` settles by rendering.
        self.blended: set[int] = set()
        # Seqnos painted through a soft mask, which may let nothing through: text there is
        # settled by rendering too. `_masks` holds the depths in `_clips` of the masks.
        self.masked: set[int] = set()
        self.text_clips = False
        self._masks: list[int] = []
        # The intersection of the bounding boxes of the clips in `_clips`, one per depth;
        # any clip's bounding box bounds what it lets through, rectangle or not.
        self._bounds_of_clips: list[Quad] = []
        # Pattern cells being drawn, outermost first: (the cell, what the pattern's fill
        # reaches on the page). MuPDF draws a cell's content once, where the pattern's
        # grid starts (off the page, often), and repeats it over the fill.
        self._tiles: list[tuple[Quad, Quad]] = []
        # By seqno, each operation drawn inside a cell: what its pattern's fill reaches,
        # and the cell it was drawn in.
        self.tiled: dict[int, Quad] = {}
        self.cells: dict[int, Quad] = {}
        # Seqnos of those that do not fill their whole cell: pieces repeated over the
        # fill (a table's border, hatching), which cover no one place of it whole.
        self.pattern_pieces: set[int] = set()
        # By seqno, the image each image operation draws, as one number: the same for
        # every placement of one image object (MuPDF loads it once), another for each
        # inline image. Each is kept while the log lives, so no number is reused.
        self.images: dict[int, int] = {}
        self._kept_images: list[mupdf.FzImage] = []
        # Whether some /ActualText stands in for drawn glyphs: extraction writes it in
        # their place, so what they show is read again without it (`detect`).
        self.actual_text = False
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
            "begin_group",
            "end_group",
            "begin_tile",
            "end_tile",
            "begin_metatext",
        ):
            getattr(self, "use_virtual_" + name)()

    @classmethod
    def of(cls, page: pymupdf.Page, area: Quad, *args: object) -> Self:
        device = cls(area, *args)
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
        if self._bounds is None or not intersects(box, self._bounds):
            return
        for earlier, text, ctm in self._painted:
            if not intersects(box, earlier):
                continue
            if text is None or ctm is None or glyph_under(text, ctm, box):
                self.plain = False
                return

    def _logged(self, kind: str, box: Quad, alpha: float = 1.0) -> Quad:
        """Log a painting operation; what it can reach."""
        alpha = self.opacity(alpha)
        if self._defining_masks:
            self.mask_content.add(len(self.log))
        elif alpha < OPAQUE:
            self.see_through[len(self.log)] = alpha
        if any(mode != mupdf.FZ_BLEND_NORMAL for mode, _ in self._group_modes):
            self.blended.add(len(self.log))
        if self._masks:
            self.masked.add(len(self.log))
        bounds = self._bounds_of_clips[-1] if self._bounds_of_clips else None
        if bounds is not None:
            self.clip_bounds[len(self.log)] = None if None in self._clips else bounds
        reach = box if bounds is None else clamp_to(box, bounds)
        shaped = tuple(shape for shape in self._clip_shapes if shape is not None)
        if shaped:
            self.clip_shapes[len(self.log)] = shaped
        if self._tiles:
            cell, fill = self._tiles[0]
            self.tiled[len(self.log)], self.cells[len(self.log)] = fill, cell
            if len(self._tiles) == 1 and within(cell, _grown(box, _CELL_SLACK)):
                reach = fill
            else:
                self.pattern_pieces.add(len(self.log))
        self.log.append((kind, box))
        self.reach.append(reach)
        return reach

    def _push_clip(self, box: Quad, rectangle: bool, shape: Clip | None = None) -> None:
        self._clips.append(box if rectangle else None)
        self._clip_shapes.append(shape)
        outer = self._bounds_of_clips[-1] if self._bounds_of_clips else UNBOUNDED
        self._bounds_of_clips.append(clamp_to(box, outer))

    def _painted_now(self, box: Quad, text=None, ctm=None) -> None:  # noqa: ANN001
        if len(self._painted) >= PLAIN_PROOF_LIMIT:
            # Proving the page plain costs each painting a look at all before it: past
            # this many, the glyph analysis decides (a CSS background drawn as 700,000
            # placements of one pixel took hours, iText's html2pdf tests, and 100,000,
            # as many as a page may draw, minutes).
            self.plain = False
            return
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
        if alpha < SAME_COLOUR_DELTA or not within(box, self.area):
            return False
        for clip in self._clips:
            if clip is None or not within(box, clip):
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
        for cover, fill in reversed(self._covers):
            if intersects(box, cover):
                # The latest thing under the text is all its background; an image's or
                # a shading's colours are for the page's pixels to tell (`hidden`).
                if not within(box, cover) or fill is None:
                    return False
                return _far(colour, fill, self.COLOUR_DELTA)
        return _far(colour, WHITE, self.COLOUR_DELTA)

    def fill_text(self, ctx, text, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        box = _quad4(mupdf.ll_fz_bound_text(text, None, ctm))
        self._logged("fill-text", box)
        if flat(text, ctm):
            self.flat_text.add(len(self.log) - 1)
        for name, size in large_type3_fonts(text, ctm, 2 * TINY_PT).items():
            self.large_type3[name] = min(size, self.large_type3.get(name, size))
        if self.plain:
            alpha = self.opacity(alpha)
            self.plain = self._text_plain(text, ctm, colorspace, color, alpha, box)
            if self.plain and has_blocks(text, self._block_fonts):
                self._paint_over(box)  # a row of "█" typed over words hides them
            self._painted_now(box, text, ctm)

    def stroke_text(self, ctx, text, stroke, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        self._logged("stroke-text", _quad4(mupdf.ll_fz_bound_text(text, stroke, ctm)))
        if flat(text, ctm):
            self.flat_text.add(len(self.log) - 1)
        self.plain = False

    def ignore_text(self, ctx, text, ctm) -> None:  # noqa: ANN001
        box = _quad4(mupdf.ll_fz_bound_text(text, None, ctm))
        if drawn_type3_glyph(text) and self._drawn_just_before(box):
            self.drawn_glyphs.add(len(self.log))
        self._logged("ignore-text", box)
        self.plain = False

    def _drawn_just_before(self, box: Quad) -> bool:
        """The operation just before paints where `box` lies: a glyph's own drawing."""
        if not self.log:
            return False
        kind, earlier = self.log[-1]
        seen = kind in _PAINTING or len(self.log) - 1 in self.drawn_glyphs
        return seen and intersects(box, earlier)

    def fill_path(self, ctx, path, even_odd, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        reach = self._logged("fill-path", _quad4(mupdf.ll_fz_bound_path(path, None, ctm)), alpha)
        if self.plain:
            self._paint_over(reach)
            opaque_rectangle = self.opacity(alpha) >= OPAQUE and mupdf.ll_fz_path_is_rect(path, ctm)
            colour = self._rgb(colorspace, color) if opaque_rectangle else None
            self._covers.append((reach, colour))

    def stroke_path(self, ctx, path, stroke, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        reach = self._logged(
            "stroke-path", _quad4(mupdf.ll_fz_bound_path(path, stroke, ctm)), alpha
        )
        if self.plain and stroke.linewidth * mupdf.ll_fz_matrix_expansion(ctm) >= WIDE_STROKE_PT:
            self._paint_over(reach)
            self._covers.append((reach, None))

    def fill_shade(self, ctx, shade, ctm, alpha, params) -> None:  # noqa: ANN001
        reach = self._logged("fill-shade", _quad4(mupdf.ll_fz_bound_shade(shade, ctm)), alpha)
        if self.plain:
            self._paint_over(reach)
            self._covers.append((reach, None))

    def fill_image(self, ctx, image, ctm, alpha, params) -> None:  # noqa: ANN001
        kept = mupdf.FzImage(mupdf.ll_fz_keep_image(image))
        self._kept_images.append(kept)
        self.images[len(self.log)] = kept.m_internal_value()
        box = _quad4(mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm))
        reach = self._logged("fill-image", box, alpha)
        if self.plain:
            self._paint_over(reach)
            self.plain = self.plain and within(box, self.area)
            self._covers.append((reach, None))
            self._painted_now(box)

    def fill_image_mask(self, ctx, image, ctm, colorspace, color, alpha, params) -> None:  # noqa: ANN001
        box = _quad4(mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm))
        reach = self._logged("fill-imgmask", box, alpha)
        if self.plain:
            self._paint_over(reach)
            self._covers.append((reach, None))

    def clip_path(self, ctx, path, even_odd, ctm, scissor) -> None:  # noqa: ANN001
        box = _quad4(mupdf.ll_fz_bound_path(path, None, ctm))
        rectangle = bool(mupdf.ll_fz_path_is_rect(path, ctm))
        self._push_clip(box, rectangle, None if rectangle else ClipShape(path, ctm, even_odd))

    def clip_stroke_path(self, ctx, path, stroke, ctm, scissor) -> None:  # noqa: ANN001
        self._push_clip(_quad4(mupdf.ll_fz_bound_path(path, stroke, ctm)), False, UnreadOutlines())

    def clip_text(self, ctx, text, ctm, scissor) -> None:  # noqa: ANN001
        self._push_clip(_quad4(mupdf.ll_fz_bound_text(text, None, ctm)), False, UnreadOutlines())
        self.plain = False  # render modes 4 to 7
        self.text_clips = True  # mode 7 is in no trace: `clip_only_text`

    def clip_stroke_text(self, ctx, text, stroke, ctm, scissor) -> None:  # noqa: ANN001
        self._push_clip(_quad4(mupdf.ll_fz_bound_text(text, stroke, ctm)), False, UnreadOutlines())
        self.plain = False

    def clip_image_mask(self, ctx, image, ctm, scissor) -> None:  # noqa: ANN001
        self._push_clip(_quad4(mupdf.ll_fz_transform_rect(mupdf.fz_unit_rect, ctm)), False)

    def pop_clip(self, ctx) -> None:  # noqa: ANN001
        if self._masks and self._masks[-1] == len(self._clips) - 1:
            self._masks.pop()
        if self._clips:
            self._clips.pop()
            self._clip_shapes.pop()
            self._bounds_of_clips.pop()

    def begin_mask(self, ctx, area, luminosity, colorspace, colour, params) -> None:  # noqa: ANN001
        self.plain = False  # a soft mask: what it lets through is not known here
        self._defining_masks += 1

    def end_mask(self, ctx, function) -> None:  # noqa: ANN001
        # The mask applies as a clip until its pop_clip. A luminosity mask's backdrop can
        # let paint through outside its area: no bound.
        self._defining_masks = max(0, self._defining_masks - 1)
        self._masks.append(len(self._clips))
        self._push_clip(UNBOUNDED, False)

    def opacity(self, alpha: float) -> float:
        """What a painting at `alpha` is seen at: through every group being drawn."""
        return alpha * self._group_alphas[-1]

    def clips_may_cut(self, seqno: int, box: Quad) -> bool:
        """Whether a clip `seqno` was painted through may cut into `box`: one that is no
        rectangle (a path, glyphs, an image mask), or rectangles not holding it all."""
        bounds = self.clip_bounds.get(seqno, UNBOUNDED)
        return bounds is None or not within(box, bounds)

    def plainly_painted(self, alpha: float, *, through_paths: bool = False) -> bool:
        """Seen in no translucent or blending group, soft mask or pattern cell, through
        rectangles alone (or, `through_paths`, through clipping paths too, which the
        caller judges): drawn again alone at `alpha`, it looks as it did."""
        return (
            alpha > 0
            and self.opacity(1) >= OPAQUE
            and all(mode == mupdf.FZ_BLEND_NORMAL and not ko for mode, ko in self._group_modes)
            and not self._defining_masks
            and not self._tiles
            and all(
                clip is not None or through_paths and isinstance(shape, ClipShape)
                for clip, shape in zip(self._clips, self._clip_shapes, strict=True)
            )
        )

    def begin_group(self, ctx, area, colorspace, isolated, knockout, blendmode, alpha) -> None:  # noqa: ANN001, PLR0913
        self._group_alphas.append(self._group_alphas[-1] * alpha)
        self._group_modes.append((blendmode, bool(knockout)))

    def end_group(self, ctx) -> None:  # noqa: ANN001
        if len(self._group_alphas) > 1:
            self._group_alphas.pop()
            self._group_modes.pop()

    def begin_tile(self, ctx, area, view, xstep, ystep, ctm, tile_id, doc_id) -> int:  # noqa: ANN001
        self.plain = False  # pattern cells are painted in pattern space
        # Both are given in pattern space.
        cell = _quad4(mupdf.ll_fz_transform_rect(view, ctm))
        fill = _quad4(mupdf.ll_fz_transform_rect(area, ctm))
        if self._bounds_of_clips:
            fill = clamp_to(fill, self._bounds_of_clips[-1])
        self._tiles.append((cell, fill))
        return 0  # not cached: MuPDF draws the cell's content now

    def end_tile(self, ctx) -> None:  # noqa: ANN001
        if self._tiles:
            self._tiles.pop()

    def begin_metatext(self, ctx, meta, text) -> None:  # noqa: ANN001
        if meta == mupdf.FZ_METATEXT_ACTUALTEXT:
            self.actual_text = True


# Logged operations that put ink on the page.
_PAINTING = frozenset(
    "fill-path stroke-path fill-text stroke-text fill-shade fill-image fill-imgmask".split()
)


def _grown(box: Quad, by: float) -> Quad:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _quad4(rect) -> Quad:  # noqa: ANN001
    return (rect.x0, rect.y0, rect.x1, rect.y1)


def _far(a: tuple[float, float, float], b: tuple[float, float, float], delta: float) -> bool:
    return max(abs(x - y) for x, y in zip(a, b, strict=True)) >= delta
