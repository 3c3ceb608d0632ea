"""An OCR layer whose font gives its glyphs no width in MuPDF's trace (an older
Tesseract GlyphLessFont: its program's advances are 0, the PDF's /DW 500): extraction
still ends each word half an em past its last glyph, but the trace's span ended at that
glyph's origin, so a word of one letter ("a") had no width at all. Once sanitize dropped
the layer, the gate could not match such words to it and refused the release of an
ordinary OCR'd scan for collateral damage (pymupdf's test_4670.pdf)."""

from __future__ import annotations

import struct

import pymupdf
import pytest

from review.pdf.hidden import find_hidden
from review.pdf.ocr import ocr_available, tessdata_dir
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

pytestmark = pytest.mark.skipif(
    not ocr_available(), reason="Tesseract with English tessdata not installed"
)


def _without_advances(font_program: bytes) -> bytes:
    """The TrueType program with every advance width in its 'hmtx' table set to 0."""
    data = bytearray(font_program)
    (tables,) = struct.unpack(">H", data[4:6])
    for i in range(tables):
        tag, _, offset, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        if tag == b"hmtx":
            for at in range(offset, offset + length - 3, 4):
                data[at : at + 2] = b"\0\0"
    return bytes(data)


def ocr_scan_with_widthless_glyphs() -> bytes:
    source = pymupdf.open()
    page = source.new_page(width=400, height=200)
    page.insert_text((30, 80), "This is a sample to test a scan", fontsize=16)
    pixmap = page.get_pixmap(dpi=200)
    scan = pymupdf.open(stream=pixmap.pdfocr_tobytes(language="eng", tessdata=tessdata_dir()))
    for font in scan.get_page_fonts(0):
        descendant = int(scan.xref_get_key(font[0], "DescendantFonts")[1].strip("[]").split()[0])
        descriptor = int(scan.xref_get_key(descendant, "FontDescriptor")[1].split()[0])
        program = int(scan.xref_get_key(descriptor, "FontFile2")[1].split()[0])
        scan.update_stream(program, _without_advances(scan.xref_stream(program)))
    return scan.tobytes()


def test_an_ocr_layer_of_widthless_glyphs_dropped_by_sanitize_is_no_collateral_damage() -> None:
    pdf = ocr_scan_with_widthless_glyphs()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    one_letter = [w for w in page.get_text("words") if w[4] == "a"]
    assert one_letter
    traced = [s for s in page.get_texttrace() if len(s["chars"]) == 1]
    assert traced and all(s["bbox"][0] == s["bbox"][2] for s in traced)  # no width
    assert find_hidden(pdf) == []

    output = sanitize(burn_in(pdf, []))

    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().strip() == ""
    assert verify(pdf, output, []).ok
