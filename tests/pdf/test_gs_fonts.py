"""Text in a font that a graphics state dictionary sets (/Font [font size] in an
ExtGState, where most producers write "Tf") keeps its font through burn-in and sanitize
(`resources.gs_fonts_named`).

MuPDF's content filter, which every redaction and every cleaning save runs, writes such
a font as "/ExtGState 14 Tf", a name no resource has: MuPDF then drew the text in a
fallback font, and a viewer that does not fall back draws none of it (veraPDF's
6-1-12-t02 files: an "A" set in Arial Bold changed shape in every release)."""

from __future__ import annotations

import re

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from testkit.drawing import append_content, set_resource

LINE = b"BT /Typewriter gs 20 100 Td (Jane Example wrote this line) Tj ET"
REST = pymupdf.Rect(125, 80, 300, 110)  # right of the name (to x 120.8) and its box


def set_in_a_graphics_state_font(in_form: bool) -> bytes:
    """A heading in Helvetica, then a line set in Courier by the ExtGState /Typewriter:
    on the page, or in a form XObject that takes the page's resources."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 30), "Heading", fontname="helv")
    courier, state = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(courier, "<</Type/Font/Subtype/Type1/BaseFont/Courier>>")
    doc.update_object(state, f"<</Type/ExtGState/Font[{courier} 0 R 14]>>")
    set_resource(page, "ExtGState", f"<</Typewriter {state} 0 R>>")
    if in_form:
        form = doc.get_new_xref()
        doc.update_object(form, "<</Type/XObject/Subtype/Form/BBox[0 0 300 200]>>")
        doc.update_stream(form, LINE)
        set_resource(page, "XObject", f"<</Line {form} 0 R>>")
        append_content(page, b"/Line Do")
    else:
        append_content(page, LINE)
    return doc.tobytes()


def rest_of_the_line(pdf: bytes) -> bytes:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return page.get_pixmap(dpi=144, clip=REST, colorspace=pymupdf.csGRAY).samples


def font_names_shown_with(pdf: bytes) -> set[str]:
    """The font names "Tf" sets in the page's and its forms' content."""
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    streams = [*doc[0].get_contents(), *(form[0] for form in doc[0].get_xobjects())]
    content = b" ".join(doc.xref_stream(xref) for xref in streams)
    return {m.decode() for m in re.findall(rb"/([A-Za-z0-9]+)\s+[0-9.]+\s+Tf", content)}


@pytest.mark.parametrize("in_form", [False, True], ids=["on the page", "in a form"])
def test_text_in_a_graphics_state_font_keeps_its_font_beside_a_mark(in_form: bool) -> None:
    pdf = set_in_a_graphics_state_font(in_form)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    name = page.search_for("Jane Example")[0]
    marks = [RedactionMark(page=0, box=normalize(page, name), legal_reason="(b)(6)")]

    preview = burn_in(pdf, marks)
    release = sanitize(preview)

    for output in (preview, release):
        text = pymupdf.open(stream=output, filetype="pdf")[0].get_text()
        assert "Jane" not in text and "wrote this line" in text
        assert rest_of_the_line(output) == rest_of_the_line(pdf)  # still in Courier
        assert "ExtGState" not in font_names_shown_with(output)


def test_a_page_in_a_graphics_state_font_with_no_mark_is_released_as_it_was() -> None:
    pdf = set_in_a_graphics_state_font(in_form=False)
    release = sanitize(burn_in(pdf, []))
    assert rest_of_the_line(release) == rest_of_the_line(pdf)
