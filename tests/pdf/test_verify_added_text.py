"""The release gate refuses an output that shows text the original did not show: text no
reviewer saw, whatever made it readable (content MuPDF could not read in the original,
such as corkami's shattered PDFs, whose page content was a JPEG; a layer that hid it)."""

from __future__ import annotations

import pymupdf

from review.pdf.verify import verify


def _page(*lines: tuple[float, str]) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    for y, text in lines:
        page.insert_text((50, y), text, fontsize=12)
    return doc.tobytes()


def test_an_output_showing_a_line_the_original_did_not_is_refused() -> None:
    original = _page((100, "Cover sheet"))
    output = _page((100, "Cover sheet"), (140, "Jane Roe lives at 12 Elm Street"))

    report = verify(original, output, [])

    assert not report.ok
    assert ("text_added", 0, 7) in {(f.code, f.page, f.count) for f in report.failures}


def test_a_word_with_letters_taken_from_between_is_not_new() -> None:
    # What sanitize leaves once it cut a hidden glyph from inside a word (PyMuPDF's
    # test_3780.pdf: "tÞ~" of "tð" and "Þ~"): its letters are the original's,
    # in order. (The whole word is missing too: that is collateral damage's business.)
    original = _page((100, "Cover sheet"), (140, "Reference"))
    output = _page((100, "Cover sheet"), (140, "Refrence"))

    assert "text_added" not in verify(original, output, []).codes()


def test_other_letters_where_a_word_was_are_new() -> None:
    original = _page((100, "Cover sheet"), (140, "Reference"))
    output = _page((100, "Cover sheet"), (140, "Rene Doe"))

    assert "text_added" in verify(original, output, []).codes()


def _right_to_left(text: bytes) -> bytes:
    """A page with `text` set right to left and up the page, as letters set one by one
    along a curve can run (PoC||GTFO 3:4)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    font = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    doc.xref_set_key(page.xref, "Resources", f"<< /Font << /F1 {font} >> >>")
    stream = doc.get_new_xref()
    doc.update_object(stream, "<< >>")
    doc.update_stream(
        stream, b"BT /F1 12 Tf -0.7071 0.7071 -0.7071 -0.7071 200 100 Tm (%s) Tj ET" % text
    )
    doc.xref_set_key(page.xref, "Contents", f"{stream} 0 R")
    return doc.tobytes()


def test_a_word_on_a_line_running_right_to_left_is_read_in_its_order() -> None:
    original, output = _right_to_left(b"Ref erence"), _right_to_left(b"Refrence")
    assert [w[4] for w in pymupdf.open(stream=original, filetype="pdf")[0].get_text("words")] == [
        "Ref",
        "erence",
    ]

    assert "text_added" not in verify(original, output, []).codes()
