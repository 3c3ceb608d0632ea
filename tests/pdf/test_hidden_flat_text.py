"""Text drawn through a matrix that maps it to no area is hidden content.

"1 0 1 0 0 0 cm" maps every point of the page to a line: the text shown under it paints
nothing, yet extraction reads it, at a place of the font's making. It stayed in the
released file, unseen by any reviewer (iText's noninvertibleMatrix tests)."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import OUTSIDE_CROP_BOX, TINY, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

HELVETICA = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def page_with_flat_text(flattening: bytes) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    font = doc.get_new_xref()
    doc.update_object(font, HELVETICA)
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /F1 {font} 0 R >> >>")
    content = (
        b"BT /F1 12 Tf 72 700 Td (Minutes of the meeting) Tj ET "
        b"q " + flattening + b" BT /F1 12 Tf 72 500 Td (Informant Harriet Quimby) Tj ET Q"
    )
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, content)
    doc.xref_set_key(page.xref, "Contents", f"{xref} 0 R")
    return doc.tobytes()


FLATTENINGS = {
    "onto a slanted line": b"1 0 1 0 0 0 cm",
    "onto a vertical line": b"0 1 0 1 0 0 cm",
    "to a point": b"0 0 0 0 100 100 cm",
}


def test_text_drawn_through_a_matrix_with_no_area_is_found_hidden() -> None:
    for name, flattening in FLATTENINGS.items():
        found = find_hidden(page_with_flat_text(flattening))

        # What extraction places beyond the page's edge is outside the crop box too.
        assert TINY in {f.kind for f in found} <= {TINY, OUTSIDE_CROP_BOX}, name
        assert "Quimby" in "".join(f.text for f in found), name


def test_sanitize_removes_text_drawn_flat_and_the_gate_passes_the_release() -> None:
    for name, flattening in FLATTENINGS.items():
        pdf = page_with_flat_text(flattening)

        output = sanitize(burn_in(pdf, []))

        released = pymupdf.open(stream=output, filetype="pdf")
        assert "Minutes of the meeting" in released[0].get_text(), name
        streams = b"".join(
            released.xref_stream(xref) or b""
            for xref in range(1, released.xref_length())
            if released.xref_is_stream(xref)
        )
        assert b"Quimby" not in streams and b"Informant" not in streams, name
        assert verify(pdf, output, []).ok, name
