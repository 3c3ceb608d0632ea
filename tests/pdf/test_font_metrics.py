"""A font whose descriptor claims an ascent and descent no glyph needs is measured as
its glyphs are (`review/pdf/font_metrics.py`).

Word embeds Cambria with Cambria Math's metrics (3.1 em above the baseline, 2.5 below):
every glyph box spanned five lines, so a proposed mark covered the lines around its
match and burning it in took their words too (PyMuPDF's test_2979.pdf, an ISO
standard). The fixtures embed MuPDF's own Nimbus Sans and write the same metrics into
its descriptor."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.font_metrics import fit_font_metrics
from review.pdf.geometry import page_rect
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.verify import verify

SIZE, LEADING = 11.0, 14.0
LINES = [
    "The hazard analysis was reviewed by the assessor.",
    "Contact the assessor at jane.roe@example.org for details.",
    "Safety goals are top-level requirements for the item.",
]


def descriptors(doc: pymupdf.Document) -> list[int]:
    return [
        x
        for x in range(1, doc.xref_length())
        if doc.xref_get_key(x, "Type") == ("name", "/FontDescriptor")
    ]


def pdf_with_metrics(ascent: int, descent: int, bbox: str | None = None) -> bytes:
    """Three lines set in an embedded font whose descriptor says `ascent`, `descent`
    (and `bbox`, when given)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=200)
    page.insert_font(fontname="F0", fontbuffer=pymupdf.Font("helv").buffer)
    for n, line in enumerate(LINES):
        page.insert_text((36, 60 + n * LEADING), line, fontname="F0", fontsize=SIZE)
    doc = pymupdf.open(stream=doc.tobytes(), filetype="pdf")
    (descriptor,) = descriptors(doc)
    doc.xref_set_key(descriptor, "Ascent", str(ascent))
    doc.xref_set_key(descriptor, "Descent", str(descent))
    if bbox is not None:
        doc.xref_set_key(descriptor, "FontBBox", bbox)
    return doc.tobytes()


def metrics(pdf: bytes) -> tuple[str, str]:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    fit_font_metrics(doc)
    (descriptor,) = descriptors(doc)
    return doc.xref_get_key(descriptor, "Ascent")[1], doc.xref_get_key(descriptor, "Descent")[1]


CAMBRIA = pdf_with_metrics(3117, -2463, "[-1475 -2463 2868 3117]")


def test_the_metrics_of_cambria_math_are_taken_as_a_text_fonts() -> None:
    assert metrics(CAMBRIA) == ("1000", "-300")


def test_metrics_beyond_the_fonts_own_bounding_box_are_brought_into_it() -> None:
    # Palatino in PyMuPDF's test_2904.pdf: 2.4 em up, though its glyphs end at 1.17.
    assert metrics(pdf_with_metrics(2403, -989, "[-467 -483 1707 1173]")) == ("1173", "-483")


@pytest.mark.parametrize(
    ("ascent", "descent", "bbox"),
    [
        (718, -207, "[-166 -225 1000 931]"),  # a usual text font
        (772, -2960, "[-24 -2960 1454 772]"),  # TeX's cmex10: its big delimiters reach down
    ],
)
def test_metrics_a_fonts_glyphs_may_need_are_kept(ascent: int, descent: int, bbox: str) -> None:
    assert metrics(pdf_with_metrics(ascent, descent, bbox)) == (str(ascent), str(descent))


def test_a_match_in_such_a_font_is_boxed_on_its_own_line() -> None:
    result = detect(CAMBRIA, DetectionPolicy(salt=b"s", ocr=False))
    doc = pymupdf.open(stream=CAMBRIA, filetype="pdf")

    (mark,) = [m for m in result.marks if m.category == "email"]
    rect = page_rect(doc[0], mark.box)
    baseline = 60 + LEADING
    # Clear of the descenders above (0.2 em) and of the capitals below (0.7 em).
    assert rect.height < 1.5 * SIZE
    assert baseline - LEADING + 0.2 * SIZE < rect.y0 < baseline < rect.y1
    assert rect.y1 < baseline + LEADING - 0.7 * SIZE


def test_burning_in_a_match_in_such_a_font_keeps_the_lines_around_it() -> None:
    result = detect(CAMBRIA, DetectionPolicy(salt=b"s", ocr=False))
    marks = [
        RedactionMark(page=m.page, box=m.box, legal_reason="(b)(6)")
        for m in result.marks
        if m.category == "email"
    ]

    released = burn_in(CAMBRIA, marks)

    text = pymupdf.open(stream=released, filetype="pdf")[0].get_text()
    assert LINES[0] in text and LINES[2] in text
    assert "jane.roe" not in text and "Contact the assessor at" in text
    assert verify(CAMBRIA, released, marks).ok
