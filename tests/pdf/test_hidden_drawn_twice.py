"""Text drawn twice, once under a panel and once over it at the same place, hides
nothing: the reader sees every character of it (pdfplumber's
issue-71-duplicate-chars-2.pdf, a clinical guide whose every boxed line is written so).
Its covered copy could not be cut from under the visible one, and the gate refused the
release. Other text under the panel is still hidden."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import COVERED, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content

PANEL = b"0.9 0.95 1 rg 60 600 400 120 re f"


def panel_page(under: bytes, over: bytes, over_at: int = 660) -> bytes:
    """`under` shown, the light panel painted over it, then `over` shown (at the same
    place unless `over_at` says another height)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 72), "Heading of the page", fontsize=12)
    append_content(
        page,
        b"BT /helv 12 Tf 72 660 Td (%s) Tj ET %s 0 g BT /helv 12 Tf 72 %d Td (%s) Tj ET"
        % (under, PANEL, over_at, over),
    )
    return doc.tobytes()


def test_a_covered_line_written_again_over_its_cover_is_not_hidden() -> None:
    pdf = panel_page(b"Savoir traiter une acidose", b"Savoir traiter une acidose")
    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert "acidose" in words
    assert verify(pdf, output, []).ok


def test_covered_text_other_than_the_line_over_it_is_still_hidden() -> None:
    line = b"Savoir traiter une acidose"
    pdf = panel_page(line + b") Tj 0 -20 Td (Private note", line)
    hidden = find_hidden(pdf)
    assert {h.kind for h in hidden} == {COVERED}
    assert "".join(h.text for h in hidden).replace(" ", "") == "Privatenote"
    output = sanitize(burn_in(pdf, []))
    text = pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert "Private" not in text
    assert "acidose" in text
    assert verify(pdf, output, []).ok


def test_a_copy_a_line_lower_is_no_twin() -> None:
    hidden = find_hidden(panel_page(b"Private", b"Private", over_at=646))
    assert [(h.kind, h.text) for h in hidden] == [(COVERED, "Private")]
