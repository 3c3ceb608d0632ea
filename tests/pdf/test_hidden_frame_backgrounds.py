"""What lies behind a glyph inside a frame drawn as a fill of straight sides (`painters.py`).

A web survey printed to PDF draws each panel's bevelled frame as two L-shaped fills
(even-odd), and its radio buttons as white, grey and dark glyphs drawn over one another
(PDFBox's rendering_survey.pdf). The frame's box holds the whole panel, so the white
glyphs inside it counted as perhaps on the frame's beige and perhaps on the white page:
not hidden. Once burn-in split the frame around a mark, the same glyphs stood on white
alone, sanitize cut them as hidden, and the gate refused the release as collateral
damage. A fill of straight sides is now asked whether it holds the glyph's centre."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.hidden import SAME_COLOUR, find_hidden
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

# A panel from 80 to 510 across and 640 to 780 up, framed 1 pt wide as two L-shaped
# fills: top and left, then bottom and right.
BEVELLED_FRAME = (
    b"q 0.85 0.83 0.73 rg 81 779 m 80 780 l 80 640 l 510 640 l 509 641 l 81 641 l h f*"
    b" 509 641 m 510 640 l 510 780 l 80 780 l 81 779 l 509 779 l h f* Q"
)


def framed_page(frame: bytes) -> pymupdf.Page:
    """A page that draws `frame` first."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    content = doc.get_new_xref()
    doc.update_object(content, "<<>>")
    doc.update_stream(content, frame)
    page.set_contents(content)
    return page


def panel() -> bytes:
    """Black words in the panel, and a white "o" on the white page beside them."""
    page = framed_page(BEVELLED_FRAME)
    page.insert_text((120, 100), "Contact Jane Roberts today", fontsize=11)
    page.insert_text((100, 100), "o", fontsize=11, color=(1, 1, 1))
    return page.parent.tobytes()


def test_white_text_inside_a_frame_on_the_white_page_is_in_its_background_colour() -> None:
    hidden = find_hidden(panel())

    assert [(h.kind, h.text) for h in hidden] == [(SAME_COLOUR, "o")]


def test_white_text_on_the_frames_own_fill_is_not_hidden() -> None:
    thick = BEVELLED_FRAME.replace(b"509 641", b"490 660").replace(b"509 779", b"490 760")
    thick = thick.replace(b"81 779", b"100 760").replace(b"81 641", b"100 660")
    page = framed_page(thick)
    page.insert_text((84, 100), "o", fontsize=11, color=(1, 1, 1))  # on the left side

    assert find_hidden(page.parent.tobytes()) == []


def test_a_mark_beside_white_text_inside_a_frame_releases() -> None:
    pdf = panel()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == "Roberts"))
    marks = [RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")]

    output = sanitize(burn_in(pdf, marks))

    assert verify(pdf, output, marks).ok
