"""A page whose /MediaBox MuPDF cannot read is cropped as viewers crop it (`page_boxes`):
its words are neither hidden content nor lost from the release."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.hidden import find_hidden
from review.pdf.misplaced_objects import open_settled
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.render import page_png
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def _page_with_three_number_media_box() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    # Inside the crop box [0 0 375 300]: the bottom left of a Letter page.
    page.insert_text((15, 600), "Hello Jane Roe world", fontname="helv", fontsize=24)
    doc.xref_set_key(page.xref, "CropBox", "[0 0 375 300]")
    doc.xref_set_key(page.xref, "MediaBox", "[0 0 375]")
    return doc.tobytes()


def test_words_inside_the_crop_box_of_an_unreadable_media_box_are_not_hidden() -> None:
    pdf = _page_with_three_number_media_box()
    assert find_hidden(pdf) == []
    image = pymupdf.Pixmap(page_png(pdf, 0, dpi=72))
    assert (image.width, image.height) == (375, 300)  # cropped, as other viewers show it


def test_such_a_page_releases_with_its_words() -> None:
    pdf = _page_with_three_number_media_box()
    page = open_settled(pdf)[0]  # as every pass opens it, a reviewer's box included
    roe = next(w for w in page.get_text("words") if w[4] == "Roe")
    mark = RedactionMark(page=0, box=normalize(page, pymupdf.Rect(roe[:4])), legal_reason="(b)(6)")
    output = sanitize(burn_in(pdf, [mark]))
    assert verify(pdf, output, [mark]).ok
    words = [w[4] for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")]
    assert {"Hello", "Jane", "world"} <= set(words)
    assert "Roe" not in words
