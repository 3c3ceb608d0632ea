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
from testkit.drawing import append_content, set_resource


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


def test_tiny_words_set_at_one_point_over_seen_text_go_glyph_by_glyph() -> None:
    """A product sheet in MuPDF.NET's test documents sets its column names at 0.006 pt,
    each word starting at the same point over a seen table cell: glyphs of one character
    a few thousandths of a point apart, which the cut took for one place and counted
    wrongly, leaving "ELERENEHSER" in the release (the gate refused it)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((72, 100), "Widget catalogue", fontsize=12)
    names = (
        "HERSTELLER",
        "BEZEICHNUNG",
        "LÄNGE",
        "BREITE",
        "HÖHE",
        "DURCHMESSER",
        "DATANORM-NUMMER",
    )
    tiny = b"".join(
        b"BT /F1 0.104 Tf 1 0 0 1 1333 3350 Tm (%s) Tj ET " % n.encode("cp1252") for n in names
    )
    set_resource(
        page,
        "Font/F1",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    )
    append_content(page, b"q 0.06 0 0 0.06 0 0 cm " + tiny + b"Q")
    page.set_rotation(270)
    pdf = doc.tobytes()
    assert "".join(h.text for h in find_hidden(pdf)) == "".join(names)

    output = sanitize(burn_in(pdf, []))

    assert find_hidden(output) == []
    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().split() == [
        "Widget",
        "catalogue",
    ]
    assert verify(pdf, output, []).ok
