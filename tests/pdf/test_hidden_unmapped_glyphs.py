"""Glyphs whose font maps them to no character are seen where they are drawn.

A pictograph font (Wingdings ticks in a form, pdf.js's issue6127.pdf) maps its glyphs
to no Unicode character: the trace gives U+FFFD and the glyph id, and extraction writes
the character code. Where the two differ the glyphs were taken for clipped text,
sanitize could not cut them from among the visible ones, and the gate refused the
release."""

from __future__ import annotations

import struct

import pymupdf

from review.pdf.hidden import find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_through_a_clip_that_cuts_nothing, set_resource


def unmapped_glyphs_page() -> bytes:
    """Two glyphs of a CID font without /ToUnicode whose codes (12, 13) are not their
    glyph ids (112, 113), drawn through a clip that cuts nothing: a clip that is no
    rectangle keeps the page from being settled as plain."""
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
    append_through_a_clip_that_cuts_nothing(page, b"BT /T 20 Tf 50 100 Td <000C000D> Tj ET")
    return doc.tobytes()


def test_glyphs_mapped_to_no_character_are_not_clipped_text() -> None:
    pdf = unmapped_glyphs_page()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    traced = [(char[0], char[1]) for span in page.get_texttrace() for char in span["chars"]]
    assert (0xFFFD, 112) in traced and (0xFFFD, 113) in traced

    assert find_hidden(pdf) == []
    assert verify(pdf, sanitize(burn_in(pdf, [])), []).ok
