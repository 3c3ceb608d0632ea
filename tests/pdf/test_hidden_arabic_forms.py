"""Arabic text written in presentation forms ("ﺍ", U+FE8D) is visible text: the paint
trace reports the forms, clip-aware extraction the letters they stand for ("ا"), and
the two must agree before a glyph counts as cut away by a clip. Before, every such
glyph of a page analysed glyph by glyph was `clipped` hidden content (pdf.js's
ThuluthFeatures.pdf and freetext_no_appearance.pdf), and sanitize removed it."""

from __future__ import annotations

import pymupdf

from review.pdf.hidden import analyse_page
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit.fonts import truetype_page

GREETING = "\ufe8d\ufedf\ufeb4\ufefc\ufee1 \ufecb\ufee0\ufef4\ufedc\ufee2"  # with a lam-alef


def clipped_arabic_page() -> bytes:
    doc = pymupdf.open()
    page = truetype_page(doc)
    page.insert_text((72, 100), GREETING, fontname="dv", fontsize=14)
    page.insert_text((72, 140), "Reference 2291 of the request", fontname="dv", fontsize=11)
    page.clean_contents()  # one content stream
    (contents,) = page.get_contents()
    # A clipping path that is no rectangle and lets every glyph through: the page is
    # analysed glyph by glyph.
    clip = b"q 0 0 m 612 0 l 612 792 l 0 792 l 10 400 l h W n\n"
    doc.update_stream(contents, clip + doc.xref_stream(contents) + b"\nQ")
    return doc.tobytes()


def test_arabic_presentation_forms_inside_a_clip_are_not_hidden_content() -> None:
    pdf = clipped_arabic_page()

    page = pymupdf.open(stream=pdf, filetype="pdf")[0]

    assert analyse_page(page).hidden == []


def test_a_page_of_arabic_presentation_forms_is_released_whole() -> None:
    pdf = clipped_arabic_page()

    output = sanitize(burn_in(pdf, []))

    assert verify(pdf, output, []).ok
    words = pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert "Reference" in words and len(words.split()) == 7
