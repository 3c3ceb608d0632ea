"""A move back to the start of the line survives burn-in and sanitize
(`content.line_starts_spelled_out`).

"0 0 Td" (or "T*" with a leading of 0) after some text returns to where the line began:
typeset formulas draw one glyph over another that way ("ħ" as a bar, then an "h").
MuPDF's content filter took it for no move and drew the "h" after the bar (PyMuPDF's
test_3780.pdf, a physics paper); it also drops a "Tm" equal to the last one, and so
drew the rest of a tagged LaTeX line that sets its matrix again a space to the right
(pdf.js's bug1997343.pdf)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.content import line_starts_spelled_out
from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def helvetica_page(content: bytes) -> bytes:
    """A page 300 by 200 whose content is `content`, with Helvetica as /F1."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    doc.xref_set_key(page.xref, "Resources", f"<</Font<</F1 {font} 0 R>>>>")
    contents = doc.get_new_xref()
    doc.update_object(contents, "<<>>")
    doc.update_stream(contents, content)
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    return doc.tobytes()


def overstruck(moves: bytes) -> bytes:
    """A bar, then `moves`, then an "h" and an "x" on one line; a name on the next."""
    text = b"BT /F1 20 Tf 1 0 0 1 20 150 Tm (-) Tj " + moves + b" ET"
    return helvetica_page(text + b" BT /F1 12 Tf 20 60 Td (Officer Jane Example) Tj ET")


def origins(pdf: bytes) -> list[tuple[str, float]]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    blocks = page.get_text("rawdict", clip=pymupdf.Rect(0, 0, 300, 100))["blocks"]
    return [
        (char["c"], round(char["origin"][0], 1))
        for block in blocks
        for line in block["lines"]
        for span in line["spans"]
        for char in span["chars"]
    ]


def released(pdf: bytes) -> bytes:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    name = page.search_for("Jane")[0]
    return sanitize(
        burn_in(pdf, [RedactionMark(page=0, box=normalize(page, name), legal_reason="x")])
    )


@pytest.mark.parametrize(
    "moves",
    [
        b"0 0 Td (h) Tj",
        b"0 0 TD (h) Tj",
        b"T* (h) Tj",  # no leading set: 0
        b"5 0 TD (y) Tj T* (h) Tj",  # "5 0 TD" sets the leading to 0
        # A leading set only later in the stream (camelot's eu-016.pdf, a footer)...
        b"T* (h) Tj ET BT /F1 12 Tf 20 100 Td 0 -14 TD (y) Tj",
        # ...or set, then restored to 0 by "Q".
        b"ET q BT 14 TL ET Q BT /F1 20 Tf 1 0 0 1 20 150 Tm (-) Tj T* (h) Tj",
        b"(h) Tj 0 0 Td (x) Tj",  # twice on one line: the nudge alternates
        b"1 0 0 1 20 150 Tm (h) Tj",  # the line's own matrix again (tagged LaTeX)
    ],
)
def test_a_glyph_drawn_over_another_stays_over_it(moves):
    pdf = overstruck(b"0 0 Td " + moves if moves.startswith(b"(h)") else moves)
    before = origins(pdf)
    assert before[1][1] == before[0][1] or before[1][0] == "y"  # "h" over the bar
    assert origins(released(pdf)) == before


def test_a_move_by_nothing_becomes_the_lines_matrix():
    assert line_starts_spelled_out(b"BT 2 0 0 2 10 10 Tm (a) Tj 0 0 Td (b) Tj ET") == (
        b"BT 2 0 0 2 10 10 Tm (a) Tj 2 0 0 2 9.999 10 Tm (b) Tj ET"
    )


@pytest.mark.parametrize(
    "back", [b"-30 0 Td", b"-30 0 TD", b"1 0 0 1 20 150 Tm"], ids=["Td", "TD", "Tm"]
)
def test_text_after_a_move_back_to_a_line_whose_glyphs_a_box_took_stays_in_place(back):
    """iText's iPhone user guide draws a line number, then "i" 20 points on, then moves
    back to the number's line and draws "Phone Buttons" a kern along: "(17 )Tj 2.028 0
    TD (i)Tj -2.028 0 TD [-2258(P)5(hone Butt)...]TJ". With "iPhone" under a box, MuPDF's
    filter took the move back for none (the line it last wrote) and drew "Buttons" the
    width of "17 " too far right (refused as text_moved)."""
    line = b"BT /F1 20 Tf 1 0 0 1 20 150 Tm (17 ) Tj 30 0 Td (i) Tj " + back
    pdf = helvetica_page(line + b" [-2258 (P) 5 (hone Butt) 6 (ons)] TJ ET")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    word_boxes = {w[4]: pymupdf.Rect(w[:4]) for w in page.get_text("words")}
    box = word_boxes["i"] | word_boxes["Phone"]
    assert "Buttons" in word_boxes and not box.intersects(word_boxes["Buttons"])
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="x")
    before = [place for place in origins_on_line(pdf) if place[1] > box.x1]

    output = sanitize(burn_in(pdf, [mark]))

    assert [place for place in origins_on_line(output) if place[1] > box.x1] == before
    assert verify(pdf, output, [mark]).ok


def origins_on_line(pdf: bytes) -> list[tuple[str, float]]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return [
        (char["c"], round(char["origin"][0], 1))
        for block in page.get_text("rawdict")["blocks"]
        for line in block["lines"]
        for span in line["spans"]
        for char in span["chars"]
    ]


def test_a_move_back_to_a_line_text_was_shown_on_becomes_its_matrix():
    assert line_starts_spelled_out(
        b"BT 1 0 0 1 20 150 Tm (a) Tj 30 0 TD (b) Tj -30 0 TD (c) Tj ET"
    ) == (b"BT 1 0 0 1 20 150 Tm (a) Tj 30 0 TD (b) Tj 0 TL 1 0 0 1 19.999 150 Tm (c) Tj ET")


def test_a_move_back_by_a_hair_is_nudged_off_the_line_it_returns_to():
    """What a first pass of the filter wrote for a nudged move back: 0.0002 of a 9-point
    line past where a tab glyph was shown. Nudged again from where that lands, the other
    way, it fell on the filter's own single-precision figure for the line, which dropped
    it: the line after the tab moved a tab right (Virginia's form instructions, refused
    as `text_moved`). Nudged off the line itself, it stays a nudge away."""
    assert line_starts_spelled_out(
        b"BT 9 0 0 9 48.733 493.22 Tm (5.) Tj 1.723 0 TD ( ) Tj .00022210015 0 TD (E) Tj ET"
    ) == (
        b"BT 9 0 0 9 48.733 493.22 Tm (5.) Tj 1.723 0 TD ( ) Tj"
        b" 0 TL 9 0 0 9 64.239 493.22 Tm (E) Tj ET"
    )


def test_a_line_feed_with_leading_is_left_alone():
    data = b"BT 12 TL 2 0 0 2 10 10 Tm (a) Tj T* (b) Tj 0 -1 Td (c) Tj ET"
    assert line_starts_spelled_out(data) == data


def test_an_unknown_leading_leaves_a_line_feed_alone():
    data = b"BT (a) Tj T* (b) Tj ET"
    assert line_starts_spelled_out(data, leading=None) == data
    assert line_starts_spelled_out(data, leading=0.0) != data


def in_the_middle_of_three_streams(pdf: bytes) -> bytes:
    """`pdf` with its page's content between a "q" stream and a "Q" stream, as baking
    annotations leaves a page (PyMuPDF's test-3820.pdf, a report with links)."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    page = doc[0]
    (own,) = page.get_contents()
    before, after = doc.get_new_xref(), doc.get_new_xref()
    for xref, data in ((before, b"q"), (after, b"Q")):
        doc.update_object(xref, "<<>>")
        doc.update_stream(xref, data)
    doc.xref_set_key(page.xref, "Contents", f"[{before} 0 R {own} 0 R {after} 0 R]")
    return doc.tobytes()


def test_a_move_back_to_the_line_start_in_a_pages_second_stream_survives():
    pdf = in_the_middle_of_three_streams(overstruck(b"T* (h) Tj"))
    before = origins(pdf)
    assert before[1][1] == before[0][1]  # "h" over the bar

    assert origins(released(pdf)) == before


def cut_in_three_streams(pdf: bytes, *cuts: bytes) -> bytes:
    """`pdf` with its page's content cut into three streams before each of `cuts`, as
    Illustrator cuts a page's content every 12 KB, between any two operators."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    page = doc[0]
    (own,) = page.get_contents()
    data = doc.xref_stream(own)
    first, second = (data.index(cut) for cut in cuts)
    streams = []
    for part in (data[:first], data[first:second], data[second:]):
        xref = doc.get_new_xref()
        doc.update_object(xref, "<<>>")
        doc.update_stream(xref, part)
        streams.append(f"{xref} 0 R")
    doc.xref_set_key(page.xref, "Contents", f"[{' '.join(streams)}]")
    return doc.tobytes()


def test_a_move_back_to_the_line_start_after_a_leading_set_in_an_earlier_stream_survives():
    """The first stream sets the leading to 0; the move back, two streams later, came
    out a glyph to the right (PSPDFKit's Digital_Signatures.pdf, each bullet's line)."""
    text = b"BT /F1 20 Tf 1 0 0 1 20 150 Tm (-) Tj T* (h) Tj ET"
    name = b"BT /F1 12 Tf 20 60 Td (Officer Jane Example) Tj ET"
    pdf = cut_in_three_streams(helvetica_page(b"0 TL " + text + b" " + name), b"BT", b"T*")
    before = origins(pdf)
    assert before[1][1] == before[0][1]  # "h" over the bar

    assert origins(released(pdf)) == before


@pytest.mark.parametrize(
    "last", [b"(Secret) Tj", b"[(Secret) -500] TJ"], ids=["shown", "shown, then a move"]
)
def test_a_text_object_placed_by_its_matrix_stays_put_when_the_last_one_ends_redacted(
    last: bytes,
) -> None:
    """Two text objects placed by "cm", neither moving the text: where the first ended
    with redacted glyphs, MuPDF's filter carried their width into the second's first
    show, which moved 35 pt right (a Chinese invoice's table head, for a mark on its
    title: pdf2docx's demo-table-lattice-one-cell.pdf). Burn-in now starts such text
    objects with "0 0 Td" (`content.text_objects_placed`)."""
    pdf = helvetica_page(
        b"q 1 0 0 1 20 150 cm BT /F1 12 Tf " + last + b" ET Q"
        b" q 1 0 0 1 20 100 cm BT /F1 12 Tf (Visible words) Tj ET Q"
    )
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    secret = page.search_for("Secret")[0]
    mark = RedactionMark(page=0, box=normalize(page, secret), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    words = {w[4]: w[0] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")}
    assert "Secret" not in words
    assert words["Visible"] == pytest.approx(20.0, abs=0.01)
