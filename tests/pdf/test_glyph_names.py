"""A Type 3 font that names a glyph with the empty name releases drawn as it was.

pdf.js's issue5896.pdf (a paper typeset with old Type 3 fonts) names code 12 "/" in
its /Encoding /Differences and its /CharProcs. MuPDF writes an empty name with no space
before a number, so the burned file read "/ 44" as the name "44" (every later code moved
to another glyph) and "/ 15 0 R" as a key with no value, and sanitize's save failed.
The file is written byte by byte here: any PDF library's save would rewrite it."""

from __future__ import annotations

import pymupdf

from review.pdf.glyph_names import STAND_IN, name_empty_glyphs
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.raw_pdf import stream, write_pdf

# Codes 65, 66 and 70: a square, the empty-named bar and a triangle.
TEXT = b"ABF"


def empty_named_glyph_pdf() -> bytes:
    content = b"BT /T3 10 Tf 1 0 0 1 20 40 Tm (" + TEXT + b") Tj ET"
    widths = b" ".join([b"10"] * 6)
    return write_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 80] /Contents 4 0 R"
            b" /Resources << /Font << /T3 5 0 R >> >> >>",
            stream(b"", content),
            b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 10 10]"
            b" /FontMatrix [0.1 0 0 0.1 0 0] /FirstChar 65 /LastChar 70 /Widths [" + widths + b"]"
            b" /Encoding << /Type /Encoding /Differences [65 /square / 70 /triangle] >>"
            b" /CharProcs << /square 6 0 R / 7 0 R /triangle 8 0 R >> /Resources << >> >>",
            stream(b"", b"10 0 0 0 10 10 d1 1 1 8 8 re f"),
            stream(b"", b"10 0 0 0 10 10 d1 4 0 2 10 re f"),
            stream(b"", b"10 0 0 0 10 10 d1 0 0 m 10 0 l 5 10 l f"),
        ]
    )


def pixels(pdf: bytes) -> bytes:
    return pymupdf.open(stream=pdf)[0].get_pixmap(dpi=144, alpha=False).samples


def test_a_glyph_with_the_empty_name_releases_drawn_as_before() -> None:
    pdf = empty_named_glyph_pdf()

    released = sanitize(burn_in(pdf, []))  # burn-in saves, then sanitize saves again

    assert pixels(released) == pixels(pdf)
    assert verify(pdf, released, []).ok


def test_the_empty_name_is_renamed_in_the_encoding_and_the_procedures() -> None:
    doc = pymupdf.open(stream=empty_named_glyph_pdf())

    name_empty_glyphs(doc)

    assert f"/{STAND_IN} 70/triangle" in doc.xref_object(5, compressed=True)
    assert f"/{STAND_IN} 7 0 R" in doc.xref_object(5, compressed=True)
