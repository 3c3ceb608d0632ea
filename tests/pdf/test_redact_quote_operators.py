"""A redaction keeps text shown with the "'" and '"' operators where it was.

MuPDF's content filter, which every redaction runs over the page, turned the line move
before such an operator into "TD", which also sets the leading: the lines after it
moved, mostly off the page, and a mark in a corner cost the page all its text (pdf.js's
bug1337429.pdf). Burn-in and sanitize write those operators out first.
"""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.content import quotes_spelled_out
from review.pdf.geometry import Box
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.damage import with_a_dangling_xref_entry

LINES = (
    b"BT 1 0 0 1 72 700 Tm 14 TL /F1 11 Tf(Dear Ms. O'Brien,)' (the file is ready.) '"
    b' 1 0.5 (Spaced out words) " T* (Signed: Ada Lovelace) Tj ET'
)


def quoted_page() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    doc.xref_set_key(
        page.xref, "Resources", "<</Font<</F1<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>>>>>"
    )
    contents = doc.get_new_xref()
    doc.update_object(contents, "<<>>")
    doc.update_stream(contents, LINES)
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    return doc.tobytes()


def _words(pdf: bytes) -> list[tuple[str, int, int]]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return [(w[4], round(w[0]), round(w[1])) for w in page.get_text("words")]


def test_quote_operators_are_written_out_as_the_operators_they_stand_for() -> None:
    assert quotes_spelled_out(b"(a) ' 1 2 (b) \" (c'd) Tj") == (
        b" T* (a) Tj  1 Tw 2 Tc T* (b) Tj (c'd) Tj"
    )


def test_a_quote_whose_string_follows_an_operator_without_white_space_stays_apart() -> None:
    """PyMuPDF's own manual writes "0.78377 Tw(These are files)'": spelled out as
    "TwT*", an operator MuPDF does not know, every such line was lost."""
    assert quotes_spelled_out(b"0.78 Tw(a)'") == b"0.78 Tw T* (a) Tj"


@pytest.mark.parametrize("corner", [(0.95, 0.95, 1.0, 1.0), (0.0, 0.0, 0.05, 0.05), None])
def test_a_release_keeps_every_line_shown_with_a_quote_operator_in_place(
    corner: tuple[float, float, float, float] | None,
) -> None:
    """With a mark in a corner, or none: the save that cleans content runs the same
    filter over every page."""
    pdf = quoted_page()
    before = _words(pdf)
    assert [w for w, _, _ in before][-4:] == ["words", "Signed:", "Ada", "Lovelace"]
    assert len({y for _, _, y in before}) == 4  # four lines
    marks = [RedactionMark(page=0, box=Box(*corner), legal_reason="(b)(6)")] if corner else []

    output = sanitize(burn_in(pdf, marks))

    assert [w for w in _words(output) if w[0] != "(b)(6)"] == before  # the stamp aside
    assert verify(pdf, output, marks).ok


def test_a_cross_reference_entry_that_points_at_no_object_is_passed_over() -> None:
    """pdf.js's issue15053.pdf: MuPDF opens and draws it; looking the entry up fails."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Hello there")
    broken = with_a_dangling_xref_entry(doc)

    output = sanitize(burn_in(broken, []))

    assert [w for w, _, _ in _words(output)] == ["Hello", "there"]
