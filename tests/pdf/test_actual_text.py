"""Text a marked-content /ActualText replaces is read, kept and judged as it is drawn.

A producer may wrap drawn text in marked content whose /ActualText says something else,
or nothing: extraction then writes the /ActualText instead of the glyphs. PyMuPDF's
test_4546.pdf, a shipping order, has its shipper's and consignee's names and addresses
under an empty one: detection never read them, the hidden-content analysis (whose
clip-aware extraction no longer matched the glyphs drawn) took them for clipped text,
sanitize cut them and the gate agreed, so the release lost both addresses."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.hidden import find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_through_a_clip_that_cuts_nothing, set_resource

SHOWN = b"(Consignee: Jane Roe, jane.roe@example.org) Tj"


def actual_text_page(actual: bytes = b"()") -> bytes:
    """A heading, then a line drawn inside `/Span <</ActualText ...>> BDC`, through a
    clip that cuts nothing (so the page is analysed glyph by glyph)."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=200)
    page.insert_text((20, 40), "Shipping order", fontsize=12)
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    set_resource(page, "Font/F9", f"{font} 0 R")
    append_through_a_clip_that_cuts_nothing(
        page,
        b"/Span <</ActualText " + actual + b">> BDC BT /F9 11 Tf 20 120 Td " + SHOWN + b" ET EMC",
    )
    return doc.tobytes()


def drawn_text(pdf: bytes) -> str:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return page.get_text(flags=pymupdf.TEXTFLAGS_TEXT | pymupdf.TEXT_IGNORE_ACTUALTEXT)


def test_text_under_an_empty_actual_text_is_not_taken_for_clipped_text() -> None:
    pdf = actual_text_page()
    assert "Jane Roe" not in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text()

    assert find_hidden(pdf) == []
    released = sanitize(burn_in(pdf, []))
    assert "Consignee: Jane Roe" in drawn_text(released)
    assert verify(pdf, released, []).ok


def test_text_under_an_actual_text_is_read_as_drawn_by_detection() -> None:
    result = detect(actual_text_page(), DetectionPolicy(salt=b"s", ocr=False))

    assert "email" in {m.category for m in result.marks}


def test_what_an_actual_text_says_is_read_too() -> None:
    pdf = actual_text_page(b"(Reply to john.doe@example.com)")

    result = detect(pdf, DetectionPolicy(salt=b"s", ocr=False))

    assert len([m for m in result.marks if m.category == "email"]) == 2
