"""A form XObject that sets its own word and character spacing keeps them through
burn-in and sanitize (`review/pdf/text_state.py`).

MuPDF's content filter rewrote each form as if it started from the default text state
and dropped the form's own "0 Tw" and "0 Tc"; drawn under a page that had last set
other values, the form's text was spaced by the page's (a CMS form's footer came out
as "FormCMS-1490S(version01/18)"), and the word-based gate did not notice."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize

FOOTER = "Form CMS-1490S (version 01/18)"


def page_then_form(form_resources_indirect: bool = False, line_state: bytes = b"") -> bytes:
    """A heading the page sets with negative word spacing and wide character spacing,
    then a footer form that resets both to 0 before it shows its text (setting
    `line_state` first)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    fonts = f"<</Font<</F1 {font} 0 R>>>>"
    if form_resources_indirect:
        shared = doc.get_new_xref()
        doc.update_object(shared, fonts)
        fonts = f"{shared} 0 R"
    form = doc.get_new_xref()
    doc.update_object(form, f"<</Type/XObject/Subtype/Form/BBox[0 0 300 200]/Resources {fonts}>>")
    doc.update_stream(
        form, line_state + f"BT /F1 9 Tf 0 Tw 0 Tc 20 30 Td ({FOOTER}) Tj ET".encode()
    )
    doc.xref_set_key(
        page.xref, "Resources", f"<</Font<</F1 {font} 0 R>>/XObject<</Fm0 {form} 0 R>>>>"
    )
    contents = doc.get_new_xref()
    doc.update_object(contents, "<<>>")
    heading = b"BT /F1 12 Tf -3 Tw 2 Tc 20 160 Td (Claimant Jane Example) Tj ET"
    doc.update_stream(contents, heading + b" q /Fm0 Do Q")
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    return doc.tobytes()


def footer_words(pdf: bytes) -> list[tuple[float, str]]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return [(round(w[0], 1), w[4]) for w in page.get_text("words") if w[1] > 150]


@pytest.mark.parametrize("indirect", [False, True])
def test_a_form_keeps_the_spacing_it_sets_itself_through_burn_in_and_sanitize(indirect):
    pdf = page_then_form(indirect)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    heading = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[1] < 60))
    marks = [RedactionMark(page=0, box=normalize(page, heading), legal_reason="(b)(6)")]
    burned = burn_in(pdf, marks)
    assert footer_words(burned) == footer_words(pdf)
    assert footer_words(sanitize(burned)) == footer_words(pdf)


def test_a_form_without_a_mark_on_its_page_keeps_its_spacing_through_sanitize():
    pdf = page_then_form()
    assert footer_words(sanitize(burn_in(pdf, []))) == footer_words(pdf)


def test_a_form_that_sets_its_line_state_too_keeps_its_spacing_through_sanitize():
    """Sanitize saves the burn-in's output again: the text state that save wrote where
    the form is drawn was hidden from it by the line state's own "q" around the same
    "Do" (an Acrobat watermark's "COPY" spread by 7 points, Iowa's tax instructions)."""
    pdf = page_then_form(line_state=b"0 J []0 d 0 j 1 w 10 M ")
    assert footer_words(sanitize(burn_in(pdf, []))) == footer_words(pdf)
