"""What a later fill covers is judged on the glyphs' ink, not on their boxes (which run
from the font's ascender to its descender). A bar drawn tight over a name covers all of
its letters' ink and three fifths of their boxes, or less than half of them in small
letters: the name was judged seen, kept under the bar and released. A form's white check
boxes cover nine tenths of the boxes of the underscores drawn under them and not their
ink, which shows below each box: the underscores were cut from the release as hidden
(a Federal Circuit form in freelawproject's doctor test assets). A row of "█" typed
over a name hid it as a black bar does, and it was taken for text over text. White text
on a white image was taken for seen: what lies behind text on an image is unknown
until the page is drawn with and without it."""

from __future__ import annotations

import math

import pymupdf

from review.pdf.hidden import find_hidden
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.fonts import DEJAVU, truetype_page
from testkit.raw_pdf import one_page, stream, write_pdf

BASELINE = 100.0
BLOCK = "\u2588"  # full block
SIZE = 12.0


def _page(words: str, font: str, bar: tuple[float, float], fill: tuple[float, ...]) -> bytes:
    """A line "Filed by `words` today." with a bar from `bar[0]` above the baseline to
    `bar[1]` below it, over `words` alone (in fractions of the font size)."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, BASELINE), f"Filed by {words} today.", fontsize=SIZE, fontname=font)
    page.insert_text((72, BASELINE + 40), "A line nothing covers.", fontsize=SIZE, fontname=font)
    found = page.get_text("words")
    start = next(i for i, w in enumerate(found) if w[4] == "by") + 1
    x0, x1 = found[start][0], found[start + len(words.split()) - 1][2]
    top, bottom = BASELINE - bar[0] * SIZE, BASELINE + bar[1] * SIZE
    page.draw_rect(pymupdf.Rect(x0 - 0.3, top, x1 + 0.3, bottom), color=None, fill=fill)
    return doc.tobytes()


def _released_text(pdf: bytes) -> str:
    output = sanitize(burn_in(pdf, []))
    assert verify(pdf, output, []).ok
    return pymupdf.open(stream=output, filetype="pdf")[0].get_text()


def test_a_name_under_a_bar_drawn_tight_over_its_capitals_is_hidden() -> None:
    pdf = _page("JANE ROE", "helv", bar=(0.77, 0.05), fill=(0, 0, 0))

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("covered", "JANEROE")]
    text = _released_text(pdf)
    assert "JANE" not in text and "ROE" not in text
    assert "A line nothing covers." in text


def test_a_word_in_small_letters_under_a_tight_bar_is_hidden() -> None:
    """The bar covers less than half of the letters' boxes: the page was settled as
    plain, and nothing on it looked at."""
    pdf = _page("name", "tiro", bar=(0.47, 0.02), fill=(0, 0, 0))

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("covered", "name")]
    assert "name" not in _released_text(pdf)


def test_a_letter_whose_ink_rises_above_a_tight_bar_is_seen() -> None:
    pdf = _page("secret", "helv", bar=(0.56, 0.03), fill=(0, 0, 0))

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("covered", "secre")]


def test_underscores_showing_below_a_white_box_are_kept() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, BASELINE), "_____ Petitioner", fontsize=SIZE, fontname="tiro")
    # Over 90% of the underscores' boxes (from 90.53 to 102.53); their ink runs from
    # 100.98 to 101.58, below the box's edge at 101.45.
    page.draw_rect(pymupdf.Rect(70, 89.5, 103, 101.45), color=(0, 0, 0), fill=(1, 1, 1))
    pdf = doc.tobytes()

    assert find_hidden(pdf) == []
    assert "_____" in _released_text(pdf)


def _typed_over(words: str, count: int | None = None) -> bytes:
    """A line "Filed by `words` today." in DejaVu Sans with a row of full blocks typed
    over `words` afterwards (or `count` of them from its start), as a text annotation
    drawn into the page puts it."""
    doc = pymupdf.open()
    page = truetype_page(doc)
    page.insert_text((72, BASELINE), f"Filed by {words} today.", fontsize=SIZE, fontname="dv")
    found = page.get_text("words")
    start = next(i for i, w in enumerate(found) if w[4] == words.split()[0])
    x0, x1 = found[start][0] - 1, found[start + len(words.split()) - 1][2] + 1
    width = pymupdf.Font(fontfile=str(DEJAVU)).text_length(BLOCK, SIZE)
    count = math.ceil((x1 - x0) / width) if count is None else count
    page.insert_text((x0, BASELINE), BLOCK * count, fontsize=SIZE, fontname="dv")
    return doc.tobytes()


def test_a_name_under_a_row_of_full_blocks_typed_over_it_is_hidden() -> None:
    pdf = _typed_over("JANE ROE")

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("covered", "JANEROE")]
    assert "JANE" not in _released_text(pdf)


def test_a_block_typed_over_one_letter_hides_that_letter_alone() -> None:
    pdf = _typed_over("JANE ROE", count=1)  # over the J alone

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("covered", "J")]


def _text_on_an_image(pixel: bytes, grey: bytes) -> bytes:
    """A line in `grey` (0 black, 1 white) over an image of one `pixel` (8-bit grey)."""
    return write_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> /XObject << /Im 6 0 R >> >> >>",
            stream(
                b"",
                b"BT /F1 12 Tf 20 150 Td (A line nothing covers.) Tj ET"
                b" q 280 0 0 60 10 80 cm /Im Do Q " + grey + b" g"
                b" BT /F1 12 Tf 20 100 Td (JANE ROE) Tj ET",
            ),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            stream(
                b"/Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray"
                b" /BitsPerComponent 8",
                pixel,
            ),
        ]
    )


def test_text_in_the_colour_of_the_image_under_it_is_hidden() -> None:
    """White on a white image, black on a black one: what lies behind text on an image
    is for the page's pixels to tell, and such text was settled as seen."""
    for pixel, grey in ((b"\xff", b"1"), (b"\x00", b"0")):
        pdf = _text_on_an_image(pixel, grey)

        assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("same_colour", "JANEROE")]
        assert "JANE" not in _released_text(pdf)


def test_text_that_stands_out_from_the_image_under_it_is_seen() -> None:
    for pixel, grey in ((b"\xff", b"0"), (b"\x00", b"1")):
        assert find_hidden(_text_on_an_image(pixel, grey)) == []


def test_an_annotations_text_on_an_image_is_seen() -> None:
    """The pages were drawn without their annotations: a Stamp's "By Indiana Election
    Division at 12:34 pm" on a shaded box (openelections' Knox County results) showed in
    neither, and was taken for unseen."""
    doc = pymupdf.open(stream=_text_on_an_image(b"\xe0", b"0"), filetype="pdf")
    doc[0].add_freetext_annot(
        pymupdf.Rect(20, 60, 200, 80), "By the Election Division", fontsize=10, text_color=(0, 0, 1)
    )
    pdf = doc.tobytes()

    assert find_hidden(pdf) == []
    assert "Election Division" in _released_text(pdf)


def _faint(opacity: bytes) -> bytes:
    return write_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> /ExtGState << /A 6 0 R >> >> >>",
            stream(
                b"",
                b"BT /F1 12 Tf 20 150 Td (A line nothing hides.) Tj ET"
                b" q /A gs BT /F1 12 Tf 20 100 Td (JANE ROE) Tj ET Q",
            ),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            b"<< /Type /ExtGState /ca " + opacity + b" >>",
        ]
    )


def test_text_too_faint_to_differ_from_the_page_is_hidden() -> None:
    """Black text at 1% opacity differs from the white page less than two colours that
    count as the same: it was taken for seen, the page for plain."""
    pdf = _faint(b"0.01")

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("same_colour", "JANEROE")]
    assert "JANE" not in _released_text(pdf)
    assert find_hidden(_faint(b"0.05")) == []


def _through_a_soft_mask(grey: bytes) -> bytes:
    """A line drawn through a luminosity soft mask painted all `grey` (0 lets nothing
    through, 1 all)."""
    return write_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> /ExtGState << /M 7 0 R >> >> >>",
            stream(
                b"",
                b"BT /F1 12 Tf 20 150 Td (A line nothing hides.) Tj ET"
                b" q /M gs BT /F1 12 Tf 20 100 Td (JANE ROE) Tj ET Q",
            ),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            stream(
                b"/Type /XObject /Subtype /Form /BBox [0 0 300 200]"
                b" /Group << /S /Transparency /CS /DeviceGray >>",
                grey + b" g 0 0 300 200 re f",
            ),
            b"<< /Type /ExtGState /SMask << /Type /Mask /S /Luminosity /G 6 0 R >> >>",
        ]
    )


def test_text_a_soft_mask_lets_nothing_of_through_is_hidden() -> None:
    """What a soft mask lets through is not read from the paint log: text drawn through
    a black luminosity mask was taken for seen and released."""
    pdf = _through_a_soft_mask(b"0")

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("same_colour", "JANEROE")]
    assert "JANE" not in _released_text(pdf)
    assert find_hidden(_through_a_soft_mask(b"1")) == []


def _clip_only(after: bytes) -> bytes:
    """ "JANE ROE" set in render mode 7 (added to the clip, painted nowhere), then
    `after` painted through that clip."""
    return write_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R"
            b" /Resources << /Font << /F1 5 0 R >> >> >>",
            stream(
                b"",
                b"BT /F1 12 Tf 20 150 Td (A line nothing hides.) Tj ET"
                b" q BT 7 Tr /F1 12 Tf 20 100 Td (JANE ROE) Tj ET " + after + b" Q",
            ),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
    )


def test_text_only_added_to_the_clip_is_hidden_unless_painted_through() -> None:
    """MuPDF's trace leaves render mode 7 out and extraction reads it: a name set so,
    with nothing painted through it, was released."""
    pdf = _clip_only(b"")

    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("clipped", "JANEROE")]
    assert "JANE" not in _released_text(pdf)
    painted_through = _clip_only(b"0 0 1 rg 0 0 300 200 re f")  # blue letters
    assert find_hidden(painted_through) == []
    assert "JANE ROE" in _released_text(painted_through)


_LIGATURES = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Ligatures def /CMapType 2 def
1 begincodespacerange <00> <FF> endcodespacerange
2 beginbfchar <01> <00660069> <02> <0066006C> endbfchar
1 beginbfrange <20> <7E> <0020> endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end"""


def _ligatures_beside_a_text_clip(mode: bytes) -> bytes:
    """A line with the "fi" and "fl" ligatures (one glyph each, read as two letters), and
    "LOGO" in render mode 7 with blue painted through it. Extraction reads the "i" of
    "fi" at the ligature's end, the trace at its start."""
    return one_page(
        b"BT " + mode + b" Tr /F1 12 Tf 20.3 150 Td (The \001ne print and \002owers.) Tj"
        b" ET q BT 7 Tr /F1 30 Tf 20 60 Td (LOGO) Tj ET 0 0 1 rg 0 0 300 200 re f Q",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /ToUnicode 6 0 R"
        b" /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding"
        b" /Differences [1 /fi /fl] >> >>",
        stream(b"", _LIGATURES),
    )


def test_the_second_letter_of_a_seen_ligature_is_seen_beside_a_text_clip() -> None:
    """On a page that clips to text somewhere, every glyph extraction reads and the
    trace does not is judged by the pixels under it: the "i" of each "fi", which has no
    width, was taken for text added to the clip alone (pdf-lib's us_constitution.pdf),
    and the gate refused a release sanitize could not fix."""
    pdf = _ligatures_beside_a_text_clip(b"0")

    assert find_hidden(pdf) == []
    assert "The fine print and flowers." in _released_text(pdf)
    clip_only = _ligatures_beside_a_text_clip(b"7")
    assert [h.kind for h in find_hidden(clip_only)] == ["clipped"]
    assert "print" not in _released_text(clip_only)
