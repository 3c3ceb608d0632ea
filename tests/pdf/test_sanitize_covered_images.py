"""An image another image is drawn over goes from the release, and the image over it
stays. A redaction would take both (it removes every image it meets), so sanitize left
such an image and the gate refused every release of the file: the covered second copy
of a logo in pdfcpu's pike-stanford.pdf, a small picture under a larger one in its
GoForOptimization.pdf. Each is now taken out of the content alone
(`glyph_cut.drop_images`)."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import find_hidden
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource

RED, BLUE = (200, 30, 30), (30, 30, 200)


def picture(colour: tuple[int, int, int], size: tuple[int, int]) -> pymupdf.Pixmap:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, *size), False)
    pix.set_rect(pix.irect, colour)
    return pix


def covered(under: pymupdf.Rect) -> bytes:
    """A red picture at `under`, a blue one over (0, 0, 200, 200), and a line of text."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_image(under, pixmap=picture(RED, (8, 8)))
    page.insert_image(pymupdf.Rect(0, 0, 200, 200), pixmap=picture(BLUE, (10, 10)))
    page.insert_text((20, 250), "Annual report of the board")
    return doc.tobytes()


def test_an_image_drawn_under_a_larger_one_goes_and_the_one_over_it_stays() -> None:
    # Drawn twice at the same place: test_sanitize_shared_images.py.
    pdf = covered(pymupdf.Rect(50, 50, 100, 100))
    assert [f.kind for f in find_hidden(pdf)] == ["covered"]

    released = sanitize(pdf)

    assert find_hidden(released) == []
    assert verify(pdf, released, []).ok
    page = pymupdf.open(stream=released, filetype="pdf")[0]
    assert [info["bbox"] for info in page.get_image_info()] == [(0.0, 0.0, 200.0, 200.0)]
    assert page.get_pixmap(dpi=72).pixel(75, 75) == BLUE
    assert "board" in page.get_text()


def test_a_covered_image_drawn_over_a_stencil_at_its_place_goes_and_the_stencil_stays() -> None:
    """The filter that drops an image by its rank among the images drawn at its box
    counts stencil masks too: the rank left them out, and the white stencil iText's
    pdfSweep test file draws under a logo went in the hidden logo's place."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((20, 250), "Annual report of the board")
    stencil = doc.get_new_xref()
    doc.update_object(
        stencil,
        "<</Type/XObject/Subtype/Image/ImageMask true/Width 8/Height 8/BitsPerComponent 1>>",
    )
    doc.update_stream(stencil, bytes(8))
    set_resource(page, "XObject", f"<</S {stencil} 0 R>>")
    append_content(page, b"q 0 1 0 rg 50 0 0 50 50 200 cm /S Do Q")
    page.insert_image(pymupdf.Rect(50, 50, 100, 100), pixmap=picture(RED, (8, 8)))
    page.insert_image(pymupdf.Rect(0, 0, 200, 200), pixmap=picture(BLUE, (10, 10)))
    pdf = doc.tobytes()
    assert [f.kind for f in find_hidden(pdf)] == ["covered"]

    released = sanitize(pdf)

    assert find_hidden(released) == []
    assert verify(pdf, released, []).ok
    page = pymupdf.open(stream=released, filetype="pdf")[0]
    assert [kind for kind, _ in page.get_bboxlog() if "im" in kind] == [
        "fill-imgmask",
        "fill-image",
    ]
