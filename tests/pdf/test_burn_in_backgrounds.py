"""Burn-in keeps the background a mark lies on (`review/pdf/fills.py`).

A box removes every vector graphic it touches. A footer band or a shaded table row
under a mark went with it, and the white text on it was left on a white page: the
release no longer showed what the reviewer saw, and sanitize cut that text as hidden
(PyMuPDF's test_4412.pdf, camelot's column_span_1.pdf). A plain filled rectangle now
stays around the box, and an outline (a border, a rectangle, a callout) keeps what of
its sides and curves the box does not cover; every other graphic a box touches still
goes whole."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.fills import split_rectangle_fills
from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource
from testkit.raw_pdf import one_page

NAVY = (0.0, 0.135, 0.295)


def footer_page(outline: bool = False) -> bytes:
    """A navy footer band across the page with an address in white on it."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Letter body above the footer", fontsize=11)
    band = pymupdf.Rect(0, 736, 595, 842)
    page.draw_rect(band, color=(0.5, 0.5, 0.5) if outline else None, fill=NAVY, width=1)
    page.insert_text((428, 772), "One College Square South,", fontsize=9, color=(1, 1, 1))
    page.insert_text((428, 783), "Anchor Road, Bristol", fontsize=9, color=(1, 1, 1))
    return doc.tobytes()


def _box_of(pdf: bytes, word: str) -> pymupdf.Rect:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == word))


def _navy_fills(pdf: bytes) -> list[pymupdf.Rect]:
    """The rectangles filled in navy."""
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return [
        item[1]
        for d in page.get_drawings()
        if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], NAVY, strict=True))
        for item in d["items"]
        if item[0] == "re"
    ]


@pytest.mark.parametrize("outline", [False, True])
def test_a_mark_on_a_footer_band_leaves_the_band_and_its_white_text(outline: bool) -> None:
    pdf = footer_page(outline)
    box = _box_of(pdf, "Square") | _box_of(pdf, "South,")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    fills = _navy_fills(output)
    assert fills and not any(fill.intersects(box) for fill in fills)  # around, not under
    band = pymupdf.Rect(0, 736, 595, 842)
    assert sum(fill.get_area() for fill in fills) > 0.95 * (band.get_area() - box.get_area())
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert {"One", "College", "Anchor", "Road,", "Bristol"} <= set(words)
    assert "Square" not in words
    # The outline stays on the band's edges: none drawn around the pieces, across it.
    edges = [s.round() for s in _strokes(pymupdf.open(stream=output, filetype="pdf")[0])]
    assert all(e.x0 == e.x1 in (0, 595) or e.y0 == e.y1 in (736, 842) for e in edges)
    assert len(edges) == (4 if outline else 0)
    assert verify(pdf, output, [mark]).ok


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_the_band_stays_around_the_box_on_a_cropped_and_turned_page(rotation: int) -> None:
    """The boxes are in page space, the fills in the PDF's user space: a crop box away
    from the origin and a /Rotate must not shift one against the other."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    page.draw_rect(pymupdf.Rect(150, 300, 450, 400), fill=NAVY, color=None)
    page.insert_text((160, 350), "White words on the band here", fontsize=11, color=(1, 1, 1))
    page.set_cropbox(pymupdf.Rect(100, 50, 500, 700))
    page.set_rotation(rotation)
    pdf = doc.tobytes()
    box = _box_of(pdf, "on")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    fills = _navy_fills(output)
    assert len(fills) == 4 and not any(fill.intersects(box) for fill in fills)
    assert verify(pdf, output, [mark]).ok


@pytest.mark.parametrize(
    "band",
    [
        b"18 1173 m 824 1173 l 824 18 l 18 18 l h 18 1173 m f",
        b"0 0 m 18 18 806 1155 re 0 G B",
    ],
    ids=["a move after", "a move before"],
)
def test_a_band_whose_path_has_a_lone_pen_move_stays_around_the_box(band: bytes) -> None:
    """PDFBox's sign_me.pdf fills its page in blue as "... l h 18 1173 m f", and fpdf2
    draws a rectangle as "0 0 m x y w h re": the lone moveto outlines nothing. The blue
    page went whole under a mark on its title."""
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=1191)
    background = doc.get_new_xref()
    doc.update_object(background, "<<>>")
    doc.update_stream(background, b"0 0.135 0.295 rg " + band)
    page.set_contents(background)
    page.insert_text((160, 100), "Apache PDFBox", fontsize=40, color=(1, 1, 1))
    pdf = doc.tobytes()
    box = _box_of(pdf, "PDFBox")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    blue = [d["rect"] for d in released.get_drawings() if d.get("fill") == pytest.approx(NAVY)]
    assert blue and not any(rect.intersects(box) for rect in blue)
    assert sum(rect.get_area() for rect in blue) > 0.95 * (806 * 1155 - box.get_area())
    assert "Apache" in [w[4] for w in released.get_text("words")]
    assert verify(pdf, output, [mark]).ok


@pytest.mark.parametrize(
    "turn", [b"0 -1 1 0 0 842", b"0 1 -1 0 595 0"], ids=["quarter", "three quarters"]
)
def test_a_border_and_band_drawn_through_a_quarter_turn_stay_around_a_mark(turn: bytes) -> None:
    """qpdf's annotations-rotated-90.pdf draws its landscape page through
    "0 -1 1 0 0 612 cm": the thick border around the page went whole under marks well
    inside it, as any path drawn through a turn did."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    drawn = doc.get_new_xref()
    doc.update_object(drawn, "<<>>")
    doc.update_stream(
        drawn,
        b"q " + turn + b" cm 10 w 0.14 0.33 0.18 RG 5 5 832 585 re S"
        b" 0 0.135 0.295 rg 100 50 600 500 re f Q",
    )
    page.set_contents(drawn)
    page.insert_text((72, 420), "Contact Jane Roberts today", fontsize=11)
    pdf = doc.tobytes()
    box = _box_of(pdf, "Roberts")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    original = pymupdf.open(stream=pdf, filetype="pdf")[0]
    before, after = (
        p.get_pixmap(dpi=72, colorspace=pymupdf.csGRAY).samples for p in (original, released)
    )
    changed = [
        (i % 595, i // 595)
        for i, (a, b) in enumerate(zip(before, after, strict=True))
        if abs(a - b) > 64  # not a seam where two pieces meet
    ]
    assert changed and all(pymupdf.Point(p) in box + (-3, -3, 3, 3) for p in changed)


def test_a_band_split_on_one_page_stays_whole_on_a_page_sharing_its_content() -> None:
    """Producers share one content stream between identical pages: the split is the
    marked page's own."""
    one = pymupdf.open(stream=footer_page(), filetype="pdf")
    doc = pymupdf.open()
    doc.insert_pdf(one)
    doc.insert_pdf(one)
    doc.xref_set_key(doc[1].xref, "Contents", doc.xref_get_key(doc[0].xref, "Contents")[1])
    assert doc[0].get_contents() == doc[1].get_contents()
    pdf = doc.tobytes()
    box = _box_of(pdf, "Square")
    mark = RedactionMark(page=0, box=normalize(doc[0], box), legal_reason="(b)(6)")

    burned = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")

    other = [w[4] for w in burned[1].get_text("words")]
    assert "Square" in other and "(b)(6)" not in other
    band = [d["rect"] for d in burned[1].get_drawings() if d.get("fill")]
    assert band == [pymupdf.Rect(0, 736, 595, 842)]


def test_a_curve_a_box_crosses_keeps_nothing_under_the_box() -> None:
    """A signature drawn as a curve: what of it lay under the box must not stay."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 100), "Signed by the officer", fontsize=11)
    page.draw_bezier((72, 200), (150, 120), (250, 280), (330, 200), color=(0, 0, 0.6), width=2)
    page.draw_rect(pymupdf.Rect(100, 180, 130, 220), fill=(0.9, 0.9, 0.9), color=None)
    pdf = doc.tobytes()
    box = pymupdf.Rect(90, 170, 200, 230)  # over part of the curve, over the whole square
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    burned = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    drawn = [d for d in burned.get_drawings() if d["rect"].intersects(box)]
    assert all(d.get("fill") == (0.0, 0.0, 0.0) for d in drawn)  # the black fill alone


def test_rectangle_fills_are_split_around_a_box_in_their_own_space() -> None:
    """A fill drawn at twice the scale, 10 points in: the box (user space) cut out of it,
    a gap clear of the box on each side; a clip is left alone, and a stroked rectangle
    becomes its four sides, each a path of its own with bevelled joins, the two the box
    crosses cut around it (clear of it by the gap and half the line width: what its butt
    ends reach), and its four corners, each the path half its width either side, mitred
    as the path joined them (a right angle's limit is the square root of 2)."""
    data = b"q 2 0 0 2 10 10 cm 0 0 100 50 re f Q 0 0 100 50 re W n 0 0 100 50 re S"
    split = split_rectangle_fills(data, [(50.0, 0.0, 90.0, 200.0)])
    mitred = b" 0 j 1.4284 M %s S 2 j 10 M"
    assert split == (
        b"q 2 0 0 2 10 10 cm 0 0 19.975 50 re f 40.025 0 59.975 50 re f Q"
        b" 0 0 100 50 re W n"
        b" 2 j 0 0 m 49.45 0 l S 90.55 0 m 100 0 l S 100 0 m 100 50 l S"
        b" 100 50 m 90.55 50 l S 49.45 50 m 0 50 l S 0 50 m 0 0 l S"
        + mitred % b"99.5 0 m 100 0 l 100 0.5 l"
        + mitred % b"100 49.5 m 100 50 l 99.5 50 l"
        + mitred % b"0.5 50 m 0 50 l 0 49.5 l"
        + mitred % b"0 0.5 m 0 0 l 0.5 0 l"
        + b" 0 j"
    )


def test_a_fill_a_box_holds_whole_or_misses_is_left_as_it_is() -> None:
    data = b"10 10 20 20 re f 300 300 50 50 re f"
    assert split_rectangle_fills(data, [(0.0, 0.0, 100.0, 100.0)]) == data


# The same border with round corners, as a letterhead draws it around its address
# (pdf.js's pr12564.pdf): four lines and four curves, closed and stroked with "s".
ROUNDED = (
    b"50 660 m 562 660 l 567.5 660 572 664.5 572 670 c 572 730 l 572 735.5 567.5 740 562 740 c"
    b" 50 740 l 44.5 740 40 735.5 40 730 c 40 670 l 40 664.5 44.5 660 50 660 c s"
)


def bordered_notice(*, as_lines: bool, outline: bytes | None = None) -> bytes:
    """A notice inside a black border 1.44 pt wide: a stroked rectangle ("re S"), or
    (`as_lines`) four lines closed into one path ("m l l l h S"), as Word writes it, or
    the path `outline`."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((60, 100), "Call the District Office at 252-3000 for help", fontsize=11)
    if outline is None:
        outline = (
            b"40 660 m 572 660 l 572 740 l 40 740 l h S" if as_lines else b"40 660 532 80 re S"
        )
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\nq 1.44 w 0 0 0 RG " + outline + b" Q\n")
    return doc.tobytes()


def _stroked(page: pymupdf.Page) -> list[pymupdf.Rect]:
    return [d["rect"] for d in page.get_drawings() if d["type"] == "s"]


def _strokes(page: pymupdf.Page) -> list[pymupdf.Rect]:
    """The stroked paths but the joins drawn where sides drawn apart met at a corner
    (a point of the path either side of it: `_corners`)."""
    return [rect for rect in _stroked(page) if max(rect.width, rect.height) > 2]


def _corners(page: pymupdf.Page) -> list[pymupdf.Rect]:
    return [rect for rect in _stroked(page) if max(rect.width, rect.height) <= 2]


@pytest.mark.parametrize("as_lines", [False, True])
def test_a_border_around_a_mark_keeps_its_sides(as_lines: bool) -> None:
    pdf = bordered_notice(as_lines=as_lines)
    box = _box_of(pdf, "252-3000")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    sides = _strokes(released)
    assert len(sides) == 4 and len(_corners(released)) == 4
    # A side's box has no height or width: `Rect.include_rect` would skip it.
    around = (
        min(s.x0 for s in sides),
        min(s.y0 for s in sides),
        max(s.x1 for s in sides),
        max(s.y1 for s in sides),
    )
    assert around == pytest.approx((40, 52, 572, 132), abs=1)
    assert "252-3000" not in released.get_text()
    assert verify(pdf, output, [mark]).ok


def test_a_border_with_round_corners_around_a_mark_keeps_its_sides_and_corners() -> None:
    pdf = bordered_notice(as_lines=True, outline=ROUNDED)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, _box_of(pdf, "252-3000")), legal_reason="x")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    drawn = [d for d in released.get_drawings() if d["type"] == "s"]
    kinds = sorted(item[0] for d in drawn for item in d["items"])
    assert kinds == ["c"] * 4 + ["l"] * 4  # and no curve closed by its chord
    around = pymupdf.Rect(drawn[0]["rect"])
    for d in drawn:
        around |= d["rect"]
    assert tuple(around) == pytest.approx((40, 52, 572, 132), abs=1)
    assert verify(pdf, output, [mark]).ok


def test_a_border_with_a_round_corner_under_a_mark_is_cut_around_it() -> None:
    """The corner under the box goes, and the ends of the two sides it joined; the other
    three corners and the rest of the sides stay (the whole border went before curves
    were cut)."""
    pdf = bordered_notice(as_lines=True, outline=ROUNDED)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(30, 40, 60, 70)  # over the top left corner
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="x")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    sides = _strokes(released)
    corners = [side for side in sides if side.width and side.height]
    assert len(sides) == 7 and len(corners) == 3
    assert not any(corner.intersects(box) for corner in corners)
    top = next(side for side in sides if side.y0 == side.y1 == 52)
    left = next(side for side in sides if side.x0 == side.x1 == 40)
    # Clear of the box by half its line width; up to the corner, whose curve runs on from the
    # side smoothly (their butt caps meet flush: nothing to close).
    assert top.x0 > box.x1 and top.x1 == pytest.approx(562, abs=0.01)
    assert left.y0 > box.y1 and left.y1 == pytest.approx(122, abs=0.01)


def test_a_side_of_a_border_under_a_mark_is_cut_around_it_and_the_others_stay() -> None:
    pdf = bordered_notice(as_lines=True)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(300, 40, 340, 60)  # over the top side of the border
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    sides = _strokes(released)
    assert len(sides) == 5 and len(_corners(released)) == 4
    top = sorted((s.x0, s.x1) for s in sides if s.y0 == s.y1 == 52)
    # The cut ends clear of the box by half the width (their butt ends reach no
    # further); the sides end at the corners, drawn as the path joined them.
    assert top == [
        (pytest.approx(40, abs=0.01), pytest.approx(299.23, abs=0.01)),
        (pytest.approx(340.77, abs=0.01), pytest.approx(572, abs=0.01)),
    ]
    assert not any(side.intersects(box) for side in sides)


def test_a_side_a_mark_comes_near_but_does_not_touch_stays_whole() -> None:
    """One box crosses the border's left side, so the path is drawn as its sides; the
    other ends 1.2 points above the top side, whose ink reaches 0.72 points from its
    line: the top side is drawn whole. It lost a stretch as wide as the box, which a cut
    end's cap would need, under no box (a dashed frame in docling's test figures)."""
    pdf = bordered_notice(as_lines=True)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    boxes = [pymupdf.Rect(30, 80, 60, 100), pymupdf.Rect(300, 30, 340, 50.8)]
    marks = [RedactionMark(page=0, box=normalize(page, box), legal_reason="x") for box in boxes]

    released = pymupdf.open(stream=burn_in(pdf, marks), filetype="pdf")[0]

    sides = _strokes(released)
    top = [(s.x0, s.x1) for s in sides if s.y0 == s.y1 == 52]
    assert top == [(pytest.approx(40, abs=0.01), pytest.approx(572, abs=0.01))]
    assert len(sides) == 5  # the left side in two pieces


def test_a_rule_keeps_its_stretch_beside_a_mark_that_does_not_touch_it() -> None:
    """A heading's rule 6 points wide with round caps, as the IRS draws it under "2013
    Instructions for Schedule D": one mark reaches 1.3 points into its lower edge, so the
    rule is drawn in pieces; another ends 2.85 points above its upper edge. The stretch
    under that one stays: it lost 138 points of rule, which only a box its ink meets may
    take (modesty/pdf2json's fd_ins_1040SchD.pdf)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((60, 300), "Internal Revenue Service", fontsize=11)
    xref = page.get_contents()[0]
    rule = b"\nq 0 G 6 w 1 J 570 718.82 m 42 718.82 l S Q\n"  # y 73.18 from the top
    doc.update_stream(xref, doc.xref_stream(xref) + rule)
    pdf = doc.tobytes()
    boxes = [pymupdf.Rect(42, 74.87, 95.64, 109.17), pymupdf.Rect(84.5, 51.6, 216.6, 67.33)]
    marks = [RedactionMark(page=0, box=normalize(page, box), legal_reason="x") for box in boxes]

    released = pymupdf.open(stream=burn_in(pdf, marks), filetype="pdf")[0]

    (piece,) = _strokes(released)
    assert piece.x0 == pytest.approx(95.64 + 3, abs=0.1)  # its round cap clear of the box
    assert piece.x1 == pytest.approx(570)


@pytest.mark.parametrize(
    "outline", [b"40 660 532 80 re S", ROUNDED], ids=["rectangle", "round-corners"]
)
@pytest.mark.parametrize(
    "dash",
    [b"[9 6.75] 2 d ", b"[5] 3 d ", b"[5] 8 d "],
    ids=["two-lengths", "one", "one-phase-past-it"],
)
def test_a_dashed_border_drawn_as_its_sides_keeps_its_dashes_where_they_were(
    outline: bytes, dash: bytes
) -> None:
    """Each side a path of its own would start the dash pattern afresh: every side but
    the first, and whatever follows a cut, came out with its dashes moved (a dashed
    frame around a figure in docling's test files). Each piece starts the pattern
    where the path had it there; a single length ("[5]": five on, five off) too, whose
    phase MuPDF takes modulo five, not ten (an itext page's dashed frame, a table of
    contents' dotted leaders)."""
    pdf = bordered_notice(as_lines=False, outline=dash + outline)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(30, 80, 60, 100)  # across the left side
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="x")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    assert len(_strokes(released)) > 1  # drawn as its sides
    clip = pymupdf.Rect(0, 0, 612, 150)  # the border, at 2 pixels a point
    before, after = (
        p.get_pixmap(dpi=144, colorspace=pymupdf.csGRAY, clip=clip).samples
        for p in (page, released)
    )
    width = int(clip.width * 2)
    changed = [
        (i % width / 2, i // width / 2)
        for i, (a, b) in enumerate(zip(before, after, strict=True))
        if abs(a - b) > 64
    ]
    assert len([p for p in changed if p not in box + (-4, -4, 4, 4)]) < 20  # a corner's join


def test_a_slanted_arrow_whose_bounds_a_box_meets_stays_drawn() -> None:
    """MuPDF takes a path whose bounds meet a box: a slanted arrow passing a mark's
    corner went whole, its ink nowhere near the box (docling's table model figure).
    Its pieces' bounds now miss the box, and together they draw the whole line."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((300, 660), "Structure Tags sequence", fontsize=11)
    arrow = b"q 1 0.54 0 RG 5 w 1 j 100 100 m 400 200 l S Q"  # user space: y up
    pdf = _with_content(page, arrow)
    box = _box_of(pdf, "Structure") | _box_of(pdf, "Tags")  # below the line's right end
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="x")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    lines = [item for d in released.get_drawings() if d["type"] == "s" for item in d["items"]]
    assert len(lines) > 1
    drawn = sum(abs(line[2] - line[1]) for line in lines)
    assert drawn == pytest.approx(abs(pymupdf.Point(400, 200) - pymupdf.Point(100, 100)), rel=0.01)


def _with_content(page: pymupdf.Page, content: bytes) -> bytes:
    doc = page.parent
    xref = page.get_contents()[0]
    doc.update_stream(xref, doc.xref_stream(xref) + b"\n" + content + b"\n")
    return doc.tobytes()


def _segments(page: pymupdf.Page) -> list[tuple[float, float, float, float]]:
    """Every stroked line's ends, rounded, in drawing order."""
    return [
        tuple(round(v, 1) for v in (*item[1], *item[2]))
        for d in page.get_drawings()
        if d["type"] == "s"
        for item in d["items"]
        if item[0] == "l"
    ]


def ruled_table() -> bytes:
    """Three rows of names in a grid drawn, as report writers do, as one path of lines
    ("m l" nine times, then one "S"), and a signature rule the last name stands on."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for row, name in enumerate(("Alice Marsh", "Brian Oakes", "Carla Pryce")):
        page.insert_text((76, 120 + 30 * row), name, fontsize=11)
        page.insert_text((246, 120 + 30 * row), f"Case {row + 1}", fontsize=11)
    page.insert_text((76, 302), "Signed: Dana Quill", fontsize=11)
    grid = b" ".join(
        [b"70 %d m 400 %d l" % (y, y) for y in (692, 662, 632, 602)]
        + [b"%d 692 m %d 602 l" % (x, x) for x in (70, 240, 400)]
    )
    return _with_content(page, b"q 0.8 w 0 0 0 RG " + grid + b" 70 488 m 300 488 l S Q")


def test_a_mark_over_a_line_of_a_grid_drawn_as_one_path_keeps_the_grid() -> None:
    """MuPDF takes a whole path when a box touches any line of it: a box a little taller
    than the name in a cell took the table's grid. Now only the line the box crosses
    is cut, around the box."""
    pdf = ruled_table()
    before = _segments(pymupdf.open(stream=pdf, filetype="pdf")[0])
    box = (_box_of(pdf, "Brian") | _box_of(pdf, "Oakes")) + (-2, -12, 2, 2)  # over y=130
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    after = _segments(released)
    assert sorted(s for s in after if s[1] != 130) == sorted(s for s in before if s[1] != 130)
    cut = sorted(s for s in after if s[1] == s[3] == 130)
    assert [(s[0], s[2]) for s in cut] == [
        (70, pytest.approx(box.x0 - 0.55, abs=0.1)),
        (pytest.approx(box.x1 + 0.55, abs=0.1), 400),
    ]
    assert "Brian" not in released.get_text()
    assert verify(pdf, output, [mark]).ok


def test_a_rule_under_a_mark_stays_on_both_sides_of_the_box() -> None:
    pdf = ruled_table()
    box = (_box_of(pdf, "Dana") | _box_of(pdf, "Quill")) + (0, 0, 0, 4)  # onto the rule
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    rule = sorted(s for s in _segments(released) if s[1] == s[3] == 304)
    assert len(rule) == 2
    (left_x0, _, left_x1, _), (right_x0, _, right_x1, _) = rule
    assert (left_x0, right_x1) == (70, 300)
    assert left_x1 < box.x0 and right_x0 > box.x1
    assert len(_segments(released)) == 7 + 2  # the grid whole, the rule in two


def test_rows_filled_as_one_path_stay_whole_but_the_one_a_mark_lies_on() -> None:
    """Zebra rows drawn as one path of rectangles ("re re re f"): a mark on the middle
    row took all three; now the others stay whole and the middle one around the box."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((76, 140), "Row two: Ellen Ford", fontsize=11)
    rows = b"70 660 330 20 re 70 620 330 20 re 70 580 330 20 re"
    pdf = _with_content(page, b"q 0.9 0.9 0.9 rg " + rows + b" f Q")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(100, 150, 160, 170)  # on the middle row (its top is 152)
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    grey = [
        d["rect"] for d in released.get_drawings() if d.get("fill") == pytest.approx((0.9,) * 3)
    ]
    assert pymupdf.Rect(70, 112, 400, 132) in grey and pymupdf.Rect(70, 192, 400, 212) in grey
    middle = [r for r in grey if r.intersects(pymupdf.Rect(70, 152, 400, 172))]
    assert middle and not any(r.intersects(box) for r in middle)
    assert pymupdf.Rect(70, 152, 400, 172).contains(middle[0])


def test_cells_side_by_side_as_one_path_split_though_their_sum_rounds_past_the_next() -> None:
    """40.811 + 169.437 is 210.24800000000002 in floating point, where the next cell
    starts at 210.248: the two cells of a header row read as overlapping, and a mark on
    the first cell's heading took the whole blue band and its white words."""
    data = b"40.811 471.214 169.437 -31.668 re 210.248 471.214 169.437 -31.668 re f"

    split = split_rectangle_fills(data, [(52.0, 449.0, 85.0, 461.0)])

    assert split != data
    assert split.count(b" re") == 5  # the second cell whole, four pieces of the first


@pytest.mark.parametrize(
    ("paint", "overlap"),
    [(b"f*", (255, 255, 255)), (b"f", (0, 0, 255))],
    ids=["even-odd", "nonzero"],
)
def test_overlapping_rectangles_of_one_fill_split_as_painted(
    paint: bytes, overlap: tuple[int, int, int]
) -> None:
    """Two cells of a header row overlapping by a thousandth of a point went whole under
    a mark (camelot's EU food-safety tables). What the path paints is split: under the
    even-odd rule their overlap stays a hole, under the nonzero rule it stays blue."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((110, 180), "Ellen Ford", fontsize=11)
    cells = b"q 0 0 1 rg 100 592 100 30 re 150 592 100 30 re " + paint + b" Q"
    pdf = _with_content(page, cells)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(105, 172, 140, 184)  # on the left cell alone (170 to 200 down)
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    drawn = released.get_pixmap(dpi=72, colorspace=pymupdf.csRGB, annots=False)
    assert drawn.pixel(175, 185) == overlap
    assert drawn.pixel(225, 185) == (0, 0, 255)  # the right cell
    assert drawn.pixel(102, 185) == (0, 0, 255)  # the left cell beside the mark


def test_a_dot_drawn_by_a_round_cap_is_left_to_the_redaction() -> None:
    data = b"1 J 5 w 0 0 m 0 0 l 10 10 m S"
    assert split_rectangle_fills(data, [(-1.0, -1.0, 4.0, 4.0)]) == data


# A callout as Word draws one: an ellipse of four curves with a pointed tail, stroked
# 3 wide with mitred joins and a miter limit of 8 (pdf-lib's with_cropbox.pdf).
CALLOUT = (
    b"q 0.6 0.73 0.35 RG 3 w 0 j 8 M 1 J 1 0 0 1 300 600 cm 0 0 m"
    b" 0 30 40 50 80 50 c 120 50 160 30 160 0 c 160 -30 120 -50 80 -50 c"
    b" 50 -50 20 -40 8 -25 c -40 -60 l s Q"
)


@pytest.mark.parametrize("below", [4, 14], ids=["4 points", "14 points"])
def test_a_callout_near_a_mark_stays_whole(below: float) -> None:
    """MuPDF's redaction bounds a stroke with mitred corners by its width times the
    miter limit (24 points here) and took the whole callout when a box came that near;
    its sides are now drawn as paths of their own, with bevelled joins, and stay."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((60, 100), "Call the District Office at 252-3000 for help", fontsize=11)
    pdf = _with_content(page, CALLOUT)
    callout = _strokes(pymupdf.open(stream=pdf, filetype="pdf")[0])[0]
    box = pymupdf.Rect(270, callout.y1 + below, 480, callout.y1 + below + 12)
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    released = pymupdf.open(stream=sanitize(burn_in(pdf, [mark])), filetype="pdf")[0]

    sides = _strokes(released)
    assert len(sides) == 6  # four curves, the tail and the side "s" closes
    around = pymupdf.Rect(sides[0])
    for side in sides[1:]:
        around |= side
    assert tuple(around) == pytest.approx(tuple(callout), abs=0.01)


def test_a_colour_set_between_a_split_outline_and_its_painting_stays_set() -> None:
    """MuPDF's filter writes a colour between a path and its painting; the sides it is
    repeated for must leave it set for what is painted after them (a "q ... Q" around
    the sides restored the colour before: the next line came out black, not red)."""
    data = b"0 0 100 50 re 1 0 0 RG S 4 w 200 200 m 300 200 l S"
    split = split_rectangle_fills(data, [(50.0, -10.0, 60.0, 10.0)])
    assert split != data  # the rectangle became its sides

    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((20, 280), "Footnote", fontsize=8)  # gives the page a content stream
    pdf = _with_content(page, split)
    drawn = pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(dpi=72)
    assert drawn.pixel(250, 100) == (255, 0, 0)  # the line at y 200, seen from the top


@pytest.mark.parametrize("in_form", [False, True], ids=["page", "form"])
def test_a_page_filled_with_a_tiling_pattern_keeps_it_around_a_mark(in_form: bool) -> None:
    """The bbox log lists a pattern's cell, drawn once, not the rectangle it fills, so
    the page's pattern fill was never split and went whole under any mark (veraPDF's
    6-2-4-3 colour space tests); so did a pattern a form names in its own resources
    (iText's background images: a gradient filling a form's box)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    tile = doc.get_new_xref()
    doc.update_object(
        tile,
        "<< /Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 /BBox [0 0 100 100]"
        " /XStep 100 /YStep 100 /Resources << >> >>",
    )
    doc.update_stream(tile, b"0.8 0.1 0.2 rg 10 10 20 20 re f")
    filled = b"q /Pattern cs /P0 scn 0 0 612 792 re f Q"
    drawn = doc.get_new_xref()
    doc.update_object(drawn, "<<>>")
    if in_form:
        form = doc.get_new_xref()
        doc.update_object(
            form,
            "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792]"
            f" /Resources << /Pattern << /P0 {tile} 0 R >> >> >>",
        )
        doc.update_stream(form, filled)
        doc.update_stream(drawn, b"q /Fm0 Do Q")
        set_resource(page, "XObject/Fm0", f"{form} 0 R")
    else:
        doc.update_stream(drawn, filled)
        set_resource(page, "Pattern/P0", f"{tile} 0 R")
    page.set_contents(drawn)
    page.insert_text((72, 100), "Contact Jane Roberts today", fontsize=11)
    pdf = doc.tobytes()
    box = _box_of(pdf, "Roberts")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    def red_pixels(page: pymupdf.Page) -> int:
        pixmap = page.get_pixmap(dpi=72, clip=pymupdf.Rect(0, 200, 612, 792))  # below the box
        samples = pixmap.samples
        return sum(
            1 for i in range(0, len(samples), 3) if samples[i] > 150 and samples[i + 1] < 100
        )

    original = pymupdf.open(stream=pdf, filetype="pdf")[0]
    assert red_pixels(released) == red_pixels(original) > 5_000


def test_a_double_frame_of_nested_rectangles_stays_a_frame_around_a_mark_inside_it() -> None:
    """An invoice's letterhead framed twice in navy, the frame one fill of four nested
    rectangles, every other one drawn the other way round so that by the nonzero rule
    only the two rings between them are painted (pdfparser's Issue668.pdf). A mark
    inside it had the fill split as the union of the rectangles: the pieces painted the
    whole letterhead navy over its words, and sanitize cut them as hidden."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((110, 80), "Agency for upkeep, Jane Roe", fontsize=11)
    frame = (
        b"0 0.135 0.295 rg 90 800 300 -100 re 92 702 296 96 re 94 798 292 -92 re 96 706 288 88 re f"
    )
    xref = page.get_contents()[0]
    doc.update_stream(xref, frame + b"\n" + doc.xref_stream(xref))  # under the words
    pdf = doc.tobytes()
    mark = RedactionMark(page=0, box=normalize(page, _box_of(pdf, "Roe")), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    pixmap = pymupdf.open(stream=output, filetype="pdf")[0].get_pixmap(dpi=72, alpha=False)
    assert pixmap.pixel(100, 120) == (255, 255, 255)  # inside the inner ring: paper
    assert pixmap.pixel(91, 120) != (255, 255, 255)  # on the outer ring: navy
    assert "Agency" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, [mark]).ok


def test_a_fill_with_no_path_is_left_as_it_is() -> None:
    """A painting operator with no path before it (a damaged government form in
    govdocs1 paints "f" after "n") paints nothing and is left alone."""
    data = b"0 g f 10 10 m n f 0 0 100 100 re f"

    assert split_rectangle_fills(data, [(200.0, 200.0, 300.0, 300.0)]) == data


def heading_on_a_stroked_band(colour: bytes, state: bytes = b"") -> bytes:
    """A heading in white on a band drawn as a rule 16 points wide (butt caps), as the
    Pennsylvania tax instructions draw theirs."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 300), "Body text under the heading", fontsize=11)
    set_resource(page, "ExtGState", "<</Faint<</CA 0.5>>>>")
    xref = page.get_contents()[0]
    band = b"\nq " + state + colour + b" 16 w 0 J 43 745.5 m 570 745.5 l S Q\n"
    title = b"BT /helv 12 Tf 1 1 1 rg 61 740.5 Td (TABLE 1. Unmarried Claimants) Tj ET\n"
    doc.update_stream(xref, doc.xref_stream(xref) + band + title)
    return doc.tobytes()


@pytest.mark.parametrize(
    "colour", [b"0.14 0.12 0.13 RG", b"/DeviceRGB CS 0.14 0.12 0.13 SCN"], ids=["RG", "CS"]
)
def test_a_band_drawn_as_a_wide_rule_stays_up_to_a_mark_on_its_heading(colour: bytes) -> None:
    """The rule's pieces had to stay clear of the box by twice its width: 16 points of
    band went white on each side of the box, and the white heading beside it with them
    (collateral damage at the gate). Painted as a fill, the band stays up to the box."""
    pdf = heading_on_a_stroked_band(colour)
    box = _box_of(pdf, "Unmarried") | _box_of(pdf, "Claimants")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    band = [
        d["rect"]
        for d in released.get_drawings()
        if d.get("fill") and abs(d["fill"][0] - 0.14) < 0.01 and d["rect"].height > 10
    ]
    left, right = sorted(band, key=lambda r: r.x0)  # and a sliver above the box
    assert left.x1 == pytest.approx(box.x0, abs=0.2)
    assert right.x0 == pytest.approx(box.x1, abs=0.2) and right.x1 == pytest.approx(570)
    assert "TABLE 1." in released.get_text()
    assert verify(pdf, output, [mark]).ok


def test_a_wide_rule_stroked_at_another_opacity_than_fills_stays_a_stroke() -> None:
    pdf = heading_on_a_stroked_band(b"0.14 0.12 0.13 RG", state=b"/Faint gs ")
    box = _box_of(pdf, "Unmarried")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    drawn = [(d["type"], round(d["rect"].y0, 1)) for d in released.get_drawings()]
    assert drawn.count(("s", 46.5)) == 2  # the rule in two, as a stroke
    assert ("f", 38.5) not in drawn


def test_an_open_polyline_cut_beside_a_box_ends_where_it_ended() -> None:
    """A red polyline 7 points wide with butt caps, its first side crossing a box: its
    sides are drawn apart, and the far end keeps its butt cap; with square caps
    everywhere it grew half its width past where it ended (iText's
    flattenPolyLineAnnotationTest)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 20), "Heading", fontsize=9)
    append_content(page, b"q 1 0 0 RG 7 w 20 100 m 150 100 l 280 40 l S Q")
    pdf = doc.tobytes()
    mark = RedactionMark(
        page=0, box=normalize(page, pymupdf.Rect(70, 90, 90, 110)), legal_reason="x"
    )

    released = pymupdf.open(stream=sanitize(burn_in(pdf, [mark])), filetype="pdf")[0]

    # The far end, at (280, 160) on the page, runs along (130, 60).
    pixmap = released.get_pixmap(dpi=72)
    assert pixmap.pixel(277, 158) == (255, 0, 0)  # just before the end
    assert pixmap.pixel(283, 161) == (255, 255, 255)  # just past it


def test_a_line_scaled_unevenly_keeps_its_stretch_away_from_a_box_beside_it() -> None:
    """A blue line drawn through a scale of 3 across and 0.75 down: MuPDF widens its
    stroke by its width at the larger scale, in every direction, so a box its ink stays
    clear of took the whole line (an SVG in iText's html2pdf tests)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((20, 40), "Heading", fontsize=9)
    append_content(page, b"q 3 0 0 0.75 0 0 cm 0 0 1 RG 0.75 w 10 200 m 90 200 l S Q")
    pdf = doc.tobytes()
    box = pymupdf.Rect(20, 130, 100, 149.4)  # 0.3 points above the line's ink, at y 150
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="x")

    released = pymupdf.open(stream=sanitize(burn_in(pdf, [mark])), filetype="pdf")[0]

    blue = released.get_pixmap(dpi=288).pixel(800, 600)  # at (200, 150), 100 points off
    assert blue[2] > 200 and blue[0] < 150


def test_a_line_width_set_while_a_path_was_built_stays_the_width_of_its_pieces() -> None:
    """PyMuPDF-Utilities' cardioid sets "0.2 w" between its lines and "h": MuPDF strokes
    the path in it, and the pieces around a box came out a point wide, darkening the
    drawing all round the box."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    page.insert_text((150, 155), "Secret", fontsize=11)
    lines = b" ".join(b"20 %d m 380 %d l" % (y, y) for y in range(146, 156, 2))
    pdf = _with_content(page, b"q " + lines + b" 0.2 w h 1 0 0 RG S Q")
    box = _box_of(pdf, "Secret")
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="x")

    released = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]

    widths = {round(d["width"], 2) for d in released.get_drawings() if d["type"] == "s"}
    assert widths == {0.2}
    segments = _segments(released)
    assert {s[1] for s in segments if s[2] < box.x0} == {146, 148, 150, 152, 154}
    assert {s[1] for s in segments if s[0] > box.x1} == {146, 148, 150, 152, 154}


def band_scaled_between_path_and_paint(paint: bytes) -> bytes:
    """A grey band whose path is built before "q .5 0 0 .5 0 0 cm" and painted after it
    (a CAD drawing's content opens so: pymupdf's test_2907.pdf), and a line of text on
    it drawn at that scale. `paint`: the band's path and painting operator."""
    return one_page(
        paint[0] + b" q .5 0 0 .5 0 0 cm 0.8 g 0 G " + paint[1] + b" 0 g"
        b" BT /F1 24 Tf 60 240 Td (Jane Roe filed the drawing) Tj ET Q",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        size=(400, 200),
    )


@pytest.mark.parametrize(
    "paint",
    [
        (b"40 200 720 120 re", b"f"),
        (b"40 200 m 760 200 l 760 320 l 40 320 l h", b"f*"),
        (b"40 200 720 120 re", b"B"),
        (b"40 200 m 760 200 l 760 320 l 40 320 l h", b"B*"),
    ],
)
def test_a_band_scaled_between_its_path_and_its_painting_keeps_the_page_in_place(
    paint: tuple[bytes, bytes],
) -> None:
    """The band's pieces around the box each set again what lay between the path and
    its painting: the scale was nested once per piece, and the rest of the page was
    drawn a quarter and an eighth of its size, in the corner."""
    pdf = band_scaled_between_path_and_paint(paint)
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    roe = next(w for w in page.get_text("words") if w[4] == "Roe")
    mark = RedactionMark(page=0, box=normalize(page, pymupdf.Rect(roe[:4])), legal_reason="x")

    output = sanitize(burn_in(pdf, [mark]))

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    words = {w[4]: pymupdf.Rect(w[:4]) for w in released.get_text("words")}
    before = {w[4]: pymupdf.Rect(w[:4]) for w in page.get_text("words")}
    assert set(words) == {"Jane", "filed", "the", "drawing", "x"}
    assert all(abs(words[w].x0 - before[w].x0) < 0.5 for w in ("Jane", "filed", "drawing"))
    assert verify(pdf, output, [mark]).ok
