"""A Type 3 font's bounding box that spans far more than its glyphs is brought to
theirs (`font_metrics._fit_type3_box`).

dvips's bitmap fonts (an ISCA paper in olmOCR's test files) set text at 0.12 pt through
a /FontMatrix of 1, with a /FontBBox of 1,000 units: MuPDF boxed every word 120 points
tall, detection's marks covered a dozen lines each, and burning one in took the words
above and below. The glyphs' own boxes ("d1") are 100 units tall: 12 points."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import normalize
from review.pdf.prepare import prepare_to_read
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource, square_type3_font

LINES = [b"ab ba", b"ba ab", b"ab ab"]


def bitmap_font_page(
    *, glyph_box: bytes = b"0 -20 80 80 d1", font_box: str = "0 0 1000 1000"
) -> bytes:
    """Three lines 14 points apart at 0.12 pt in a Type 3 font whose matrix is 1 and
    whose glyphs (`glyph_box`) are 100 units tall."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 20), "A paper", fontsize=10)
    glyph = b"100 0 " + glyph_box + b" 0 0 80 60 re f"
    font = square_type3_font(doc, glyph=glyph, box=font_box, matrix="1 0 0 1 0 0")
    set_resource(page, "Font/T3", f"{font} 0 R")
    shown = b" ".join(
        b"BT /T3 0.12 Tf 1 0 0 1 20 %d Tm (%s) Tj ET" % (150 - 14 * i, line)
        for i, line in enumerate(LINES)
    )
    append_content(page, shown)
    return doc.tobytes()


def word_heights(pdf: bytes) -> list[float]:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    prepare_to_read(doc)
    return [w[3] - w[1] for w in doc[0].get_text("words") if w[4] in ("ab", "ba")]


def test_words_of_a_type3_font_with_a_far_too_tall_box_are_as_tall_as_its_glyphs() -> None:
    heights = word_heights(bitmap_font_page())

    assert len(heights) == 6
    assert all(11.9 < h < 12.1 for h in heights)


def test_a_type3_font_with_an_honest_box_is_left_as_it_is() -> None:
    assert all(11.9 < h < 12.1 for h in word_heights(bitmap_font_page(font_box="0 -20 80 80")))


def test_a_type3_font_whose_glyph_has_no_box_is_left_as_it_is() -> None:
    """A coloured glyph ("d0") declares no box: nothing to bring the font's box to."""
    heights = word_heights(bitmap_font_page(glyph_box=b"d0"))

    assert all(h > 100 for h in heights)


def test_a_mark_on_the_middle_line_takes_no_word_of_the_lines_around_it() -> None:
    pdf = bitmap_font_page()
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    prepare_to_read(doc)
    page = doc[0]
    middle = next(w for w in page.get_text("words") if w[4] == "ba" and 50 < w[1] < 60)
    marks = [
        RedactionMark(page=0, box=normalize(page, pymupdf.Rect(middle[:4])), legal_reason="(b)(6)")
    ]

    output = sanitize(burn_in(pdf, marks))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    assert len([w for w in released.get_text("words") if w[4] in ("ab", "ba")]) == 5
    assert verify(pdf, output, marks).ok
    assert all(
        m.box[3] - m.box[1] < 0.1
        for m in detect(pdf, DetectionPolicy(salt=b"s", search_terms=("ba",))).marks
    )
