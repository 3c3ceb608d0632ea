"""White text on a coloured box that is no rectangle, or on a translucent one, is seen.
The background behind a glyph was the last opaque rectangle painted before it, or the
bare page: white text on a rounded blue box (a slide's title, pdf.js's issue15372.pdf)
was taken for white on white, cut, and the gate refused the release. A fill that may
not reach the glyph (its box overstates it) now counts both ways, and a translucent
fill is blended over what lies under it; text hidden either way is still found."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.hidden import SAME_COLOUR, find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource

BLUE = b"0.267 0.447 0.769"
WHITE = b"1 1 1"
# A box with rounded corners around the title, in PDF space (y up).
ROUNDED = (
    b"80 560 m 80 700 l 80 711 89 720 100 720 c 500 720 l 511 720 520 711 520 700 c"
    b" 520 580 l 520 569 511 560 500 560 c 100 560 l 89 560 80 569 80 580 c h f"
)
RECTANGLE = b"80 560 440 160 re f"


def title_on_a_box(
    fill: bytes, box: bytes, *, opacity: float = 1.0, baseline: bytes = b"120 620"
) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Quarterly review", fontsize=12)
    set_resource(page, "ExtGState", f"<</Box<</ca {opacity}>>>>")
    append_content(
        page,
        b"q /Box gs " + fill + b" rg " + box + b" Q"
        + b" BT 1 1 1 rg /helv 40 Tf " + baseline + b" Td (Layer) Tj ET",
    )  # fmt: skip
    return doc.tobytes()


@pytest.mark.parametrize(("box", "opacity"), [(ROUNDED, 1.0), (RECTANGLE, 0.6), (ROUNDED, 0.6)])
def test_white_text_on_a_blue_box_is_seen_and_releases(box: bytes, opacity: float) -> None:
    pdf = title_on_a_box(BLUE, box, opacity=opacity)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert "Layer" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, []).ok


@pytest.mark.parametrize(("box", "opacity"), [(ROUNDED, 1.0), (RECTANGLE, 0.6), (ROUNDED, 0.6)])
def test_white_text_on_a_white_box_is_still_white_on_white(box: bytes, opacity: float) -> None:
    pdf = title_on_a_box(WHITE, box, opacity=opacity)

    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [(SAME_COLOUR, "Layer")]


# A slanted blue band with a thin white slanted bar (an underline) painted on it just
# before the title; the bar's box covers the title and its corners lie on that box.
SLANTED_BAND_AND_BAR = (
    b"100 560 m 520 600 l 520 720 l 100 680 l h f"
    b" 1 1 1 rg 115 612 m 230 652 l 230.3 652.3 l 115.3 612.3 l h f"
)


def test_white_text_over_a_thin_slanted_white_bar_is_seen() -> None:
    """The bar is no white box behind the title: its four corners lie within half a
    point of its box's edges, but its sides run across that box (pymupdf's
    test_2645_2.pdf: slanted white headings on teal bands, each underlined in white,
    were cut as white on white and the gate refused the release)."""
    pdf = title_on_a_box(BLUE, SLANTED_BAND_AND_BAR)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert "Layer" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, []).ok


def test_white_text_on_a_box_painted_after_a_fill_of_no_path_is_seen() -> None:
    """`get_drawings` gives no number to a fill of no path ("n f"; an SVG converter
    writes "ET f"), which the paint log counts: each later fill was taken for the one
    before it, and white percentages on a pie chart's slices were cut as white on white
    (iText's pie3DChart.pdf)."""
    pdf = title_on_a_box(BLUE, b"n f 10 10 m f " + ROUNDED)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert "Layer" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()


# A quarter of a disc about (500, 700), 400 pt across, its curve bowing towards the
# page's lower left: its box reaches (100, 300), which the disc does not.
QUARTER_DISC = b"500 700 m 100 700 l 100 479.1 279.1 300 500 300 c h f"


@pytest.mark.parametrize(
    ("baseline", "hidden"), [(b"120 620", []), (b"120 320", [(SAME_COLOUR, "Layer")])]
)
def test_a_curved_fill_is_behind_white_text_only_where_it_reaches(
    baseline: bytes, hidden: list[tuple[str, str]]
) -> None:
    """A fill with curves was behind a glyph or not, both counted, wherever its box
    reached: white text beside the disc, on the bare page, was taken as perhaps seen
    and released though no reader could see it. The curve is now followed."""
    pdf = title_on_a_box(BLUE, QUARTER_DISC, baseline=baseline)

    assert [(f.kind, f.text) for f in find_hidden(pdf)] == hidden


def notes_under_a_tinted_form(group_opacity: float) -> bytes:
    """A note, then a form (a transparency group) filling an opaque dark box over it,
    drawn at `group_opacity`: how a state's tax instructions tint their boxed notes."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((330, 90), "IF YOU WERE 60 OR OVER on December 31", fontsize=9)
    group = doc.get_new_xref()
    doc.update_object(group, "<</Type/Group/S/Transparency>>")
    form = doc.get_new_xref()
    doc.update_object(
        form, f"<</Type/XObject/Subtype/Form/BBox[314 735 589 603]/Group {group} 0 R>>"
    )
    doc.update_stream(form, b"0.14 0.12 0.13 rg 589 603 -275 132 re f")
    set_resource(page, "XObject", f"<</Tint {form} 0 R>>")
    set_resource(page, "ExtGState", f"<</Faint<</ca {group_opacity}>>>>")
    append_content(page, b"q /Faint gs /Tint Do Q")
    return doc.tobytes()


def test_text_under_an_opaque_fill_in_a_faint_group_is_seen_and_releases() -> None:
    """The group's opacity applies to what it paints: the notes were taken as covered
    by the fill (opaque inside the group) and cut from every release, the gate passing
    it as hidden content removed (modesty/pdf2json's de_ins_DE200-01.pdf)."""
    pdf = notes_under_a_tinted_form(0.15)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert "60 OR OVER" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, []).ok


def test_text_under_the_same_group_drawn_opaque_is_covered() -> None:
    assert [f.kind for f in find_hidden(notes_under_a_tinted_form(1.0))] == ["covered"]


def framed_marker(frame: bytes) -> bytes:
    """A court order's "JS-6" in a box: white ground, then a black frame filled by the
    nonzero rule as a rectangle and an inner outline, then the marker in black."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Order granting the motion", fontsize=12)
    append_content(
        page,
        b"1 1 1 rg 441 701.7 44.4 24 re f 0 0 0 rg " + frame
        + b" BT 0 g /helv 14 Tf 448.56 708.72 Td (JS-6) Tj ET",
    )  # fmt: skip
    return doc.tobytes()


# The outer rectangle runs one way round, the inner outline the other: a ring.
RING_CLOCKWISE_RECTANGLE = (
    b"440.64 726.12 45.18 -24.78 re 441.42 701.7 m 441 702.12 l 485.4 702.12 l"
    b" 485.04 701.7 l 485.04 725.7 l 485.4 725.34 l 441 725.34 l 441.42 725.7 l f"
)
RING_ANTICLOCKWISE_RECTANGLE = (
    b"440.64 701.34 45.18 24.78 re 441 702.12 m 441 725.34 l 485.4 725.34 l 485.4 702.12 l h f"
)
# A rectangle drawn rightwards round one drawn leftwards (a negative width): a ring too,
# as a court clerk's "Filed on" stamp frames its date.
RING_OF_RECTANGLES = b"440.64 726.12 45.18 -24.78 re 485.4 725.34 -44.4 -23.22 re f"
# Both the same way round: the frame's inside is filled too (nonzero winding 2).
FILLED_FRAME = (
    b"440.64 701.34 45.18 24.78 re 441 702.12 m 485.4 702.12 l 485.4 725.34 l 441 725.34 l h f"
)


@pytest.mark.parametrize(
    "frame",
    [RING_CLOCKWISE_RECTANGLE, RING_ANTICLOCKWISE_RECTANGLE, RING_OF_RECTANGLES],
    ids=["clockwise rectangle", "anticlockwise rectangle", "rectangle drawn leftwards"],
)
def test_text_inside_a_frame_drawn_as_a_ring_is_seen_and_kept(frame: bytes) -> None:
    pdf = framed_marker(frame)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert "JS-6" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, []).ok


def test_text_inside_a_frame_filled_both_ways_the_same_is_covered() -> None:
    pdf = framed_marker(FILLED_FRAME)

    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [(SAME_COLOUR, "JS-6")]


def test_a_black_letter_on_a_black_border_drawn_as_a_trapezoid_is_found() -> None:
    """An HTML box's border sides are trapezoids (mitred corners); a paragraph set across
    a box drawn before it has letters on its black side, black on black. The words were
    settled as seen without asking what lay under them, as only rectangles were looked
    for there; burn-in then cut the border into rectangles, sanitize found the letters,
    and the gate counted them as lost (iText's html2pdf tests)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "Box model", fontsize=12)
    side = b"0 0 0 rg 119.25 714.95 m 119.25 527.45 l 126.75 519.95 l 126.75 722.45 l h f"
    append_content(page, side + b" BT 0 g /helv 12 Tf 36.75 643.49 Td (Lorem ipsum dolor) Tj ET")
    pdf = doc.tobytes()

    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [(SAME_COLOUR, "l")]  # of "dolor"


def words_in_a_box_whose_border_sides_are_clipped_trapezoids(inner: bytes) -> bytes:
    """A grey box, its black top border drawn as html2pdf draws a side: a trapezoid
    reaching well into the box, clipped to the border's ring (outside the rectangle
    `inner`); black words under the trapezoid."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((60, 50), "Black words", fontsize=12)
    doc.update_stream(
        page.get_contents()[0],
        b"q 0.94 g 20 20 260 160 re f Q "
        b"q 20 20 260 160 re "
        + inner
        + b" re W* n 0 g 20 180 m 280 180 l 250 120 l 50 120 l h f Q "
        + doc.xref_stream(page.get_contents()[0]),
    )
    return doc.tobytes()


def test_words_under_a_border_side_its_clip_keeps_away_are_seen() -> None:
    pdf = words_in_a_box_whose_border_sides_are_clipped_trapezoids(inner=b"22 22 256 156")

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert words == ["Black", "words"]


def test_words_on_a_border_side_within_its_clip_are_still_black_on_black() -> None:
    pdf = words_in_a_box_whose_border_sides_are_clipped_trapezoids(inner=b"40 40 220 80")

    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [(SAME_COLOUR, "Blackwords")]


def words_across_the_top_edge_of_a_black_bar(bar_top: float) -> bytes:
    """Black words 12 points tall whose box runs from 40.6 to 52.6 down the page, then a
    black bar from `bar_top` down, painted before them (a select box's border under the
    top of its last option)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((60, 50), "Option five", fontsize=12)
    bar = b"q 0 g 40 %g 220 %g re f Q " % (200 - bar_top - 20, 20)
    doc.update_stream(page.get_contents()[0], bar + doc.xref_stream(page.get_contents()[0]))
    return doc.tobytes()


def test_black_words_whose_upper_half_lies_above_a_black_bar_are_seen() -> None:
    pdf = words_across_the_top_edge_of_a_black_bar(bar_top=45.0)  # over the box's centre

    assert find_hidden(pdf) == []


def test_black_words_wholly_on_a_black_bar_are_still_black_on_black() -> None:
    pdf = words_across_the_top_edge_of_a_black_bar(bar_top=38.0)

    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [(SAME_COLOUR, "Optionfive")]
