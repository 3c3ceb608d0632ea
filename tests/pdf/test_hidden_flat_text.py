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


def test_text_set_at_size_zero_is_removed_and_the_gate_passes_the_release() -> None:
    """Each glyph of text set at size 0 is a point, which no redaction box overlaps:
    sanitize's redaction of it left it in every release (dots set at size 0 between the
    leader dots of the IRS's ef_ins_1040ez.pdf, refused by the gate as unseen content).
    It goes by its character and origin instead."""
    pdf = page_with_flat_text(b"")
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    xref = doc[0].get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref).replace(b"/F1 12 Tf 72 500", b"/F1 0 Tf 72 500"))
    pdf = doc.tobytes()
    assert "Quimby" in "".join(f.text for f in find_hidden(pdf) if f.kind == TINY)

    output = sanitize(burn_in(pdf, []))

    released = pymupdf.open(stream=output, filetype="pdf")
    assert "Minutes of the meeting" in released[0].get_text()
    assert b"Quimby" not in b"".join(released.xref_stream(x) for x in released[0].get_contents())
    assert verify(pdf, output, []).ok


# Translations that cancel out, as the IRS's ef_ins_1040ez.pdf writes them between its
# leader dots: the float error they leave puts a glyph's point where its own box's edge
# is, not inside it.
SHIFTS = (
    b"1 0 0 1 38.80511 0 cm 1 0 0 1 -38.80511 0 cm 1 0 0 1 75.5507 0 cm"
    b" 1 0 0 1 -75.5507 0 cm 1 0 0 1 0 -71.56111 cm 1 0 0 1 0 71.56111 cm"
    b" 1 0 0 1 3.85551 0 cm 1 0 0 1 -3.85551 0 cm "
)


def test_a_glyph_set_at_size_zero_is_removed_and_the_gate_passes_the_release() -> None:
    """A glyph of text set at size 0 is a point to MuPDF, and the box sanitize redacted
    around it had that point on its edge, which no redaction overlaps: a dot set at size
    0 between a tax form's leader dots stayed in every release, and the gate refused it
    as unseen content. The box now has an area about the point."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    # An embedded TrueType font, written as Type 0 (two-byte codes; 0011 is its dot).
    page.insert_font(fontname="F3", fontbuffer=pymupdf.Font(language="el").buffer)
    page.insert_text((72, 100), "Minutes of the meeting", fontname="F3", fontsize=12)
    xref = page.get_contents()[-1]
    body = (
        b"q 1 0 0 -1 0 792 cm 1 0 0 1 0.25 100.77793 cm " + SHIFTS * 5
        + b"1 0 0 1 42.0 80.37064 cm BT /F3 0 Tf 1 0 0 -1 39 0 Tm <0011> Tj ET Q"
    )  # fmt: skip
    doc.update_stream(xref, doc.xref_stream(xref) + b"\n" + body)
    pdf = doc.tobytes()
    assert [f.kind for f in find_hidden(pdf)] == [TINY]

    output = sanitize(pdf)

    assert find_hidden(output) == []
    assert "Minutes of the meeting" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, []).ok
