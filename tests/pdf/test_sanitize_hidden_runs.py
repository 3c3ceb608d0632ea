"""Sanitize cuts hidden glyphs a run at a time, not one redaction per glyph: PyMuPDF
rescans a page's annotations for each redaction added, so a page of thousands of hidden
glyphs (an OCR layer, white text) took minutes. A run never reaches over a visible
glyph that lies between hidden ones on its line."""

from __future__ import annotations

from collections import Counter

import pymupdf
import pytest

from review.pdf.hidden import analyse_page, find_hidden
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.raw_pdf import one_page, stream

LINES = 40
HIDDEN_PART = "W" * 30


def _page_of_hidden_runs() -> bytes:
    """On each of LINES lines: white text, a black word, white text again; below them,
    as many lines of invisible (render mode 3) text."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=1300)
    shown_at = 20 + pymupdf.get_text_length(HIDDEN_PART, fontsize=8) + 10
    for line in range(LINES):
        y = 30 + 14 * line
        page.insert_text((20, y), HIDDEN_PART, fontsize=8, color=(1, 1, 1))
        page.insert_text((shown_at, y), f"Shown{line}", fontsize=8)
        page.insert_text((shown_at + 50, y), HIDDEN_PART, fontsize=8, color=(1, 1, 1))
        page.insert_text((20, 700 + 14 * line), HIDDEN_PART * 2, fontsize=8, render_mode=3)
    return doc.tobytes()


@pytest.fixture
def added(monkeypatch: pytest.MonkeyPatch) -> list[pymupdf.Rect]:
    """The boxes of the redactions sanitize adds, in order."""
    boxes: list[pymupdf.Rect] = []
    add_redact_annot = pymupdf.Page.add_redact_annot

    def counted(page: pymupdf.Page, *args, **kwargs) -> pymupdf.Annot:
        boxes.append(args[0])
        return add_redact_annot(page, *args, **kwargs)

    monkeypatch.setattr(pymupdf.Page, "add_redact_annot", counted)
    return boxes


def test_page_with_thousands_of_hidden_glyphs_is_cut_with_a_few_redactions_per_line(
    added: list[pymupdf.Rect],
) -> None:
    pdf = _page_of_hidden_runs()
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        kinds = Counter(glyph.kind for glyph in analyse_page(doc[0]).hidden)
    assert kinds == {"same_colour": 2 * LINES * len(HIDDEN_PART), "invisible": 2400}

    output = sanitize(pdf)

    # Two runs per line, split at the black word, and one page-wide redaction that
    # drops every invisible glyph.
    assert len(added) == 2 * LINES + 1
    released = pymupdf.open(stream=output, filetype="pdf")[0]
    words = [w[4] for w in released.get_text("words")]
    assert words == [f"Shown{line}" for line in range(LINES)]
    assert find_hidden(output) == []


def _clip_under_a_kerned_line(kerning: float) -> bytes:
    """A line whose clip ends just above its baseline: the ink of every letter but the
    full stop reaches into the clip. "s" and "." are kerned `kerning` thousandths of
    an em closer, so their boxes overlap (as fonts' kerning pairs and float noise do)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=300)
    page.insert_text((10, 10), "x", fontsize=1)  # puts Helvetica in the resources as /helv
    xref = page.get_contents()[0]
    doc.update_stream(
        xref,
        doc.xref_stream(xref)
        + b"\nq 1 0 0 1 102.83 183.58 cm 2 2 400 20 re W n"
        + b" BT /helv 10 Tf 2 0.6 Td [(Lorem ipsum egestas) %d (.)] TJ ET Q" % kerning,
    )
    return doc.tobytes()


@pytest.mark.parametrize("kerning", [0, 26])
def test_a_clipped_glyph_whose_box_overlaps_a_visible_ones_is_cut_alone(kerning: int) -> None:
    pdf = _clip_under_a_kerned_line(kerning)
    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [("clipped", ".")]

    output = sanitize(pdf)

    assert find_hidden(output) == []
    released = pymupdf.open(stream=output, filetype="pdf")[0]
    assert released.get_text().split() == ["x", "Lorem", "ipsum", "egestas"]


def test_a_clipped_glyph_deep_in_a_visible_ones_box_is_removed_alone_and_releases() -> None:
    pdf = _clip_under_a_kerned_line(80)  # "." reaches into the middle of "s": no redaction
    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [("clipped", ".")]

    output = sanitize(pdf)

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    assert released.get_text().split() == ["x", "Lorem", "ipsum", "egestas"]
    assert find_hidden(output) == []
    assert verify(pdf, output, []).ok


def _page_with_lines_beyond_the_crop_box(lines: int) -> bytes:
    """One line on the page, and `lines` lines above it and as many below it, out of
    sight (as a form field's long text scrolled past its box is drawn)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((20, 40), "Shown", fontsize=8)  # also puts Helvetica in as /helv
    hidden_line = b"(" + HIDDEN_PART.encode() + b") Tj T* "
    xref = page.get_contents()[0]
    doc.update_stream(
        xref,
        doc.xref_stream(xref)
        + b"\nBT /helv 8 Tf 10 TL 20 %d Td " % (800 + 10 * lines)
        + hidden_line * lines
        + b"ET\nBT /helv 8 Tf 10 TL 20 -20 Td "
        + hidden_line * lines
        + b"ET",
    )
    return doc.tobytes()


def test_lines_beyond_the_crop_box_are_cut_with_one_redaction_each_side(
    added: list[pymupdf.Rect],
) -> None:
    pdf = _page_with_lines_beyond_the_crop_box(LINES)
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        kinds = Counter(glyph.kind for glyph in analyse_page(doc[0]).hidden)
    assert kinds == {"outside_crop_box": 2 * LINES * len(HIDDEN_PART)}

    output = sanitize(pdf)

    # Above the page, then below it: one box over both would cross the shown line.
    assert len(added) == 2
    released = pymupdf.open(stream=output, filetype="pdf")[0]
    assert [w[4] for w in released.get_text("words")] == ["Shown"]
    assert released.get_text("words", clip=pymupdf.INFINITE_RECT()) == released.get_text("words")
    assert find_hidden(output) == []
    assert verify(pdf, output, []).ok


def _guide_digits_clipped_at_their_ends() -> bytes:
    """Three lines of guide digits "123" running down the page 5.3 points apart, in a
    Type 3 font set at 1 point whose matrix turns its glyphs over (y down) and whose
    glyphs are 6 units tall, clipped so each "3" is cut away (Iowa's ia_scr_4562a.pdf).
    The trace boxes each glyph on one side of its line, MuPDF's redaction on the other."""
    procs = " ".join(f"/d{n} 7 0 R" for n in range(1, 4))
    return one_page(
        b"q 0 140 300 200 re W n BT /T3 1 Tf 0 -1 1 0 150 150 Tm"
        b" (123) Tj 0 -5.3 TD (123) Tj T* (123) Tj ET Q",
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 6 6] /FontMatrix [1 0 0 -1 0 0]"
        b" /CharProcs 6 0 R /Encoding << /Type /Encoding /Differences [49 /d1 /d2 /d3] >>"
        b" /FirstChar 49 /LastChar 51 /Widths [5.28 5.28 5.28] /Resources << >> >>",
        f"<< {procs} >>".encode(),
        stream(b"", b"5.28 0 0 0 5.28 6 d1 1 0 3 6 re f"),
        size=(300, 300),
        resources=b"<< /Font << /T3 5 0 R >> >>",
    )


def test_clipped_glyphs_go_where_the_redaction_measures_them() -> None:
    """The box of each clipped "3" as traced took the "3" of the line before, as MuPDF
    measures it, and the last "3" stayed, unseen content the gate refused."""
    pdf = _guide_digits_clipped_at_their_ends()
    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("clipped", "333")]

    output = sanitize(pdf)

    assert find_hidden(output) == []
    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().split() == ["12"] * 3
