"""A justified line that extraction split at its wide gaps is read as one line: the
name on the first line of a Brazilian police order ("MARCELO   ANDRE   CORTES
VILLELA," spread to the paragraph's margins, in UniDoc's examples) came out as four
lines of one word each, and no name was proposed. A table's cells, split the same way,
stay apart."""

from __future__ import annotations

import pymupdf

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import page_rect
from review.pdf.pagetext import PageText, extract_words

HELVETICA = pymupdf.Font("helv")
SECOND_LINE = "Special Agent of the Federal Bureau of Investigation, assigned"


def justified_paragraph(first_line: list[str]) -> bytes:
    """A paragraph whose first line holds `first_line`, spread to the margins that its
    second line, `SECOND_LINE`, reaches."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    right = 72 + HELVETICA.text_length(SECOND_LINE, 12)
    widths = [HELVETICA.text_length(word, 12) for word in first_line]
    gap = (right - 72 - sum(widths)) / (len(first_line) - 1)
    writer = pymupdf.TextWriter(page.rect)
    x = 72.0
    for word, width in zip(first_line, widths, strict=True):
        writer.append((x, 100), word, fontsize=12)
        x += width + gap
    lines = [SECOND_LINE, "to the case under the statutes cited, orders that the records"]
    for i, line in enumerate(lines):
        writer.append((72, 115 + 15 * i), line, fontsize=12)
    writer.write_text(page)
    return doc.tobytes()


def page_text(pdf: bytes) -> str:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    textpage, words, _, _ = extract_words(page)
    return PageText(textpage, words).text


def test_a_name_spread_over_a_justified_line_is_proposed_whole() -> None:
    pdf = justified_paragraph(["JONATHAN", "MICHAEL", "HARRINGTON,"])
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]

    marks = detect(pdf, DetectionPolicy(salt=b"s", ocr=False, ner=True)).marks

    assert page_text(pdf).startswith("JONATHAN MICHAEL HARRINGTON,\nSpecial Agent")
    people = [page_rect(page, m.box) for m in marks if m.category == "person"]
    first, last = page.search_for("JONATHAN")[0], page.search_for("HARRINGTON")[0]
    assert any(box.contains(first.tl + (1, 1)) and box.contains(last.br - (1, 1)) for box in people)


def test_cells_of_a_table_row_split_at_their_gaps_stay_apart() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    writer = pymupdf.TextWriter(page.rect)
    for y, (name, phone) in ((100, ("Jane Smith", "555-0100")), (115, ("John Roe", "555-0199"))):
        writer.append((72, y), name, fontsize=12)
        writer.append((300, y), phone, fontsize=12)
    writer.write_text(page)

    assert page_text(doc.tobytes()) == "Jane Smith\n555-0100\nJohn Roe\n555-0199"
