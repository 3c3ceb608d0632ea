"""Text shown outside a BT/ET text object, which MuPDF draws all the same (pdf.js's
issue10388.pdf): burn-in keeps it where the reader saw it. Before, MuPDF's content
filter, run by every cleaning save, dropped its font and position, the text was gone
from the release and the gate failed it with `collateral_damage`."""

from __future__ import annotations

import pymupdf

from review.pdf.content import text_objects_opened
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

STRAY = b"\n/helv 11 Tf 1 0 0 1 72 700 Tm (Stray text line) Tj 0 -14 Td (and another) Tj\n"


def page_with_stray_text() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Heading", fontname="helv")
    page.clean_contents()
    (contents,) = page.get_contents()
    doc.update_stream(contents, doc.xref_stream(contents) + STRAY)
    return doc.tobytes()


def test_text_outside_a_text_object_survives_burn_in_and_the_gate() -> None:
    pdf = page_with_stray_text()
    shown = pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")

    output = sanitize(burn_in(pdf, []))

    kept = pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")
    assert [(round(w[0]), round(w[1]), w[4]) for w in kept] == [
        (round(w[0]), round(w[1]), w[4]) for w in shown
    ]
    assert verify(pdf, output, []).ok


def test_each_run_of_stray_text_gets_a_text_object_and_the_rest_is_left() -> None:
    data = b"/F1 1 Tf (a) Tj BT (b) Tj ET (c) Tj q 0 0 m 5 5 l S Q"

    assert text_objects_opened(data) == (
        b"/F1 1 Tf  BT (a) Tj  ET BT (b) Tj ET  BT (c) Tj  ET q 0 0 m 5 5 l S Q"
    )
    assert text_objects_opened(b"q BT (x) Tj ET Q") == b"q BT (x) Tj ET Q"
