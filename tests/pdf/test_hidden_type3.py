"""Type 3 glyphs that MuPDF draws itself are seen text, not invisible text.

MuPDF draws a Type 3 glyph it cannot cache (here: one that strokes with the line width
and colour it inherits) by running the glyph's procedure on the device, and then adds
the glyph as render-mode-3 text so that extraction reads it. The page shows the
drawing; the analysis must not call that text invisible (it did, and the release gate
then refused every such page: pdf.js's Type3WordSpacing.pdf). Text the document itself
paints in render mode 3 stays invisible, in a Type 3 font too.
"""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import INVISIBLE, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

STROKED_GLYPH = b"1000 0 0 0 750 750 d1 50 w 0 0 750 750 re S"  # inherits the colour
CACHED_GLYPH = b"1000 0 0 0 750 750 d1 0 0 750 750 re f"


def type3_page(glyph: bytes, *, render_mode: int) -> bytes:
    """One page showing "ABC" in a Type 3 font whose every letter is `glyph`."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=100)
    font, procs, proc, contents = (doc.get_new_xref() for _ in range(4))
    doc.update_object(proc, "<<>>")
    doc.update_stream(proc, glyph)
    doc.update_object(procs, f"<</g {proc} 0 R>>")
    doc.update_object(
        font,
        "<</Type/Font/Subtype/Type3/FontBBox[0 0 750 750]/FontMatrix[0.001 0 0 0.001 0 0]"
        f"/CharProcs {procs} 0 R/Encoding<</Type/Encoding/Differences[65/g/g/g]>>"
        "/FirstChar 65/LastChar 67/Widths[1000 1000 1000]>>",
    )
    doc.xref_set_key(page.xref, "Resources", f"<</Font<</T3 {font} 0 R>>>>")
    doc.update_object(contents, "<<>>")
    doc.update_stream(
        contents, b"0 0 1 rg 1 0 0 RG BT /T3 20 Tf %d Tr 20 50 Td (ABC) Tj ET" % render_mode
    )
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    return doc.tobytes()


def test_a_type3_glyph_mupdf_draws_itself_is_seen_and_releases() -> None:
    pdf = type3_page(STROKED_GLYPH, render_mode=0)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    assert page.get_text().split() == ["ggg"]  # extraction reads the glyphs
    assert page.get_pixmap(dpi=72).color_count() > 1  # and the page draws them

    assert find_hidden(pdf) == []
    assert verify(pdf, sanitize(burn_in(pdf, [])), []).ok


def test_type3_text_the_document_paints_invisibly_is_hidden() -> None:
    for glyph in (STROKED_GLYPH, CACHED_GLYPH):
        pdf = type3_page(glyph, render_mode=3)

        found = find_hidden(pdf)

        assert found and {f.kind for f in found} == {INVISIBLE}
        assert "".join(f.text for f in found) == "ggg"
