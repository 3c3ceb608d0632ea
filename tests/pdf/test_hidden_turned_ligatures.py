"""The second letter of a ligature on a turned line is no clipped glyph
(`geometry.flat_along` in `hidden.analyse_page`).

The trace gives the letters a ligature ("fi") stands for a box each, the second one a
line across the glyph's start: on an upright line it has no area, and it shares the
fate of the glyph. On a line turned a few degrees its upright box is a glyph's height
times the sine wide, so it was taken for a glyph of its own, one no clip kept: sanitize
cut "scientific" and "artificial" short, and the gate refused the release (Tika's
testPDF_angles.pdf)."""

from __future__ import annotations

import math

import pymupdf
import pytest

from review.pdf.hidden import analyse_page
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import (
    append_a_word_a_clip_cuts_away,
    append_through_a_clip_that_cuts_nothing,
    set_resource,
)

# The ligature's code written as the two letters, as the source's Myriad does.
TO_UNICODE = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Ligature-UCS def /CMapType 2 def
1 begincodespacerange <00> <FF> endcodespacerange
1 beginbfchar <AE> <00660069> endbfchar
endcmap CMapName currentdict /CMap defineresource pop end end"""


def turned_ligature_line(degrees: float) -> bytes:
    """'scientific principles' in Helvetica, its "fi" the font's ligature glyph (one code,
    two letters), on a line turned by `degrees`, drawn through a clip."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((20, 280), "Footnote", fontsize=8)
    font, to_unicode = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(to_unicode, "<<>>")
    doc.update_stream(to_unicode, TO_UNICODE)
    doc.update_object(
        font,
        "<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding"
        f"<</Type/Encoding/BaseEncoding/WinAnsiEncoding/Differences[174/fi]>>"
        f"/ToUnicode {to_unicode} 0 R>>",
    )
    set_resource(page, "Font/Lig", f"{font} 0 R")
    cos, sin = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    matrix = b"%.5f %.5f %.5f %.5f 40 150" % (cos, sin, -sin, cos)
    # Through a clip, as the source's text is: its glyphs are classified one by one.
    text = b"BT /Lig 12 Tf " + matrix + b" Tm (scienti\\256c principles) Tj ET"
    append_through_a_clip_that_cuts_nothing(page, text)
    # A word a clip cuts away: the page's glyphs are then matched one by one against
    # what the clips keep, and the letter's box, not its key, has to say it belongs to
    # the ligature (the trace puts it at the glyph's start, extraction at its end).
    append_a_word_a_clip_cuts_away(page)
    return doc.tobytes()


def read(pdf: bytes) -> str:
    """The page's text with ligatures expanded, as detection reads it."""
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return page.get_text(flags=pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES)


@pytest.mark.parametrize("degrees", [0, 3, 5, -5, 20])
def test_a_ligature_on_a_turned_line_is_seen_and_released(degrees: float) -> None:
    pdf = turned_ligature_line(degrees)
    assert "scientific" in read(pdf)

    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    hidden = analyse_page(page, exhaustive=True).hidden
    assert "".join(glyph.text for glyph in hidden) == "Hidden"  # the clipped word alone
    release = sanitize(burn_in(pdf, []))
    assert "scientific" in read(release) and "Hidden" not in read(release)
    assert verify(pdf, release, []).ok
