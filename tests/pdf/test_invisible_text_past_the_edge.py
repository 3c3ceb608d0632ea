"""Invisible text whose glyph boxes meet the crop box while its ink lies past it: an OCR
layer's underscores set 64 pt long and 0.7 pt high just beyond the edge of a scanned,
turned page. Sanitize dropped the layer with a redaction of the crop box, which MuPDF
applies to the glyphs' ink, so the underscores stayed and the gate refused every
release of the page as `unseen_content` (docspell's protected-test123.pdf)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.hidden import INVISIBLE, analyse_page
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content

# As the scan's OCR layer sets them: one text object, a word on the page, then runs of
# underscores whose glyphs reach 0.7 pt up from a baseline 3 pt past the edge.
OCR_LAYER = (
    b"BT 3 Tr /tiro 1 Tf 11.5 0 0 11.5 72 300 Tm (Exhibit) Tj "
    b"-0.1 -11.5 0.7 0 794.8 205.5 Tm (___________________) Tj "
    b"-0.4 -64.1 0.7 0 795.8 380.9 Tm (__) Tj ET"
)


def scan_with_underscores_past_the_edge(rotation: int) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=792, height=612)
    scan = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 130, 100), 0)
    scan.clear_with(230)
    page.insert_image(page.rect, pixmap=scan)
    page.insert_text((72, 100), "Scanned words", fontsize=12, render_mode=3, fontname="tiro")
    page.set_rotation(rotation)
    append_content(page, OCR_LAYER)
    return doc.tobytes()


@pytest.mark.parametrize("rotation", [0, 270])
def test_an_ocr_layer_reaching_past_the_edge_goes_with_the_rest_of_it(rotation: int) -> None:
    pdf = scan_with_underscores_past_the_edge(rotation)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    crop = page.cropbox
    invisible = [g for g in analyse_page(page).hidden if g.kind == INVISIBLE and g.text == "_"]
    assert any(g.rect[0] < crop.x1 < g.rect[2] for g in invisible)  # boxes meet the page

    output = sanitize(burn_in(pdf, []))
    assert pymupdf.open(stream=output, filetype="pdf")[0].get_texttrace() == []
    report = verify(pdf, output, [])
    assert report.ok, report.failures
