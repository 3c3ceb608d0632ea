"""Burn-in keeps the rest of a line in place where a redacted run of it changes the font
size. MuPDF's content filter writes the width of the glyphs it removes before the next
text it keeps, measured in the size in force there: with xhtml2pdf's "Normal Bold Italic
Underlined Red Bigger Times Normal" redacted up to "Times" ("Bigger" at 13 points among
words at 7.5), the last "Normal" landed 16 points left, under the box, and the gate
refused the release (`text_moved`); a footnote marker set smaller after a redacted name
moved the same way."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.content_tokens import operations
from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.size_changes import FontWidths, resources_of, sizes_placed
from review.pdf.verify import verify
from testkit.drawing import append_content, glyph_origins, set_resource

# Each line redacted from its start to the end of `REDACTED`; the rest must stay.
LINES = {
    "a larger word": b"/helv 7.5 Tf (Normal Bold ) Tj /helv 13 Tf (Bigger) Tj"
    b" /helv 7.5 Tf ( Times) Tj ( Normal stays) Tj",
    "a footnote marker": b"/helv 12 Tf (Witness Bigger) Tj /helv 7 Tf (12) Tj"
    b" /helv 12 Tf ( said so.) Tj",
    "spacing in arrays": b"/helv 10 Tf [(Witness) -250 (Big) 20 (ger)] TJ 4 Tc /helv 15 Tf"
    b" [(Q)] TJ 0 Tc 2 Tw /helv 10 Tf [( said) -300 ( so.)] TJ",
    "scaled text": b"/helv 10 Tf (Witness Bigger) Tj 150 Tz ( wide) Tj 100 Tz ( word stays) Tj",
}
REDACTED = "Bigger"


def page_with(line: bytes) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 92), "Heading", fontsize=12)  # brings the /helv font resource
    append_content(page, b"BT 72 600 Td 14 TL " + line + b" T* (Next line stays) Tj ET")
    return doc.tobytes()


def origins(pdf: bytes) -> list[tuple[str, float, float]]:
    return glyph_origins(pdf, below=150, spaces=False)


def redact_to(pdf: bytes, word: str) -> tuple[bytes, RedactionMark, float]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    hit = page.search_for(word)[0]
    box = pymupdf.Rect(70, hit.y0, hit.x1, hit.y1)
    return (
        sanitize(burn_in(pdf, [mark := RedactionMark(0, normalize(page, box), "(b)(6)")])),
        mark,
        hit.x1,
    )


@pytest.mark.parametrize("name", LINES)
def test_text_after_a_redacted_change_of_size_keeps_its_place(name) -> None:
    pdf = page_with(LINES[name])

    output, mark, end = redact_to(pdf, REDACTED)

    # What starts past the box on the line (its baseline at y 192), and the next line.
    kept, after = (
        [g for g in origins(doc) if g[1] > end - 0.01 or g[2] > 195] for doc in (pdf, output)
    )
    assert [c for c, _, _ in after] == [c for c, _, _ in kept]
    assert max(abs(a[1] - b[1]) + abs(a[2] - b[2]) for a, b in zip(after, kept, strict=True)) < 0.01
    assert verify(pdf, output, [mark]).ok


def test_a_line_whose_size_changes_with_nothing_redacted_is_drawn_as_before() -> None:
    pdf = page_with(LINES["a larger word"])
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(0, normalize(page, page.search_for("Heading")[0]), "(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    before, after = origins(pdf), origins(output)
    assert [c for c, _, _ in after] == [c for c, _, _ in before]
    assert (
        max(abs(a[1] - b[1]) + abs(a[2] - b[2]) for a, b in zip(after, before, strict=True)) < 0.01
    )


def test_a_stream_that_takes_its_spacing_from_the_one_before_is_left_as_it_is() -> None:
    """A form, or a page's second stream, takes the character spacing and scaling the
    content before it left: widths worked out from defaults would place its text wrong."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 92), "Heading", fontsize=12)
    fonts = FontWidths(doc)
    line = b"BT 72 600 Td /helv 12 Tf (Witness Bigger) Tj /helv 7 Tf (12) Tj ET"
    try:
        widths = fonts.of(resources_of(doc, page))
        inherited = sizes_placed(line, operations(line), widths, fresh=False)
        own = sizes_placed(line, operations(line), widths, fresh=True)
    finally:
        fonts.close()

    assert inherited == line
    # "Witness Bigger" at 12 points in Helvetica is 80.688 points wide.
    assert own == line.replace(b"7 Tf", b"7 Tf 1 0 0 1 152.688 600 Tm")


def test_a_type3_font_is_left_as_its_content_draws_it() -> None:
    """MuPDF reads a Type 3 font with the resources of the content that draws it; read
    for its widths alone it crashed the process (PyMuPDF's test_4435.pdf): such a line
    is left as it is."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 92), "Heading", fontsize=12)
    glyph, font = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(glyph, "<<>>")
    doc.update_stream(glyph, b"600 0 0 0 500 700 d1 0 0 500 700 re f")
    doc.update_object(
        font,
        "<</Type/Font/Subtype/Type3/FontBBox[0 0 500 700]/FontMatrix[.001 0 0 .001 0 0]"
        f"/CharProcs<</box {glyph} 0 R>>/Encoding<</Type/Encoding/Differences[97/box]>>"
        "/FirstChar 97/LastChar 97/Widths[600]>>",
    )
    set_resource(page, "Font/T3", f"{font} 0 R")
    append_content(page, b"BT 72 600 Td /T3 12 Tf (aaa) Tj /T3 7 Tf (a) Tj ET")
    pdf = doc.tobytes()
    mark = RedactionMark(0, normalize(page, page.search_for("Heading")[0]), "(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert [g[1:] for g in origins(output)] == [g[1:] for g in origins(pdf)]
    assert verify(pdf, output, [mark]).ok
