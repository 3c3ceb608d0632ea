"""Line art an empty clip hides stays hidden through burn-in (`empty_clips`).

"W n" right after a path was ended clips to nothing, and MuPDF draws nothing more
inside it. MuPDF's content filter, which every redaction runs, carried the "W" over to
the next path, which was then clipped to its own outline and drawn: a blue side of a
rounded box that the empty clip hid appeared in the release, far from any mark (iText's
html2pdf border-radius tests). A clip to a path of a pen move alone ("0 0 m W n") went
with its path: the shading it hid filled the page (iText's pdfSweep test files)."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.content_tokens import operations
from review.pdf.empty_clips import empty_clips_spelled_out
from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from tests.pdf.test_redact_line_starts import helvetica_page

# A thick blue stroke inside a clip to a rectangle, then to nothing: hidden.
HIDDEN_STROKE = (
    b"q 100 100 100 100 re W n W n 0 0 1 RG 10 w 120 110 m 180 190 l S Q"
    b" BT /F1 12 Tf 20 20 Td (Reviewed by Officer Jane Example) Tj ET"
)


def blue_pixels(pdf: bytes) -> int:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    pixmap = page.get_pixmap(dpi=72)
    samples = pixmap.samples
    return sum(
        1
        for i in range(0, len(samples), 3)
        if samples[i + 2] > 200 and samples[i] < 100 and samples[i + 1] < 100
    )


@pytest.mark.parametrize("clip", [b"W n", b"W* n", b"0 0 m W n", b"5 5 m 7 7 m W* n"])
def test_a_stroke_an_empty_clip_hides_stays_hidden_after_burn_in(clip: bytes) -> None:
    pdf = helvetica_page(HIDDEN_STROKE.replace(b"W n W n", b"W n " + clip))
    assert blue_pixels(pdf) == 0
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(
        page=0, box=normalize(page, page.search_for("Jane Example")[0]), legal_reason="(b)(6)"
    )

    released = sanitize(burn_in(pdf, [mark]))

    assert blue_pixels(released) == 0


def test_only_a_clip_with_no_path_gets_the_empty_rectangle() -> None:
    data = b"q 0 0 5 5 re W n W n 1 1 m 2 2 l W* n 3 3 m W n 1 1 m 2 2 l h 4 4 m W n (W n) Tj Q"

    assert empty_clips_spelled_out(data, operations(data)) == (
        b"q 0 0 5 5 re W n 0 0 0 0 re W n 1 1 m 2 2 l W* n 3 3 m 0 0 0 0 re W n"
        b" 1 1 m 2 2 l h 4 4 m W n (W n) Tj Q"
    )
