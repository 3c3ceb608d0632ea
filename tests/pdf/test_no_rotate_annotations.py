"""An annotation flagged NoRotate on a turned page is released where the preview shows it.

MuPDF shows such an annotation turned back about its rectangle's top left corner, upright
on screen; its baking and its text extraction ignore the flag. Burn-in drew it turned
with the page, away from where the reviewer saw it (pdfium's bug_1883.pdf: arrows moved
and turned), and a box a reviewer drew over a comment's words on the preview missed
them in the release."""

from __future__ import annotations

import numpy as np
import pymupdf
import pytest

from review.pdf.detect import DetectionPolicy, detect
from review.pdf.geometry import display_rect, normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.render import page_png
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

NO_ROTATE = pymupdf.PDF_ANNOT_IS_NO_ROTATE | pymupdf.PDF_ANNOT_IS_PRINT
COMMENT = b"1 1 .6 rg 0 0 200 30 re f BT 0 0 1 rg /Helv 12 Tf 5 10 Td (Call Jane Roe) Tj ET"
# An arrow drawn at half width into its rectangle, as in pdfium's bug_1883.pdf.
ARROW = b"10 w 1 0 0 RG 30 65 m 150 65 l S 120 45 m 150 65 l 120 85 l S"


def _annotated(rotations: list[int], appearance: bytes, box: str, *, shared: bool) -> bytes:
    """Pages turned by `rotations`, each with a line of text and a NoRotate FreeText
    annotation drawn by `appearance` (a form of box `box`) into [100 270 300 300]; one
    annotation object listed on every page where `shared`."""
    doc = pymupdf.open()
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    form = doc.get_new_xref()
    doc.update_object(
        form, f"<</Type/XObject/Subtype/Form/BBox {box}/Resources <</Font <</Helv {font} 0 R>>>>>>"
    )
    doc.update_stream(form, appearance)

    def annotation() -> int:
        xref = doc.get_new_xref()
        doc.update_object(
            xref,
            f"<</Type/Annot/Subtype/FreeText/Rect [100 270 300 300]/F {NO_ROTATE}"
            f"/Contents (Call Jane Roe)/DA (0 0 1 rg /Helv 12 Tf)/AP <</N {form} 0 R>>>>",
        )
        return xref

    one = annotation() if shared else None
    for rotation in rotations:
        page = doc.new_page(width=400, height=600)
        page.insert_text((50, 550), "Body text of the page", fontsize=11)
        doc.xref_set_key(page.xref, "Annots", f"[{one or annotation()} 0 R]")
        page.set_rotation(rotation)
    return doc.tobytes()


def _changed_pixels(before: bytes, after: bytes, page: int) -> int:
    pixmaps = [pymupdf.open(stream=png) for png in (page_png(before, page), page_png(after, page))]
    a, b = (np.frombuffer(p[0].get_pixmap().samples, np.uint8).astype(int) for p in pixmaps)
    return int((np.abs(a - b) > 64).sum()) if a.shape == b.shape else -1


@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_a_no_rotate_comment_is_released_where_the_preview_shows_it(rotation: int) -> None:
    pdf = _annotated([rotation], COMMENT, "[0 0 200 30]", shared=False)

    released = sanitize(burn_in(pdf, []))

    assert _changed_pixels(pdf, released, 0) == 0
    assert verify(pdf, released, []).ok


def test_an_arrow_listed_on_pages_turned_differently_is_released_upright_on_each() -> None:
    pdf = _annotated([0, 90, 180, 270], ARROW, "[0 0 360 130]", shared=True)

    released = sanitize(burn_in(pdf, []))

    assert [_changed_pixels(pdf, released, page) for page in range(4)] == [0, 0, 0, 0]
    assert verify(pdf, released, []).ok


def test_a_box_drawn_on_the_preview_over_a_no_rotate_comment_removes_its_words() -> None:
    pdf = _annotated([90], COMMENT, "[0 0 200 30]", shared=False)
    page = pymupdf.open(stream=pdf)[0]
    shown = page.first_annot.rect  # where the preview shows it, in unrotated page space
    mark = RedactionMark(page=0, box=normalize(page, shown), legal_reason="(b)(6)")

    released = sanitize(burn_in(pdf, [mark]))

    assert "Roe" not in pymupdf.open(stream=released)[0].get_text()
    assert verify(pdf, released, [mark]).ok


def test_detection_proposes_the_name_in_a_no_rotate_comment_where_the_preview_shows_it() -> None:
    pdf = _annotated([90], COMMENT, "[0 0 200 30]", shared=False)
    page = pymupdf.open(stream=pdf)[0]
    shown = page.first_annot.rect * page.rotation_matrix

    marks = detect(pdf, DetectionPolicy(salt=b"s" * 16, ocr=False, ner=True)).marks

    people = [display_rect(page, m.box) for m in marks if m.category == "person"]
    assert people and all(shown.contains(rect) for rect in people)


def test_a_no_rotate_comment_whose_box_is_no_array_of_numbers_is_left_as_it_is() -> None:
    doc = pymupdf.open(stream=_annotated([90], COMMENT, "[0 0 200 30]", shared=False))
    annot = doc[0].first_annot.xref
    form = int(doc.xref_get_key(annot, "AP/N")[1].split()[0])
    box = doc.get_new_xref()
    doc.update_object(box, "[0 0 200 30]")
    doc.xref_set_key(form, "BBox", f"{box} 0 R")  # an indirect box, which MuPDF reads
    pdf = doc.tobytes()

    detect(pdf, DetectionPolicy(salt=b"s" * 16, ocr=False))  # reads the page, no error
    released = sanitize(burn_in(pdf, []))

    assert verify(pdf, released, []).ok
