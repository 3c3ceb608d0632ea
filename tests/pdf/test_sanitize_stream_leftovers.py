"""Bytes a stream carries that no reader draws (`stream_leftovers.py`): sanitize drops
them, the image draws as before, and the release gate refuses an output that still has
them (`stream_leftovers`)."""

from __future__ import annotations

import struct
import zlib

import pymupdf
from pymupdf import mupdf

from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

NAME = b"Jane Roe"


def _segment(marker: int, payload: bytes) -> bytes:
    return b"\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload


def _photo() -> bytes:
    """A small JPEG as a camera writes one: EXIF naming its owner (and turning it a
    quarter), a comment, a JFIF thumbnail, and notes after its end."""
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), 0)
    pixmap.clear_with(200)
    for x in range(10, 30):
        for y in range(5, 20):
            pixmap.set_pixel(x, y, (200, 30, 30))
    jpeg = pixmap.tobytes("jpeg")
    assert jpeg[2:4] == b"\xff\xe0"  # JFIF's APP0 first
    app0_end = 4 + int.from_bytes(jpeg[4:6], "big")
    jfif = jpeg[6:18] + b"\x02\x01" + b"\x7f" * 6  # a 2 x 1 thumbnail
    tiff = b"MM\x00\x2a\x00\x00\x00\x08" + struct.pack(">H", 2)
    tiff += struct.pack(">HHII", 0x0112, 3, 1, 6 << 16)  # orientation: turned
    tiff += struct.pack(">HHII", 0x013B, 2, 9, 38) + struct.pack(">I", 0) + NAME + b"\x00"
    return (
        jpeg[:2]
        + _segment(0xE0, jfif)
        + _segment(0xE1, b"Exif\x00\x00" + tiff)
        + _segment(0xFE, b"Taken at 12 Elm Street by " + NAME)
        + jpeg[app0_end:]
        + NAME
        + b"'s notes"
    )


def _page_with(image: bytes) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Site visit, photo 1", fontsize=11)
    page.insert_image(pymupdf.Rect(100, 100, 300, 250), stream=image)
    return doc.tobytes()


def _image_streams(pdf: bytes) -> list[bytes]:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    return [
        doc.xref_stream_raw(xref)
        for xref in range(1, doc.xref_length())
        if doc.xref_get_key(xref, "Subtype")[1] == "/Image"
    ]


def _pixels(pdf: bytes) -> bytes:
    return pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(dpi=72).samples


def test_a_photos_exif_comment_thumbnail_and_trailing_notes_are_dropped() -> None:
    pdf = _page_with(_photo())
    assert NAME in _image_streams(pdf)[0]

    output = sanitize(burn_in(pdf, []))

    (image,) = _image_streams(output)
    assert NAME not in output and b"Exif" not in image and b"Elm" not in output
    assert image.endswith(b"\xff\xd9")
    assert b"\x02\x01" + b"\x7f" * 6 not in image  # no thumbnail
    assert _pixels(output) == _pixels(pdf)  # not decoded and coded again
    assert verify(pdf, output, []).ok


def _image_xref(doc: pymupdf.Document) -> int:
    return next(
        x for x in range(1, doc.xref_length()) if doc.xref_get_key(x, "Subtype")[1] == "/Image"
    )


def _with_image_stream(pdf: bytes, coded: bytes) -> bytes:
    """`pdf` with its image's coded bytes replaced by `coded` (filters unchanged), as a
    writer whose /Length reached past the data left them."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    document = mupdf.pdf_specifics(doc.this)
    obj = mupdf.pdf_load_object(document, _image_xref(doc))
    mupdf.pdf_update_stream(document, obj, mupdf.fz_new_buffer_from_copied_data(coded), 1)
    return doc.tobytes()


def _drawing_page() -> tuple[bytes, bytes]:
    """A page with a caption and a drawing (a Flate image), and the image's data."""
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 30, 20), 0)
    pixmap.clear_with(90)
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Case 12-345", fontsize=11)
    page.insert_image(pymupdf.Rect(100, 100, 250, 200), pixmap=pixmap)
    xref = _image_xref(doc)
    pixels = doc.xref_stream(xref)
    doc.update_stream(xref, pixels, compress=True)
    assert doc.xref_get_key(xref, "Filter")[1] == "/FlateDecode"
    return doc.tobytes(), pixels


def test_what_followed_a_streams_data_in_the_source_is_not_released() -> None:
    """pdf2image's test_strict.pdf: a stream's /Length reached 1,304 bytes past its
    data, over the rest of the file (its document information and trailer), which
    every save copied on."""
    pdf, pixels = _drawing_page()
    past = b"\nendstream\nendobj\n9 0 obj\n<</Author (" + NAME + b")>>\nendobj\n%%EOF\n"
    source = _with_image_stream(pdf, zlib.compress(pixels) + past)
    assert NAME in source

    output = sanitize(burn_in(source, []))

    assert NAME not in output
    assert _pixels(output) == _pixels(source)
    assert verify(source, output, []).ok


def test_the_gate_refuses_a_stream_that_still_carries_bytes_past_its_data() -> None:
    pdf, pixels = _drawing_page()
    output = sanitize(burn_in(pdf, []))
    carried = _with_image_stream(output, zlib.compress(pixels) + b" (" + NAME + b") Tj")

    report = verify(pdf, carried, [])

    assert "stream_leftovers" in report.codes()


def test_the_gate_refuses_a_jpeg_that_still_carries_its_exif() -> None:
    pdf = _page_with(_photo())
    output = sanitize(burn_in(pdf, []))
    (image,) = _image_streams(output)
    exif = _segment(0xE1, b"Exif\x00\x00" + NAME)

    report = verify(pdf, _with_image_stream(output, image[:2] + exif + image[2:]), [])

    assert "stream_leftovers" in report.codes()
