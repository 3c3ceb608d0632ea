"""Text on an image mask (a stencil) stands on whatever colour the stencil paints,
which the analysis does not read: its background is unknown, not what lies under
the stencil.

A TI-89 guide (olmOCR's test files) draws each calculator screen as a black box, then
the screen's picture as a stencil in white over it, then black words on the screen.
The words counted as black on the black box, same-coloured: sanitize cut them."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import SAME_COLOUR, find_hidden
from testkit.drawing import append_content

# A black box from x 100 to 300 (PDF y 600 to 700), its left half under a white stencil.
SCREEN = (
    b"q 0 g 100 600 200 100 re f Q"
    b" q 1 g 100 0 0 100 100 600 cm BI /IM true /W 1 /H 1 /BPC 1 ID \x00 EI Q"
)


def screen_page(x: float) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Programming", fontsize=11)
    append_content(page, SCREEN)
    page.insert_text((x, 150), "Endfunc", fontsize=9, color=(0, 0, 0))
    return doc.tobytes()


def test_black_words_on_a_white_stencil_over_a_black_box_are_seen() -> None:
    assert find_hidden(screen_page(110)) == []


def test_black_words_on_the_black_box_beside_the_stencil_are_hidden() -> None:
    assert {h.kind for h in find_hidden(screen_page(220))} == {SAME_COLOUR}
