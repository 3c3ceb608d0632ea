"""An inline image keeps its colours through burn-in. MuPDF's content filter writes an
inline image's colour space by the name it read under /CS: one given under the long key
/ColorSpace, or as an array (an indexed palette), came out as "/CS/", which no reader
draws, and every release lost the picture (iText's inlineImages03.pdf: a light bulb). It
wrote one in a Lab colour space with a /D of its own scaled ranges, which drew it black."""

from __future__ import annotations

import binascii
import zlib

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource

# Two colours, red and blue, in a checker of 2 by 2 pixels.
PALETTE = "[/Indexed /DeviceRGB 1 <FF00000000FF>]"
CHECKER = b"\x00\x01\x01\x00"


@pytest.mark.parametrize(
    "colour_space",
    [
        b"/ColorSpace " + PALETTE.encode(),
        b"/CS [/I /RGB 1 (\\377\\000\\000\\000\\000\\377)]",  # abbreviated, a literal string
        b"/ColorSpace /Palette",
        b"/CS /Palette",
    ],
    ids=["long-key-array", "short-key-array", "long-key-name", "short-key-name"],
)
def test_an_inline_image_in_a_palette_keeps_its_colours(colour_space: bytes) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((50, 280), "Inline image of Jane Roe", fontsize=11)
    set_resource(page, "ColorSpace/Palette", PALETTE)
    append_content(
        page,
        b"q 100 0 0 100 50 100 cm BI /W 2 /H 2 /BPC 8 " + colour_space + b" ID "
        + CHECKER + b" EI Q",
    )  # fmt: skip
    pdf = doc.tobytes()
    words = pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")
    roe = pymupdf.Rect(next(w[:4] for w in words if w[4] == "Roe"))
    mark = RedactionMark(page=0, box=normalize(page, roe), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0].get_pixmap(dpi=72)
    assert released.pixel(75, 125) == (255, 0, 0)  # the image's top left pixel: red
    assert released.pixel(125, 125) == (0, 0, 255)
    assert verify(pdf, output, [mark]).ok


LAB = "[/Lab <</WhitePoint [0.9505 1 1.089] /Range [-100 100 -100 100]>>]"
# Magenta, yellow, green and blue in Lab, one per pixel of a 2 by 2 image.
LAB_PIXELS = bytes([128, 204, 128, 204, 128, 217, 160, 50, 180, 90, 140, 40])
LAB_CENTRES = [(75, 125), (125, 125), (75, 175), (125, 175)]  # the pixels' centres


def _lab_page(image: bytes, *, in_form: bool = False) -> tuple[bytes, RedactionMark]:
    """A page drawing `image` (inline, 100 points square at 50, 100 from the top left)
    and a word to mark below it; the page's PDF and a mark on the word."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((50, 280), "Lab image of Jane Roe", fontsize=11)
    drawn = b"q 100 0 0 100 50 100 cm " + image + b" Q"
    if in_form:
        form = doc.get_new_xref()
        doc.update_object(form, f"<</Type/XObject/Subtype/Form/BBox [0 0 300 300]"
                                f"/Resources <</ColorSpace <</LabSpace {LAB}>>>>>>")  # fmt: skip
        doc.update_stream(form, drawn)
        set_resource(page, "XObject/Fm0", f"{form} 0 R")
        append_content(page, b"/Fm0 Do")
    else:
        set_resource(page, "ColorSpace/LabSpace", LAB)
        append_content(page, drawn)
    pdf = doc.tobytes()
    words = pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")
    roe = pymupdf.Rect(next(w[:4] for w in words if w[4] == "Roe"))
    return pdf, RedactionMark(page=0, box=normalize(page, roe), legal_reason="(b)(6)")


def _pixels(pdf: bytes) -> list[tuple[int, ...]]:
    pixmap = pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(dpi=72)
    return [pixmap.pixel(x, y) for x, y in LAB_CENTRES]


@pytest.mark.parametrize(
    "image",
    [
        b"BI /W 2 /H 2 /BPC 8 /CS /LabSpace ID " + LAB_PIXELS + b" EI",
        b"BI /W 2 /H 2 /BPC 8 /CS /LabSpace /D [0 100 -100 100 -100 100] ID " + LAB_PIXELS + b" EI",
        b"BI /Width 2 /Height 2 /BitsPerComponent 8 /ColorSpace /LabSpace /F /AHx ID "
        + binascii.hexlify(LAB_PIXELS)
        + b"> EI",
        b"BI /W 2 /H 2 /BPC 8 /CS /LabSpace /F [/Fl] /L "
        + str(len(zlib.compress(LAB_PIXELS))).encode()
        + b" ID "
        + zlib.compress(LAB_PIXELS)
        + b"\nEI",
    ],
    ids=["plain", "explicit-decode", "hex", "flate-with-length"],
)
def test_an_inline_image_in_lab_keeps_its_colours(image: bytes) -> None:
    pdf, mark = _lab_page(image)

    output = sanitize(burn_in(pdf, [mark]))

    colours = _pixels(pdf)
    assert len(set(colours)) == 4 and (0, 0, 0) not in colours
    assert _pixels(output) == colours
    assert verify(pdf, output, [mark]).ok


def test_an_inline_image_in_lab_in_a_form_keeps_its_colours() -> None:
    pdf, mark = _lab_page(
        b"BI /W 2 /H 2 /BPC 8 /CS /LabSpace ID " + LAB_PIXELS + b" EI", in_form=True
    )

    output = sanitize(burn_in(pdf, [mark]))

    assert _pixels(output) == _pixels(pdf)
    assert verify(pdf, output, [mark]).ok


def test_a_box_over_an_inline_image_in_lab_blacks_out_only_its_pixels() -> None:
    pdf, _ = _lab_page(b"BI /W 2 /H 2 /BPC 8 /CS /LabSpace ID " + LAB_PIXELS + b" EI")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    top_left = pymupdf.Rect(50, 100, 100, 150)  # the image's top left pixel, whole
    mark = RedactionMark(page=0, box=normalize(page, top_left), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    before, after = _pixels(pdf), _pixels(output)
    assert after[0] == (0, 0, 0)
    assert after[1:] == before[1:]
    assert verify(pdf, output, [mark]).ok
