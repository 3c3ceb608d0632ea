"""Fake bold is seen text: a word drawn several times over itself a fraction of a point
apart is traced each time and extracted once, and the copies extraction left out were
taken for clipped text (pdf.js's bug900822.pdf); sanitize could not cut them from under
the visible copy and the gate refused the release."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_through_a_clip_that_cuts_nothing

OFFSETS = [(0.0, 0.0), (0.16, 0.0), (0.0, 0.32), (0.16, 0.32)]


def fake_bold_page() -> bytes:
    """One text object that shows each letter of a word at every offset of OFFSETS."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "Plain words first", fontsize=12)
    shows = b"".join(
        b"1 0 0 1 %g %g Tm (%s) Tj " % (72 + 16 * i + dx, 640 + dy, letter.encode())
        for i, letter in enumerate("Test")
        for dx, dy in OFFSETS
    )
    append_through_a_clip_that_cuts_nothing(page, b"BT /helv 25 Tf " + shows + b"ET")
    return doc.tobytes()


def test_the_copies_of_a_fake_bold_word_are_not_hidden_content() -> None:
    pdf = fake_bold_page()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    traced = sum(len(span["chars"]) for span in page.get_texttrace())
    extracted = page.get_text().replace(" ", "").replace("\n", "")
    assert extracted == "PlainwordsfirstTest"
    assert traced == len("Plain words first") + len("Test") * len(OFFSETS)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert verify(pdf, output, []).ok
