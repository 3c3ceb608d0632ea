"""An inline image keeps its colours through burn-in. MuPDF's content filter writes an
inline image's colour space by the name it read under /CS: one given under the long key
/ColorSpace, or as an array (an indexed palette), came out as "/CS/", which no reader
draws, and every release lost the picture (iText's inlineImages03.pdf: a light bulb)."""

from __future__ import annotations

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
