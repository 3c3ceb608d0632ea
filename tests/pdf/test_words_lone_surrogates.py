"""A glyph whose ToUnicode map gives half of a UTF-16 surrogate pair reads as U+FFFD,
whichever way the page's words are read.

xhtml2pdf's utf8.pdf maps each of two glyphs of a CJK character (U+2338F) to one half of
its surrogate pair. extractWORDS writes each half as U+FFFD; the words read from the
glyphs, where extractWORDS dropped a word, spelled the halves themselves, and the release
gate took each such word on the output page for text the original never showed
(`text_added`)."""

from __future__ import annotations

import pymupdf

from review.pdf.words import words_of

# "A" and "B" read as the two halves of U+2338F's surrogate pair; "~" is a blank glyph
# of no width, which extractWORDS drops, so the words are read from the glyphs.
_HALVES_CMAP = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Halves def 1 begincodespacerange <00> <FF> endcodespacerange
3 beginbfchar <41> <D84C> <42> <DF8F> <7E> <F020> endbfchar endcmap
CMapName currentdict /CMap defineresource pop end end"""


def _page(content: bytes) -> pymupdf.Page:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    cmap, halves, body, stream = (doc.get_new_xref() for _ in range(4))
    doc.update_object(cmap, "<<>>")
    doc.update_stream(cmap, _HALVES_CMAP)
    doc.update_object(
        halves,
        "<</Type/Font/Subtype/Type1/BaseFont/Helvetica/FirstChar 65/LastChar 126"
        f"/Widths[600 600 {' '.join(['0'] * 60)}]/ToUnicode {cmap} 0 R>>",
    )
    doc.update_object(body, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    doc.xref_set_key(page.xref, "Resources", f"<</Font<</F1 {body} 0 R/F2 {halves} 0 R>>>>")
    doc.update_object(stream, "<<>>")
    doc.update_stream(stream, content)
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    return pymupdf.open(stream=doc.tobytes(), filetype="pdf")[0]


def test_surrogate_halves_read_from_the_glyphs_as_extractwords_writes_them() -> None:
    plain = _page(b"BT /F1 12 Tf 72 700 Td (Ralstonia ) Tj /F2 12 Tf (AB) Tj ET")
    blank = _page(b"BT /F2 12 Tf 72 700 Td (~) Tj /F1 12 Tf ( Ralstonia ) Tj /F2 12 Tf (AB) Tj ET")

    as_extracted = [w[4] for w in words_of(plain.get_textpage())]
    from_glyphs = [w[4] for w in words_of(blank.get_textpage())]

    assert as_extracted == ["Ralstonia", "\ufffd\ufffd"]
    assert from_glyphs == as_extracted
