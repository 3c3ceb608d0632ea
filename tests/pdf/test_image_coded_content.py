"""A content stream under an image codec shows nothing on the preview, and nothing of it
is released. corkami's "shattered" PDFs make a page's /Contents a JPEG whose pixels are
the text of a poem: MuPDF drew a blank page, and the release showed the poem, as saving
decoded the stream as the image it claims to be."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import detect
from review.pdf.detection_policy import DetectionPolicy
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

# Shown with "'", which burn-in spells out as "T*" and "Tj", writing the stream anew.
HIDDEN = b"BT /F1 24 Tf 30 TL 72 300 Td (Jane Roe lives at 12 Elm Street) ' ET\n"


def _jpeg_of(data: bytes) -> bytes:
    """`data` as the pixels of a one-row grey JPEG, which decodes back to it exactly."""
    data += b" " * (-len(data) % 8)
    return pymupdf.Pixmap(pymupdf.csGRAY, len(data), 1, data, False).tobytes("jpg", jpg_quality=100)


def _image_coded_stream(doc: pymupdf.Document, dictionary: str) -> int:
    xref = doc.get_new_xref()
    doc.update_object(xref, dictionary)
    doc.update_stream(xref, _jpeg_of(HIDDEN), compress=False)
    # The filter's name in an object of its own, as the shattered PDFs write it: a
    # reader that looks only for a name there decodes the stream.
    codec = doc.get_new_xref()
    doc.update_object(codec, "/DCTDecode")
    doc.xref_set_key(xref, "Filter", f"{codec} 0 R")
    return xref


FONTS = "<< /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>"
IMAGE = (
    "<< /Type /XObject /Subtype /Image /Width 64 /Height 1 /ColorSpace /DeviceGray"
    " /BitsPerComponent 8 >>"
)


def _page_with_cover(doc: pymupdf.Document) -> pymupdf.Page:
    page = doc.new_page(width=400, height=400)
    doc.xref_set_key(page.xref, "Resources", f"<< /Font {FONTS} >>")
    cover = doc.get_new_xref()
    doc.update_object(cover, "<< >>")
    doc.update_stream(cover, b"BT /F1 12 Tf 72 300 Td (Cover sheet) Tj ET")
    doc.xref_set_key(page.xref, "Contents", f"{cover} 0 R")
    return page


def _as_page_contents() -> bytes:
    doc = pymupdf.open()
    page = _page_with_cover(doc)
    jpeg = _image_coded_stream(doc, IMAGE)
    cover = page.get_contents()[0]
    doc.xref_set_key(page.xref, "Contents", f"[{cover} 0 R {jpeg} 0 R]")
    return doc.tobytes()


def _as_form() -> bytes:
    doc = pymupdf.open()
    page = _page_with_cover(doc)
    form = _image_coded_stream(
        doc,
        f"<< /Type /XObject /Subtype /Form /BBox [0 0 400 400] /Resources << /Font {FONTS} >> >>",
    )
    doc.xref_set_key(page.xref, "Resources", f"<< /Font {FONTS} /XObject << /Fx {form} 0 R >> >>")
    stream = page.get_contents()[0]
    doc.update_stream(stream, doc.xref_stream(stream) + b"\nq /Fx Do Q\n")
    return doc.tobytes()


def _decoded_streams(pdf: bytes) -> list[bytes]:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    return [
        doc.xref_stream(xref) or b""
        for xref in range(1, doc.xref_length())
        if doc.xref_is_stream(xref)
    ]


@pytest.mark.parametrize("build", [_as_page_contents, _as_form], ids=["page", "form"])
def test_content_under_an_image_codec_is_not_released(build) -> None:
    pdf = build()
    original = pymupdf.open(stream=pdf, filetype="pdf")[0]
    assert original.get_text().split() == ["Cover", "sheet"]  # what the reviewer sees
    assert any(HIDDEN in data for data in _decoded_streams(pdf))  # what the file holds

    proposals = detect(pdf, DetectionPolicy(salt=b"s", ocr=False)).marks
    output = sanitize(burn_in(pdf, []))

    assert not any(mark.category == "person" for mark in proposals)
    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().split() == ["Cover", "sheet"]
    assert not any(b"Jane Roe" in data for data in _decoded_streams(output))
    assert verify(pdf, output, []).ok


def test_an_image_under_the_same_codec_is_still_drawn() -> None:
    # The page's /Contents names the JPEG, which the page also draws as an image: the
    # image stays, only the page's reading of it as content is emptied.
    doc = pymupdf.open()
    page = _page_with_cover(doc)
    jpeg = _image_coded_stream(doc, IMAGE)
    doc.xref_set_key(page.xref, "Resources", f"<< /Font {FONTS} /XObject << /Im {jpeg} 0 R >> >>")
    cover = page.get_contents()[0]
    doc.update_stream(cover, doc.xref_stream(cover) + b"\nq 320 0 0 20 40 200 cm /Im Do Q\n")
    doc.xref_set_key(page.xref, "Contents", f"[{cover} 0 R {jpeg} 0 R]")
    pdf = doc.tobytes()

    output = sanitize(burn_in(pdf, []))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    assert len(released.get_images()) == 1
    assert released.get_text().split() == ["Cover", "sheet"]
