"""Text shown at an opacity below 0 is drawn at 0, unseen, and sanitize removes it as
it removes text at 0. MuPDF's redaction dropped only the latter, so the release kept
the lines a graphics state's "/ca -0.1" hid and the gate refused it (the W3C opacity
clamping test among iText's html2pdf files)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.hidden import INVISIBLE, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource


def line_at_opacity(opacity: str) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 40), "Seen line", fontsize=12)
    set_resource(page, "ExtGState/Faint", f"<</CA {opacity} /ca {opacity}>>")
    append_content(page, b"q /Faint gs BT /helv 12 Tf 20 100 Td (Unseen line) Tj ET Q")
    return doc.tobytes()


@pytest.mark.parametrize("opacity", ["0", "-0.1", "-7439.79"])
def test_text_at_no_opacity_or_below_is_removed_and_the_release_passes(opacity: str) -> None:
    pdf = line_at_opacity(opacity)
    assert {f.kind for f in find_hidden(pdf)} == {INVISIBLE}

    output = sanitize(burn_in(pdf, []))

    assert [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")] == [
        "Seen",
        "line",
    ]
    assert verify(pdf, output, []).ok
