"""The reviewer's renderer under limits, and detection's sandboxed page check: every
poison page fails with a named cause, quickly and without taking the process down."""

import pymupdf
import pytest

from review.pdf.opencheck import pages_check
from review.pdf.render import (
    CONTENT,
    IMAGE_TOO_LARGE,
    MAX_PIXELS,
    NO_SUCH_PAGE,
    TIMEOUT,
    TOO_COMPLEX,
    TOO_LARGE,
    PdfUnrenderable,
    fitted_dpi,
    page_png,
    unrenderable_reason,
)
from testkit.corpus import simple_pdf
from testkit.poison_corpus import POISON_KINDS, poison_case

CAUSE = {
    "self_drawing_form": TOO_COMPLEX,
    "deep_nesting": CONTENT,
    "huge_image": IMAGE_TOO_LARGE,
    "huge_page": TOO_LARGE,
    "huge_user_unit_page": TOO_LARGE,
    "broken_page_tree": NO_SUCH_PAGE,
    "tiled_pixel": TOO_COMPLEX,
}


def test_every_poison_kind_has_a_named_cause():
    assert set(CAUSE) == set(POISON_KINDS)


@pytest.mark.parametrize("kind", POISON_KINDS)
def test_a_poison_page_raises_its_named_cause_and_the_other_pages_draw(kind):
    case = poison_case(kind)
    (bad,) = case.bad_pages

    with pytest.raises(PdfUnrenderable) as raised:
        page_png(case.pdf, bad)

    assert (raised.value.page, raised.value.cause) == (bad, CAUSE[kind])
    assert page_png(case.pdf, 0).startswith(b"\x89PNG")


@pytest.mark.parametrize("kind", POISON_KINDS)
def test_the_sandboxed_check_names_the_poison_page(kind):
    case = poison_case(kind)

    failures = pages_check(case.pdf)

    assert [(f.page, f.cause) for f in failures] == [(case.bad_pages[0], CAUSE[kind])]
    assert (
        unrenderable_reason(failures) == f"unrenderable_page@p{case.bad_pages[0] + 1}:{CAUSE[kind]}"
    )


def test_the_sandboxed_check_stops_a_page_that_draws_too_long():
    # Every check made before drawing passes it; only the child's alarm stops it.
    case = poison_case("slow_page")

    failures = pages_check(case.pdf, page_seconds=1)

    assert [(f.page, f.cause) for f in failures] == [(1, TIMEOUT)]


def test_the_sandboxed_check_passes_an_ordinary_document():
    assert pages_check(simple_pdf(["An ordinary letter", "Reply to jo@example.com"])) == []


def test_a_large_legible_page_is_drawn_at_a_lower_resolution_within_the_pixel_limit():
    doc = pymupdf.open()
    doc.new_page(width=60 * 72, height=60 * 72).insert_text((72, 72), "A wall chart")
    pdf = doc.tobytes()

    png = page_png(pdf, 0)

    pix = pymupdf.Pixmap(png)
    assert pix.width * pix.height <= MAX_PIXELS
    assert pix.width == 60 * fitted_dpi(pymupdf.open(stream=pdf)[0])
    assert 50 <= fitted_dpi(pymupdf.open(stream=pdf)[0]) < 100


def test_a_notice_in_place_of_the_image_is_a_png_without_content():
    from review.pdf.render import notice_png

    assert notice_png(["This page cannot be shown."]).startswith(b"\x89PNG")
