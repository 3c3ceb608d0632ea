"""A mark that covers the whole page (what detection proposes for a page it cannot read,
and what a reviewer draws to withhold a page) takes all of the page's content, not only
what a redaction can cut: MuPDF's redaction left an image of Illustrator artwork
(pdfcpu's VectorApple.pdf: inline images in nested transparency groups) under the black
box, where the gate refused the release as content no reader sees."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import Box
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

REASON = "(b)(6)"


def every_word(page: pymupdf.Page) -> list[str]:
    """The words of the page, beyond the crop box too."""
    flags = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_MEDIABOX_CLIP
    return [w[4] for w in page.get_text("words", flags=flags, clip=pymupdf.INFINITE_RECT())]


def page_of_everything(rotation: int = 0) -> bytes:
    """Text, a picture, line art and text beyond the crop box, on a page turned by
    `rotation` whose crop box is off the origin."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=500)
    page.insert_text((60, 80), "Witness statement of Jane Example", fontsize=12)
    picture = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), False)
    picture.set_rect(picture.irect, (200, 30, 30))
    page.insert_image(pymupdf.Rect(60, 120, 260, 270), pixmap=picture)
    page.draw_circle((300, 350), 40, color=(0, 0, 1), fill=(0, 1, 0))
    page.insert_text((60, 480), "Filed under seal", fontsize=12)  # below the crop box
    page.set_cropbox(pymupdf.Rect(20, 20, 380, 440))
    page.set_rotation(rotation)
    return doc.tobytes()


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_mark_over_the_whole_page_leaves_only_the_box_and_its_reason(rotation: int) -> None:
    pdf = page_of_everything(rotation)
    marks = [RedactionMark(page=0, box=Box(0.0, 0.0, 1.0, 1.0), legal_reason=REASON)]

    preview = burn_in(pdf, marks)

    page = pymupdf.open(stream=preview, filetype="pdf")[0]
    assert every_word(page) == [REASON]
    assert page.get_images() == [] and page.get_image_info() == []
    drawn = page.get_drawings()
    assert len(drawn) == 1 and drawn[0]["fill"] == (0.0, 0.0, 0.0)
    assert drawn[0]["rect"] == pymupdf.Rect(0, 0, 360, 420)  # the page as shown, all black
    released = sanitize(preview)
    assert verify(pdf, released, marks).ok


def test_a_mark_short_of_the_page_edge_redacts_only_what_lies_under_it() -> None:
    pdf = page_of_everything()
    marks = [RedactionMark(page=0, box=Box(0.0, 0.0, 1.0, 0.5), legal_reason=REASON)]

    preview = burn_in(pdf, marks)

    page = pymupdf.open(stream=preview, filetype="pdf")[0]
    assert "seal" in every_word(page) and "Jane" not in every_word(page)
    assert any(d["fill"] == (0.0, 1.0, 0.0) for d in page.get_drawings())
