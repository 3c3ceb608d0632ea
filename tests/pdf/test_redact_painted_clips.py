"""What a path that clips and is painted hides stays hidden through burn-in
(`painted_clips`).

MuPDF's redaction took "<path> W S" whole when a box came near the path, its clip with
it: the text the clip hid appeared in the release (gofpdf's ClipText.pdf, a paragraph
clipped to a rounded box, every line out whole for a mark on one word)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.content_tokens import operations
from review.pdf.painted_clips import painted_clips_spelled_out
from testkit.drawing import append_content
from testkit.pixels import changed_beside_a_mark

# A box 300 by 100 at (50, 600) that clips a line running on past its right side.
CLIPPED_LINE = (
    b"q 0.4 0.5 0.6 RG 0.9 0.9 0.8 rg 50 600 300 100 re %s"
    b" BT /helv 12 Tf 60 640 Td (Call Jane Roe at the front desk of the hall, then"
    b" SECRET BEYOND THE CLIP) Tj ET Q"
)


def clipped_page(clip_and_paint: bytes) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 72), "Notice", fontsize=11)  # and the font /helv
    append_content(page, CLIPPED_LINE % clip_and_paint)
    return doc.tobytes()


@pytest.mark.parametrize("clip_and_paint", [b"W S", b"W s", b"W f", b"W* f*", b"W B", b"W* b*"])
def test_a_mark_inside_a_painted_clip_leaves_what_it_hides_hidden(clip_and_paint: bytes) -> None:
    pdf = clipped_page(clip_and_paint)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    assert "SECRET" not in page.get_text("text", clip=page.rect)  # clipped away as drawn

    changed, passes = changed_beside_a_mark(pdf, "Roe")

    assert changed == 0
    assert passes


def test_a_painted_clip_is_painted_then_made_the_clip() -> None:
    data = b"q 0 0 m 10 0 l 10 10 l h W S 5 5 20 20 re W* f* 1 1 2 2 re W n 0 0 m W n Q"

    assert painted_clips_spelled_out(data, operations(data)) == (
        b"q 0 0 m 10 0 l 10 10 l h S 0 0 m 10 0 l 10 10 l h W n"
        b" 5 5 20 20 re f* 5 5 20 20 re W* n 1 1 2 2 re W n 0 0 m W n Q"
    )
