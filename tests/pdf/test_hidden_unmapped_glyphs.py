"""Glyphs whose font maps them to no character are seen where they are drawn.

A pictograph font (Wingdings ticks in a form, pdf.js's issue6127.pdf) maps its glyphs
to no Unicode character: the trace gives U+FFFD and the glyph id, and extraction writes
the character code. Where the two differ the glyphs were taken for clipped text,
sanitize could not cut them from among the visible ones, and the gate refused the
release."""

from __future__ import annotations

import struct

import pymupdf

from review.pdf.glyph_keys import _key, kept
from review.pdf.hidden import find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, append_through_a_clip_that_cuts_nothing, set_resource


def unmapped_glyphs_page(operators: bytes | None = None) -> bytes:
    """Two glyphs of a CID font without /ToUnicode whose codes (12, 13) are not their
    glyph ids (112, 113), drawn through a clip that cuts nothing: a clip that is no
    rectangle keeps the page from being settled as plain. Or `operators` showing them,
    as they are."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((50, 50), "Tick the boxes that apply", fontsize=11)
    program, descriptor, cid_font, font, gid_map = (doc.get_new_xref() for _ in range(5))
    doc.update_object(program, "<<>>")
    doc.update_stream(program, pymupdf.Font("cjk").buffer)
    doc.update_object(gid_map, "<<>>")
    doc.update_stream(gid_map, b"".join(struct.pack(">H", 100 + cid) for cid in range(20)))
    doc.update_object(
        descriptor,
        "<</Type/FontDescriptor/FontName/Ticks/Flags 4/FontBBox[0 -200 1000 900]"
        f"/ItalicAngle 0/Ascent 900/Descent -200/CapHeight 700/StemV 80/FontFile2 {program} 0 R>>",
    )
    doc.update_object(
        cid_font,
        "<</Type/Font/Subtype/CIDFontType2/BaseFont/Ticks"
        "/CIDSystemInfo<</Registry(Adobe)/Ordering(Identity)/Supplement 0>>"
        f"/FontDescriptor {descriptor} 0 R/DW 1000/CIDToGIDMap {gid_map} 0 R>>",
    )
    doc.update_object(
        font,
        f"<</Type/Font/Subtype/Type0/BaseFont/Ticks/Encoding/Identity-H"
        f"/DescendantFonts[{cid_font} 0 R]>>",
    )
    set_resource(page, "Font/T", f"{font} 0 R")
    if operators is None:
        append_through_a_clip_that_cuts_nothing(page, b"BT /T 20 Tf 50 100 Td <000C000D> Tj ET")
    else:
        append_content(page, operators)
    return doc.tobytes()


def test_glyphs_mapped_to_no_character_are_not_clipped_text() -> None:
    pdf = unmapped_glyphs_page()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    traced = [(char[0], char[1]) for span in page.get_texttrace() for char in span["chars"]]
    assert (0xFFFD, 112) in traced and (0xFFFD, 113) in traced

    assert find_hidden(pdf) == []
    assert verify(pdf, sanitize(burn_in(pdf, [])), []).ok


def test_a_glyph_extraction_cannot_map_is_kept_by_its_origin_whatever_the_trace_calls_it() -> None:
    """The dot leaders of a rotated table (tabula's and camelot's rotated_page.pdf): the
    trace names each dot ".", extraction writes U+FFFD at the same origin. Once a black
    box made the page no longer plain, the dots were taken for clipped text, sanitize
    cut all 1,367 of them and the gate refused the release as collateral damage."""
    dot = (ord("."), 15, (169.868, 669.291), (162.148, 667.067, 171.868, 669.291))
    extracted = {_key("\ufffd", (169.868, 669.291)), _key("A", (40.0, 60.0))}

    assert kept(dot, extracted)
    assert not kept((ord("."), 15, (40.0, 62.0), dot[3]), extracted)  # nothing there
    assert not kept((ord("B"), 37, (40.0, 60.0), dot[3]), extracted)  # another letter


def test_a_hidden_glyph_under_a_seen_one_of_the_same_character_goes_alone() -> None:
    """An icon font (pdf.js's bug1146106.pdf, weather icons on a map): each icon is a
    white background glyph with a blue glyph drawn over it at the same origin, both
    unmapped (U+FFFD). The white one is hidden (white on white); cutting it by character
    and origin cut the blue one too, and the release lost every icon, unnoticed."""
    white_then_blue = (
        b"BT /T 20 Tf 1 1 1 rg 50 100 Td <000C> Tj ET BT /T 20 Tf 0 0 1 rg 50 100 Td <000D> Tj ET"
    )
    pdf = unmapped_glyphs_page(white_then_blue)
    assert [h.kind for h in find_hidden(pdf)] == ["same_colour"]

    released = sanitize(burn_in(pdf, []))

    page = pymupdf.open(stream=released, filetype="pdf")[0]
    drawn = [(char[1], span["color"]) for span in page.get_texttrace() for char in span["chars"]]
    assert (113, (0.0, 0.0, 1.0)) in drawn  # the seen glyph
    assert all(gid != 112 for gid, _ in drawn)  # the hidden one is gone
    assert find_hidden(released) == []
    assert verify(pdf, released, []).ok
