"""A form XObject strokes with the line state it sets itself through burn-in and
sanitize (`form_line_state`).

openhtmltopdf starts each page with "2 J" (square caps) and draws an SVG's dashed
border in a form that says "0 J". MuPDF's filter dropped the form's "0 J" as the
default it assumed, and the dashes took the page's square caps: any burn-in nearly
closed their gaps (openhtmltopdf's issue-493-svg-styles.pdf)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.content_tokens import operations
from review.pdf.form_line_state import line_state_set_for_forms
from testkit.drawing import append_content
from testkit.pixels import changed_beside_a_mark

DASHED_BORDER = b"[6 4] 0 d 3 w 0 0 m 200 0 l 200 60 l 0 60 l h S"


def page_with_a_form(form_content: bytes, *, drawn: bytes = b"/Border Do") -> bytes:
    """A page that sets square caps and a width of 0.5, draws a form of
    `form_content` at (100, 500) with `drawn`, and says "Call Jane Roe" above it and
    "Signed" below it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 150), "Call Jane Roe", fontsize=12)
    form = doc.get_new_xref()
    doc.update_object(form, "<</Type/XObject/Subtype/Form/BBox[-10 -10 210 70]>>")
    doc.update_stream(form, form_content)
    resources = int(doc.xref_get_key(page.xref, "Resources")[1].split()[0])
    doc.xref_set_key(resources, "XObject", f"<</Border {form} 0 R>>")
    append_content(page, b"2 J 0.5 w q 1 0 0 1 100 500 cm " + drawn + b" Q")
    page.insert_text((72, 400), "Signed", fontsize=12)
    return doc.tobytes()


@pytest.mark.parametrize(
    "form_content",
    [b"0 J " + DASHED_BORDER, b"1 w 0 J " + DASHED_BORDER.replace(b"3 w ", b"")],
    ids=["its own caps", "its own caps and the default width"],
)
def test_a_form_that_sets_butt_caps_keeps_them_under_a_page_of_square_caps(
    form_content: bytes,
) -> None:
    changed, passes = changed_beside_a_mark(page_with_a_form(form_content), "Roe")

    assert changed == 0
    assert passes


def test_a_form_that_sets_no_caps_keeps_the_pages() -> None:
    changed, passes = changed_beside_a_mark(page_with_a_form(DASHED_BORDER), "Roe")

    assert changed == 0
    assert passes


def test_a_form_drawn_right_after_an_operator_leaves_the_operator_whole() -> None:
    """Written "0 TL/Fm17 Do" (PSPDFKit's Digital_Signatures.pdf): the reset written
    around it ran into the operator ("TLq"), and the page lost its copyright line."""
    doc = pymupdf.open(
        stream=page_with_a_form(b"0 J " + DASHED_BORDER, drawn=b"0 TL/Border Do"),
        filetype="pdf",
    )

    line_state_set_for_forms(doc)

    operators = [op.operator for op in operations(doc[0].read_contents())]
    assert b"TL" in operators
    assert operators.count(b"q") == operators.count(b"Q")
