"""The gate's byte search reads a control byte beside a token in a content string as a
letter it may be: TeX fonts draw "fi" as one glyph at a control code, and
"(speci\\002cally)" is the "specifically" the output shows, not a redacted "cally" (the
end of a hyphenated "specifi-cally" a box took; PyMuPDF's test_4751.pdf was refused).
A string running a token on into a word the output shows is no hit either when a byte
at the word's edge draws punctuation: "(\\215w)" then "(ill print.)" is the visible
"“will" in a font whose byte 0x8D draws an opening quote (a book chapter in iText
pdfSweep's test files, with "ill" redacted elsewhere)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.tokens import byte_forms
from review.pdf.verify import verify


def ligature_page(first_line: bytes, last_line: bytes = b"(cally) Tj") -> bytes:
    """`first_line`, then `last_line` on a line of its own, in Helvetica with code 2
    drawing the "fi" ligature and code 141 an opening quote."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((10, 10), ".", fontname="helv")  # gives the page its resources
    font = doc.get_new_xref()
    doc.update_object(
        font,
        "<</Type/Font/Subtype/Type1/BaseFont/Helvetica"
        "/Encoding<</Type/Encoding/BaseEncoding/WinAnsiEncoding"
        "/Differences[2/fi 141/quotedblleft]>>>>",
    )
    resources = int(doc.xref_get_key(page.xref, "Resources")[1].split()[0])
    doc.xref_set_key(resources, "Font/TeX", f"{font} 0 R")
    doc.update_stream(
        page.get_contents()[0],
        b"BT /TeX 12 Tf 40 150 Td " + first_line + b" 0 -40 Td " + last_line + b" ET",
    )
    return doc.tobytes()


def _release(pdf: bytes, word: str = "cally") -> tuple[list[RedactionMark], bytes]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = next(w for w in page.get_text("words") if w[4] == word)
    marks = [RedactionMark(page=0, box=normalize(page, pymupdf.Rect(box[:4])), legal_reason="x")]
    return marks, sanitize(burn_in(pdf, marks))


def test_a_redacted_token_after_a_ligature_glyph_of_another_word_is_no_hit() -> None:
    pdf = ligature_page(b"(Speci\\002cally stated) Tj")
    marks, output = _release(pdf)

    assert verify(pdf, output, marks).ok


def test_a_token_a_string_runs_on_into_a_quoted_word_the_output_shows_is_no_hit() -> None:
    pdf = ligature_page(b"(The name ) Tj (\\215w) Tj (ill print.) Tj", b"(ill) Tj")
    marks, output = _release(pdf, "ill")
    assert "\u201cwill" in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")[2]

    assert verify(pdf, output, marks).ok


def test_white_space_and_punctuation_beside_a_token_still_end_it() -> None:
    (needle,) = [n for n in byte_forms({"cally"}) if n.data == b"cally"]

    assert not needle.found_in(b"(speci\x02cally)")
    assert not needle.found_in(b"(speci\x0ccally)")  # OT1's "fi"
    for before in (b" ", b"\t", b"\n", b"\r", b"\x00", b"(", b"-"):
        assert needle.found_in(b"(x" + before + b"cally)"), before
