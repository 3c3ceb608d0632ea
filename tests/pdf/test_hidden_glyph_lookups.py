"""The shortcuts that keep sanitize linear on a page drawing far more than it shows (a
county's report draws its whole sheet on each of 122 pages, 31,000 glyphs beyond each
crop box): a glyph far from every seen one is no twin of one (`drawn_again`) and no
redaction of it cuts one (`cuts_seen`), as the full lookups say, and the release keeps
what the page shows and drops the rest."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import BoxGrid
from review.pdf.glyph_keys import char_key, drawn_again, kept, redaction_boxes
from review.pdf.hidden import OUTSIDE_CROP_BOX, analyse_page
from review.pdf.hidden_runs import Seen, cuts_seen, seen_glyphs
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

ROWS = 40


def one_page_of_a_sheet() -> bytes:
    """A sheet of 40 rows by 6 columns, drawn whole on a page whose crop box shows its
    top-left corner; a cell drawn again in white a quarter point to the right (a twin of
    a seen glyph, near its place but not at it)."""
    doc = pymupdf.open()
    page = doc.new_page(width=1200, height=1000)
    for row in range(ROWS):
        for column in range(6):
            at = (40 + 190 * column, 40 + 24 * row)
            page.insert_text(at, f"Precinct {row}-{column}", fontsize=11)
    page.insert_text((40.25, 40), "Precinct 0-0", fontsize=11, color=(1, 1, 1))
    page.set_cropbox(pymupdf.Rect(0, 0, 400, 300))
    return doc.tobytes()


def test_the_shortcuts_agree_with_the_full_lookups() -> None:
    page = pymupdf.open(stream=one_page_of_a_sheet(), filetype="pdf")[0]
    analysis = analyse_page(page)
    assert sum(g.kind == OUTSIDE_CROP_BOX for g in analysis.hidden) > 2000
    traced = [char for span in page.get_texttrace() for char in span["chars"]]
    shown = {char_key(char) for span in analysis.visible for char in span.chars}

    assert drawn_again(traced, shown) == [kept(char, shown) for char in traced]
    assert any(drawn_again(traced, shown)) and not all(drawn_again(traced, shown))

    seen = seen_glyphs(analysis, redaction_boxes(page))
    far = (-1e9, -1e9, 1e9, 1e9)  # one grid cell, no extent: every span looked at
    every_span = Seen(seen.spans, BoxGrid([reach for reach, _ in seen.spans], far), far)
    near_the_page = [pymupdf.Rect(g.rect) + (-3, -3, 3, 3) for g in analysis.hidden]
    for rect in [*(g.rect for g in analysis.hidden), *(tuple(r) for r in near_the_page)]:
        assert cuts_seen(seen, rect) == cuts_seen(every_span, rect)
    assert any(cuts_seen(seen, tuple(rect)) for rect in near_the_page)


def test_a_sheet_drawn_past_the_crop_box_releases_only_what_the_page_shows() -> None:
    pdf = one_page_of_a_sheet()
    output = sanitize(burn_in(pdf, []))

    page = pymupdf.open(stream=output, filetype="pdf")[0]
    words = {w[4] for w in page.get_text("words", clip=pymupdf.INFINITE_RECT())}
    assert {"Precinct", "0-0", "0-1", "9-1"} <= words
    assert not words & {"0-5", "39-0", "12-3"}
    assert verify(pdf, output, []).ok
