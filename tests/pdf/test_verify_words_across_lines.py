"""A word extraction joins from glyphs of two lines is under a box only where the part on
one line is: once a box took "Hom." from a line of small text, the "=" of a displayed
formula just below ran on the "ist" before it into "ist=", whose box reached into the
mark though neither part did, and the gate refused the release (a LaTeX script,
py-pdf's sample GeoTopo-komprimiert.pdf)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

SMALL, FORMULA = 8, 11


def line_over_formula(*, drawn_after_word: float, formula: str = "=") -> bytes:
    """'ist' and 'Hom.' in 8 points, then an 11 point `formula` set lower, drawn after
    them with its left edge `drawn_after_word` points right of where 'ist' starts, and
    'f(x)' further along the formula's line."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((299, 352.7), "ist", fontsize=SMALL)
    page.insert_text((310.8, 352.7), "Hom.", fontsize=SMALL)
    page.insert_text((299 + drawn_after_word, 361), formula, fontsize=FORMULA)
    page.insert_text((340, 361), "f(x)", fontsize=FORMULA)
    return doc.tobytes()


def _words(pdf: bytes) -> list[str]:
    return [w[4] for w in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")]


def _mark_on(pdf: bytes, word: str) -> RedactionMark:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    rect = next(pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == word)
    return RedactionMark(page=0, box=normalize(page, rect), legal_reason="(b)(6)")


@pytest.mark.parametrize("formula", ["=", "==="])  # the second reaches past the stamp
def test_a_word_joined_with_the_line_below_once_its_neighbour_went_is_released(
    formula: str,
) -> None:
    pdf = line_over_formula(drawn_after_word=8.1, formula=formula)
    assert _words(pdf) == ["ist", "Hom.", formula, "f(x)"]
    mark = _mark_on(pdf, "Hom.")

    output = sanitize(burn_in(pdf, [mark]))

    assert _words(output)[:2] == ["ist" + formula, "f(x)"]  # then the stamped reason
    assert verify(pdf, output, [mark]).ok


def test_the_part_of_a_joined_word_left_under_a_box_still_fails() -> None:
    pdf = line_over_formula(drawn_after_word=8.1)
    mark = _mark_on(pdf, "Hom.")
    # An output that kept "Hom." and reads it joined with the "=" drawn after it.
    kept = line_over_formula(drawn_after_word=28.5)
    assert "Hom.=" in _words(kept)

    report = verify(pdf, kept, [mark])

    assert "text_under_box" in report.codes()
