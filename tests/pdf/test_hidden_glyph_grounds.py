"""A glyph on the ink of an earlier glyph is seen where their colours differ. The IRS's
caution icon draws a white triangle from a pi font over a dark square and a dark "!" on
the triangle; judged against the square alone, the "!" was dark on dark, and sanitize
removed it from every tax form that warns (pdf2json's test forms). Text in the colour of
the glyph under it, in the counter of a letter, or on a glyph painted over since, is
still hidden."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.hidden import SAME_COLOUR, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource

DARK = b"0.137 0.122 0.125"
WHITE = b"1 1 1"


def caution_icon(triangle: bytes, *, between: bytes = b"") -> bytes:
    """A dark square, a triangle glyph (ZapfDingbats' "s") in `triangle`'s colour on it,
    `between` painted next, and a dark "!" on the triangle."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Caution: read the instructions first.", fontsize=12)
    set_resource(page, "Font", "<</Pi<</Type/Font/Subtype/Type1/BaseFont/ZapfDingbats>>>>")
    append_content(
        page,
        DARK + b" rg 72 600 48 48 re f"
        + b" BT " + triangle + b" rg /Pi 44 Tf 74 606 Td (s) Tj ET " + between
        + b" BT " + DARK + b" rg /helv 28 Tf 88 610 Td (!) Tj ET",
    )  # fmt: skip
    return doc.tobytes()


def test_a_dark_mark_on_a_white_glyph_over_a_dark_square_is_seen_and_released() -> None:
    pdf = caution_icon(WHITE)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert "!" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, []).ok


def hidden_marks(pdf: bytes) -> list[tuple[str, str]]:
    """What is hidden of the "!" (the triangle is judged on its own: hidden too, dark on
    the dark square or covered by it, but as some character of the pi font's own)."""
    return [(f.kind, f.text) for f in find_hidden(pdf) if f.text == "!"]


def test_a_mark_in_the_colour_of_the_glyph_under_it_is_still_hidden() -> None:
    assert hidden_marks(caution_icon(DARK)) == [(SAME_COLOUR, "!")]


def test_a_mark_on_a_glyph_painted_over_since_is_judged_on_what_covers_the_glyph() -> None:
    pdf = caution_icon(WHITE, between=DARK + b" rg 72 600 48 48 re f")

    assert hidden_marks(pdf) == [(SAME_COLOUR, "!")]


def hidden_on_a_page_of(operators: bytes) -> list[tuple[str, str]]:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Figure 1", fontsize=12)
    append_content(page, operators)
    return [(f.kind, f.text) for f in find_hidden(doc.tobytes())]


@pytest.mark.parametrize(
    ("at", "hidden"),
    [(b"150 468", [(SAME_COLOUR, "x")]), (b"118 468", [])],
    ids=["counter", "ring"],
)
def test_white_text_in_a_letters_counter_is_hidden_and_on_its_ink_is_seen(
    at: bytes, hidden: list
) -> None:
    operators = b"BT 0 0 0 rg /helv 240 Tf 100 400 Td (O) Tj ET"
    operators += b" BT 1 1 1 rg /helv 12 Tf " + at + b" Td (x) Tj ET"

    assert hidden_on_a_page_of(operators) == hidden


def test_white_text_written_over_a_line_of_black_text_is_still_hidden() -> None:
    operators = b"BT 0 0 0 rg /helv 28 Tf 72 600 Td (MEMBERSHIP WITHHELD) Tj ET"
    operators += b" BT 1 1 1 rg /helv 28 Tf 72 600 Td (Ivan Kowalski) Tj ET"

    assert hidden_on_a_page_of(operators) == [(SAME_COLOUR, "IvanKowalski")]  # no spaces
