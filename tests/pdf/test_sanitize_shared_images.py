"""An image object drawn both where it is seen and where it is not (a logo placed above
one page's crop box and inside another's) loses only its hidden placement: emptying the
object would blank the seen one too, so sanitize left both and the gate refused the
release (pdf.js's issue1350.pdf, a voucher whose logo sits above page 1)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.hidden import OUTSIDE_CROP_BOX, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def _logo() -> bytes:
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 20), False)
    pixmap.set_rect(pixmap.irect, (200, 30, 30))
    return pixmap.tobytes("png")


def shared_logo_document(*, beside: pymupdf.Rect | None = None) -> bytes:
    """Page 1 shows the logo; page 0 draws the same image object above its crop box
    (and, at `beside`, a second image that overlaps it)."""
    doc = pymupdf.open()
    for _ in range(2):
        doc.new_page(width=400, height=400)
    hidden_on, shown_on = doc[0], doc[1]
    xref = shown_on.insert_image(pymupdf.Rect(50, 50, 250, 150), stream=_logo())
    shown_on.insert_text((50, 200), "Voucher for one month of climbing", fontsize=11)
    hidden_on.insert_image(pymupdf.Rect(50, 20, 250, 120), xref=xref)
    if beside is not None:
        hidden_on.insert_image(beside, stream=_logo())
    hidden_on.insert_text((50, 200), "Terms and conditions apply", fontsize=11)
    hidden_on.set_cropbox(pymupdf.Rect(0, 150, 400, 400))
    return doc.tobytes()


def _placements(pdf: bytes) -> list[list[int]]:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    return [[info["xref"] for info in page.get_image_info(xrefs=True)] for page in doc]


def test_a_hidden_placement_of_an_image_seen_elsewhere_is_removed_and_the_seen_one_kept() -> None:
    pdf = shared_logo_document()
    assert [f.kind for f in find_hidden(pdf)] == [OUTSIDE_CROP_BOX]
    shown = _placements(pdf)[1]

    output = sanitize(burn_in(pdf, []))

    assert find_hidden(output) == []
    assert _placements(output)[0] == []
    assert len(_placements(output)[1]) == len(shown) == 1
    assert pymupdf.open(stream=output, filetype="pdf")[1].get_pixmap().color_count() > 2
    assert verify(pdf, output, []).ok


def test_hidden_placements_that_overlap_each_other_are_removed_together() -> None:
    pdf = shared_logo_document(beside=pymupdf.Rect(100, 40, 300, 140))  # above the crop box
    assert [f.kind for f in find_hidden(pdf)] == [OUTSIDE_CROP_BOX, OUTSIDE_CROP_BOX]

    output = sanitize(burn_in(pdf, []))

    assert find_hidden(output) == []
    assert _placements(output)[0] == []
    assert len(_placements(output)[1]) == 1
    assert verify(pdf, output, []).ok


def test_a_hidden_placement_a_seen_image_overlaps_goes_alone() -> None:
    # Across the crop box's top edge: partly seen. A redaction of the hidden one would
    # take this one too; it goes from the content alone (`glyph_cut.drop_images`).
    pdf = shared_logo_document(beside=pymupdf.Rect(100, 80, 300, 200))

    output = sanitize(burn_in(pdf, []))

    page = pymupdf.open(stream=output, filetype="pdf")[0]
    (kept,) = page.get_image_info()
    assert kept["bbox"][3] > 0  # the one that reaches into the crop box
    assert find_hidden(output) == []
    assert verify(pdf, output, []).ok


def tiled_chart(*, cover_all: bool = False) -> bytes:
    """A chart's hatching: one tile image drawn at three places; a black bar is painted
    over the first (and, with `cover_all`, over the other two only in part)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=400)
    page.insert_text((50, 40), "Speedup by benchmark", fontsize=11)
    xref = page.insert_image(pymupdf.Rect(50, 100, 70, 110), stream=_logo())
    for x in (150, 250):
        page.insert_image(pymupdf.Rect(x, 100, x + 20, 110), xref=xref)
    page.draw_rect(pymupdf.Rect(45, 95, 75, 115), color=None, fill=(0, 0, 0))
    if cover_all:
        page.draw_rect(pymupdf.Rect(145, 95, 160, 115), color=None, fill=(0, 0, 0))
        page.draw_rect(pymupdf.Rect(245, 95, 260, 115), color=None, fill=(0, 0, 0))
    return doc.tobytes()


def test_a_covered_copy_of_an_image_the_page_shows_whole_elsewhere_hides_nothing() -> None:
    pdf = tiled_chart()

    assert find_hidden(pdf) == []
    assert verify(pdf, sanitize(burn_in(pdf, [])), []).ok


def test_a_covered_image_shown_elsewhere_only_in_part_is_still_covered() -> None:
    pdf = tiled_chart(cover_all=True)

    assert [(f.kind, f.rect) for f in find_hidden(pdf)] == [
        ("covered", pytest.approx((50, 100, 70, 110)))
    ]


def test_a_picture_drawn_over_another_at_the_same_place_is_never_removed_with_it() -> None:
    """Two different images at the same place: the one under is covered. A redaction
    would take the one over it too: the one under goes from the content alone, as the
    first image drawn there (`glyph_cut.drop_images`)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=400)
    page.insert_text((50, 40), "Site photograph", fontsize=11)
    page.insert_image(pymupdf.Rect(50, 100, 250, 200), stream=_logo())
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 20), False)
    pixmap.set_rect(pixmap.irect, (30, 30, 200))
    page.insert_image(pymupdf.Rect(50, 100, 250, 200), stream=pixmap.tobytes("png"))
    pdf = doc.tobytes()
    assert [f.kind for f in find_hidden(pdf)] == ["covered"]

    output = sanitize(burn_in(pdf, []))

    assert len(_placements(output)[0]) == 1  # the one over it still drawn
    released = pymupdf.open(stream=output, filetype="pdf")[0]
    assert released.get_pixmap(clip=pymupdf.Rect(100, 120, 200, 180)).pixel(10, 10) == (30, 30, 200)
    assert find_hidden(output) == []
    assert verify(pdf, output, []).ok
