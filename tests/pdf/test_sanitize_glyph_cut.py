"""Hidden text that no redaction can reach without cutting text a reader sees is removed
glyph by glyph. A name under an old grey redaction box with "redacted" printed on the
box (pymupdf's test-707448.pdf) was left in place, as cutting it would have cut the
stamp, and the gate refused the release; so did a clipped-away second copy of a
paragraph lying two points off the copy a reader sees (pymupdf's test_4026.pdf)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.hidden import COVERED, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def _stamped_over_a_name(page: pymupdf.Page) -> None:
    page.insert_text((60, 100), "Jane Roe", fontsize=11)
    page.draw_rect(pymupdf.Rect(56, 88, 130, 104), color=None, fill=(0.5, 0.5, 0.5))
    page.insert_text((58, 100), "redacted", fontsize=11)  # over the name's glyphs
    page.insert_text((60, 200), "Signed: Jane Roe", fontsize=11)  # seen: stays


def name_under_a_stamped_box(
    *, rotation: int = 0, in_form: bool = False, cropped: bool = False
) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    if in_form:
        source = pymupdf.open()
        _stamped_over_a_name(source.new_page(width=400, height=300))
        page.show_pdf_page(page.rect, source, 0)  # the page's text inside a form XObject
    else:
        _stamped_over_a_name(page)
    if cropped:  # page space starts at the crop box's corner, PDF space does not
        page.set_cropbox(pymupdf.Rect(20, 30, 380, 280))
    page.set_rotation(rotation)
    return doc.tobytes()


@pytest.mark.parametrize(
    ("rotation", "in_form", "cropped"),
    [(0, False, False), (90, False, False), (0, True, False), (270, False, True)],
)
def test_a_covered_name_under_a_visible_stamp_is_removed_glyph_by_glyph(
    rotation: int, in_form: bool, cropped: bool
) -> None:
    pdf = name_under_a_stamped_box(rotation=rotation, in_form=in_form, cropped=cropped)
    hidden = find_hidden(pdf)
    assert {f.kind for f in hidden} == {COVERED}
    assert "".join(f.text for f in hidden) == "JaneRoe"

    output = sanitize(burn_in(pdf, []))

    assert find_hidden(output) == []
    words = pymupdf.open(stream=output, filetype="pdf")[0].get_text().split()
    assert words == ["redacted", "Signed:", "Jane", "Roe"]
    assert verify(pdf, output, []).ok
