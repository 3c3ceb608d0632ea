"""A glyph the font maps to a private-use character, with an /ActualText saying what it
shows: the trace gives the private-use code, extraction the actual text (a flag emoji
in py-pdf's sample Google Docs document). On a page where a clip cut other text, the
glyph was taken for clipped; once a mark's background split made the page go through
the glyph-by-glyph analysis, sanitize cut the flags and the gate refused the output."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import CLIPPED, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import (
    append_a_word_a_clip_cuts_away,
    append_content,
    page_writing_hyphens_as,
)


def flag_page() -> bytes:
    page = page_writing_hyphens_as("Offices in Jakarta", "Icons", chr(0xE000))
    append_content(
        page,
        b"BT /Icons 12 Tf 1 0 0 1 190 692 Tm /Span <</ActualText (ID)>> BDC (-) Tj EMC ET",
    )
    append_a_word_a_clip_cuts_away(page)
    return page.parent.tobytes()


def test_a_private_use_glyph_shown_as_its_actual_text_is_not_clipped() -> None:
    pdf = flag_page()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    traced = [chr(c[0]) for span in page.get_texttrace() for c in span["chars"]]
    assert "\ue000" in traced
    assert "ID" in [w[4] for w in page.get_text("words")]

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [(CLIPPED, "Hidden")]
    output = sanitize(burn_in(pdf, []))
    # The flag stays drawn; its /ActualText goes with every marked-content property list
    # (test_sanitize_property_lists.py), so extraction reads the glyph's own code.
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert "\ue000" in words
    assert verify(pdf, output, []).ok
