"""The gate refuses a release that draws text where the original drew none. MuPDF's
content filter writes the advance of the glyphs it removes at the size of the text it
shows next: a footnote marker set at 7 points inside a redacted name moved the rest of
the line 5.6 points right, every word still there, and the gate released it. (Burn-in
now places text after a change of size itself, `size_changes`: the move is made here
by hand.)"""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content


def signed_line(marker: bytes) -> bytes:
    """ "Signed by John Smith", a footnote marker in 7 points raised after it (`marker`),
    and the line going on in 12 points, all in one text object without a move."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Witness statement", fontsize=12)
    append_content(
        page,
        b"BT /helv 12 Tf 72 600 Td (Signed by John Smith) Tj /helv 7 Tf 4 Ts (" + marker
        + b") Tj /helv 12 Tf 0 Ts ( in the presence of the clerk.) Tj ET",
    )  # fmt: skip
    return doc.tobytes()


def released(pdf: bytes, words: str, reach: float) -> tuple[bytes, RedactionMark]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    found = page.search_for(words)[0]
    mark = RedactionMark(0, normalize(page, found + (0, -4, reach, 0)), "(b)(6)")
    return sanitize(burn_in(pdf, [mark])), mark


def test_text_moved_as_the_filter_moved_it_is_refused() -> None:
    pdf = signed_line(b"12")
    output, mark = released(pdf, "John Smith", reach=9)  # the name and its marker
    doc = pymupdf.open(stream=output, filetype="pdf")
    xref = doc[0].get_contents()[0]
    tail = b"(in the presence of the clerk.)Tj"
    assert tail in doc.xref_stream(xref)
    doc.update_stream(xref, doc.xref_stream(xref).replace(tail, b"[-470" + tail[:-2] + b"]TJ"))
    moved = doc.tobytes()

    assert verify(pdf, output, [mark]).ok
    assert "text_moved" in verify(pdf, moved, [mark]).codes()
    after = {w[4]: w[0] for w in pymupdf.open(stream=moved, filetype="pdf")[0].get_text("words")}
    before = {w[4]: w[0] for w in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")}
    assert after["clerk."] != before["clerk."]


def test_a_box_beside_the_marker_moves_nothing_and_releases() -> None:
    pdf = signed_line(b"12")
    output, mark = released(pdf, "Signed", reach=0)

    assert verify(pdf, output, [mark]).ok
