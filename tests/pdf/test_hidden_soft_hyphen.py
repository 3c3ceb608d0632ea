"""A soft hyphen drawn at a line end is seen text: the trace gives it as U+00AD (the
font's character map), extraction as "-" (the /ActualText the producer wrote around it). On a page where a clipping path cuts some other glyph, the
hyphen was taken for clipped too (pdfplumber's issue-71-duplicate-chars-2.pdf, a French
clinical guide: "acido-" / "basique"); sanitize cut it, and the gate refused the output
for the visible word it had cut short."""

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


def hyphenated_page_with_a_clipped_word() -> bytes:
    # As the guide writes it: a font whose character map reads its hyphen as a soft
    # hyphen, shown inside marked content whose /ActualText is "-".
    page = page_writing_hyphens_as("un trouble acido", "Soft", chr(0xAD))
    append_content(
        page,
        b"BT /Soft 12 Tf 1 0 0 1 157.38 692 Tm /Span <</ActualText <FEFF002D>>> BDC (-) Tj EMC ET",
    )
    page.insert_text((72, 116), "basique complexe", fontsize=12)
    append_a_word_a_clip_cuts_away(page)
    return page.parent.tobytes()


def test_a_drawn_soft_hyphen_is_not_taken_for_clipped_text() -> None:
    pdf = hyphenated_page_with_a_clipped_word()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    assert [chr(c[0]) for span in page.get_texttrace() for c in span["chars"]].count("\xad") == 1
    assert "acido-" in [w[4] for w in page.get_text("words")]

    hidden = find_hidden(pdf)
    assert [(h.kind, h.text) for h in hidden] == [(CLIPPED, "Hidden")]

    output = sanitize(burn_in(pdf, []))
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert "acido-" in words
    assert "Hidden" not in words
    assert verify(pdf, output, []).ok
