"""The preview shows exactly what the burn-in removes: every glyph of a line the box holds
the middle of, whole, and every drawing the box touches, so a band across the middle of a
line removes the line's full height; the preview marks that area, computed from the
burn-in itself. A box that only grazes a line (its top fifth) leaves it."""

import pymupdf
import pytest

from review.models import ItemState
from review.pdf.geometry import Box, normalize
from review.pdf.redact import RedactionMark, burn_in, removed_areas
from review.roles import REVIEWER
from review.selectors import latest_proposal, preview_removed
from review.services.claims import claim_next
from review.services.decisions import NewMark, proposal_revise
from testkit.builders import user_create
from tests.factories import admitted_items

LINE = "Minutes of the meeting held at the town hall about the new library"


def _letter() -> bytes:
    """A line of text and, below it, a rule drawn across the page."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 100), LINE, fontsize=12)
    page.insert_text((54, 160), "A second line nobody touches.", fontsize=12)
    page.draw_line((54, 200), (558, 200), width=1)
    return doc.tobytes()


def _line_box(pdf: bytes) -> pymupdf.Rect:
    page = pymupdf.open(stream=pdf)[0]
    words = [w for w in page.get_text("words") if w[1] < 120]
    return pymupdf.Rect(words[0][:4]) | pymupdf.Rect(words[-1][:4])


def _glyphs(pdf: bytes) -> list[tuple[str, pymupdf.Rect]]:
    page = pymupdf.open(stream=pdf)[0]
    return [
        (char["c"], pymupdf.Rect(char["bbox"]))
        for block in page.get_text("rawdict")["blocks"]
        for line in block.get("lines", ())
        for span in line["spans"]
        for char in span["chars"]
    ]


def _band_across_the_line(pdf: bytes, top: float, bottom: float) -> Box:
    """A box across the whole line from `top` to `bottom`, fractions of its height."""
    line = _line_box(pdf)
    return Box(
        (line.x0 - 2) / 612,
        (line.y0 + line.height * top) / 792,
        (line.x1 + 2) / 612,
        (line.y0 + line.height * bottom) / 792,
    )


def _band_over_the_middle(pdf: bytes) -> Box:
    return _band_across_the_line(pdf, 0.35, 0.65)


def test_a_box_over_the_middle_of_a_line_marks_the_whole_line_as_removed():
    pdf = _letter()
    line = _line_box(pdf)
    band = _band_over_the_middle(pdf)

    areas = removed_areas(pdf, [RedactionMark(page=0, box=band, legal_reason="(b)(6)")])

    text_areas = [box for _, box in areas if box.y1 * 792 < 150]
    assert len(text_areas) == 1
    (removed,) = text_areas
    assert removed.y0 * 792 == pytest.approx(line.y0, abs=0.5)  # the line's full height,
    assert removed.y1 * 792 == pytest.approx(line.y1, abs=0.5)  # not the band's
    assert removed.x0 * 612 == pytest.approx(line.x0, abs=0.5)
    assert removed.x1 * 612 == pytest.approx(line.x1, abs=0.5)
    assert band.y1 < removed.y1


def test_a_box_grazing_the_top_of_a_line_leaves_it_and_marks_nothing_on_it():
    pdf = _letter()
    sliver = _band_across_the_line(pdf, -0.1, 0.2)
    marks = [RedactionMark(page=0, box=sliver, legal_reason="(b)(6)")]

    assert [box for _, box in removed_areas(pdf, marks) if box.y1 * 792 < 150] == []
    assert LINE in pymupdf.open(stream=burn_in(pdf, marks))[0].get_text()


def test_the_marked_areas_are_exactly_what_the_burn_in_takes_away():
    pdf = _letter()
    # A band over the line's middle, and a box that touches the rule below the text over
    # a few points only.
    marks = [
        RedactionMark(page=0, box=_band_over_the_middle(pdf), legal_reason="(b)(6)"),
        RedactionMark(page=0, box=Box(0.3, 198 / 792, 0.35, 199.6 / 792), legal_reason="(b)(6)"),
    ]
    burned = burn_in(pdf, marks)
    areas = [
        pymupdf.Rect(*(v * s for v, s in zip(box, (612, 792, 612, 792), strict=True)))
        for _, box in removed_areas(pdf, marks)
    ]

    after = _glyphs(burned)
    for char, rect in _glyphs(pdf):
        gone = not any(c == char and r == rect for c, r in after)
        inside = any((area + (-0.1, -0.1, 0.1, 0.1)).contains(rect) for area in areas)
        assert gone == inside, (char, rect)
    assert LINE.split()[0] not in pymupdf.open(stream=burned)[0].get_text()
    # The rule is removed whole (the box touched a few points of it), and marked whole.
    assert not [d for d in pymupdf.open(stream=burned)[0].get_drawings() if d["rect"].width > 400]
    assert any(area.width > 400 and area.y0 < 200 < area.y1 for area in areas)


def test_an_untouched_page_has_nothing_marked():
    pdf = _letter()
    assert removed_areas(pdf, []) == []


@pytest.mark.django_db
def test_the_item_preview_carries_the_removed_areas_of_the_saved_version():
    (item,) = admitted_items({"minutes.pdf": _letter()})
    reviewer = user_create("rita", role=REVIEWER)
    claim = claim_next(reviewer=reviewer)
    assert claim.item.state == ItemState.IN_REVIEW
    pdf_box = _band_over_the_middle(_letter())
    proposal_revise(
        item_id=item.pk,
        claim_id=claim.pk,
        reviewer=reviewer,
        base_version=latest_proposal(item.document).version,
        changes={},
        added=[NewMark(page=0, x0=pdf_box.x0, y0=pdf_box.y0, x1=pdf_box.x1, y1=pdf_box.y1,
                       category="other", legal_reason="(b)(6)")],
    )  # fmt: skip

    shown = preview_removed(latest_proposal(item.document))

    line = _line_box(_letter())
    page = pymupdf.open(stream=_letter())[0]
    expected = normalize(page, line)
    (area,) = [a for a in shown if a["top"] < 150 / 792]
    assert area["top"] == pytest.approx(expected.y0, abs=0.001)
    assert area["top"] + area["height"] == pytest.approx(expected.y1, abs=0.001)
