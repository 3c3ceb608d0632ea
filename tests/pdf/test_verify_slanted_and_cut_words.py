"""The gate on words whose box says little about their glyphs.

A diagonal watermark ("DO NOT SEND THIS PAGE" across a CMS claim form in PyMuPDF's test
files): a slanted word's box is the box around its slanted glyphs, and a mark beside it
met the box's empty corner. The gate took the word for text left under the mark, though
burn-in had rightly kept it. A slanted glyph that does lie under a mark still fails.

A word the page edge cuts through (a code listing running off PyMuPDF's manual): its
letters outside the crop box are hidden content, which sanitize cuts; the gate counted
the visible part, come out shorter, as a lost word."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

WATERMARK = "DO NOT SEND THIS PAGE"


def watermarked_form(beside: str = "DO") -> tuple[bytes, pymupdf.Rect]:
    """The watermark rising across the page, and an address line whose box starts just
    inside the right edge of the box around the word `beside`, level with its middle."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    start = pymupdf.Point(100, 640)
    page.insert_text(
        start, WATERMARK, fontsize=36, color=(0.8, 0.8, 0.8), morph=(start, pymupdf.Matrix(45))
    )
    (word,) = [w for w in page.get_text("words") if w[4] == beside]
    middle = (word[1] + word[3]) / 2
    address = pymupdf.Rect(word[2] - 2.4, middle - 9, word[2] + 60, middle + 3)
    page.insert_text((address.x0 + 3, address.y1 - 2), "Madison, WI", fontsize=9)
    return doc.tobytes(), address


def _mark(pdf: bytes, rect: pymupdf.Rect) -> RedactionMark:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return RedactionMark(page=0, box=normalize(page, rect), legal_reason="(b)(6)")


def test_a_mark_beside_a_slanted_watermark_word_leaves_nothing_under_it() -> None:
    pdf, address = watermarked_form()
    mark = _mark(pdf, address)
    output = sanitize(burn_in(pdf, [mark]))
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert "Madison," not in words
    assert "DO" in words  # burn-in kept it: none of its glyphs is under the mark
    assert verify(pdf, output, [mark]).ok


def test_a_slanted_word_whose_box_a_mark_meets_is_no_redacted_word() -> None:
    """Its box's corner under the mark does not make "NOT" a redacted word, which the
    release would then hold (openhtmltopdf's transform-inside-transform: "JKL" turned 45
    degrees beside a mark)."""
    pdf, address = watermarked_form(beside="NOT")
    mark = _mark(pdf, address)
    output = sanitize(burn_in(pdf, [mark]))
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert "NOT" in words
    assert verify(pdf, output, [mark]).ok


def test_a_slanted_word_left_under_a_mark_fails_the_gate() -> None:
    pdf, _ = watermarked_form()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (send,) = [w for w in page.get_text("words") if w[4] == "SEND"]
    middle = pymupdf.Rect(send[:4])
    over_its_middle = pymupdf.Rect(
        middle.x0 + middle.width * 0.3,
        middle.y0 + middle.height * 0.4,
        middle.x1 - middle.width * 0.3,
        middle.y1 - middle.height * 0.4,
    )
    mark = _mark(pdf, over_its_middle)
    report = verify(pdf, pdf, [mark])  # as if burn-in had done nothing
    assert "text_under_box" in [failure.code for failure in report.failures]


def test_a_word_the_page_edge_cuts_through_is_no_collateral_damage() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "A listing that runs off the page:", fontsize=10)
    page.insert_text((72, 120), "result = call_a_function_with_a_long_name_that_overflows()")
    page.insert_text((580, 140), "tutorial", fontsize=12)  # its last letters off the page
    pdf = doc.tobytes()

    output = sanitize(burn_in(pdf, []))
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert "tutorial" not in words
    assert "listing" in words
    assert verify(pdf, output, []).ok


def test_what_a_box_leaves_of_a_hyphenated_word_drawn_in_pieces_is_no_hit() -> None:
    # A VA table (govdocs1, in the OPF format corpus): "PALO ALTO-MENLO PK" drawn as
    # "(PALO ALTO)", "(-)" and "(MENLO PK ...)"; a box over "PALO ALTO" leaves "-MENLO"
    # on the page, and "MENLO" was redacted on another page. The fragment's bare word,
    # its dash drawn in a string of its own, is no hit in the stream.
    doc = pymupdf.open()
    first = doc.new_page(width=400, height=200)
    first.insert_text((50, 100), "Station MENLO PARK", fontsize=10)
    second = doc.new_page(width=400, height=200)
    contents = doc.get_new_xref()
    doc.update_object(contents, "<< >>")
    doc.update_stream(
        contents,
        b"BT /F1 10 Tf 50 100 Td (PALO ALTO) Tj ET BT /F1 10 Tf 100 100 Td (-) Tj ET"
        b" BT /F1 10 Tf 103.33 100 Td (MENLO PK      |  59,752) Tj ET",
    )
    doc.xref_set_key(second.xref, "Contents", f"{contents} 0 R")
    doc.xref_set_key(
        second.xref,
        "Resources",
        "<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>",
    )
    pdf = doc.tobytes()
    source = pymupdf.open(stream=pdf, filetype="pdf")
    assert "ALTO-MENLO" in [w[4] for w in source[1].get_text("words")]
    menlo_park = [
        pymupdf.Rect(w[:4]) for w in source[0].get_text("words") if w[4] in ("MENLO", "PARK")
    ]
    palo_alto = [pymupdf.Rect(w[:4]) for w in source[1].get_text("words") if w[4] == "PALO"]
    palo_alto[0].x1 = 99  # up to the dash, past the middle of "ALTO-MENLO"'s first half
    marks = [
        RedactionMark(
            page=0, box=normalize(source[0], menlo_park[0] | menlo_park[1]), legal_reason="x"
        ),
        RedactionMark(page=1, box=normalize(source[1], palo_alto[0]), legal_reason="x"),
    ]

    output = sanitize(burn_in(pdf, marks))

    released = pymupdf.open(stream=output, filetype="pdf")
    assert "-MENLO" in [w[4] for w in released[1].get_text("words")]
    assert verify(pdf, output, marks).ok
