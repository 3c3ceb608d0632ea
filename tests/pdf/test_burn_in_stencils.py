"""Image masks (stencils), and images of a few pixels, that a box crosses keep their
picture around the box. MuPDF's redaction wrote an inline stencil it cleared pixels of
with 8 bits a pixel, and the whole picture came out garbled; and a rule Ghostscript
draws as one pixel stretched into a line lost that pixel, so all of the rule, to a mark
in a table cell (CERMINE's test1.pdf lost its table's rules)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource

# Stripes a pixel wide, 64 by 64 pixels: "1" leaves the stencil's pixel unpainted.
STRIPES = bytes([0b10101010] * 8 * 64)
BOX = pymupdf.Rect(50, 50, 100, 100)


def _stencil_page(draw: bytes, *, xobject: bytes | None = None, size: str = "64") -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=200)
    page.insert_text((10, 190), "Stencil page", fontsize=9)
    if xobject is not None:
        image = doc.get_new_xref()
        doc.update_object(
            image,
            f"<</Type/XObject/Subtype/Image/ImageMask true/Width {size}/Height {size}"
            "/BitsPerComponent 1>>",
        )
        doc.update_stream(image, xobject)
        set_resource(page, "XObject", f"<</S {image} 0 R>>")
    append_content(page, draw)
    return doc.tobytes()


def _ink(pdf: bytes) -> list[list[int]]:
    pixmap = pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(
        dpi=72, colorspace=pymupdf.csGRAY
    )
    return [[pixmap.pixel(x, y)[0] for x in range(pixmap.width)] for y in range(pixmap.height)]


def _changed_outside(before: bytes, after: bytes, box: pymupdf.Rect) -> int:
    around = box + (-2, -2, 2, 2)
    return sum(
        1
        for y, (old, new) in enumerate(zip(_ink(before), _ink(after), strict=True))
        for x, (a, b) in enumerate(zip(old, new, strict=True))
        if abs(a - b) > 64 and not around.contains(pymupdf.Point(x + 0.5, y + 0.5))
    )


@pytest.mark.parametrize(
    ("draw", "xobject"),
    [
        (b"q 0 0 1 rg 200 0 0 200 0 0 cm BI /IM true /W 64 /H 64 /BPC 1 ID " + STRIPES + b" EI Q", None),
        (b"q 0 0 1 rg 200 0 0 200 0 0 cm /S Do Q", STRIPES),
    ],
    ids=["inline", "xobject"],
)  # fmt: skip
def test_a_stencil_a_box_crosses_keeps_its_picture_around_the_box(
    draw: bytes, xobject: bytes | None
) -> None:
    pdf = _stencil_page(draw, xobject=xobject)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, BOX), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert _changed_outside(pdf, output, BOX) == 0
    assert verify(pdf, output, [mark]).ok


# A rule 180 pt long and half a point thick across the page at y = 75 (the page's y
# runs down), drawn as a stencil of one painting pixel.
RULE_CTM = b"180 0 0 0.5 10 124.75 cm "


@pytest.mark.parametrize(
    ("draw", "xobject"),
    [
        (b"q 0 g " + RULE_CTM + b"BI /IM true /W 1 /H 1 /BPC 1 ID \x00 EI Q", None),
        (b"q 0 g " + RULE_CTM + b"/S Do Q", b"\x00"),
    ],
    ids=["inline", "xobject"],
)
def test_a_rule_drawn_as_one_stretched_pixel_stays_beside_a_box(
    draw: bytes, xobject: bytes | None
) -> None:
    pdf = _stencil_page(draw, xobject=xobject, size="1")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, BOX), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    ink = _ink(output)
    assert ink[75][20] < 64 and ink[75][180] < 64  # both ends of the rule
    assert _changed_outside(pdf, output, BOX) == 0
    assert verify(pdf, output, [mark]).ok


@pytest.mark.parametrize(
    ("space", "sample", "colour"),
    [(b"/RGB", b"\xff\x00\x00", (255, 0, 0)), (b"/G", b"\x80", (128, 128, 128))],
    ids=["rgb", "gray"],
)
def test_a_band_drawn_as_one_stretched_pixel_keeps_its_colour_beside_a_box(
    space: bytes, sample: bytes, colour: tuple[int, int, int]
) -> None:
    """A redaction whitens each pixel of an image a box meets: a band 180 pt long drawn
    as one coloured pixel turned white from end to end."""
    band = b"q 180 0 0 20 10 90 cm BI /W 1 /H 1 /BPC 8 /CS " + space + b" ID " + sample + b" EI Q"
    pdf = _stencil_page(band)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(50, 80, 80, 120)  # across the band, which runs 90 to 110 down
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0].get_pixmap(dpi=72)
    assert released.pixel(20, 100) == released.pixel(150, 100) == colour
    assert verify(pdf, output, [mark]).ok


@pytest.mark.parametrize(("alpha", "colour"), [(0, (255, 255, 255)), (255, (255, 0, 0))])
def test_a_band_drawn_as_one_pixel_through_its_soft_mask_keeps_its_look_beside_a_box(
    alpha: int, colour: tuple[int, int, int]
) -> None:
    """The pixel in an ICC based space and its soft mask are drawn again finer too: one
    black pixel a fully transparent mask hid, stretched over a slide, came out opaque
    from end to end once a box met it (PyMuPDF's test_4363.pdf turned dark)."""
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=200)
    page.insert_text((10, 190), "Stencil page", fontsize=9)
    pixel = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 1, 1), True)
    pixel.set_pixel(0, 0, (255, 0, 0, alpha))
    page.insert_image(pymupdf.Rect(10, 90, 190, 110), pixmap=pixel)
    pdf = doc.tobytes()
    box = pymupdf.Rect(50, 80, 80, 120)  # across the band
    mark = RedactionMark(page=0, box=normalize(doc[0], box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0].get_pixmap(dpi=72)
    assert released.pixel(20, 100) == released.pixel(150, 100) == colour
    assert verify(pdf, output, [mark]).ok
