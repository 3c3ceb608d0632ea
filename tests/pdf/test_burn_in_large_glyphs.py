"""A large glyph a box crosses keeps what lies beside the box (`glyph_outlines.py`).

MuPDF's redaction removes every glyph a box meets, whole: the letter of a watermark 140
points tall that a box over a name crossed went from the release, and so did decorative
capitals whose scribbles reach far past their box (DSS's visual-signature test page).
Such a glyph is now drawn again as its outline, cut around the box."""

from __future__ import annotations

import re

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource
from testkit.pixels import DPI, changed_beside_a_mark, grey

RED = (0.8, 0.1, 0.1)


def watermark_page(*, before: bytes = b"", after: bytes = b"") -> bytes:
    """ "TAX" in red 120 points tall over a name, "Jane Roe", whose surname crosses the
    T's stem; `before` and `after` it, raw operators."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 600), "Statement of account", fontsize=11)
    if before:
        append_content(page, before)
    page.insert_text((100, 400), "TAX", fontsize=120, color=RED)
    page.insert_text((103, 352), "Jane Roe", fontsize=11)
    if after:
        append_content(page, after)
    return doc.tobytes()


def _name(pdf: bytes) -> pymupdf.Rect:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    words = page.get_text("words")
    return pymupdf.Rect(next(w[:4] for w in words if w[4] == "Jane")) | pymupdf.Rect(
        next(w[:4] for w in words if w[4] == "Roe")
    )


def _mark(pdf: bytes, box: pymupdf.Rect) -> RedactionMark:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")


def _colour_at(pdf: bytes, x: float, y: float) -> tuple[int, ...]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    pix = page.get_pixmap(dpi=72, clip=pymupdf.Rect(x, y, x + 1, y + 1))
    return tuple(pix.pixel(0, 0))


# Beside the box over the name: the T's stem below it, the end of its bar.
STEM = (138, 380)
RIGHT_OF_THE_BAR = (165, 317)


def test_a_large_letter_a_box_crosses_keeps_what_lies_beside_the_box() -> None:
    pdf = watermark_page()
    assert _colour_at(pdf, *STEM)[0] > 150 > _colour_at(pdf, *STEM)[1]  # red
    mark = _mark(pdf, _name(pdf))

    output = sanitize(burn_in(pdf, [mark]))

    assert _colour_at(output, *STEM) == _colour_at(pdf, *STEM)
    assert _colour_at(output, *RIGHT_OF_THE_BAR) == _colour_at(pdf, *RIGHT_OF_THE_BAR)
    assert verify(pdf, output, [mark]).ok


def test_no_part_of_the_outline_under_the_box_is_written() -> None:
    pdf = watermark_page()
    mark = _mark(pdf, _name(pdf))

    released = pymupdf.open(stream=sanitize(burn_in(pdf, [mark])), filetype="pdf")[0]

    inner = _name(pdf) + (0.01, 0.01, -0.01, -0.01)
    red = [d for d in released.get_drawings() if d.get("fill") and d["fill"][0] > 0.7]
    assert red, "the T is drawn again"
    points = [
        p for d in red for item in d["items"] for p in item[1:] if isinstance(p, pymupdf.Point)
    ]
    assert not any(inner.contains(p) for p in points)
    assert "Jane" not in released.get_text() and "T" not in released.get_text().split()


# A blue square over the foot of the T's stem (PDF space: page y 390 to 410).
SQUARE = b"q 0 0 1 rg 130 382 20 20 re f Q"


def test_a_letter_something_is_painted_over_afterwards_is_drawn_again_beneath_it() -> None:
    """A watermark set first, the page's text over it: drawn again after everything,
    the outline would cover what was painted over it; beneath everything, it does not."""
    pdf = watermark_page(after=SQUARE)
    mark = _mark(pdf, _name(pdf))

    output = sanitize(burn_in(pdf, [mark]))

    assert _colour_at(output, 140, 405) == (0, 0, 255)
    assert _colour_at(output, *RIGHT_OF_THE_BAR) == _colour_at(pdf, *RIGHT_OF_THE_BAR)
    assert _colour_at(output, *STEM) == _colour_at(pdf, *STEM)
    assert verify(pdf, output, [mark]).ok


def test_a_letter_painted_both_over_and_under_goes_whole_as_before() -> None:
    """Drawn again first or last, it would change what lies between."""
    under_the_bar = b"q 0 0 1 rg 150 460 20 20 re f Q"  # page y 312 to 332
    pdf = watermark_page(before=under_the_bar, after=SQUARE)
    mark = _mark(pdf, _name(pdf))

    output = sanitize(burn_in(pdf, [mark]))

    assert _colour_at(output, *STEM) == (255, 255, 255)
    assert verify(pdf, output, [mark]).ok


@pytest.mark.parametrize("fontsize", [11, 20])
def test_text_of_a_usual_size_a_box_crosses_goes_as_before(fontsize: float) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((100, 400), "Taxpayer", fontsize=fontsize, color=RED)
    pdf = doc.tobytes()
    word = pymupdf.Rect(page.get_text("words")[0][:4])
    box = pymupdf.Rect(word.x0 - 5, word.y0, word.x0 + word.width / 3, word.y1)

    released = pymupdf.open(stream=burn_in(pdf, [_mark(pdf, box)]), filetype="pdf")[0]

    assert not [d for d in released.get_drawings() if d.get("fill") and d["fill"][0] > 0.7]


@pytest.mark.parametrize("rotation", [90, 270])
def test_the_letter_stays_beside_the_box_on_a_turned_page(rotation: int) -> None:
    upright = watermark_page()
    box = _name(upright)  # unrotated page space, as marks are
    doc = pymupdf.open(stream=upright, filetype="pdf")
    doc[0].set_rotation(rotation)
    pdf = doc.tobytes()
    mark = _mark(pdf, box)

    output = sanitize(burn_in(pdf, [mark]))

    unturned = pymupdf.open(stream=output, filetype="pdf")
    unturned[0].set_rotation(0)
    assert _colour_at(unturned.tobytes(), *STEM) == _colour_at(upright, *STEM)
    assert verify(pdf, output, [mark]).ok


def test_what_of_the_letter_lies_outside_the_crop_box_is_not_drawn_again() -> None:
    """MuPDF clips what a page draws to its crop box: the outline is cut to it too."""
    doc = pymupdf.open(stream=watermark_page(), filetype="pdf")
    doc[0].set_cropbox(pymupdf.Rect(0, 0, 612, 380))  # the foot of the T, 380 to 400, hidden
    pdf = doc.tobytes()
    mark = _mark(pdf, _name(pdf))

    released = pymupdf.open(stream=sanitize(burn_in(pdf, [mark])), filetype="pdf")[0]

    # The outline as written, in PDF space (y up): the crop box starts at y 412 there.
    content = released.read_contents().decode("latin-1")
    paths = re.findall(r"\.8 \.1 \.1 rg ([-\d. ml]+) h f Q", content)
    ys = [float(y) for path in paths for y in re.findall(r"(-?[\d.]+) [ml]", path)]
    assert ys and min(ys) >= 412 - 0.01


def test_a_translucent_letter_a_box_crosses_keeps_what_lies_beside_the_box_at_its_opacity() -> None:
    """A-PDF Watermark's "Sample" across a page at 51%: every letter a box met went."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((100, 400), "TAX", fontsize=120, color=RED, fill_opacity=0.51)
    page.insert_text((103, 352), "Jane Roe", fontsize=11)
    pdf = doc.tobytes()
    pink = _colour_at(pdf, *STEM)
    assert 255 > pink[1] > 100  # red at half strength over white
    mark = _mark(pdf, _name(pdf))

    output = sanitize(burn_in(pdf, [mark]))

    assert _colour_at(output, *STEM) == pink
    assert _colour_at(output, *RIGHT_OF_THE_BAR) == _colour_at(pdf, *RIGHT_OF_THE_BAR)
    assert verify(pdf, output, [mark]).ok


def test_a_diagonal_translucent_watermark_keeps_its_letters_beside_the_box() -> None:
    """Letters of a slanted line a box meets went whole before they could be kept."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for y, line in ((300, "Lorem ipsum dolor sit amet"), (330, "Jane Roe signed the lease")):
        page.insert_text((150, y), line, fontsize=11)
    at = pymupdf.Point(110, 450)
    page.insert_text(at, "Sample", fontsize=100, fill_opacity=0.5, morph=(at, pymupdf.Matrix(45)))

    assert changed_beside_a_mark(doc.tobytes(), "Jane") == (0, True)


def turned_watermark(box: str) -> bytes:
    """ "DEMO" 100 points tall in a form drawn turned by 45 degrees, through its box
    `box` (turned with it), across "Jane Roe"."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for y, line in ((300, "Lorem ipsum dolor sit amet"), (330, "Jane Roe signed the lease")):
        page.insert_text((150, y), line, fontsize=11)
    form = doc.get_new_xref()
    doc.update_object(
        form,
        f"<</Type/XObject/Subtype/Form/BBox[{box}]"
        "/Resources<</Font<</H<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>>>",
    )
    doc.update_stream(form, b"BT 0 0 0 rg /H 100 Tf 0 0 Td (DEMO) Tj ET")
    set_resource(page, "XObject", f"<</Wm {form} 0 R>>")
    append_content(page, b"q 0.7071 0.7071 -0.7071 0.7071 150 380 cm /Wm Do Q")
    return doc.tobytes()


def test_a_diagonal_watermark_in_a_turned_form_keeps_its_letters_beside_the_box() -> None:
    """A form turned with its watermark is drawn through its box, turned too: no
    rectangle, so its letters went whole (Aspose's "DEMO" over a page of text)."""
    assert changed_beside_a_mark(turned_watermark("0 -30 330 90"), "Jane") == (0, True)


def test_a_letter_the_turned_box_cuts_goes_whole_and_nothing_is_drawn_past_the_box() -> None:
    pdf = turned_watermark("0 -30 150 90")  # through the "M"
    name = _name(pdf)
    output = sanitize(burn_in(pdf, [_mark(pdf, name)]))

    new_ink = grey(output).astype(int) < grey(pdf).astype(int) - 96
    scale = DPI / 72
    new_ink[int(name.y0 * scale) - 3 : int(name.y1 * scale) + 4, :] = False  # the box's row
    assert not new_ink.any()
