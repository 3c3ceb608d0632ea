"""What draws a soft mask is not painted on the page: an image inside a soft mask's
definition hides no text under it (a drop shadow's mask image over a heading, pdf.js's
issue14297.pdf, where "Co" of "Consolidated" was cut as covered and the gate refused
the release for the damaged word). Paint seen through a soft mask still covers, as
what the mask lets through is not known."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import COVERED, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource

HEADING = pymupdf.Rect(60, 80, 360, 110)  # where the heading's words lie


def _white_image() -> bytes:
    pixmap = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 20, 10), False)
    pixmap.set_rect(pixmap.irect, (255,))
    return pixmap.tobytes("png")


def masked_shadow(fill: pymupdf.Rect) -> bytes:
    """A heading; then a red rectangle `fill` painted through a soft mask whose content
    is a white image lying over the heading."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((64, 102), "Consolidated Statement", fontsize=20)
    scratch = doc.new_page()
    image = scratch.insert_image(pymupdf.Rect(0, 0, 20, 10), stream=_white_image())
    doc.delete_page(1)
    page = doc[0]
    form = doc.get_new_xref()
    doc.update_object(
        form,
        "<</Type/XObject/Subtype/Form/BBox[0 0 612 792]"
        "/Group<</S/Transparency/CS/DeviceGray>>"
        f"/Resources<</XObject<</I0 {image} 0 R>>>>>>",
    )
    # PDF space: y up. The image covers the heading (792 - 110 = 682 to 712).
    doc.update_stream(form, b"q 300 0 0 30 60 682 cm /I0 Do Q")
    set_resource(page, "ExtGState", f"<</Shadow<</SMask<</S/Luminosity/G {form} 0 R>>>>>>")
    y = 792 - fill.y1
    rect = b"%g %g %g %g re" % (fill.x0, y, fill.width, fill.height)
    append_content(page, b"q /Shadow gs 1 0 0 rg " + rect + b" f Q")
    return doc.tobytes()


def test_an_image_drawing_a_soft_mask_over_text_hides_nothing_and_the_page_releases() -> None:
    pdf = masked_shadow(fill=pymupdf.Rect(60, 400, 360, 430))  # paints far from the heading

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert words == ["Consolidated", "Statement"]
    assert verify(pdf, output, []).ok


def test_paint_through_a_soft_mask_over_text_still_covers_it() -> None:
    pdf = masked_shadow(fill=HEADING + (-4, -4, 4, 4))

    assert {f.kind for f in find_hidden(pdf)} == {COVERED}


def test_an_image_drawing_a_soft_mask_is_not_hidden_by_the_paint_seen_through_it() -> None:
    # The fill covers the mask's image whole: only the heading under it is covered; the
    # image is no paint of its own, and cutting it would take the mask away.
    pdf = masked_shadow(fill=HEADING + (-4, -4, 4, 4))

    assert [f.text for f in find_hidden(pdf)] == ["ConsolidatedStatement"]
