"""Burn-in keeps a filled shape with curves that a mark lies on (`fills.py`,
`shape_pieces.py`).

A banner or a box with round corners is a path of lines and curves. Burning in a mark
on it took the whole shape, as it took a plain band before `fills.py`: white text on a
dark banner was left on a white page, and sanitize cut it as hidden. The shape now
stays around the box; a curve a piece's edge crosses is cut there."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from review.pdf.fills import split_rectangle_fills
from review.pdf.form_fills import StreamOwner
from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.shape_pieces import clipped
from review.pdf.user_space import PathState
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource

NAVY_RGB = (0, 34, 75)
# A banner 400 by 60 with corners of radius 10 (lower left at 100, 600), filled in navy.
BANNER = (
    b"0 0.135 0.295 rg 110 600 m 490 600 l 495.5 600 500 604.5 500 610 c 500 650 l"
    b" 500 655.5 495.5 660 490 660 c 110 660 l 104.5 660 100 655.5 100 650 c 100 610 l"
    b" 100 604.5 104.5 600 110 600 c f"
)
ROUND_CORNERS = [
    ((110, 600), (490, 600)),
    ((490, 600), (495.5, 600), (500, 604.5), (500, 610)),
    ((500, 610), (500, 650)),
    ((500, 650), (500, 655.5), (495.5, 660), (490, 660)),
    ((490, 660), (110, 660)),
    ((110, 660), (104.5, 660), (100, 655.5), (100, 650)),
    ((100, 650), (100, 610)),
    ((100, 610), (100, 604.5), (104.5, 600), (110, 600)),
]


def banner_page(*, outlined: bool = False, before: bytes = b"") -> bytes:
    """A letter with a navy banner of round corners, white text on it; `outlined`: with
    a red border 2 pt wide, drawn with the fill ("b"); `before`: drawn just before the
    banner."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "Notice to the tenants", fontsize=11)
    banner = b"1 0 0 RG 2 w " + BANNER[:-1] + b"b" if outlined else BANNER
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\nq " + before + banner + b" Q\n")
    page.insert_text((120, 165), "Call Jane Roe at the front desk", fontsize=12, color=(1, 1, 1))
    return doc.tobytes()


def word_box(pdf: bytes, word: str) -> pymupdf.Rect:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == word))


def colour_at(pdf: bytes, x: float, y: float) -> tuple[int, ...]:
    pixmap = pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(dpi=72, alpha=False)
    return pixmap.pixel(int(x), int(y))


def navy_pixels(pdf: bytes) -> int:
    pixmap = pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(dpi=72, alpha=False)
    pixels = np.frombuffer(pixmap.samples, np.uint8).reshape(-1, 3).astype(int)
    return int((np.abs(pixels - NAVY_RGB).max(axis=1) < 8).sum())


def test_a_mark_on_a_banner_with_round_corners_leaves_the_banner_and_its_white_text() -> None:
    pdf = banner_page()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = word_box(pdf, "Jane") | word_box(pdf, "Roe")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert {"Call", "front", "desk"} <= set(words) and "Jane" not in words
    for x, y in ((105, 137), (495, 137), (300, 185), (box.x0 - 3, box.y0 + 2)):
        assert colour_at(output, x, y) == NAVY_RGB  # corners, the bottom, beside the box
    # All but the box and the pixels its edges half cover.
    assert navy_pixels(output) > navy_pixels(pdf) - (box.width + 4) * (box.height + 4)
    assert verify(pdf, output, [mark]).ok


def test_a_banner_after_a_close_with_no_path_keeps_its_fill_around_a_mark() -> None:
    """UniDoc's charts close each slice after painting it ("B h"): the "h" closes
    nothing, and read as the start of the next slice it took that slice whole."""
    pdf = banner_page(before=b"0.5 g 1 1 1 RG 20 700 40 40 re B h ")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = word_box(pdf, "Jane") | word_box(pdf, "Roe")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    for x, y in ((105, 137), (495, 137), (300, 185), (box.x0 - 3, box.y0 + 2)):
        assert colour_at(output, x, y) == NAVY_RGB
    assert verify(pdf, output, [mark]).ok


def test_a_banner_filled_and_outlined_keeps_its_fill_and_border_around_a_mark() -> None:
    pdf = banner_page(outlined=True)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = word_box(pdf, "Jane") | word_box(pdf, "Roe")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    sides = [item[0] for d in released.get_drawings() if d["type"] == "s" for item in d["items"]]
    assert sorted(sides) == ["c"] * 4 + ["l"] * 4
    for x, y in ((105, 140), (300, 185), (box.x0 - 3, box.y0 + 2)):
        assert colour_at(output, x, y) == NAVY_RGB
    assert colour_at(output, 300, 132) == (255, 0, 0)
    assert verify(pdf, output, [mark]).ok


def test_a_mark_across_a_round_corner_of_a_banner_leaves_the_rest_of_it() -> None:
    """The box's right side crosses the top left curve: the curve is cut there. The
    whole banner went before curves were cut."""
    pdf = banner_page()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    across = pymupdf.Rect(90, 125, 105, 150)
    mark = RedactionMark(page=0, box=normalize(page, across), legal_reason="(b)(6)")

    output = burn_in(pdf, [mark])

    fills = [d["rect"] for d in pymupdf.open(stream=output, filetype="pdf")[0].get_drawings()]
    assert not any(rect.intersects(across) for rect in fills if rect != across)
    for x, y in ((495, 137), (300, 185), (108, 137), (102, 170)):
        assert colour_at(output, x, y) == NAVY_RGB


def test_a_mark_low_on_a_banner_leaves_it_around_the_box_in_columns() -> None:
    """The rows below and above the box would cut the bottom corners' curves (pdf.js's
    pr12564.pdf: an email address on the last line of a shaded box)."""
    pdf = banner_page()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    low = pymupdf.Rect(200, 170, 300, 189)
    mark = RedactionMark(page=0, box=normalize(page, low), legal_reason="(b)(6)")

    output = burn_in(pdf, [mark])

    for x, y in ((106, 186), (494, 186), (250, 150), (250, 191)):
        assert colour_at(output, x, y) == NAVY_RGB


def test_a_mark_over_a_whole_round_corner_leaves_the_rest_of_the_banner() -> None:
    pdf = banner_page()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    corner = pymupdf.Rect(90, 125, 120, 150)
    mark = RedactionMark(page=0, box=normalize(page, corner), legal_reason="(b)(6)")

    output = burn_in(pdf, [mark])

    for x, y in ((495, 137), (300, 185), (125, 137)):
        assert colour_at(output, x, y) == NAVY_RGB


def test_a_shape_clipped_beside_its_curves_is_its_straight_part() -> None:
    assert clipped(ROUND_CORNERS, (200, 580, 300, 700)) == [
        ((200, 660), (200, 600)),
        ((200, 600), (300, 600)),
        ((300, 600), (300, 660)),
        ((300, 660), (200, 660)),
    ]


def test_a_shape_clipped_around_a_curve_keeps_the_curve_whole() -> None:
    piece = clipped(ROUND_CORNERS, (50, 630, 300, 700))
    assert ((100, 650), (100, 630)) in piece
    assert ((110, 660), (104.5, 660), (100, 655.5), (100, 650)) in piece


def test_a_rectangle_side_through_a_curve_cuts_the_curve_where_it_crosses() -> None:
    piece = clipped(ROUND_CORNERS, (50, 580, 103, 700))
    curves = [side for side in piece if len(side) == 4]
    assert len(curves) == 2  # the left end of each round corner
    points = [point for side in piece for point in (side[0], side[-1])]
    assert all(100 - 1e-9 <= x <= 103 + 1e-9 for x, _ in points)
    assert {round(x, 6) for x, _ in points} == {100, 103}  # on the shape or on the cut
    for curve in curves:  # the cut lies on the curve: the corner's x there is 103
        assert any(abs(x - 103) < 1e-6 for x, _ in (curve[0], curve[-1]))


def test_a_circle_with_a_mark_inside_keeps_its_fill_around_the_box() -> None:
    """A filled circle with white words and a mark in its middle went whole: every
    piece's edge crossed the circle (a diagram of a Korean report in docling's test
    files), and sanitize then cut its white words as hidden."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    circle = (
        b"0 0.5 0.8 rg 350 400 m 350 427.6 327.6 450 300 450 c 272.4 450 250 427.6 250 400 c"
        b" 250 372.4 272.4 350 300 350 c 327.6 350 350 372.4 350 400 c f"
    )
    page.insert_text((72, 100), "Security technology forecast", fontsize=11)
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\nq " + circle + b" Q\n")
    page.insert_text((268, 380), "ICT trends", fontsize=10, color=(1, 1, 1))
    page.insert_text((268, 400), "and analysis", fontsize=10, color=(1, 1, 1))
    pdf = doc.tobytes()
    box = word_box(pdf, "trends")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert {"ICT", "and", "analysis"} <= set(words) and "trends" not in words
    for x, y in ((300, 345), (300, 435), (258, 392), (342, 392), (box.x0 - 2, box.y0 + 3)):
        assert colour_at(output, x, y) == (0, 127, 204)
    assert verify(pdf, output, [mark]).ok


def test_a_clock_face_whose_outline_comes_near_a_mark_keeps_its_fill() -> None:
    """A face filled and outlined 5 pt wide ("B"), its caption redacted just below it
    (PDFBox's data-000001.pdf): the outline's ink comes near the box, the fill does not.
    The outline went to its sides and the fill, drawn with it, went whole."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    face = (
        b"5 w 0 G 0.85 0.93 0.7 rg 350 400 m 350 427.6 327.6 450 300 450 c"
        b" 272.4 450 250 427.6 250 400 c 250 372.4 272.4 350 300 350 c"
        b" 327.6 350 350 372.4 350 400 c h B"
    )
    page.insert_text((72, 100), "Dynamic clock", fontsize=11)
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\nq " + face + b" Q\n")
    page.insert_text((262, 455), "California Time", fontsize=11)
    pdf = doc.tobytes()
    box = word_box(pdf, "California") | word_box(pdf, "Time")
    assert box.y0 < 442 + 2.5 + 4  # within a few points of the outline's ink
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    for x, y in ((300, 392), (300, 350), (270, 420)):
        assert colour_at(output, x, y) == (216, 237, 178)  # the face
    assert colour_at(output, 250, 392) == (0, 0, 0)  # its outline, away from the box
    assert verify(pdf, output, [mark]).ok


def test_a_rectangle_beside_the_shape_gives_an_empty_piece() -> None:
    assert clipped(ROUND_CORNERS, (0, 0, 50, 50)) == []


def test_an_unclosed_shape_filled_and_outlined_strokes_no_closing_side() -> None:
    """A shape painted with "B" is filled closed but stroked only along the sides the
    path draws; "b" closes it first, and strokes the closing side too."""
    box = [(40.0, 20.0, 60.0, 30.0)]
    open_sides = split_rectangle_fills(b"0 0 m 100 0 l 100 50 l 0 50 l B", box)
    closed = split_rectangle_fills(b"0 0 m 100 0 l 100 50 l 0 50 l b", box)

    assert open_sides.count(b" f ") == closed.count(b" f ") == 4  # the pieces around the box
    assert b"0 50 m 0 0 l S" not in open_sides and b"0 50 m 0 0 l S" in closed
    # Where sides drawn apart met at a corner, the corner is drawn mitred, as the path
    # joined it (a right angle's limit is the square root of 2); an open path's ends
    # are no corner.
    assert open_sides.count(b" 1.4284 M ") == 2 and closed.count(b" 1.4284 M ") == 4


def test_a_ring_around_a_mark_keeps_its_band_and_its_hole() -> None:
    """A frame filled as a ring (an outline with round corners and one inside it, filled
    even-odd): each piece is clipped from both outlines, so the hole stays a hole."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "Notice to the tenants", fontsize=11)
    ring = BANNER[:-1] + b"110 610 m 490 610 l 490 650 l 110 650 l h f*"
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\nq " + ring + b" Q\n")
    page.insert_text((120, 165), "Call Jane Roe at the front desk", fontsize=12)
    pdf = doc.tobytes()
    box = word_box(pdf, "Jane") | word_box(pdf, "Roe")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    for x, y in ((105, 137), (300, 136), (300, 187), (495, 170)):
        assert colour_at(output, x, y) == NAVY_RGB
    assert colour_at(output, box.x0 - 3, box.y0 + 2) == (255, 255, 255)
    assert "Call" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, [mark]).ok


@pytest.mark.parametrize(
    "frame",
    [
        b"500 500 m 100 500 l 100 300 l 500 300 l h 100 500 m h S",
        b"100 500 400 -200 re 100 500 m s",
    ],
    ids=["closed by h", "closed by s"],
)
def test_a_frame_with_a_closed_lone_point_keeps_its_sides_around_a_mark(frame: bytes) -> None:
    """A figure's frame stroked with round caps, its path ending with a lone point
    closed at a corner ("730.8 5119.2 m h", a dot on the corner; camelot's us-015.pdf,
    and eu-014.pdf's boxes, "re" then "m s"): the frame went whole under a mark inside
    it. It now keeps its sides."""
    # Each side of the frame (the page's y runs down: 500 up is 292 down).
    assert_ink_stays_beside_a_mark(
        b"q 1 J 2 w 0 G " + frame + b" Q",
        text_at=(120, 400),
        ink_at=((300, 292), (300, 492), (100, 392), (500, 392)),
    )


# A circle of radius 50 about the origin, of four curves, outlined 12 wide by what is
# drawn before it.
CIRCLE = (
    b"50 0 m 50 27.6 27.6 50 0 50 c -27.6 50 -50 27.6 -50 0 c"
    b" -50 -27.6 -27.6 -50 0 -50 c 27.6 -50 50 -27.6 50 0 c S"
)


def assert_ink_stays_beside_a_mark(
    outline: bytes,
    *,
    text_at: tuple[float, float],
    ink_at: tuple[tuple[int, int], ...],
    ext_g_state: str | None = None,
) -> None:
    """`outline` drawn on a page with "Item Jane Roe" at `text_at`: a mark on "Roe"
    leaves the black ink at each point of `ink_at`."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text(text_at, "Item Jane Roe", fontsize=12)
    if ext_g_state is not None:
        set_resource(page, "ExtGState", ext_g_state)
    append_content(page, outline)
    pdf = doc.tobytes()
    mark = RedactionMark(page=0, box=normalize(page, word_box(pdf, "Roe")), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    for x, y in ink_at:
        assert colour_at(output, x, y) == colour_at(pdf, x, y) == (0, 0, 0)
    assert verify(pdf, output, [mark]).ok


# The circle's top, bottom and sides drawn about (150, 550) (the page's y runs down:
# 500 up is 292 down), a mark 38 pt below it.
CIRCLE_INK = ((150, 292), (150, 192), (100, 242), (200, 242))


def test_a_thick_outline_set_by_a_graphics_state_stays_beside_a_mark() -> None:
    """A round outline whose width a graphics state sets ("/Thick gs", /LW 12), with
    mitred joins: MuPDF's redaction looks 120 pt past it, and a mark 38 pt away took it
    whole, as it took the outlines of fpdf2's SVG logo (their width set by "gs"). It is
    now split into its sides like an outline whose width "w" sets."""
    assert_ink_stays_beside_a_mark(
        b"q /Thick gs 0 G 1 0 0 1 150 550 cm " + CIRCLE + b" Q",
        text_at=(100, 340),
        ink_at=CIRCLE_INK,
        ext_g_state="<</Thick <</LW 12>>>>",
    )


def test_a_graphics_state_gives_its_line_settings_as_the_operators_that_set_them() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((100, 100), "x")
    set_resource(page, "ExtGState", "<</G <</LW 3/LJ 1/ML 4/LC 2/D [[3 2] 1]>>>>")
    owner = StreamOwner(doc, page.xref, [], split_rectangle_fills)

    state = PathState()
    for operator, operands in owner.line_settings(b"/G"):
        state = state.after(operator, operands)

    assert state == PathState(width=3.0, join=1, miter=4.0, cap=2, dash=((3.0, 2.0), 1.0))
    assert owner.line_settings(b"/Missing") == []


@pytest.mark.parametrize("turn", [b"0.7071 0.7071 -0.7071 0.7071", b"0.7071 0.7071 0.7071 -0.7071"])
def test_an_outline_drawn_turned_by_45_degrees_stays_beside_a_mark(turn: bytes) -> None:
    """A round outline 12 pt wide drawn through a turn of 45 degrees (mirrored, or
    not), a mark 38 pt below it: it went whole, as two petals of fpdf2's SVG logo did.
    It is now split in default user space."""
    assert_ink_stays_beside_a_mark(
        b"q " + turn + b" 150 550 cm 12 w 0 G " + CIRCLE + b" Q",
        text_at=(100, 340),
        ink_at=CIRCLE_INK,
    )


def test_a_turned_panel_a_mark_lies_on_stays_around_the_box() -> None:
    """A navy panel turned by 30 degrees with white text on it: a mark on a word took
    the whole panel, and the white text was left on the white page. It now stays
    around the box."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((250, 396), "Call Jane Roe", fontsize=12, color=(1, 1, 1))
    panel = b"q 0.866 0.5 -0.5 0.866 300 400 cm 0 0.135 0.295 rg -100 -100 200 200 re f Q\n"
    xref = page.get_contents()[0]
    doc.update_stream(xref, panel + doc.xref_stream(xref))  # under the text
    pdf = doc.tobytes()
    mark = RedactionMark(page=0, box=normalize(page, word_box(pdf, "Roe")), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert navy_pixels(output) > 0.9 * navy_pixels(pdf)
    assert verify(pdf, output, [mark]).ok


def test_a_shape_whose_curve_points_toward_a_mark_it_stays_clear_of_keeps_whole() -> None:
    """A navy shape whose top bulges up to 390 with control points at 420, a mark at
    395 to 406 above the bulge: MuPDF bounds a path by its points, so the mark took the
    whole shape, and a piece of it kept the control points that reach the box (a wing
    of fpdf2's Escher drawing). The curves near the box are now halved until their
    points stay clear of it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((160, 395), "Jane Roe", fontsize=10)
    append_content(
        page,
        b"0 0.135 0.295 rg 100 100 m 300 100 l 300 300 l 250 420 150 420 100 300 c h f",
    )
    pdf = doc.tobytes()
    roe = word_box(pdf, "Roe")
    assert 792 - 420 < roe.y0 and roe.y1 < 792 - 390  # between the bulge and its control points
    mark = RedactionMark(page=0, box=normalize(page, roe), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    assert navy_pixels(output) > 0.99 * navy_pixels(pdf)
    assert verify(pdf, output, [mark]).ok


@pytest.mark.parametrize(
    "matrix",
    [b"1 -0.0000000281 -0.0000000730 1 0 0", b"1.01345 .011793 -0.011784 1.01422 -1.4 -4"],
    ids=["float noise", "a scan's skew"],
)
def test_a_frame_drawn_through_a_nearly_upright_matrix_keeps_its_sides(matrix: bytes) -> None:
    """A table's frame drawn through a matrix whose turn is float noise, or a scan's
    skew of 0.7 degrees and stretch of 0.08%, with a mark on a word just inside it:
    the frame went whole (a Chinese invoice in pdf2docx's test files)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((104, 412), "Item Jane Roe", fontsize=12)
    append_content(page, b"q " + matrix + b" cm 1 w 0 G 100 300 400 200 re S Q")
    pdf = doc.tobytes()
    mark = RedactionMark(page=0, box=normalize(page, word_box(pdf, "Item")), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    before = pymupdf.open(stream=pdf, filetype="pdf")[0].get_drawings()
    after = pymupdf.open(stream=output, filetype="pdf")[0].get_drawings()
    stroked = [d for d in after if d["type"] == "s" and d["color"] == (0.0, 0.0, 0.0)]
    frame = before[0]["rect"]
    # The frame's sides stay, but for a piece of the left side beside the mark.
    assert sum(d["rect"].width + d["rect"].height for d in stroked) > 0.9 * 2 * (
        frame.width + frame.height
    )
    assert verify(pdf, output, [mark]).ok
