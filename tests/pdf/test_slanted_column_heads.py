"""A table's column heads set slanted, one line in the other's box: the gate judged a
slanted word under a box by every glyph within the word's upright box, and the next
line's "/T" lies in the corner of the box of "Rodham" above it. A mark over "Kaine"
met "/T", the burn-in rightly took those and left "Rodham", and the gate refused the
release for a redacted word left in it (an election report of Decatur County, Kansas,
in openelections' sources)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.slanted import own_glyphs, slanted_glyphs
from review.pdf.verify import verify

HEADS = ((102.4, "Hillary Rodham"), (111.7, "Clinton/Timothy Michael"), (121.1, "Kaine (D)"))


def slanted_heads() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    for x, text in HEADS:
        turn = (pymupdf.Point(x, 94.1), pymupdf.Matrix(50))
        page.insert_text((x, 94.1), text, fontsize=5.28, fontname="helv", morph=turn)
    return doc.tobytes()


def _word(page: pymupdf.Page, text: str) -> tuple[float, float, float, float]:
    (word,) = [w for w in page.get_text("words") if w[4] == text]
    return tuple(word[:4])


def test_a_slanted_word_is_judged_by_its_own_glyphs_not_the_next_lines() -> None:
    page = pymupdf.open(stream=slanted_heads(), filetype="pdf")[0]
    glyphs = slanted_glyphs(page.get_textpage(flags=pymupdf.TEXTFLAGS_RAWDICT))
    rodham = _word(page, "Rodham")

    assert "".join(g.char for g in own_glyphs(rodham, glyphs)) == "Rodham"


def test_a_box_over_a_slanted_head_releases_the_head_beside_it() -> None:
    pdf = slanted_heads()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(
        page=0, box=normalize(page, pymupdf.Rect(_word(page, "Kaine"))), legal_reason="(b)(6)"
    )

    output = sanitize(burn_in(pdf, [mark]))

    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert "Rodham" in words and "Kaine" not in words
    report = verify(pdf, output, [mark])
    assert report.ok, report.failures
