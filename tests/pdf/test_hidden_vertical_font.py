"""Glyphs of a vertical font (/Identity-V) that a page sets side by side, one move at a
time, are seen, not clipped away. Extraction puts such a glyph a font size along its
line from the pen position the trace gives, so the clip check found none of them kept:
a public-hearing notice (PDFBox's PDFBOX-3127 VFont.pdf) was all "clipped", detection
marked it hidden, sanitize cut every word of it, and the gate refused the release."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import find_hidden
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

NOTICE = "NOTICE"


def notice_in_a_vertical_font() -> bytes:
    """NOTICE in a vertical CID font, a glyph at a time; below it a word a clipping path
    cuts away, so the page's glyphs are checked against its clips one by one."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 150), "x", fontsize=12)  # puts Helvetica in the resources
    embedded = pymupdf.Font("china-s")  # a TrueType font: its glyph ids serve as CIDs
    program, descriptor, cid_font, to_unicode, font = (doc.get_new_xref() for _ in range(5))
    doc.update_object(program, "<<>>")
    doc.update_stream(program, embedded.buffer)
    doc.update_object(
        descriptor,
        "<</Type/FontDescriptor/FontName/Vert/Flags 4/FontBBox[0 -200 1000 900]"
        f"/ItalicAngle 0/Ascent 900/Descent -200/CapHeight 700/StemV 80/FontFile2 {program} 0 R>>",
    )
    doc.update_object(
        cid_font,
        "<</Type/Font/Subtype/CIDFontType2/BaseFont/Vert/CIDSystemInfo<</Registry(Adobe)"
        f"/Ordering(Identity)/Supplement 0>>/FontDescriptor {descriptor} 0 R/DW 1000"
        "/CIDToGIDMap/Identity>>",
    )
    cids = [embedded.has_glyph(ord(c)) for c in NOTICE]
    mapping = b" ".join(
        b"<%04X> <%04X>" % (cid, ord(c)) for cid, c in zip(cids, NOTICE, strict=True)
    )
    doc.update_object(to_unicode, "<<>>")
    doc.update_stream(
        to_unicode,
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap"
        b" /CIDSystemInfo <</Registry (Adobe) /Ordering (UCS) /Supplement 0>> def"
        b" /CMapName /Vert-UCS def /CMapType 2 def"
        b" 1 begincodespacerange <0000> <FFFF> endcodespacerange"
        b" %d beginbfchar " % len(cids) + mapping + b" endbfchar"
        b" endcmap CMapName currentdict /CMap defineresource pop end end",
    )
    doc.update_object(
        font,
        f"<</Type/Font/Subtype/Type0/BaseFont/Vert/Encoding/Identity-V"
        f"/DescendantFonts[{cid_font} 0 R]/ToUnicode {to_unicode} 0 R>>",
    )
    (helv,) = (entry[0] for entry in page.get_fonts())
    doc.xref_set_key(page.xref, "Resources", f"<</Font<</helv {helv} 0 R/V {font} 0 R>>>>")
    glyphs = b" 0.8 0 TD ".join(b"<%04X> Tj" % cid for cid in cids)
    contents = page.get_contents()[0]
    doc.update_stream(
        contents,
        b"BT /V 1 Tf 14 0 0 14 40 150 Tm " + glyphs + b" ET"
        b" q 0 0 10 10 re W n BT /helv 12 Tf 40 60 Td (Secret) Tj ET Q",
    )
    return doc.tobytes()


def test_a_vertical_fonts_glyphs_set_side_by_side_are_seen_and_kept() -> None:
    pdf = notice_in_a_vertical_font()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    assert "".join(page.get_text().split()) == NOTICE  # "Secret" is clipped away
    assert {line["wmode"] for b in page.get_text("dict")["blocks"] for line in b["lines"]} == {1}

    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [("clipped", "Secret")]

    released = sanitize(pdf)

    assert "".join(pymupdf.open(stream=released, filetype="pdf")[0].get_text().split()) == NOTICE
    assert find_hidden(released) == []
    assert verify(pdf, released, []).ok
