"""Image masks (stencils) under redaction boxes (Django-free).

Ghostscript writes a table's rules and a fraction's bar as an image mask of one pixel
("BI /IM true /W 1 /H 1 /BPC 1 ID ... EI") that "cm" stretches into the line. A
redaction clears each pixel of an image that a box meets, and that one pixel is the
whole rule: a mark in a table cell took its row's rules across the table (CERMINE's
test1.pdf). Before the redaction, each such stencil a box meets is drawn again as the
same picture in pixels of at most half a point, so the redaction clears only the
pixels under the box. A stencil paints in the colour in force, so the new one draws
exactly what the old one did; so is an image of a few pixels in a gray, RGB or CMYK
space (a coloured band drawn as one stretched pixel turned white from end to end), with
its soft mask drawn again the same way (one black pixel a transparent mask hid,
stretched over a slide, came out opaque: the slide turned dark).

MuPDF 1.28.2's redaction writes an inline stencil it cleared pixels of with 8 bits a
pixel ("BI /W 64/H 64/BPC 8/IM true"), which no reader takes as a stencil (one bit a
pixel, always): the whole picture came out garbled around the box. `one_bit_stencils`
writes them again with one bit a pixel.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import pymupdf
from pymupdf import mupdf

from review.pdf.content_streams import read_content
from review.pdf.geometry import Quad, intersects, pdf_to_page, quad
from review.pdf.glyph_cut import FilterChooser, run_filter

# Pixels a stencil may have to be drawn again: one, or a few (a dotted rule).
MOST_PIXELS = 64
# Points a pixel of the new stencil spans at most, and its pixels along a side.
PIXEL_PT = 0.5
MOST_ALONG = 4096
# An inline stencil as MuPDF's redaction writes it (pdf-op-buffer.c, `pdf_out_BI`): its
# samples a byte each, in hexadecimal or as they are.
_EIGHT_BIT_STENCIL = re.compile(
    rb"BI /W (\d+)/H (\d+)/BPC 8/IM true/D\[([01]) ([01])\](/F/AHx)?[\x00\t\n\f\r ]?ID[\x00\t\n\f\r ]"
)


def finer_stencils(
    page: pymupdf.Page, boxes: Sequence[Quad], log: Sequence[tuple[str, Quad]]
) -> bool:
    """Draw each stencil, or image `_redrawable` says can be, of at most
    `MOST_PIXELS` that a box meets in pixels of at most `PIXEL_PT`, its picture
    unchanged. `log`: the page's bbox log (`get_bboxlog`), where most pages show no
    image a box meets. Whether a stencil does (then the redaction rewrites it, and
    `one_bit_stencils` has work)."""
    met = {
        kind
        for kind, bbox in log
        if kind in ("fill-imgmask", "fill-image")
        and any(intersects(quad(bbox), box) for box in boxes)
    }
    if met:
        run_filter(page, _Finer(page, boxes))
    return "fill-imgmask" in met


# An image's colour spaces that the new image can name: the device spaces, by components.
_DEVICE_SPACES = {"DeviceGray": 1, "DeviceRGB": 3, "DeviceCMYK": 4}
_GRAY = "/ColorSpace/DeviceGray/BitsPerComponent 8"


class _Finer(FilterChooser):
    def __init__(self, page: pymupdf.Page, boxes: Sequence[Quad]) -> None:
        super().__init__()
        self.use_virtual_image_filter()
        self.doc = page.parent
        self.boxes = boxes
        self.to_page = pdf_to_page(page)

    def image_filter(self, ctx, ctm, name, image, scissor):  # noqa: ANN001, ANN201, PLR0913
        # The filter drops the image it gets back: hand it a reference.
        try:
            kept = mupdf.FzImage(mupdf.ll_fz_keep_image(image))
            if kept.w() * kept.h() <= MOST_PIXELS and _redrawable(kept):
                corners = [
                    pymupdf.Point(u * ctm.a + v * ctm.c + ctm.e, u * ctm.b + v * ctm.d + ctm.f)
                    * self.to_page
                    for u, v in ((0, 0), (1, 0), (0, 1), (1, 1))
                ]
                xs, ys = [c.x for c in corners], [c.y for c in corners]
                placed = (min(xs), min(ys), max(xs), max(ys))
                if any(intersects(placed, box) for box in self.boxes):
                    across = _pixels(math.hypot(ctm.a, ctm.b), kept.w())
                    down = _pixels(math.hypot(ctm.c, ctm.d), kept.h())
                    return mupdf.ll_fz_keep_image(self._finer(kept, across, down).m_internal)
        except Exception as exc:  # noqa: BLE001 - re-raised by run_filter
            self.error = exc
        return mupdf.ll_fz_keep_image(image)

    def _finer(self, image: mupdf.FzImage, across: int, down: int) -> mupdf.FzImage:
        """`image`'s picture in `across` by `down` pixels (each of the new pixels takes
        the old pixel it lies in), with its soft mask so too, as an image object of the
        document: what MuPDF's writer can write again, inline or not."""
        if image.imagemask():
            kind = "/ImageMask true/BitsPerComponent 1/Decode[0 1]"
        else:
            # Its device space by components: an ICC based one draws the same.
            space = {n: name for name, n in _DEVICE_SPACES.items()}[image.n()]
            kind = f"/ColorSpace/{space}/BitsPerComponent 8"
            mask = image.mask()
            if mask.m_internal is not None:
                alpha = self._image_object(mask, across, down, _GRAY)
                kind += f"/SMask {alpha} 0 R"
        xref = self._image_object(image, across, down, kind)
        pdf = mupdf.pdf_document_from_fz_document(self.doc.this)
        return mupdf.pdf_load_image(pdf, mupdf.pdf_new_indirect(pdf, xref, 0))

    def _image_object(self, image: mupdf.FzImage, across: int, down: int, kind: str) -> int:
        xref = self.doc.get_new_xref()
        self.doc.update_object(
            xref, f"<</Type/XObject/Subtype/Image/Width {across}/Height {down}{kind}>>"
        )
        self.doc.update_stream(xref, _finer_rows(image, across, down), compress=True)
        return xref


def _finer_rows(image: mupdf.FzImage, across: int, down: int) -> bytes:
    """The samples of `image` drawn in `across` by `down` pixels: a stencil's one bit a
    pixel, any other image's a byte a component."""
    old = mupdf.fz_get_unscaled_pixmap_from_image(image)
    samples = bytes(old.fz_pixmap_samples_memoryview())
    stride, width, height, n = old.stride(), old.w(), old.h(), old.n()
    rows = []
    for y in range(down):
        row = samples[(y * height // down) * stride :]
        pixels = [row[x * width // across * n :][:n] for x in range(across)]
        if image.imagemask():  # its pixmap is its coverage: 255 where it paints
            bits = 0
            for pixel in pixels:
                bits = bits << 1 | (pixel[0] < 128)  # 1: unpainted
            row_bytes = (across + 7) // 8
            rows.append((bits << (row_bytes * 8 - across)).to_bytes(row_bytes, "big"))
        else:
            rows.append(b"".join(pixels))
    return b"".join(rows)


def _redrawable(image: mupdf.FzImage) -> bool:
    """A stencil, or an image in a gray, RGB or CMYK space (device or ICC based) with
    no mask or a soft mask: what `_Finer` draws again exactly."""
    if image.imagemask():
        return True
    mask = image.mask()
    if mask.m_internal is not None and not _plain_gray(mask):
        return False
    return not image.use_colorkey() and _plain(image)


def _plain(image: mupdf.FzImage) -> bool:
    """Its pixels are its colour space's components and nothing more (no alpha, no
    palette, no separations)."""
    space = image.colorspace()
    return (
        space.m_internal is not None
        and mupdf.fz_colorspace_n(space) in _DEVICE_SPACES.values()
        and (
            space.fz_colorspace_is_gray()
            or space.fz_colorspace_is_rgb()
            or space.fz_colorspace_is_cmyk()
        )
        and image.n() == mupdf.fz_colorspace_n(space)
    )


def _plain_gray(mask: mupdf.FzImage) -> bool:
    """A soft mask of a few pixels `_Finer` draws again."""
    return (
        not mask.imagemask()
        and mask.mask().m_internal is None
        and mask.w() * mask.h() <= MOST_PIXELS
        and mask.n() == 1  # MuPDF loads a soft mask in no colour space: its alpha
        and (mask.colorspace().m_internal is None or _plain(mask))
    )


def _pixels(length_pt: float, pixels: int) -> int:
    """Pixels along a side `length_pt` long: none wider than `PIXEL_PT`, at least as
    many as the stencil has there (each keeps whole new pixels)."""
    wanted = max(pixels, math.ceil(length_pt / PIXEL_PT))
    return min(MOST_ALONG // pixels, -(-wanted // pixels)) * pixels


def one_bit_stencils(page: pymupdf.Page) -> None:
    """Write each inline stencil MuPDF's redaction wrote with 8 bits a pixel, in the
    page's content and the forms it draws, with one bit a pixel."""
    doc = page.parent
    for xref in [*page.get_contents(), *(form[0] for form in page.get_xobjects())]:
        data = read_content(doc, xref)
        if data and _EIGHT_BIT_STENCIL.search(data):
            doc.update_stream(xref, _packed(data))


def _packed(data: bytes) -> bytes:
    out, last = [], 0
    for found in _EIGHT_BIT_STENCIL.finditer(data):
        if found.start() < last:
            continue  # inside the samples of the one before
        width, height = int(found[1]), int(found[2])
        start = found.end()
        if found[5]:  # hexadecimal, up to ">"
            end = data.index(b">", start) + 1
            samples = bytes.fromhex(data[start : end - 1].decode("ascii"))
        else:
            end = start + width * height
            samples = data[start:end]
        row_bytes = (width + 7) // 8
        rows = []
        for y in range(height):
            bits = 0
            for sample in samples[y * width : (y + 1) * width]:
                bits = bits << 1 | (sample >= 128)
            rows.append((bits << (row_bytes * 8 - width)).to_bytes(row_bytes, "big"))
        head = b"BI /W %d/H %d/BPC 1/IM true/D[%s %s]/F/AHx ID " % (
            width,
            height,
            found[3],
            found[4],
        )
        out += [data[last : found.start()], head, b"".join(rows).hex().encode(), b">"]
        last = end
    return b"".join(out) + data[last:]
