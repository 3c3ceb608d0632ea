"""What a picture painted over earlier content covers: only what a clip that is no
rectangle lets through (`clip_shapes.py`), and nothing where a colour key leaves its
pixels unpainted.

An Office chart draws each bar's picture through the bar's outline, then a picture of
the bar's border through a thin frame; the frame's box is the whole bar. Taken as
covering the bar, the bar's picture was cut as hidden, and the release of PyMuPDF's
chelsea_pdta.pdf lost its chart's bars on a page that had no mark at all."""

from __future__ import annotations

import re

import pymupdf
import pytest

from review.pdf.hidden import COVERED, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from testkit.drawing import append_content

BAR = pymupdf.Rect(100, 100, 200, 200)  # 592 to 692 up the page in PDF space
# A frame 4 points wide round the bar (even-odd), and a diamond round all of it.
FRAME = b"100 592 100 100 re 104 596 92 92 re W* n"
DIAMOND = b"150 522 m 270 642 l 150 762 l 30 642 l h W n"


def bar_with_a_picture_over_it(clip: bytes) -> bytes:
    """A red picture of the bar, then a blue one over the same box through `clip`."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for colour in ((255, 0, 0), (0, 0, 255)):
        picture = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 20, 20), False)
        picture.set_rect(picture.irect, colour)
        page.insert_image(BAR, pixmap=picture)
    xref = page.get_contents()[-1]
    content = doc.xref_stream(xref)
    last = list(re.finditer(rb"q\s", content))[-1]
    doc.update_stream(xref, content[: last.end()] + clip + b" " + content[last.end() :])
    return doc.tobytes()


def _red_share(pdf: bytes) -> float:
    pixmap = pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(dpi=72, clip=BAR)
    samples = pixmap.samples
    pixels = range(0, len(samples), pixmap.n)
    return sum(1 for i in pixels if samples[i] > 200 and samples[i + 2] < 50) / len(pixels)


def test_a_picture_over_a_bar_through_a_thin_frame_hides_nothing() -> None:
    pdf = bar_with_a_picture_over_it(FRAME)
    assert _red_share(pdf) > 0.8  # the red bar shows inside the blue frame

    assert find_hidden(pdf) == []
    released = sanitize(burn_in(pdf, []))
    assert _red_share(released) > 0.8


@pytest.mark.parametrize("clip", [DIAMOND, b""], ids=["diamond round it", "no clip"])
def test_a_picture_over_a_bar_through_a_clip_round_all_of_it_covers_it(clip: bytes) -> None:
    pdf = bar_with_a_picture_over_it(clip)
    assert _red_share(pdf) == 0

    assert [h.kind for h in find_hidden(pdf)] == [COVERED]


def test_text_round_a_picture_cut_out_by_a_colour_key_is_not_covered() -> None:
    """A picture whose white pixels a colour-key mask (/Mask [250 255 250 255 250 255])
    leaves unpainted, drawn over a paragraph: the words round the red square show
    through its box (iText's imageColorKeyMaskArray.pdf lost them to sanitize)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for line in range(8):
        page.insert_text((100, 110 + 12 * line), "Burritos were sold from a cart", fontsize=10)
    picture = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), False)
    picture.set_rect(picture.irect, (255, 255, 255))
    picture.set_rect(pymupdf.IRect(15, 15, 25, 25), (255, 0, 0))
    xref = page.insert_image(BAR, pixmap=picture)
    doc.xref_set_key(xref, "Mask", "[250 255 250 255 250 255]")
    pdf = doc.tobytes()
    words = [w[4] for w in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")]

    assert find_hidden(pdf) == []
    released = pymupdf.open(stream=sanitize(burn_in(pdf, [])), filetype="pdf")[0]
    assert [w[4] for w in released.get_text("words")] == words


def test_paint_through_the_outlines_of_letters_covers_no_word_beside_them() -> None:
    """A fill painted through letters set as a clip (render mode 7) paints only the
    letters; a word in their box but clear of their shapes (inside an O) still shows. The same holds
    for a shading stroked round letters (pdf.js's issue20513.pdf, whose black letters
    under a gradient outline were cut as covered)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((169, 168), "note", fontsize=6)  # inside the O's counter
    append_content(page, b"BT /helv 72 Tf 7 Tr 100 600 Td (YOUR) Tj ET 0 0 1 rg 0 0 612 792 re f")
    pdf = doc.tobytes()
    shown = pymupdf.open(stream=pdf, filetype="pdf")[0]
    word = pymupdf.Rect(next(s["bbox"] for s in shown.get_texttrace() if s["size"] == 6))
    pixmap = shown.get_pixmap(dpi=144, clip=word)
    assert min(pixmap.samples[0::3]) < 100  # the word is drawn, in black

    assert find_hidden(pdf) == []
