"""The opaque fills and images of a page and what lies under its text (Django-free),
from the page's paint log (`paintlog.PaintLog`): what covers a glyph, what colour lies
behind it, whether a highlighter's fill lets it show through. `hidden` asks these for
pages the paint log could not settle as plain.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import pymupdf
from pymupdf import mupdf

from review.pdf import stroke_bands
from review.pdf.clip_shapes import Point, clips_hold
from review.pdf.fill_points import fill_holds
from review.pdf.geometry import (
    BoxGrid,
    Quad,
    area_of,
    centre,
    clamp_to,
    contains_point,
    intersects,
    overlap,
    painted_rectangles,
    quad,
    rounded,
)
from review.pdf.paintlog import OPAQUE, WHITE, WIDE_STROKE_PT, PaintLog
from review.pdf.soft_masks import SoftMasks, image_placements

# Share of a glyph's box a later opaque shape must cover to hide it.
COVERED_SHARE = 0.9
# Text shows where the page drawn without it differs by more than this many levels of
# 255 at more than this many pixels of its box (at 144 dpi): both renders draw all else
# alike, and a dot leader's ink is a few pixels of a box as tall as the line.
SHOW_THROUGH_DELTA = 48
SHOW_THROUGH_PIXELS = 2
# Whether a fill or stroke paints a point: yes, no, or perhaps (None).
Shape = Callable[[Point], bool | None]


class Painters:
    """The opaque fills, wide strokes (`stroke_bands`) and images of a page, in painting
    order (`shapes`), and all that lies under text, for its background (`backgrounds`)."""

    def __init__(self, page: pymupdf.Page, paint: PaintLog) -> None:
        self.page = page
        log = paint.log
        self._clip_shapes = paint.clip_shapes
        self._blended = paint.blended
        self._masked = paint.masked
        self._without_text: _WithoutText | None = None
        self.shapes: list[tuple[int, Quad, tuple[float, float, float] | None, bool]] = []
        # (seqno, reach, colour or None when unknown, opacity, shape): fills that are no
        # rectangle and wide strokes (`shape` says whether they paint a point, perhaps:
        # the box overstates them) or translucent count too.
        self._grounds: list[
            tuple[
                int,
                Quad,
                tuple[float, float, float] | None,
                float,
                Shape | None,
            ]
        ] = []
        fills, strokes = {}, {}
        if any(kind in ("fill-path", "stroke-path") for kind, _ in log):
            logged = _drawings_in_log(log)
            for path in _drawings(page):
                # A path filled and stroked ("fs") is logged as its fill, then its stroke.
                fill, stroke = path["seqno"], path["seqno"] + (path["type"] == "fs")
                if stroke >= len(logged):
                    continue  # numbered past the log: nothing of the log to describe
                if path.get("fill") is not None:
                    fills[logged[fill]] = path
                if path.get("color") is not None and stroke_bands.wide_enough(path, WIDE_STROKE_PT):
                    strokes[logged[stroke]] = path
        images = image_placements(page) if any(k == "fill-image" for k, _ in log) else []
        masked = {
            rounded(quad(i["bbox"]))
            for i in images
            if i.get("has-mask") or _keyed(page.parent, i.get("xref", 0))
        }
        soft_masks = SoftMasks(page.parent, images)
        for seqno, ((kind, bbox), reach) in enumerate(zip(log, paint.reach, strict=True)):
            if seqno in paint.mask_content or seqno in paint.pattern_pieces:
                continue
            translucent = seqno in paint.see_through
            if kind == "fill-path":
                drawing = fills.get(seqno)
                if drawing is None:
                    continue
                colour, exact = to_rgb(drawing["fill"]), _is_rectangle(drawing)
                opacity = paint.see_through.get(seqno, 1.0)
                shape: Shape | None = None if exact else functools.partial(fill_holds, drawing)
                self._grounds.append((seqno, reach, colour, opacity, shape))
                if opacity >= OPAQUE:
                    for piece in [reach] if exact else _filled_rectangles(drawing):
                        if intersects(piece, reach):
                            self.shapes.append((seqno, clamp_to(piece, reach), colour, False))
            elif kind == "stroke-path" and seqno in strokes:
                drawing = strokes[seqno]
                colour, opacity = to_rgb(drawing["color"]), paint.see_through.get(seqno, 1.0)
                bands = stroke_bands.bands(drawing)
                shape = stroke_bands.holder(drawing, bands)
                self._grounds.append((seqno, reach, colour, opacity, shape))
                if opacity >= OPAQUE:
                    for band in bands:
                        if intersects(band, reach):
                            self.shapes.append((seqno, clamp_to(band, reach), colour, False))
            elif kind == "fill-imgmask":
                # A stencil paints its colour where its bits are set, which is not read
                # here: what lies under text on it is unknown (a calculator's screen
                # drawn white over a black box, under black words, in a TI-89 guide).
                self._grounds.append((seqno, reach, None, 1.0, None))
            elif kind == "fill-image" and rounded(bbox) in masked:
                # Painted only where its mask lets it: behind text there, covering none.
                shows = functools.partial(soft_masks.shows, rounded(bbox))
                self._grounds.append((seqno, reach, None, 1.0, shows))
            elif kind == "fill-image" or kind == "fill-shade":
                self._grounds.append((seqno, reach, None, 1.0, None))
                if not translucent:
                    self.shapes.append((seqno, reach, None, kind == "fill-image"))
        crop = page.cropbox
        extent = (0.0, 0.0, crop.width, crop.height)
        self._shapes_near = BoxGrid([shape[1] for shape in self.shapes], extent)
        self._grounds_near = BoxGrid([ground[1] for ground in self._grounds], extent)

    def cover_with(self, shapes: Sequence[tuple[int, Quad, tuple[float, float, float]]]) -> None:
        """Count opaque glyphs that paint a solid rectangle (`ink_boxes.block_glyphs`),
        each by its seqno, ink and colour, among the shapes that cover what lies under."""
        self.shapes.extend((seqno, ink, colour, False) for seqno, ink, colour in shapes)
        crop = self.page.cropbox
        self._shapes_near = BoxGrid(
            [shape[1] for shape in self.shapes], (0, 0, crop.width, crop.height)
        )

    def _shapes_meeting(
        self, rect: Quad
    ) -> list[tuple[int, Quad, tuple[float, float, float] | None, bool]]:
        return [self.shapes[i] for i in self._shapes_near.near(rect)]

    def covered(self, rect: Quad, seqno: int, *, whole: bool = False) -> bool:
        share = 1.0 if whole else COVERED_SHARE
        area = area_of(rect)
        # A box of no area counts as covered by any later shape, near it or not.
        shapes = self._shapes_meeting(rect) if area > 0 else self.shapes
        # The disjoint rectangles of one fill (`_filled_rectangles`) cover together.
        by_fill: dict[int, float] = {}
        parts: list[Quad] = []
        for later, shape, _, _ in shapes:
            if (
                later > seqno
                and overlap(rect, shape) > 0
                and all(clip.lets_through(rect) for clip in self._clip_shapes.get(later, ()))
            ):
                by_fill[later] = by_fill.get(later, 0.0) + overlap(rect, shape)
                if by_fill[later] >= share * area:
                    return True
                parts.append(clamp_to(shape, rect))
        # So do several fills: burn-in splits a footer's white band into pieces around
        # a mark, which overlap by a point where they meet, and the page number the band
        # hid was taken for seen, kept by sanitize and refused by the gate (a Syncfusion
        # sample). What they paint together is counted once.
        if len(by_fill) < 2 or sum(by_fill.values()) < share * area:
            return False
        together = painted_rectangles(parts, even_odd=False)
        return sum(area_of(part) for part in together) >= share * area

    def blended_over(self, rect: Quad, seqno: int) -> bool:
        """Something painted after `seqno` in another blend mode than Normal meets
        `rect`: whether text there shows is for `text_shows` to say."""
        return any(
            self._grounds[i][0] > seqno
            and self._grounds[i][0] in self._blended
            and intersects(rect, self._grounds[i][1])
            for i in self._grounds_near.near(rect)
        )

    def masked(self, seqno: int) -> bool:
        """Painted through a soft mask: whether it shows is for `text_shows` to say."""
        return seqno in self._masked

    def text_shows(self, rect: Quad) -> bool:
        """Whether the page looks otherwise where `rect` lies without its text. Painted
        in a blend mode, a fill or image may let the text under it show (a highlighter's
        yellow in Multiply mode, a scan laid over a fax header in Overlay mode), hide it
        (white in Screen mode), or tint what lies behind white text and not the text (an
        orange gradient in pdf.js's issue18032.pdf)."""
        if self._without_text is None:
            self._without_text = _WithoutText(self.page)
        return self._without_text.differs(rect)

    def painted_over(self, box: Quad, seqno: int) -> bool:
        """A fill, image or shading painted after `seqno` meets `box`."""
        return any(
            later > seqno and intersects(box, shape)
            for later, shape, _, _ in self._shapes_meeting(box)
        )

    def untouched(self, box: Quad) -> bool:
        """No fill, image or shading anywhere over or under `box`: none that may cover it,
        and none it may lie on (black words across a black border drawn as a trapezoid
        were settled as seen, iText's html2pdf tests)."""
        if any(intersects(box, shape) for _, shape, _, _ in self._shapes_meeting(box)):
            return False
        return not any(intersects(box, self._grounds[i][1]) for i in self._grounds_near.near(box))

    def on_image(self, rect: Quad) -> bool:
        """`rect` lies on an image, painted before or after it (OCR tools do both)."""
        point = centre(rect)
        return any(
            is_image and contains_point(shape, point)
            for _, shape, _, is_image in self._shapes_meeting((*point, *point))
        )

    def backgrounds(
        self, rect: Quad, seqno: int, ground: tuple[int, tuple[float, float, float]] = (-1, WHITE)
    ) -> list[tuple[float, float, float]] | None:
        """The colours that may lie behind `rect`'s centre, from what was painted since
        `ground` (seqno and colour: the bare page's white, a glyph's ink) and before
        `seqno`: an opaque rectangle's colour, a translucent fill blended over what lies
        under it, both where a fill that is no rectangle may reach it or not (pdf.js's
        issue15372.pdf), a fill of straight sides only if it holds it (a frame's box
        holds the white inside it); None behind an image or a shading (unknown)."""
        point = centre(rect)
        possible: list[tuple[float, float, float]] | None = [ground[1]]
        for index in self._grounds_near.near((*point, *point)):
            earlier, reach, colour, opacity, shape = self._grounds[index]
            if earlier >= seqno:
                break
            if earlier <= ground[0] or not contains_point(reach, point):
                continue
            holds = shape(point) if shape is not None else True
            through = clips_hold(self._clip_shapes.get(earlier, ()), point)
            if holds is False or through is False:
                continue  # an HTML border's side is a trapezoid clipped to its ring
            exact = holds is True and through is True
            if colour is None:
                possible = None
            elif opacity >= OPAQUE and exact:
                possible = [colour]
            elif possible is not None:
                tinted = [_blended(colour, opacity, under) for under in possible]
                possible = list(dict.fromkeys(tinted if exact else possible + tinted))
                if len(possible) > _MAX_BACKGROUNDS:
                    possible = None
        return possible


class _WithoutText:
    """A page rendered as MuPDF runs it (its annotations and fields drawn, as the paint
    log has their text: a Stamp's "By Indiana Election Division", drawn in neither
    render, was taken for unseen) and without its text: a copy of it (no fields), its
    annotations drawn into it, its text taken. Where the copy cannot be made so, every
    text shows."""

    _DPI = 144

    def __init__(self, page: pymupdf.Page) -> None:
        self.as_is = page.get_pixmap(dpi=self._DPI, colorspace=pymupdf.csRGB)
        self.bare: pymupdf.Pixmap | None = None
        copy = pymupdf.open()
        copy.insert_pdf(page.parent, from_page=page.number, to_page=page.number)
        try:
            copy.bake()
        except (RuntimeError, ValueError, mupdf.FzErrorBase):
            return
        bare = copy[0]
        bare.add_redact_annot(bare.rect * bare.derotation_matrix, cross_out=False)
        bare.apply_redactions(
            images=pymupdf.PDF_REDACT_IMAGE_NONE,
            graphics=pymupdf.PDF_REDACT_LINE_ART_NONE,
            text=pymupdf.PDF_REDACT_TEXT_REMOVE,
        )
        self.bare = bare.get_pixmap(dpi=self._DPI, colorspace=pymupdf.csRGB, annots=False)
        # Unrotated page space to the renders' pixels, as plain numbers: rectangle
        # arithmetic through PyMuPDF's objects cost more than the pixels.
        self._to_pixels = tuple(
            page.rotation_matrix * pymupdf.Matrix(self._DPI / 72, self._DPI / 72)
        )

    def differs(self, rect: Quad) -> bool:
        """More than a few pixels of `rect` differ between the two renders."""
        if self.bare is None or (self.bare.width, self.bare.height) != (
            self.as_is.width,
            self.as_is.height,
        ):
            return True
        a, b, c, d, e, f = self._to_pixels
        xs = [a * x + c * y + e for x in (rect[0], rect[2]) for y in (rect[1], rect[3])]
        ys = [b * x + d * y + f for x in (rect[0], rect[2]) for y in (rect[1], rect[3])]
        width, height, stride = self.as_is.width, self.as_is.height, self.as_is.stride
        # The pixels wholly inside `rect`: one cut by its edge holds the ink of the glyph
        # next to it, which shows whether this one does or not (an "f" black on a black
        # box, judged seen by the "g" beside it on a highlight: x-ray's
        # rectangles_yes_2.pdf). A box narrower than a pixel keeps the pixels it meets.
        x0, x1 = _inner_span(min(xs), max(xs), width)
        y0, y1 = _inner_span(min(ys), max(ys), height)
        shown, bare, differ = self.as_is.samples_mv, self.bare.samples_mv, 0
        for y in range(y0, y1):
            row = slice(y * stride + 3 * x0, y * stride + 3 * x1)
            one, other = shown[row], bare[row]
            if one == other:
                continue  # most rows, where nothing shows
            differ += sum(
                1
                for i in range(0, len(one), 3)
                if max(abs(one[i + k] - other[i + k]) for k in range(3)) > SHOW_THROUGH_DELTA
            )
            if differ > SHOW_THROUGH_PIXELS:
                return True
        return False


def _inner_span(low: float, high: float, limit: int) -> tuple[int, int]:
    inner = (math.ceil(low), math.floor(high))
    start, end = inner if inner[0] < inner[1] else (math.floor(low), math.ceil(high))
    return max(0, start), min(limit, end)


# Beyond this many possible backgrounds (stacked fills that are no rectangles), the
# colour behind a glyph counts as unknown.
_MAX_BACKGROUNDS = 8


def _drawings_in_log(log: Sequence[tuple[str, Quad]]) -> list[int]:
    """Where each seqno of `get_drawings` stands in the paint log: `get_drawings`
    numbers no painting of a path that draws nothing ("n f", "10 10 m S"), which the
    log and `get_texttrace` count. Taken as the same numbers, every fill after such a
    painting (an SVG converter's "ET f") was given the colour of the one before it, and
    a pie chart's white labels were found on white and cut as hidden."""
    return [
        seqno
        for seqno, (kind, box) in enumerate(log)
        if kind not in ("fill-path", "stroke-path") or (box[0] <= box[2] and box[1] <= box[3])
    ]


def _blended(
    colour: tuple[float, float, float], opacity: float, under: tuple[float, float, float]
) -> tuple[float, float, float]:
    r, g, b = (
        round(opacity * c + (1 - opacity) * u, 3) for c, u in zip(colour, under, strict=True)
    )
    return (r, g, b)


def _keyed(doc: pymupdf.Document, xref: int) -> bool:
    """An image whose colour-key mask (/Mask as an array of colour ranges) leaves the
    pixels of those colours unpainted: the text round a picture cut out that way shows
    through its box (iText's imageColorKeyMaskArray.pdf lost it to sanitize)."""
    return xref > 0 and doc.xref_get_key(xref, "Mask")[0] == "array"


def _drawings(page: pymupdf.Page) -> list[dict]:
    """`Page.get_drawings`, but a rectangle keeps the way round it was drawn. PyMuPDF
    reads that from the way up only and then turns a rectangle drawn leftwards ("-64.2
    -55.8 re") the right way out, reversing it: a court's "Filed on" stamp framed by
    rectangles drawn each way in turn, filled by the nonzero rule, read as a red box."""
    drawings = page.get_cdrawings()
    for drawing in drawings:
        drawing["rect"] = pymupdf.Rect(drawing["rect"])
        items: list[tuple] = []
        for command, *rest in drawing["items"]:
            if command == "re":
                rect = pymupdf.Rect(rest[0])
                way_round = -rest[1] if rect.x0 > rect.x1 else rest[1]
                items.append(("re", rect.normalize(), way_round))
            elif command == "qu":
                items.append(("qu", pymupdf.Quad(rest[0])))
            else:
                items.append((command, *(pymupdf.Point(point) for point in rest)))
        drawing["items"] = items
    return drawings


def _filled_rectangles(drawing: dict) -> list[Quad]:
    """What a fill made of several upright rectangles paints (`painted_rectangles`); its
    box overstates it: a table's rules drawn as one fill of thin rectangles do not cover
    the cells' text (camelot's rotated table pages). Empty for a fill with any other
    piece. A slanted quad counts as its box, as when it is drawn alone."""
    items = drawing.get("items", ())
    if not items or any(item[0] not in ("re", "qu") for item in items):
        return []
    rects = [quad(item[1].rect if item[0] == "qu" else item[1]) for item in items]
    windings = [item[2] if item[0] == "re" and item[2] == -1 else 1 for item in items]
    return painted_rectangles(rects, even_odd=bool(drawing.get("even_odd")), windings=windings)


def _is_rectangle(drawing: dict) -> bool:
    items = drawing.get("items", ())
    if len(items) == 1 and items[0][0] in ("re", "qu"):
        return True
    # Four straight sides that close on the drawing's own box: a rectangle too. Each
    # side must run along the box: a thin slanted bar has its points near the box's
    # corners as well (a white underline under slanted white headings, pymupdf's
    # test_2645_2.pdf, is no white box under them).
    rect = drawing["rect"]
    points = [point for item in items if item[0] == "l" for point in item[1:3]]
    return (
        len(items) in (3, 4)
        and all(item[0] == "l" for item in items)
        and all(abs(a.x - b.x) < 0.5 or abs(a.y - b.y) < 0.5 for _, a, b in items)
        and all(
            (abs(p.x - rect.x0) < 0.5 or abs(p.x - rect.x1) < 0.5)
            and (abs(p.y - rect.y0) < 0.5 or abs(p.y - rect.y1) < 0.5)
            for p in points
        )
    )


def to_rgb(colour: Sequence[float] | float | int | None) -> tuple[float, float, float]:
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
