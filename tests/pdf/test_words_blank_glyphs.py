"""A glyph with no width is no word, and lends its box to no other word.

PyMuPDF's extractWORDS drops a word of zero-width glyphs but joins its box to the next
word of the block: a bullet's blank glyph made the word after it reach back over the
bullet, so the gate took it for a word under the box beside it (govdocs1's
225188.pdf); a figure's /ActualText, set at the image's corner in glyphs of no width,
made the number under the figure a word 400 pt tall, and detection proposed a box over
the whole figure (govdocs1's 436840.pdf)."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import normalize, page_rect
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from review.pdf.words import words_of

# A font drawing "~" as a blank glyph of no width that reads as U+F020, as a symbol
# font's bullet space does.
_BLANK_CMAP = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Blank def 1 begincodespacerange <00> <FF> endcodespacerange
1 beginbfchar <7E> <F020> endbfchar endcmap
CMapName currentdict /CMap defineresource pop end end"""


def _page(content: bytes, *, figure: bool = False) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    cmap, blank, body = doc.get_new_xref(), doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(cmap, "<<>>")
    doc.update_stream(cmap, _BLANK_CMAP)
    doc.update_object(
        blank,
        "<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding<</Differences[126/space]>>"
        f"/FirstChar 126/LastChar 126/Widths[0]/ToUnicode {cmap} 0 R>>",
    )
    doc.update_object(body, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    images = ""
    if figure:
        grey = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), 0)
        grey.clear_with(200)
        page.insert_image(pymupdf.Rect(90, 100, 490, 400), pixmap=grey)
        images = f"/XObject<</Im0 {page.get_images()[0][0]} 0 R>>"
        # The figure's description, in the structure tree, as a tagging producer writes it.
        root, element = doc.get_new_xref(), doc.get_new_xref()
        doc.update_object(
            element,
            f"<</Type/StructElem/S/Figure/P {root} 0 R/Pg {page.xref} 0 R/K 0"
            "/ActualText(Screen shot of the menu)>>",
        )
        doc.update_object(
            root, f"<</Type/StructTreeRoot/K[{element} 0 R]/ParentTree<</Nums[0[{element} 0 R]]>>>>"
        )
        doc.xref_set_key(doc.pdf_catalog(), "StructTreeRoot", f"{root} 0 R")
        doc.xref_set_key(page.xref, "StructParents", "0")
    doc.xref_set_key(page.xref, "Resources", f"<</Font<</F1 {body} 0 R/F2 {blank} 0 R>>{images}>>")
    stream = doc.get_new_xref()
    doc.update_object(stream, "<<>>")
    doc.update_stream(stream, content)
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    return doc.tobytes()


def _words(pdf: bytes) -> dict[str, pymupdf.Rect]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return {w[4]: pymupdf.Rect(w[:4]) for w in words_of(page.get_textpage())}


def test_a_word_after_a_blank_glyph_is_boxed_by_its_own_glyphs() -> None:
    pdf = _page(b"BT /F2 12 Tf 72 700 Td (~) Tj /F1 12 Tf ( Ralstonia solanacearum) Tj ET")

    words = _words(pdf)

    assert set(words) == {"Ralstonia", "solanacearum"}
    assert words["Ralstonia"].x0 > 75  # after the blank glyph at 72 and a space


def test_the_gate_releases_a_word_beside_a_box_after_a_blank_glyph() -> None:
    pdf = _page(b"BT /F2 12 Tf 72 700 Td (~) Tj /F1 12 Tf ( Ralstonia solanacearum) Tj ET")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    marks = [RedactionMark(0, normalize(page, page.search_for("Ralstonia")[0]), "(b)(6)")]

    output = sanitize(burn_in(pdf, marks))

    report = verify(pdf, output, marks)
    assert report.ok, report.failures
    assert "solanacearum" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()


def test_a_number_under_a_described_figure_is_marked_on_its_own_line() -> None:
    pdf = _page(
        b"BT /F1 12 Tf 400 700 Td (Menu) Tj ET"
        b" /Figure <</MCID 0>> BDC q 400 0 0 300 90 392 cm /Im0 Do Q EMC"
        b" BT /F1 12 Tf 500 392 Td ( ) Tj -410 -14 Td (219-45-6789 is the SSN) Tj ET",
        figure=True,
    )
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]

    marks = [
        m for m in detect(pdf, DetectionPolicy(salt=b"s", ocr=False)).marks if m.category == "ssn"
    ]

    assert len(marks) == 1
    box = page_rect(page, marks[0].box)
    assert box.height < 20 and box.y0 > 390  # the number's line, not the figure above it


def test_words_of_splits_and_numbers_words_as_extract_words_does() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Name:\tJane\u00a0Roe  (case 12-345)", fontsize=11)
    page.insert_text(
        (72, 90), "second line, with punctuation; and \u202aembedded\u202c marks", fontsize=9
    )
    page.insert_text((300, 400), "a block of its own", fontsize=14)
    textpage = pymupdf.open(stream=doc.tobytes(), filetype="pdf")[0].get_textpage()

    assert words_of(textpage) == textpage.extractWORDS()
