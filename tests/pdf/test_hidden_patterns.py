"""Images drawn inside a tiling pattern are judged where the pattern paints them. MuPDF
draws a pattern's cell content once at the start of the pattern's grid, which may lie
off the page, and repeats it over the fill; or, for a fill smaller than one repeat, it
draws each cell the fill meets, some past the page edge. Either way such an image was
taken for one placed outside the crop box: sanitize could not remove it (it is part of
the pattern) and the gate refused the release (table borders drawn with image patterns,
pymupdf's bug1945.pdf). Images a pattern draws only outside the crop box stay hidden."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.hidden import CLIPPED, COVERED, OUTSIDE_CROP_BOX, find_hidden
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource


def _grey_image(doc: pymupdf.Document, *, translucent: bool) -> int:
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), translucent)
    pixmap.set_rect(pixmap.irect, (120, 120, 120, 60) if translucent else (120, 120, 120))
    scratch = doc.new_page()
    xref = scratch.insert_image(pymupdf.Rect(0, 0, 8, 8), stream=pixmap.tobytes("png"))
    doc.delete_page(scratch.number)
    return xref


def patterned_fill(
    *,
    grid_x: float,
    step: float,
    image: tuple[float, float],
    fill: tuple[float, float],
    image_height: float = 1,
    translucent: bool = False,
    under: str = "",
) -> bytes:
    """A 400 x 300 page with a band at y 100 to 110 (PDF space), x `fill`, filled with a
    tiling pattern `step` wide whose grid starts at x `grid_x`; each cell draws a grey
    image over cell x `image`, `image_height` high from its foot (a border line, or the
    whole cell; `translucent`, with a soft mask). `under` is written where the band is
    painted, before it."""
    doc = pymupdf.open()
    xref = _grey_image(doc, translucent=translucent)
    page = doc.new_page(width=400, height=300)
    page.insert_text((50, 50), "Quarterly figures", fontsize=11)
    if under:
        page.insert_text((fill[0] + 2, 300 - 102), under, fontsize=8)
    pattern = doc.get_new_xref()
    doc.update_object(
        pattern,
        f"<</Type/Pattern/PatternType 1/PaintType 1/TilingType 1/BBox[0 0 {step} 10]"
        f"/XStep {step}/YStep 10/Matrix[1 0 0 1 {grid_x} 100]"
        f"/Resources<</XObject<</Im1 {xref} 0 R>>>>>>",
    )
    x0, x1 = image
    doc.update_stream(pattern, b"q %g 0 0 %g %g 0 cm /Im1 Do Q" % (x1 - x0, image_height, x0))
    set_resource(page, "Pattern", f"<</P1 {pattern} 0 R>>")
    left, right = fill
    append_content(page, b"q /Pattern cs /P1 scn %g 100 %g 10 re f Q" % (left, right - left))
    return doc.tobytes()


@pytest.mark.parametrize(
    "pdf",
    [
        # Smaller than one repeat: cells at x 100 and 300, the second's image past x 400.
        pytest.param(
            lambda: patterned_fill(grid_x=300, step=200, image=(150, 200), fill=(280, 320)),
            id="cells-past-the-edge",
        ),
        # Many repeats, the grid starting at x -500: its cell is drawn there once.
        pytest.param(
            lambda: patterned_fill(grid_x=-500, step=20, image=(0, 20), fill=(300, 380)),
            id="grid-off-the-page",
        ),
    ],
)
def test_an_image_a_pattern_paints_on_the_page_is_not_hidden(pdf) -> None:  # noqa: ANN001
    pdf = pdf()
    assert find_hidden(pdf) == []

    output = sanitize(burn_in(pdf, []))

    assert verify(pdf, output, []).ok


def test_an_image_a_pattern_paints_only_beside_the_page_is_hidden() -> None:
    pdf = patterned_fill(grid_x=-500, step=20, image=(0, 20), fill=(420, 500))

    assert {f.kind for f in find_hidden(pdf)} == {OUTSIDE_CROP_BOX}


@pytest.mark.parametrize("translucent", [False, True])
def test_text_under_a_pattern_whose_cells_fill_it_whole_is_covered_unless_they_show_through(
    translucent: bool,
) -> None:
    pdf = patterned_fill(
        grid_x=-500,
        step=20,
        image=(0, 20),
        image_height=10,
        translucent=translucent,
        fill=(300, 380),
        under="4471",
    )

    hidden = find_hidden(pdf)

    if translucent:
        assert hidden == []
    else:
        assert {f.kind for f in hidden} == {COVERED}
        assert "".join(f.text for f in hidden) == "4471"


def textured_page(background: bytes) -> bytes:
    """A 400 x 300 page: `background` filled with an image pattern (a texture), then a
    white panel from x 60 to the right edge, with a line of text on the panel."""
    doc = pymupdf.open()
    xref = _grey_image(doc, translucent=False)
    page = doc.new_page(width=400, height=300)
    pattern = doc.get_new_xref()
    doc.update_object(
        pattern,
        "<</Type/Pattern/PatternType 1/PaintType 1/TilingType 1/BBox[0 0 20 20]"
        f"/XStep 20/YStep 20/Resources<</XObject<</Im1 {xref} 0 R>>>>>>",
    )
    doc.update_stream(pattern, b"q 20 0 0 20 0 0 cm /Im1 Do Q")
    page.insert_text((80, 150), "Call Jane Roe today", fontsize=12)
    set_resource(page, "Pattern", f"<</P1 {pattern} 0 R>>")
    xref = page.get_contents()[0]
    panel = b"q 1 g 60 0 340 300 re f Q"
    doc.update_stream(
        xref,
        b"q /Pattern cs /P1 scn " + background + b" f Q " + panel + b"\n" + doc.xref_stream(xref),
    )
    return doc.tobytes()


def test_a_texture_split_around_a_mark_hides_nothing_the_page_did_not() -> None:
    """A textured background under a white panel (pdfcpu's GoForOptimization.pdf):
    burn-in splits the background around a mark on the panel into fills of the texture,
    and most of them lie wholly under the panel. The texture shows left of the panel,
    as it did: none of them is hidden content, and the release passes the gate."""
    pdf = textured_page(b"0 0 400 300 re")
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(next(w[:4] for w in page.get_text("words") if w[4] == "Roe"))
    marks = [RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")]
    assert find_hidden(pdf) == []

    output = sanitize(burn_in(pdf, marks))

    assert verify(pdf, output, marks).ok


def test_a_texture_wholly_under_the_panel_is_hidden() -> None:
    pdf = textured_page(b"100 100 200 100 re")

    assert {f.kind for f in find_hidden(pdf)} == {COVERED}


def text_tiled_page(fill: tuple[float, float, float, float], text_y: int = 6) -> bytes:
    """A pattern whose 20-point high cell writes "this is the fill text!" `text_y` up,
    its grid starting 47 points left of the page, filling `fill` (x, y, width, height in
    PDF space), and a line."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 180), "Case notes follow", fontname="helv", fontsize=10)
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    cell = doc.get_new_xref()
    doc.update_object(
        cell,
        "<</Type/Pattern/PatternType 1/PaintType 1/TilingType 1/BBox[0 0 100 20]"
        f"/XStep 100/YStep 20/Matrix[1 0 0 1 -47 0]/Resources<</Font<</helv {font} 0 R>>>>>>",
    )
    doc.update_stream(cell, b"BT /helv 8 Tf 0 %d Td (this is the fill text!) Tj ET" % text_y)
    set_resource(page, "Pattern", f"<</P1 {cell} 0 R>>")
    append_content(page, b"q /Pattern cs /P1 scn %g %g %g %g re f Q" % fill)
    return doc.tobytes()


def test_text_a_pattern_writes_in_cells_the_page_edge_cuts_is_not_hidden() -> None:
    # iText's text_pattern sample: a page filled with such a pattern was refused by the
    # gate whatever was marked, as the cells cut by the page edge held "hidden" text.
    pdf = text_tiled_page((0, 0, 300, 160))
    trace = pymupdf.open(stream=pdf, filetype="pdf")[0].get_texttrace()
    assert any("fill" in "".join(chr(c[0]) for c in span["chars"]) for span in trace)
    assert find_hidden(pdf) == []

    assert verify(pdf, sanitize(burn_in(pdf, [])), []).ok


def test_text_a_pattern_writes_only_beside_the_page_is_hidden() -> None:
    pdf = text_tiled_page((-200, 0, 150, 160))

    kinds = {h.kind for h in find_hidden(pdf)}
    assert OUTSIDE_CROP_BOX in kinds
    assert kinds <= {OUTSIDE_CROP_BOX, CLIPPED}


def test_text_a_pattern_writes_outside_its_cell_is_hidden_on_the_page() -> None:
    pdf = text_tiled_page((0, 0, 300, 160), text_y=30)  # above the cell: clipped in each

    assert CLIPPED in {h.kind for h in find_hidden(pdf)}
