"""Burn-in redraws a stroked path a mark comes near as its sides (`stroke_pieces.py`),
and the sides keep the path's look away from the box: its own ends keep their caps,
and where its curves run on smoothly nothing is drawn between them.

gofpdf's Circle_figures.pdf draws arcs 8.5 pt wide with butt caps, a caption's box 40
points above them (within the reach of their mitred joins, so MuPDF's redaction would
take them whole). Redrawn with square caps on every side, each arc's ends grew 4 points
longer, and a circle's curves stood out where they met."""

from __future__ import annotations

import math

import pymupdf
import pytest

from testkit.drawing import append_content
from testkit.pixels import changed_beside_a_mark

# Half an ellipse, open at the bottom: three curves 8.5 wide (gofpdf's arc), whose top
# comes 22 points below the caption's box.
ARC = (
    b"184.25 546.61 m 184.25 556.51 173.04 566.22 155.91 571.16 c"
    b" 138.77 576.11 116.35 576.11 99.21 571.16 c 82.07 566.22 70.87 556.51 70.87 546.61 c"
)


def changed_beside_the_box(outline: bytes, by: int = 96) -> tuple[int, bool]:
    """`outline` drawn below "Item Jane Roe", a mark on "Roe" burned in: how many pixels
    outside the box changed by more than `by` grey levels (a third of black), and
    whether the release passes the gate."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 190), "Item Jane Roe", fontsize=12)
    append_content(page, outline)
    return changed_beside_a_mark(doc.tobytes(), "Roe", by=by)


@pytest.mark.parametrize("cap", [0, 1, 2], ids=["butt", "round", "square"])
def test_an_open_arc_beside_a_mark_keeps_its_ends_and_curves_as_drawn(cap: int) -> None:
    changed, passes = changed_beside_the_box(b"q 8.5 w %d J 0 G " % cap + ARC + b" S Q")

    assert changed == 0
    assert passes


def test_a_polyline_with_butt_caps_keeps_its_corner_closed_and_its_ends_square() -> None:
    """A right-angled corner between two sides still gets the square its mitred join
    drew (half the width past each side), and the open ends stay butt."""
    changed, passes = changed_beside_the_box(
        b"q 6 w 0 G 70 520 m 120 570 l 170 520 l 220 570 l S Q"
    )

    assert changed == 0
    assert passes


# A triangle stroked 20 wide, 27 points below the mark's box: within the reach of its
# mitred joins (4.9 widths at the acute corners), so it is drawn as its sides.
TRIANGLE = b"70 562 m 530 562 l 300 462 l h"


@pytest.mark.parametrize(
    ("style", "by"),
    [(b"", 96), (b"1 J", 96), (b"[40 10] 0 d", 96), (b"1 0 0 RG", 64)],
    ids=["solid", "round caps", "dashed", "red"],
)
def test_a_triangle_drawn_as_its_sides_keeps_its_mitred_corners(style: bytes, by: int) -> None:
    """Drawn apart, its sides' butt ends left each corner's mitre out, and lengthened
    by half the width in its place they stood out of the acute corners as squares
    (iText's dashedClosedRotatedTriangles.pdf). Each corner is drawn as the path joined
    it; the one near the mark, whose mitred stretch the redaction would take with the
    box, bevelled, and its spike filled in the stroke's colour (red is 76 grey levels
    from black)."""
    outline = b"q 20 w 0 G " + style + b" " + TRIANGLE + b" S Q"
    changed, passes = changed_beside_the_box(outline, by=by)

    assert changed == 0
    assert passes


# An ellipse of four curves, closed where it started.
RING = (
    b"180 520 m 180 540 150 556 120 556 c 90 556 60 540 60 520 c"
    b" 60 500 90 484 120 484 c 150 484 180 500 180 520 c"
)


def test_a_closed_ring_of_curves_beside_a_mark_is_drawn_as_before() -> None:
    changed, passes = changed_beside_the_box(b"q 8 w 0 G " + RING + b" S Q")

    assert changed == 0
    assert passes


def test_a_ring_whose_line_state_is_set_just_before_its_painting_is_drawn_as_before() -> None:
    """dart_pdf sets the line join and width between a path and its painting ("... c h
    0 j 1.5 w S"). Set on each side, that mitred join undid the sides' bevel, and the
    redaction took the half of a circle nearer a caption's box, 14 points below it."""
    changed, passes = changed_beside_the_box(b"q 0 G " + RING + b" h 0 J 0 j 10 M 8 w S Q")

    assert changed == 0
    assert passes


def ring_of_curves(centre: tuple[float, float], radius: float, count: int) -> bytes:
    """A circle drawn as `count` curves (each a cubic over 360 / count degrees)."""
    x, y = centre
    step = 2 * math.pi / count
    hold = 4 / 3 * math.tan(step / 4) * radius  # each control point's distance
    path = [b"%.3f %.3f m" % (x + radius, y)]
    for i in range(count):
        a0, a1 = i * step, (i + 1) * step
        points = (
            (
                x + radius * math.cos(a0) - hold * math.sin(a0),
                y + radius * math.sin(a0) + hold * math.cos(a0),
            ),
            (
                x + radius * math.cos(a1) + hold * math.sin(a1),
                y + radius * math.sin(a1) - hold * math.cos(a1),
            ),
            (x + radius * math.cos(a1), y + radius * math.sin(a1)),
        )
        path.append(b" ".join(b"%.3f %.3f" % point for point in points) + b" c")
    return b" ".join(path)


def test_a_ring_of_many_curves_a_large_mark_lies_on_keeps_what_lies_beside_it() -> None:
    """Each curve under a box was halved twelve times over before it was left out: a
    claim form whose curves came near 70 marks took six minutes to burn in (PdfPig's
    Motor_Insurance_claim_form.pdf). A piece inside a box is now left out at once."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((200, 330), "Roe", fontsize=96)
    append_content(page, b"q 1 w 0 G " + ring_of_curves((260, 470), 60, 240) + b" S Q")

    changed, passes = changed_beside_a_mark(doc.tobytes(), "Roe")

    assert changed == 0
    assert passes


def test_a_translucent_polyline_beside_a_mark_keeps_its_corners_painted_once() -> None:
    """Drawn as sides of their own, a translucent stroke's pieces overlapped at each
    corner, which came out darker (a stamp's frame at 78%, docling-parse's
    rotated_text_02.pdf); its sides stay one path, mitred as before."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 190), "Item Jane Roe", fontsize=12)
    zigzag = [(70, 272), (120, 222), (170, 272), (220, 222)]
    page.draw_polyline(zigzag, color=(0, 0, 0), width=6, stroke_opacity=0.5, lineJoin=0)

    # Half-black over white is 128 grey; painted twice, 64: a finer look than a third.
    assert changed_beside_a_mark(doc.tobytes(), "Roe", by=32) == (0, True)


def test_a_wide_circle_near_a_mark_shows_no_hairline_where_its_curves_meet() -> None:
    """Drawn as four curves of their own, a circle stroked 20 wide near a mark showed a
    light line where each met the next, flush (a disc drawn as a circle stroked 50
    wide, in Syncfusion's layer sample); clear of the box, it stays one path."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 190), "Item Jane Roe", fontsize=12)
    ring = ring_of_curves((140.37, 540.21), 30.3, 4)  # off the pixel grid
    append_content(page, b"q 20 w 0 G " + ring + b" h S Q")

    assert changed_beside_a_mark(doc.tobytes(), "Roe", by=16) == (0, True)
