"""A glyph alone on its line is judged under a box only if it is under it either way.
openelections' 2024 Summit County report sets its column heads across a sheet of
figures that runs down the page: "TRUMP/VANC" then "E" on the next line, 1.6 points into
the line box of the one before. A box over "TRUMP/VANC" left the "E", rightly; taken the
figures' way, the "E" was held along its line and every page was refused as
`text_under_box`."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def head_over_figures(head_gap: float) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for column in range(12):  # the figures, set down the page
        page.insert_text((300 + 20 * column, 300), "262 8 524 1 16 0 3 0", fontsize=9, rotate=90)
    page.insert_text((72, 100), "REP", fontsize=11)
    page.insert_text((72, 100 + head_gap), "TRUMP/VANC", fontsize=11)
    page.insert_text((72, 100 + 2 * head_gap), "E", fontsize=11)
    return doc.tobytes()


def _release(pdf: bytes, word: str) -> tuple[bytes, list[RedactionMark]]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (box,) = [pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == word]
    marks = [RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")]
    return sanitize(burn_in(pdf, marks)), marks


def test_a_lone_glyph_a_box_over_the_line_before_reaches_into_is_not_under_it() -> None:
    pdf = head_over_figures(head_gap=11.0)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    words = {w[4]: w for w in page.get_text("words")}
    assert words["TRUMP/VANC"][3] - words["E"][1] > 1.0  # line boxes overlap

    output, marks = _release(pdf, "TRUMP/VANC")

    assert "E" in [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    report = verify(pdf, output, marks)
    assert report.ok, report.failures


def test_a_lone_glyph_under_a_box_is_still_found() -> None:
    pdf = head_over_figures(head_gap=11.0)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (e,) = [w for w in page.get_text("words") if w[4] == "E"]
    marks = [RedactionMark(page=0, box=normalize(page, pymupdf.Rect(e[:4])), legal_reason="(b)(6)")]

    report = verify(pdf, pdf, marks)  # nothing burned in

    assert "text_under_box" in report.codes()
