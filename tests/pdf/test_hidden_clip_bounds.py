"""Visible text under clips is not hidden content: a ligature glyph inside a clipping
path, and text elsewhere on a page where a shading paints inside a small clip. Found
on real documents (pypdf's commented.pdf, issue-604.pdf), where sanitize then erased
visible words. What a clip or a shading really hides is still found."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.hidden import find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import (
    append_a_word_a_clip_cuts_away,
    append_content,
    page_writing_hyphens_as,
)

# Not a rectangle, so the page goes to the glyph-by-glyph analysis.
PENTAGON_AROUND_TEXT = b"40 40 m 260 40 l 260 160 l 150 190 l 40 160 l h W n"
PENTAGON_BELOW_TEXT = b"40 10 m 260 10 l 260 50 l 150 60 l 40 50 l h W n"
# In the base-14 fonts' StandardEncoding, code 0xAE (octal 256) is the "fi" glyph.
LIGATURE_TEXT = b"BT /F1 14 Tf 60 100 Td (Our \\256rst \\256nding) Tj ET"
# Extended at both ends, so MuPDF bounds it as the whole plane.
AXIAL_SHADING = (
    "<</ShadingType 2/ColorSpace/DeviceRGB/Coords[0 0 300 0]/Extend[true true]"
    "/Function<</FunctionType 2/Domain[0 1]/C0[0.2 0.4 0.8]/C1[0.1 0.1 0.3]/N 1>>>>"
)


def _page(content: bytes, rotation: int = 0) -> bytes:
    """A 300 x 200 pt page with Times-Roman as /F1 and an axial shading as /Sh0."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Times-Roman>>")
    shading = doc.get_new_xref()
    doc.update_object(shading, AXIAL_SHADING)
    doc.xref_set_key(
        page.xref, "Resources", f"<</Font<</F1 {font} 0 R>>/Shading<</Sh0 {shading} 0 R>>>>"
    )
    contents = doc.get_new_xref()
    doc.update_object(contents, "<<>>")
    doc.update_stream(contents, content)
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    page.set_rotation(rotation)
    return doc.tobytes()


def _text(pdf: bytes) -> str:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return doc[0].get_text()


def test_builder_draws_real_ligature_glyphs() -> None:
    with pymupdf.open(stream=_page(LIGATURE_TEXT), filetype="pdf") as doc:
        traced = [chr(c[0]) for span in doc[0].get_texttrace() for c in span["chars"]]

    assert traced.count("\ufb01") == 2


@pytest.mark.parametrize("rotation", [0, 90])
def test_ligature_inside_a_clipping_path_is_not_hidden_and_survives_the_release(
    rotation: int,
) -> None:
    pdf = _page(b"q " + PENTAGON_AROUND_TEXT + b" " + LIGATURE_TEXT + b" Q", rotation)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert "Our \ufb01rst \ufb01nding" in _text(output)
    assert verify(pdf, output, []).ok


def test_ligature_a_clipping_path_cuts_away_is_still_found_as_clipped() -> None:
    pdf = _page(b"q " + PENTAGON_BELOW_TEXT + b" " + LIGATURE_TEXT + b" Q")

    found = find_hidden(pdf)

    assert {f.kind for f in found} == {"clipped"}
    assert "".join(f.text for f in found).replace(" ", "") == "Our\ufb01rst\ufb01nding"
    assert "rst" not in _text(sanitize(burn_in(pdf, [])))


@pytest.mark.parametrize("rotation", [0, 90])
def test_text_beside_a_shading_painted_inside_a_small_clip_is_not_covered(
    rotation: int,
) -> None:
    text = b"BT /F1 14 Tf 60 150 Td (Header stays visible) Tj ET"
    pdf = _page(text + b" q " + PENTAGON_BELOW_TEXT + b" /Sh0 sh Q", rotation)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert "Header stays visible" in _text(output)
    assert verify(pdf, output, []).ok


def test_text_under_a_shading_painted_inside_a_clip_over_it_is_covered() -> None:
    text = b"BT /F1 14 Tf 60 30 Td (CANARYundershading) Tj ET"
    pdf = _page(text + b" q " + PENTAGON_BELOW_TEXT + b" /Sh0 sh Q")

    found = find_hidden(pdf)

    assert [(f.kind, f.text) for f in found] == [("covered", "CANARYundershading")]
    assert "CANARY" not in _text(sanitize(burn_in(pdf, [])))


def test_a_glyph_extraction_places_elsewhere_with_no_clip_around_it_is_not_clipped() -> None:
    """Before: a font reading a glyph as a combining mark (U+0744 here), set with
    character spacing, is extracted at the end of the glyph before it, not where it
    is drawn; on a page where a clip cuts something else, the keying took it for clipped
    away and sanitize erased it (121 visible kanji of two Japanese health-check forms
    whose font maps its glyphs to such characters)."""
    page = page_writing_hyphens_as("Witness statement", "Fd", "\u0744")
    append_content(page, b"BT /Fd 12 Tf 6 Tc 72 600 Td (Form 12-B) Tj ET")
    append_a_word_a_clip_cuts_away(page)
    pdf = page.parent.tobytes()

    hidden = find_hidden(pdf)

    assert [h.kind for h in hidden] == ["clipped"] and hidden[0].text == "Hidden"
    output = sanitize(burn_in(pdf, []))
    traced = [chr(c[0]) for s in pymupdf.open(stream=output)[0].get_texttrace() for c in s["chars"]]
    assert "\u0744" in traced
    assert verify(pdf, output, []).ok
