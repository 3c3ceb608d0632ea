"""White words on a picture drawn through its own soft mask are seen where the mask
lets the picture show, and white on white where it does not. Read as painting nowhere,
the picture left the footer of a report's cover (white words on a photograph of the
sea, Unstructured's chevron-page.pdf) judged against the white page: sanitize cut it
from the release."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.hidden import SAME_COLOUR, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

PAGE = pymupdf.Rect(0, 0, 300, 200)


def _half_transparent_picture() -> pymupdf.Pixmap:
    """Dark blue, its top half opaque and its bottom half wholly transparent."""
    width, height = 40, 40
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, width, height), True)
    pixmap.set_rect(pixmap.irect, (20, 60, 90, 255))
    pixmap.set_alpha(bytes([255] * (width * height // 2) + [0] * (width * height // 2)))
    return pixmap


def white_words_on_a_picture(rotate: int) -> bytes:
    """The picture over the whole page (turned by `rotate`), white words on its upper
    half and on its lower half."""
    doc = pymupdf.open()
    page = doc.new_page(width=PAGE.width, height=PAGE.height)
    page.insert_image(PAGE, pixmap=_half_transparent_picture(), rotate=rotate)
    page.insert_text((20, 50), "Upper footer", fontsize=14, color=(1, 1, 1))
    page.insert_text((20, 150), "Lower footer", fontsize=14, color=(1, 1, 1))
    return doc.tobytes()


@pytest.mark.parametrize(
    ("rotate", "seen", "unseen"), [(0, "Upper", "Lower"), (180, "Lower", "Upper")]
)
def test_white_words_where_the_mask_shows_the_picture_are_seen_and_released(
    rotate: int, seen: str, unseen: str
) -> None:
    pdf = white_words_on_a_picture(rotate)

    found = find_hidden(pdf)
    assert [(f.kind, f.text) for f in found] == [(SAME_COLOUR, f"{unseen}footer")]

    output = sanitize(burn_in(pdf, []))
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert words == [seen, "footer"]
    assert verify(pdf, output, []).ok
