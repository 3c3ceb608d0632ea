"""Text set at a tiny size in a Type 3 font whose own matrix draws it large is seen.

pdf.js's issue14999_reduced.pdf sets a paper's title at 0.12 pt in a Type 3 font whose
/FontMatrix leaves glyph space at text space (1,000 times the usual): the title is 12 pt
on the page. It was taken for tiny (hidden) text by its set size, and the release lost
it, with the gate agreeing. Ghostscript's bitmap fonts do the same with advances of half
a unit, so that not even the advance shows the size: the release of a Diário Oficial
da União (vanillapdf's test data) lost its whole body text, and the gate refused it."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import TINY, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource, square_type3_font

TITLE = b"ab ab"


def type3_page(font_matrix: str) -> bytes:
    """TITLE at 0.12 pt in a Type 3 font of two square glyphs 100 units high."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=100)
    page.insert_text((20, 20), "A paper", fontsize=10)
    glyph = b"100 0 0 0 80 100 d1 0 0 80 100 re f"
    font = square_type3_font(doc, glyph=glyph, box="0 0 100 100", matrix=font_matrix)
    set_resource(page, "Font/T3", f"{font} 0 R")
    append_content(page, b"BT /T3 0.12 Tf 1 0 0 1 20 40 Tm (" + TITLE + b") Tj ET")
    return doc.tobytes()


def letter_and_dot_font(
    doc: pymupdf.Document, *, letter: tuple[str, bytes, str], dot: tuple[bytes, str], box: str
) -> int:
    """A Type 3 font of a matrix of 1 with one letter (its name, procedure and width)
    and a "." (procedure and width), its /FontBBox `box`; its xref."""
    name, letter_glyph, letter_width = letter
    dot_glyph, dot_width = dot
    procs = {name: letter_glyph, "period": dot_glyph}
    xrefs = {}
    for glyph_name, glyph in procs.items():
        xrefs[glyph_name] = doc.get_new_xref()
        doc.update_object(xrefs[glyph_name], "<<>>")
        doc.update_stream(xrefs[glyph_name], glyph)
    code = ord(name)
    widths = " ".join([dot_width, *["0"] * (code - 47), letter_width])
    font = doc.get_new_xref()
    doc.update_object(
        font,
        f"<</Type/Font/Subtype/Type3/FontBBox[{box}]/FontMatrix[1 0 0 1 0 0]"
        f"/CharProcs<</{name} {xrefs[name]} 0 R/period {xrefs['period']} 0 R>>"
        f"/Encoding<</Type/Encoding/Differences[46/period {code}/{name}]>>"
        f"/FirstChar 46/LastChar {code}/Widths[{widths}]>>",
    )
    return font


def test_a_title_a_type3_font_draws_large_at_a_tiny_set_size_is_seen() -> None:
    pdf = type3_page("1 0 0 1 0 0")  # 0.12 x 100 units: 12 pt on the page

    assert find_hidden(pdf) == []
    released = sanitize(burn_in(pdf, []))
    glyphs = sum(len(span["chars"]) for span in pymupdf.open(stream=released)[0].get_texttrace())
    assert glyphs >= len(TITLE.replace(b" ", b""))
    assert verify(pdf, released, []).ok


def test_text_a_type3_font_draws_tiny_is_still_tiny() -> None:
    pdf = type3_page("0.001 0 0 0.001 0 0")  # 0.12 x 0.1 units: 0.012 pt

    assert {h.kind for h in find_hidden(pdf)} == {TINY}


def test_a_hidden_dot_over_a_type3_letter_is_cut_without_the_letter() -> None:
    """pdf.js's bug1513120_reduced.pdf: a white "." sits on top of the "M" below it,
    both set at 0.24 pt in Type 3 fonts whose bounding boxes measure 11 pt at that
    size. The trace boxes each glyph 0.24 pt tall, so a redaction of the dot looked
    safe; the redaction measures the "M" by its font's box, and took it: the release
    read "onday", with the gate satisfied."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=100)
    page.insert_text((20, 20), "A bill", fontsize=10)
    font = letter_and_dot_font(
        doc,
        letter=("M", b"36 0 0 0 35 30 d1 0 0 35 30 re f", "36"),
        dot=(b"7 0 0 0 5 5 d1 0 0 5 5 re f", "7"),
        box="0 -9 40 38",
    )
    set_resource(page, "Font/T3", f"{font} 0 R")
    # The "M"s' ink ends at 47.2; the dot is set on 47.9, within their font's box.
    append_content(
        page,
        b"BT /T3 0.24 Tf 1 1 1 rg 1 0 0 1 20 47.9 Tm (.) Tj 0 g 1 0 0 1 20 40 Tm (MM) Tj ET",
    )
    pdf = doc.tobytes()
    assert [h.text for h in find_hidden(pdf)] == ["."]

    released = sanitize(burn_in(pdf, []))

    drawn = [
        chr(char[0])
        for span in pymupdf.open(stream=released)[0].get_texttrace()
        for char in span["chars"]
    ]
    assert drawn.count("M") == 2 and "." not in drawn
    assert verify(pdf, released, []).ok


def bitmap_font_page(*sizes: float) -> bytes:
    """Words in a Type 3 font as Ghostscript writes a bitmap font: a matrix of 1, glyphs
    24 by 40 units with no advance of their own ("0 0 ... d1"), widths of half a unit,
    each glyph placed by the TJ offsets; one line at each size in `sizes`. A "." glyph
    4 units square stands alone on each line."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 20), "Notice", fontsize=10)
    font = letter_and_dot_font(
        doc,
        letter=("a", b"0 0 0 0 24 40 d1 0 0 24 40 re f", ".5"),
        dot=(b"0 0 0 0 4 4 d1 0 0 4 4 re f", ".5"),
        box="0 -27 1000 1000",
    )
    set_resource(page, "Font/T3", f"{font} 0 R")
    for line, size in enumerate(sizes):
        y = 60 + 40 * line
        append_content(
            page,
            f"BT /T3 1 Tf {size} 0 0 {size} 20 {y} Tm [(a)-30000(a)-30000(a)] TJ ET".encode()
            + f" BT /T3 1 Tf {size} 0 0 {size} 40 {y} Tm (.) Tj ET".encode(),
        )
    return doc.tobytes()


def test_words_in_a_bitmap_type3_font_are_seen_at_the_size_its_glyphs_draw() -> None:
    pdf = bitmap_font_page(0.12)  # 24 by 40 units: 2.9 by 4.8 pt on the page

    assert find_hidden(pdf) == []
    released = sanitize(burn_in(pdf, []))
    drawn = [
        chr(char[0])
        for span in pymupdf.open(stream=released)[0].get_texttrace()
        for char in span["chars"]
    ]
    assert drawn.count("a") == 3 and drawn.count(".") == 1  # the dot, at that size, too
    assert verify(pdf, released, []).ok


def test_the_same_bitmap_font_set_ten_times_smaller_is_still_tiny() -> None:
    pdf = bitmap_font_page(0.12, 0.012)  # the second line: 0.3 by 0.5 pt

    hidden = find_hidden(pdf)
    assert {h.kind for h in hidden} == {TINY}
    assert sorted(h.text for h in hidden) == [".", "aaa"]  # the second line's


def test_a_type3_font_whose_glyphs_paint_nothing_in_a_large_box_is_still_tiny() -> None:
    """What a glyph's procedure paints says how large it is drawn, not the box its "d1"
    declares: glyphs that paint nothing, set at 0.12, stay tiny (hidden)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 20), "Notice", fontsize=10)
    blank = b"0 0 0 0 24 40 d1"
    font = letter_and_dot_font(doc, letter=("a", blank, ".5"), dot=(blank, ".5"), box="0 0 24 40")
    set_resource(page, "Font/T3", f"{font} 0 R")
    append_content(page, b"BT /T3 1 Tf 0.12 0 0 0.12 20 60 Tm [(a)-30000(a)-30000(a)] TJ ET")

    assert [(h.kind, h.text) for h in find_hidden(doc.tobytes())] == [(TINY, "aaa")]
