"""Raw drawing on a PyMuPDF page for fixtures (Django-free): what `insert_text` and
`draw_rect` cannot write (clips, soft masks, fonts without a character map)."""

from __future__ import annotations

import pymupdf


def set_resource(page: pymupdf.Page, path: str, value: str) -> None:
    """Set `path` ("Font/T", "ExtGState") in the page's resource dictionary, which
    PyMuPDF writes as an object of its own once the page has text."""
    doc = page.parent
    kind, resources = doc.xref_get_key(page.xref, "Resources")
    assert kind == "xref", "draw on the page with PyMuPDF first"
    doc.xref_set_key(int(resources.split()[0]), path, value)


def append_content(page: pymupdf.Page, operators: bytes) -> None:
    """Paint `operators` after everything on the page."""
    doc = page.parent
    xref = page.get_contents()[-1]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\n" + operators + b"\n")


def append_through_a_clip_that_cuts_nothing(page: pymupdf.Page, operators: bytes) -> None:
    """Paint `operators` through a clip around the whole page that is no rectangle (a
    fifth corner), so the hidden-content analysis does not settle the page as plain and
    classifies its glyphs one by one."""
    width, height = page.mediabox.width, page.mediabox.height
    clip = b"0 0 m %g 0 l %g %g l 0 %g l 5 %g l h W n" % (width, width, height, height, height / 2)
    append_content(page, b"q " + clip + b" " + operators + b" Q")


def append_a_word_a_clip_cuts_away(page: pymupdf.Page) -> None:
    """Show "Hidden" through a clip that leaves none of it: the page's clip-aware text
    is then shorter than its trace, and hidden.py keys every glyph to find which."""
    append_content(page, b"q 300 700 10 10 re W n BT /helv 12 Tf 72 400 Td (Hidden) Tj ET Q")


def helvetica_writing_hyphens_as(doc: pymupdf.Document, dash: str) -> int:
    """Helvetica whose ToUnicode map reads the hyphen byte as `dash`, as fonts that
    typeset "FOLL-5" with a non-breaking hyphen do."""
    cmap = doc.get_new_xref()
    doc.update_object(cmap, "<<>>")
    doc.update_stream(
        cmap,
        (
            "/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
            "/CMapName /Dashes def 1 begincodespacerange <00> <FF> endcodespacerange "
            f"1 beginbfchar <2D> <{ord(dash):04X}> endbfchar "
            "2 beginbfrange <20> <2C> <0020> <2E> <7E> <002E> endbfrange "
            "endcmap CMapName currentdict /CMap defineresource pop end end"
        ).encode(),
    )
    font = doc.get_new_xref()
    doc.update_object(
        font,
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
        f"/Encoding /WinAnsiEncoding /ToUnicode {cmap} 0 R >>",
    )
    return font


def page_writing_hyphens_as(words: str, name: str, dash: str) -> pymupdf.Page:
    """A letter-size page with `words` on its first line and, as the font /`name`,
    Helvetica reading its hyphen byte as `dash` (`helvetica_writing_hyphens_as`)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), words, fontsize=12)
    set_resource(page, f"Font/{name}", f"{helvetica_writing_hyphens_as(doc, dash)} 0 R")
    return page


def vertical_cjk_font(page: pymupdf.Page, name: str) -> None:
    """Add PyMuPDF's built-in simplified Chinese font to the page's resources as `name`,
    written for vertical writing (/UniGB-UTF16-V: glyphs set down the page); shows take
    UTF-16BE character codes, <7FFB> for "翻"."""
    doc = page.parent
    horizontal = page.insert_font(fontname="china-s")
    vertical = doc.get_new_xref()
    doc.update_object(
        vertical, doc.xref_object(horizontal).replace("/UniGB-UTF16-H", "/UniGB-UTF16-V")
    )
    set_resource(page, f"Font/{name}", f"{vertical} 0 R")


def square_type3_font(doc: pymupdf.Document, *, glyph: bytes, box: str, matrix: str) -> int:
    """A Type 3 font whose "a", "b" and space are one square glyph 100 units wide
    (`glyph`: its "d1" operands and drawing), its /FontBBox `box` and /FontMatrix
    `matrix`; its xref."""
    square, font = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(square, "<<>>")
    doc.update_stream(square, glyph)
    doc.update_object(
        font,
        f"<</Type/Font/Subtype/Type3/FontBBox[{box}]/FontMatrix[{matrix}]"
        f"/CharProcs<</a {square} 0 R/b {square} 0 R/space {square} 0 R>>"
        "/Encoding<</Type/Encoding/Differences[32/space 97/a/b]>>"
        "/FirstChar 32/LastChar 98/Widths[100 " + " ".join(["0"] * 64) + " 100 100]>>",
    )
    return font


def glyph_origins(pdf: bytes, *, below: float, spaces: bool) -> list[tuple[str, float, float]]:
    """Each glyph of the first page drawn below `below` (y down) as MuPDF traces it:
    (character, origin x, origin y); spaces too where `spaces`."""
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return [
        (chr(char[0]), char[2][0], char[2][1])
        for span in page.get_texttrace()
        for char in span["chars"]
        if char[2][1] > below and (spaces or not chr(char[0]).isspace())
    ]
