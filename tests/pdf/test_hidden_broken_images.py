"""A page holding an image MuPDF cannot load (a broken JPEG 2000 stream: MuPDF draws
the page without it) is still analysed: listing the page's images with their object
numbers loads each one, and the error stopped detection, so the document could not be
reviewed (PyMuPDF's test_2904.pdf)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import HIDDEN_CONTENT, detect
from review.pdf.detection_policy import DetectionPolicy
from review.pdf.hidden import COVERED, find_hidden
from review.pdf.render import MUPDF_ERRORS
from testkit.drawing import append_content, set_resource


def words_under_a_photo_beside_a_broken_image() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 50), "Covered words", fontsize=12)
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    photo.set_rect(photo.irect, (40, 90, 160))
    page.insert_image(pymupdf.Rect(10, 30, 150, 60), pixmap=photo)
    broken = doc.get_new_xref()
    doc.update_object(
        broken,
        "<</Type/XObject/Subtype/Image/Width 8/Height 8/ColorSpace/DeviceRGB/BitsPerComponent 8>>",
    )
    doc.update_stream(broken, b"not a JPEG 2000 codestream", compress=False)
    doc.xref_set_key(broken, "Filter", "/JPXDecode")  # after: PyMuPDF sets the filter
    set_resource(page, "XObject/Broken", f"{broken} 0 R")
    append_content(page, b"q 50 0 0 50 200 20 cm /Broken Do Q")
    return doc.tobytes()


def test_a_page_with_an_image_that_cannot_be_loaded_is_analysed() -> None:
    pdf = words_under_a_photo_beside_a_broken_image()
    with pymupdf.open(stream=pdf, filetype="pdf") as doc, pytest.raises(MUPDF_ERRORS):
        doc[0].get_image_info(xrefs=True)  # the image is one MuPDF cannot load

    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [(COVERED, "Coveredwords")]
    marks = detect(pdf, DetectionPolicy(salt=b"s", ocr=False)).marks
    assert [m.category for m in marks] == [HIDDEN_CONTENT]
