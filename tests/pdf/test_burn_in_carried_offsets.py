"""Burn-in keeps text where it was when a line's spacing is written apart from its words
and the font size changes in between. MuPDF's content filter writes the numbers that end
a "TJ" (UniDoc writes each space as "[-278] TJ") before the next text shown, in the size
in force there: a word set at 14 points after one at 10 moved 1.1 points right, with
nothing redacted on its line, and the gate refused ten of UniDoc's seventy examples."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, glyph_origins

# Lines as UniDoc and others write them: spaces apart from the words, a word in another
# size (or horizontal scaling) after one of them.
LINES = {
    "space alone": b"/helv 10 Tf [(The)] TJ [-278] TJ /helv 14 Tf [(large)] TJ [-278] TJ"
    b" /helv 10 Tf [(word)] TJ [-278] TJ /helv 10 Tf [(stays.)] TJ",
    "space ending a show": b"/helv 10 Tf [(The) -278] TJ /helv 14 Tf [(large) -278] TJ"
    b" /helv 10 Tf [(word) -278] TJ [(stays.)] TJ",
    "scaled word": b"/helv 10 Tf [(The)] TJ [-278] TJ 150 Tz [(wide)] TJ [-278] TJ"
    b" 100 Tz [(word)] TJ [-278 (stays.)] TJ",
    "size restored": b"/helv 10 Tf [(The)] TJ q /helv 14 Tf [(large) -500] TJ Q"
    b" [(word)] TJ [-278] TJ (stays.) Tj",
}


def page_with(line: bytes) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 92), "Complainant: Jane Doe", fontsize=12)
    append_content(page, b"BT 72 600 Td " + line + b" ET")
    return doc.tobytes()


def origins(pdf: bytes) -> list[tuple[str, float, float]]:
    return glyph_origins(pdf, below=150, spaces=True)  # the line below the name (y down)


def assert_in_place(after: list, before: list) -> None:
    assert [c for c, _, _ in after] == [c for c, _, _ in before]
    assert (
        max(abs(a[1] - b[1]) + abs(a[2] - b[2]) for a, b in zip(after, before, strict=True)) < 0.01
    )


@pytest.mark.parametrize("name", LINES)
def test_a_line_with_its_size_changed_between_spaces_and_words_keeps_its_place(name) -> None:
    pdf = page_with(LINES[name])
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(0, normalize(page, page.search_for("Jane Doe")[0]), "(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert_in_place(origins(output), origins(pdf))
    assert verify(pdf, output, [mark]).ok


def test_spacing_before_a_move_to_the_next_line_is_left_where_it_is() -> None:
    pdf = page_with(b"/helv 10 Tf [(First) -278] TJ 0 -14 Td /helv 14 Tf [(Second)] TJ")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(0, normalize(page, page.search_for("Jane Doe")[0]), "(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert_in_place(origins(output), origins(pdf))
    assert verify(pdf, output, [mark]).ok
