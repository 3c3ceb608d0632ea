"""A font made by OCR draws a whole word as one glyph, and its ToUnicode map gives the
glyph the word. Once the glyph is burned out, the map must not spell the word out in
the release: a scanned financial disclosure (Adobe ClearScan) was refused at the gate
for five such maps. Sanitize writes U+FFFD for a word no glyph drawn stands for any
more, and keeps every word a glyph still draws."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.unicode_maps import forget_unshown_words
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource

SMITH_HEX = b"0053004D004900540048"


def page_with_a_word_glyph(lines: list[bytes]) -> bytes:
    """Helvetica whose "X" reads SMITH, as a ClearScan font's word glyph does; each of
    `lines` is drawn with it, one under the other."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Financial disclosure report", fontsize=12)
    cmap = doc.get_new_xref()
    doc.update_object(cmap, "<<>>")
    doc.update_stream(
        cmap,
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
        b"/CMapName /Words def 1 begincodespacerange <00> <FF> endcodespacerange "
        b"1 beginbfchar <58> <" + SMITH_HEX + b"> endbfchar "
        b"2 beginbfrange <20> <57> <0020> <59> <7E> <0059> endbfrange "
        b"endcmap CMapName currentdict /CMap defineresource pop end end",
    )
    font = doc.get_new_xref()
    doc.update_object(
        font,
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica "
        f"/Encoding /WinAnsiEncoding /ToUnicode {cmap} 0 R >>",
    )
    set_resource(page, "Font/FW", f"{font} 0 R")
    shown = b"".join(
        b"BT /FW 12 Tf 72 %d Td (%s) Tj ET " % (700 - 20 * n, line) for n, line in enumerate(lines)
    )
    append_content(page, shown)
    return doc.tobytes()


def mark_on_the_first(pdf: bytes, word: str) -> RedactionMark:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return RedactionMark(
        page=0, box=normalize(page, page.search_for(word)[0]), legal_reason="(b)(6)"
    )


def released(pdf: bytes, marks: list[RedactionMark]) -> pymupdf.Document:
    return pymupdf.open(stream=sanitize(burn_in(pdf, marks)), filetype="pdf")


def map_xrefs(doc: pymupdf.Document) -> list[int]:
    return [
        xref
        for xref in range(1, doc.xref_length())
        if doc.xref_is_stream(xref) and b"begincmap" in doc.xref_stream(xref)
    ]


def maps_of(doc: pymupdf.Document) -> bytes:
    return b"".join(doc.xref_stream(xref) for xref in map_xrefs(doc))


def test_a_burned_out_word_glyph_is_no_longer_spelled_out_and_releases() -> None:
    pdf = page_with_a_word_glyph([b"Filed by Mr X on May 2"])
    marks = [mark_on_the_first(pdf, "SMITH")]

    output = released(pdf, marks)

    assert SMITH_HEX not in maps_of(output).upper()
    assert "Filed by Mr" in output[0].get_text()
    assert verify(pdf, output.tobytes(), marks).ok


def test_a_word_glyph_still_drawn_keeps_its_word() -> None:
    pdf = page_with_a_word_glyph([b"Filed by Mr X on May 2", b"Countersigned X"])

    output = released(pdf, [])

    assert SMITH_HEX in maps_of(output).upper()
    assert "Countersigned SMITH" in output[0].get_text()


def test_the_word_spelled_letter_by_letter_elsewhere_keeps_no_unused_word_glyph() -> None:
    """A witness's name in single letters, SMITHSON, holds SMITH; no glyph draws the word
    glyph, so its word goes."""
    pdf = page_with_a_word_glyph([b"Filed by Mr X on May 2"])
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    doc[0].insert_text((72, 760), "Witness: Ann SMITHSON", fontsize=12)
    pdf = doc.tobytes()
    marks = [mark_on_the_first(pdf, "SMITH")]

    output = released(pdf, marks)

    assert SMITH_HEX not in maps_of(output).upper()
    assert "SMITHSON" in output[0].get_text()
    assert verify(pdf, output.tobytes(), marks).ok


def test_words_in_a_range_array_are_forgotten_one_by_one() -> None:
    doc = pymupdf.open(stream=page_with_a_word_glyph([b"Mr X"]), filetype="pdf")
    (cmap,) = map_xrefs(doc)
    doc.update_stream(
        cmap,
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
        b"1 begincodespacerange <00> <FF> endcodespacerange "
        b"1 beginbfrange <58> <59> [<" + SMITH_HEX + b"> <004A004F004E00450053>] endbfrange "
        b"1 beginbfrange <20> <57> <0020> endbfrange "
        b"endcmap CMapName currentdict /CMap defineresource pop end end",
    )

    forget_unshown_words(doc)

    kept = doc.xref_stream(cmap)
    assert SMITH_HEX in kept  # "X" is drawn
    assert b"004A004F004E0045" not in kept  # "Y" (JONES) is not
