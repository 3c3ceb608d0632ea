"""A page scanned sideways or upside down is read the right way up. Tesseract read a
table turned a quarter as upright glyphs of nothing (">a ey <om wv", Aspose's print
sample), and detection proposed boxes over pieces of words and nothing that mattered.
A reading that does not look like words is read again turned, and the best reading is
turned back onto the page."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import detect
from review.pdf.detection_policy import DetectionPolicy
from review.pdf.geometry import page_rect
from review.pdf.ocr import ocr_available
from testkit.corpus import SCANNED_LINES, simple_pdf

pytestmark = pytest.mark.skipif(
    not ocr_available(), reason="Tesseract with English tessdata not installed"
)

DPI = 150
LINES = [*SCANNED_LINES, "Received by the records office on the fourth of March"]
VALUES = {"ssn": "123-45-6789", "email": "scan.person@example.com", "phone": "555-0143"}


def scanned_turned(turn: int) -> tuple[bytes, dict[str, pymupdf.Rect]]:
    """An image-only page of LINES turned by `turn` degrees, and where each value lies
    on it."""
    source = pymupdf.open(stream=simple_pdf(LINES), filetype="pdf")[0]
    zoom = DPI / 72
    turning = pymupdf.Matrix(zoom, zoom).prerotate(turn)
    pix = source.get_pixmap(matrix=turning)
    doc = pymupdf.open()
    page = doc.new_page(width=pix.width / zoom, height=pix.height / zoom)
    page.insert_image(page.rect, pixmap=pix)
    origin = (source.rect * turning).tl
    where = {}
    for category, value in VALUES.items():
        rect = source.search_for(value)[0] * turning
        where[category] = pymupdf.Rect(rect.tl - origin, rect.br - origin) / zoom
    return doc.tobytes(), where


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_a_turned_scan_is_read_and_its_values_are_marked_where_they_lie(turn: int) -> None:
    pdf, where = scanned_turned(turn)

    marks = detect(pdf, DetectionPolicy(salt=b"s", ocr=True, ocr_dpi=DPI)).marks

    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    for category, expected in where.items():
        boxes = [page_rect(page, m.box) for m in marks if m.category == category]
        assert any(b.intersect(expected).get_area() > 0.5 * expected.get_area() for b in boxes), (
            category
        )
