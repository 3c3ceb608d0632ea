"""Burn-in keeps the background a mark lies on inside a form XObject
(`review/pdf/form_fills.py`).

A page placed from another PDF draws its artwork with "Do". A mark on the first word of
a heading set in white on a blue band took the whole band, the heading's other words
then stood white on the white page, and sanitize cut them as hidden: the gate refused
the release (Unstructured's invalid-pdf-structure-pdfminer-one-page.pdf). The band now
stays around the box, in a copy of the form that only the marked place draws."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.drawing import append_content, set_resource

BLUE = (0.0, 0.3, 0.6)
HELVETICA = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
# A blue band with a white heading on it, in the form's own space (drawn at 2x below).
BAND = (
    b"0 0.3 0.6 rg 0 0 150 20 re f BT 1 1 1 rg /F1 6 Tf 4 7 Td (Invest in a resilient future) Tj ET"
)


def _stream(doc: pymupdf.Document, head: str, data: bytes) -> int:
    xref = doc.get_new_xref()
    doc.update_object(xref, head)
    doc.update_stream(xref, data)
    return xref


def _form(
    doc: pymupdf.Document, content: bytes, resources: str, matrix: str = "2 0 0 2 0 0"
) -> int:
    return _stream(
        doc,
        f"<< /Type /XObject /Subtype /Form /BBox [-1 -1 160 30] /Matrix [{matrix}] "
        f"/Resources {resources} >>",
        content,
    )


def banner_document(*, nested: bool = False, drawn_twice: bool = False) -> bytes:
    """Page 1 draws the band at (100, 600) (and at (100, 300) too with `drawn_twice`);
    page 2 draws the same form at (100, 600). With `nested`, the band is a form inside
    the form the pages draw."""
    doc = pymupdf.open()
    font = doc.get_new_xref()
    doc.update_object(font, HELVETICA)
    band = _form(doc, BAND, f"<< /Font << /F1 {font} 0 R >> >>")
    if nested:
        band = _form(
            doc, b"q /Inner Do Q", f"<< /XObject << /Inner {band} 0 R >> >>", "1 0 0 1 0 0"
        )
    places = [b"q 1 0 0 1 100 600 cm /Band Do Q"]
    if drawn_twice:
        places.append(b"q 1 0 0 1 100 300 cm /Band Do Q")
    for content in (b" ".join(places), places[0]):
        page = doc.new_page(width=612, height=792)
        doc.xref_set_key(page.xref, "Resources", f"<< /XObject << /Band {band} 0 R >> >>")
        doc.xref_set_key(page.xref, "Contents", f"{_stream(doc, '<<>>', content)} 0 R")
    return doc.tobytes()


def _word_box(page: pymupdf.Page, word: str, below: float = 792) -> pymupdf.Rect:
    return pymupdf.Rect(
        next(w[:4] for w in page.get_text("words") if w[4] == word and w[1] < below)
    )


def _words(page: pymupdf.Page) -> list[str]:
    """The page's words but the exemption code stamped on the box."""
    return [w[4] for w in page.get_text("words") if w[4] != "(b)(6)"]


def _blue_area(page: pymupdf.Page, within: pymupdf.Rect) -> float:
    return sum(
        (d["rect"] & within).get_area()
        for d in page.get_drawings()
        if d.get("fill") and all(abs(a - b) < 0.01 for a, b in zip(d["fill"], BLUE, strict=True))
    )


def _release(pdf: bytes, box: pymupdf.Rect) -> tuple[RedactionMark, bytes]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")
    return mark, sanitize(burn_in(pdf, [mark]))


def test_a_band_inside_a_form_stays_around_the_box_with_its_white_heading() -> None:
    pdf = banner_document()
    box = _word_box(pymupdf.open(stream=pdf, filetype="pdf")[0], "Invest")

    mark, output = _release(pdf, box)

    page = pymupdf.open(stream=output, filetype="pdf")[0]
    band = pymupdf.Rect(100, 152, 400, 192)  # 150 x 20 at 2x, 600 up from the foot
    assert _blue_area(page, band) > 0.95 * (band.get_area() - box.get_area())
    assert _blue_area(page, box) == 0  # around the box, not under it
    assert _words(page) == ["in", "a", "resilient", "future"]
    assert verify(pdf, output, [mark]).ok


def test_a_band_in_a_form_inside_a_form_stays_around_the_box() -> None:
    pdf = banner_document(nested=True)
    box = _word_box(pymupdf.open(stream=pdf, filetype="pdf")[0], "Invest")

    mark, output = _release(pdf, box)

    page = pymupdf.open(stream=output, filetype="pdf")[0]
    band = pymupdf.Rect(100, 152, 400, 192)
    assert _blue_area(page, band) > 0.95 * (band.get_area() - box.get_area())
    assert _words(page) == ["in", "a", "resilient", "future"]
    assert verify(pdf, output, [mark]).ok


def test_a_form_drawn_in_several_places_is_split_only_where_the_box_lies() -> None:
    pdf = banner_document(drawn_twice=True)
    box = _word_box(pymupdf.open(stream=pdf, filetype="pdf")[0], "Invest", below=400)

    mark, output = _release(pdf, box)

    released = pymupdf.open(stream=output, filetype="pdf")
    marked, other = pymupdf.Rect(100, 152, 400, 192), pymupdf.Rect(100, 452, 400, 492)
    assert _blue_area(released[0], box) == 0
    assert _blue_area(released[0], other) == other.get_area()  # the other place: whole
    assert _blue_area(released[1], marked) == marked.get_area()  # the other page: whole
    assert _words(released[1])[0] == "Invest"
    assert verify(pdf, output, [mark]).ok


# Zigzags stroked 8 wide with mitred joins, in a form's own space.
ZIGZAGS = b"8 w 46 50 m 65 80 l 84 50 l S 87 50 m 105 80 l 123 50 l S"


def zigzags_drawn_with_a_miter_limit(limit: bytes, at: int) -> bytes:
    """The page sets the miter limit and draws the zigzags' form at (300, `at`), a line
    of text 24 points above their points."""
    doc = pymupdf.open()
    zigzags = _stream(
        doc, "<< /Type /XObject /Subtype /Form /BBox [0 0 300 120] /Resources << >> >>", ZIGZAGS
    )
    page = doc.new_page(width=612, height=792)
    page.insert_text((300, 792 - at - 80 - 28), "Screening committee", fontsize=12)
    set_resource(page, "XObject/Zigzags", f"{zigzags} 0 R")
    append_content(page, b"q %s M q 1 0 0 1 300 %d cm /Zigzags Do Q Q" % (limit, at))
    return doc.tobytes()


@pytest.mark.parametrize("limit", [b"2", b"2.1"])
def test_strokes_in_a_form_far_from_the_box_keep_the_miter_limit_they_are_drawn_with(
    limit: bytes,
) -> None:
    """MuPDF's redaction bounds a form's mitred strokes as if the form set the default
    limit of 10 (8 x 10 = 80 points past them), though it inherits the page's 2: the
    zigzags 20 points below a marked word went whole (iText's
    GraphicsStateOperators). The form's copy now says the limit again."""
    pdf = zigzags_drawn_with_a_miter_limit(limit, 600)
    original = pymupdf.open(stream=pdf, filetype="pdf")
    mark, output = _release(pdf, _word_box(original[0], "committee"))

    released = pymupdf.open(stream=output, filetype="pdf")
    zigzags = pymupdf.Rect(300, 95, 560, 160)  # below the box, around the points
    shown = released[0].get_pixmap(clip=zigzags).samples
    assert shown == original[0].get_pixmap(clip=zigzags).samples
    assert min(shown) == 0  # black ink there
    assert verify(pdf, output, [mark]).ok


def circle_under_a_label() -> bytes:
    """A label, and 12 points under it a red circle stroked 2.25 wide (mitred joins at
    the default limit) in a form of its own inside a form, as html2pdf writes an SVG."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((36, 60), "Figure label", fontsize=12)
    circle = _stream(
        doc,
        "<< /Type /XObject /Subtype /Form /BBox [0 0 75 75] /Resources << >> >>",
        b"0 0 75 75 re W n q 1 0 0 rg 0 0 0 RG 2.25 w 67.5 37.5 m 67.5 54.07 54.07 67.5"
        b" 37.5 67.5 c 20.93 67.5 7.5 54.07 7.5 37.5 c 7.5 20.93 20.93 7.5 37.5 7.5 c"
        b" 54.07 7.5 67.5 20.93 67.5 37.5 c b Q",
    )
    svg = _stream(
        doc,
        f"<< /Type /XObject /Subtype /Form /BBox [0 0 75 75] "
        f"/Resources << /XObject << /Fm1 {circle} 0 R >> >> >>",
        b"1 0 0 -1 0 75 cm q /Fm1 Do Q",
    )
    set_resource(page, "XObject/Svg", f"{svg} 0 R")
    append_content(page, b"q 1 0 0 1 36 153 cm /Svg Do Q")  # 72 to 147 down the page
    return doc.tobytes()


def test_a_stroked_circle_in_a_form_just_below_a_box_stays() -> None:
    pdf = circle_under_a_label()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    label = _word_box(page, "Figure") | _word_box(page, "label")

    mark, output = _release(pdf, label)

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    assert released.get_pixmap(dpi=72).pixel(73, 110) == (255, 0, 0)  # the circle's face
    assert verify(pdf, output, [mark]).ok
