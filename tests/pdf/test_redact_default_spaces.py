"""A page's default colour spaces survive burn-in and sanitize
(`resources.default_spaces_named`).

/DefaultRGB in a page's resources changes what "rg" paints without any operator naming
it. MuPDF's content filter keeps only the resources a stream names, and dropped it:
every colour on the PDF Association's DefaultColorSpaces pages changed, on pages with a
mark and without. A form without resources of its own draws with the page's."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize

# A CalRGB space whose matrix reads red as green: "1 0 0 rg" paints green.
SWAPPED = "[/CalRGB<</WhitePoint[1 1 1]/Matrix[0 1 0 1 0 0 0 0 1]>>]"


def swapped_colours(pages: int, *, split: bool = False) -> bytes:
    """`pages` pages, each with a red square drawn by the page and one by a form without
    resources, both painted green through /DefaultRGB, and a name under them. With
    `split`, each page's content is two streams, the second starting inside "BT"."""
    doc = pymupdf.open()
    font, form = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    doc.update_object(form, "<</Type/XObject/Subtype/Form/BBox[0 0 50 50]>>")
    doc.update_stream(form, b"1 0 0 rg 0 0 50 50 re f")
    for _ in range(pages):
        page = doc.new_page(width=300, height=200)
        doc.xref_set_key(
            page.xref,
            "Resources",
            f"<</ColorSpace<</DefaultRGB {SWAPPED}>>/Font<</F1 {font} 0 R>>"
            f"/XObject<</Square {form} 0 R>>>>",
        )
        content = (
            b"1 0 0 rg 20 120 50 50 re f q 1 0 0 1 100 120 cm /Square Do Q"
            b" BT /F1 12 Tf 0 0 0 rg 20 40 Td (Officer Jane Example) Tj ET"
        )
        parts = content.split(b"20 40 Td") if split else [content]
        streams = []
        for number, part in enumerate(parts):
            streams.append(doc.get_new_xref())
            doc.update_object(streams[-1], "<<>>")
            doc.update_stream(streams[-1], (b"20 40 Td" if number else b"") + part)
        doc.xref_set_key(page.xref, "Contents", "[" + " ".join(f"{x} 0 R" for x in streams) + "]")
    return doc.tobytes()


def squares(pdf: bytes, number: int) -> bytes:
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    return doc[number].get_pixmap(clip=pymupdf.Rect(10, 20, 160, 90)).samples


@pytest.mark.parametrize("split", [False, True], ids=["one stream", "two streams"])
@pytest.mark.parametrize("page", [0, 1], ids=["marked page", "page without a mark"])
def test_colours_drawn_through_a_default_space_are_released_as_shown(
    page: int, split: bool
) -> None:
    pdf = swapped_colours(2, split=split)
    doc = pymupdf.open(stream=pdf, filetype="pdf")
    name = doc[0].search_for("Jane Example")[0]
    mark = RedactionMark(page=0, box=normalize(doc[0], name), legal_reason="(b)(6)")

    released = sanitize(burn_in(pdf, [mark]))

    shown = squares(pdf, page)
    assert shown == squares(released, page)
    assert pymupdf.open(stream=released, filetype="pdf")[page].get_text().count("Officer") == 1
    green = bytes((0, 255, 0))
    assert green in {shown[i : i + 3] for i in range(0, len(shown), 3)}  # the space applies
