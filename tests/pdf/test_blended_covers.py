"""An image painted over text in a blend mode: pdfium's alpha_channel.pdf lays a scan
over a fax header ("Übertragen von ...") in Overlay mode, where black text stays black.
The header was taken for covered by the image, proposed as hidden and cut from the
release, though every reader sees it. Whether text under such an image shows is now
settled by rendering the page with and without its text: in Overlay, Multiply and Darken
the words show; in Screen and Lighten a white image hides them, as it does painted
normally. White text under an orange fill in Screen mode stays white on orange (pdf.js's
issue18032.pdf, a gradient): it was taken for white on the white page and cut."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.hidden import find_hidden
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.raw_pdf import stream, write_pdf

LINE = "Jane Roe wrote this page."


def white_image_over_text(mode: str) -> bytes:
    return _page(
        b"BT /F1 12 Tf 20 150 Td (" + LINE.encode() + b") Tj ET"
        b" BT /F1 12 Tf 20 60 Td (Signed by the clerk.) Tj ET"
        b" q /G gs 200 0 0 40 10 140 cm /Im Do Q",
        mode,
    )


def white_text_under_an_orange_fill(mode: str) -> bytes:
    return _page(
        b"1 g BT /F1 12 Tf 20 150 Td (" + LINE.encode() + b") Tj ET"
        b" 0 g BT /F1 12 Tf 20 60 Td (Signed by the clerk.) Tj ET"
        b" q /G gs 1 0.6 0 rg 10 140 200 40 re f Q",
        mode,
    )


def _page(content: bytes, mode: str) -> bytes:
    return write_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R /F2 8 0 R >> /XObject << /Im 6 0 R >>"
            b" /ExtGState << /G 7 0 R >> >> >>",
            stream(b"", content),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            stream(
                b"/Type /XObject /Subtype /Image /Width 1 /Height 1"
                b" /ColorSpace /DeviceGray /BitsPerComponent 8",
                b"\xff",
            ),
            b"<< /Type /ExtGState /BM /" + mode.encode() + b" >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>",
        ]
    )


def _release(pdf: bytes) -> tuple[str, bool]:
    """The released page's text, every word of the second line marked, and whether the
    gate let it out."""
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    marks = [
        RedactionMark(page=0, box=normalize(page, pymupdf.Rect(w[:4])), legal_reason="(b)(6)")
        for w in page.get_text("words")
        if w[1] > 100
    ]
    output = sanitize(burn_in(pdf, marks))
    text = pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    return text, verify(pdf, output, marks).ok


@pytest.mark.parametrize("mode", ["Overlay", "Multiply", "Darken"])
def test_text_showing_through_a_blended_image_is_kept(mode: str) -> None:
    pdf = white_image_over_text(mode)

    assert find_hidden(pdf) == []
    text, released = _release(pdf)
    assert LINE in text.replace("\n", " ")
    assert released


@pytest.mark.parametrize("mode", ["Normal", "Screen", "Lighten"])
def test_text_a_blended_image_hides_is_removed(mode: str) -> None:
    pdf = white_image_over_text(mode)

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("covered", "JaneRoewrotethispage.")]
    text, released = _release(pdf)
    assert "Jane" not in text
    assert released


def test_white_text_a_blended_fill_tints_around_is_kept() -> None:
    pdf = white_text_under_an_orange_fill("Screen")

    assert find_hidden(pdf) == []
    text, released = _release(pdf)
    assert LINE in text.replace("\n", " ")
    assert released


def test_white_text_under_an_orange_fill_painted_normally_is_removed() -> None:
    pdf = white_text_under_an_orange_fill("Normal")

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("covered", "JaneRoewrotethispage.")]


def black_word_on_a_black_box_under_a_highlight() -> bytes:
    """The line "abcdefghi" in black Times, "def" on a black box that ends 0.05 pt past
    the "f", a yellow fill in Multiply over "fghi" (x-ray's rectangles_yes_2.pdf, whose
    highlight is an annotation). The edge of the "f"'s box falls in a pixel (at 144 dpi)
    that also holds the "g" and the tip of the "f"'s hook, which show on the yellow."""
    start = 20.06
    times = pymupdf.Font("tiro")
    d = start + times.text_length("abc", fontsize=12)
    f_end = start + times.text_length("abcdef", fontsize=12)
    return _page(
        f"0 g {d:.3f} 140 {f_end + 0.05 - d:.3f} 30 re f"
        f" BT /F2 12 Tf {start:.3f} 150 Td (abcdefghi) Tj ET"
        f" q /G gs 1 0.9 0.3 rg {f_end - 4:.3f} 138 40 34 re f Q".encode(),
        "Multiply",
    )


def test_a_glyph_on_a_box_of_its_colour_is_not_seen_through_the_glyph_beside_it() -> None:
    pdf = black_word_on_a_black_box_under_a_highlight()

    assert "".join(h.text for h in find_hidden(pdf)) == "def"
    text, _ = _release(pdf)
    assert "abcghi" in text.replace("\n", "")
