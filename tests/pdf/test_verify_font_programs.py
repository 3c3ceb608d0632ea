"""A font program is no text, however its stream is written: a county's election report
(openelections' Ogemaw County, Michigan) stores its TrueType program as "/Type /Stream"
without the /Length1 a TrueType program should carry, in a descriptor written inside its
font. The gate searched it as unknown bytes, found a redacted word among its table
bytes, and refused every release. A stream a font descriptor names as its font program
is passed over, as an image is."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.fonts import truetype_page


def _without_length1(pdf: bytes) -> bytes:
    """Each embedded TrueType program rewritten as that report writes it."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    for xref in range(1, doc.xref_length()):
        if doc.xref_get_key(xref, "Length1")[0] != "null":
            doc.xref_set_key(xref, "Length1", "null")
            doc.xref_set_key(xref, "Type", "/Stream")
    return doc.tobytes()


def test_a_font_program_without_length1_is_no_text() -> None:
    doc = pymupdf.open()
    page = truetype_page(doc)
    page.insert_text((72, 100), "Bitstream Copyright votes", fontname="dv", fontsize=11)
    page.insert_text((72, 130), "Precinct totals follow", fontname="dv", fontsize=11)
    pdf = doc.tobytes()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    marks = [
        RedactionMark(page=0, box=normalize(page, pymupdf.Rect(w[:4])), legal_reason="(b)(6)")
        for w in page.get_text("words")
        if w[4] in ("Bitstream", "Copyright")
    ]

    output = _without_length1(sanitize(burn_in(pdf, marks)))

    released = pymupdf.open(stream=output, filetype="pdf")
    programs = [
        x
        for x in range(1, released.xref_length())
        if b"Bitstream" in (released.xref_stream(x) or b"")
        and released.xref_get_key(x, "Type")[1] == "/Stream"
    ]
    assert programs  # the program's own tables still name its maker
    report = verify(pdf, output, marks)
    assert report.ok, report.failures
