"""A stream whose /DecodeParms array is shorter than its /Filter array: MuPDF reads it,
and compressing it on saving failed ("index out of bounds"), so burn-in failed for the
preview and for the release alike (pdf.js's xobject-image.pdf: an image under
ASCIIHexDecode and DCTDecode with "/DecodeParms [ ]")."""

from __future__ import annotations

import binascii
import zlib

import pymupdf

from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.raw_pdf import stream, write_pdf

PIXELS = bytes([200, 30, 30]) * 16  # a 4 x 4 red image


def _image_under_two_filters(parms: bytes) -> bytes:
    return write_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R"
            b" /Resources << /XObject << /Im 5 0 R >> /Font << /F1 6 0 R >> >> >>",
            stream(b"", b"q 100 0 0 50 10 10 cm /Im Do Q BT /F1 12 Tf 120 60 Td (Filed.) Tj ET"),
            stream(
                b"/Type /XObject /Subtype /Image /Width 4 /Height 4 /ColorSpace /DeviceRGB"
                b" /BitsPerComponent 8 /Filter [/ASCIIHexDecode /FlateDecode] /DecodeParms "
                + parms,
                binascii.hexlify(zlib.compress(PIXELS)) + b">",
            ),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
    )


def test_an_image_with_too_few_decode_parms_is_released_unchanged() -> None:
    pdf = _image_under_two_filters(b"[ ]")

    output = sanitize(burn_in(pdf, []))

    assert verify(pdf, output, []).ok
    page = pymupdf.open(stream=output, filetype="pdf")[0]
    assert page.get_images()[0][2:4] == (4, 4)
    assert page.get_pixmap(dpi=72).pixel(50, 65) == (200, 30, 30)
    assert "Filed." in page.get_text()


def test_an_image_with_fitting_decode_parms_is_left_as_it_is() -> None:
    pdf = _image_under_two_filters(b"[null null]")

    page = pymupdf.open(stream=sanitize(burn_in(pdf, [])), filetype="pdf")[0]

    assert page.get_pixmap(dpi=72).pixel(50, 65) == (200, 30, 30)
