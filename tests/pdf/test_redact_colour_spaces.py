"""A colour set right after a colour space named in the resources survives burn-in and
sanitize (`content.colours_spelled_out`).

MuPDF's content filter writes "/Cs8 cs" but leaves out the colour after it when the
colour equals the last one it wrote, and "cs" alone sets the space's initial colour:
full ink for a separation, black for Lab. An Adobe technical note (pdfcpu's
5116.DCT_Filter.pdf) paints white boxes under its logo and address in the separation
/All at tint 0 after black text; every preview and release showed them black, over the
logo and the address."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.content import colours_spelled_out
from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize

BOX = pymupdf.Rect(50, 50, 150, 150)  # in page space: the painted box's place


def painted(colours: bytes) -> bytes:
    """A black page, a box painted in `colours` (space and colour operators, named
    /Sep, a separation, and /LabA and /LabB, two Lab spaces), and a name to redact."""
    doc = pymupdf.open()
    page = doc.new_page(width=200, height=200)
    tint = doc.get_new_xref()
    doc.update_object(tint, "<</FunctionType 2/Domain[0 1]/C0[0 0 0 0]/C1[0 0 0 1]/N 1>>")
    separation, font = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(separation, f"[/Separation/All/DeviceCMYK {tint} 0 R]")
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    lab = "[/Lab<</WhitePoint[0.9505 1 1.089]>>]"
    doc.xref_set_key(
        page.xref,
        "Resources",
        f"<</ColorSpace<</Sep {separation} 0 R/LabA {lab}/LabB {lab}>>/Font<</F1 {font} 0 R>>>>",
    )
    contents = doc.get_new_xref()
    doc.update_object(contents, "<<>>")
    doc.update_stream(
        contents,
        b"0 g 0 0 200 200 re f 1 g BT /F1 10 Tf 20 20 Td (Jane Example) Tj ET 0 g "
        + colours
        + b" 50 50 100 100 re f 5 w 40 40 120 120 re S",
    )
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    return doc.tobytes()


def centre_and_frame(pdf: bytes) -> tuple[int, ...]:
    """The red, green and blue of the box's centre, then of its frame's top side."""
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    pix = page.get_pixmap(dpi=72, colorspace=pymupdf.csRGB)
    return (*pix.pixel(100, 100), *pix.pixel(100, 40))


def alike(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Within two levels of 255: the nudge may show as one."""
    return all(abs(x - y) <= 2 for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(
    "colours",
    [
        b"/Sep cs 0 scn",  # tint 0 after black: white, not full ink
        b"/Sep CS 0 SCN /Sep cs 0 sc",  # the frame stroked white too
        b"/LabA cs 100 0 0 scn 0 0 1 1 re f /LabB cs 100 0 0 scn",  # white in another space
    ],
)
def test_a_colour_set_after_a_named_space_keeps_its_value(colours: bytes) -> None:
    pdf = painted(colours)
    drawn = centre_and_frame(pdf)
    assert min(drawn[:3]) > 250  # the box is white
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    name = page.search_for("Jane Example")[0]
    marks = [RedactionMark(page=0, box=normalize(page, name), legal_reason="(b)(6)")]

    preview = burn_in(pdf, marks)

    assert alike(centre_and_frame(preview), drawn)
    assert alike(centre_and_frame(sanitize(preview)), drawn)


def test_a_colour_operator_without_operands_is_left_as_it_is() -> None:
    # pdf.js's issue21570.pdf: "scn" alone after a named space; burn-in failed on it.
    stream = b"/Cs8 cs scn 0 0 1 1 re f /Cs8 cs /P1 scn"
    assert colours_spelled_out(stream) == stream
