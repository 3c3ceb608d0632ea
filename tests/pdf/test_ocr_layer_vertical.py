"""An OCR layer in vertical writing: extraction puts its words one em below where the
trace draws their glyphs (MuPDF 1.28), so once sanitize dropped the layer the gate
could not match the lost word to it and refused the release for collateral damage
(pdfplumber's pr-136-example.pdf, a seal's character read by OCR on a scanned letter)."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import analyse_page, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, vertical_cjk_font


def scan_with_a_vertical_ocr_character() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    scan = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 100, 130), 0)
    scan.clear_with(230)
    page.insert_image(page.rect, pixmap=scan)
    page.insert_text((72, 100), "Scanned words here", fontsize=12, render_mode=3)
    vertical_cjk_font(page, "Vert")
    append_content(page, b"BT 3 Tr /Vert 40 Tf 1 0 0 1 400 100 Tm <7FFB> Tj ET")
    return doc.tobytes()


def test_a_vertical_ocr_character_dropped_with_its_layer_is_no_collateral_damage() -> None:
    pdf = scan_with_a_vertical_ocr_character()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (seal,) = [w for w in page.get_text("words") if w[4] == "翻"]
    (traced,) = [s for s in page.get_texttrace() if s["wmode"] == 1]
    assert seal[1] > traced["bbox"][1] + 20  # extraction's box lies lower than the ink
    assert find_hidden(pdf) == []
    assert len(analyse_page(page).ocr_layer) == 2

    output = sanitize(burn_in(pdf, []))
    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().strip() == ""
    assert verify(pdf, output, []).ok
