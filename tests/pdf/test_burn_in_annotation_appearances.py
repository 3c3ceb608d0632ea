"""An annotation written without an appearance stream is released as the reviewer saw
it (`redact._appearances_drawn`).

MuPDF draws such an annotation on screen from its type and properties (a stamp as
"DRAFT", a square as its border; the square was kept before, the stamp was not); baking, which puts every annotation into the page
content, takes stored appearances only, so the release lost it: the gate refused
veraPDF's 6-3-3-t01-fail-m (a stamp written with only its /Rect) as collateral damage."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify


def with_an_annotation(entries: str) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((20, 280), "A letter with a note on it", fontname="helv")
    annot = doc.get_new_xref()
    doc.update_object(annot, f"<</Type/Annot/F 4/P {page.xref} 0 R {entries}>>")
    doc.xref_set_key(page.xref, "Annots", f"[{annot} 0 R]")
    return doc.tobytes()


def shown(pdf: bytes, annots: bool = True) -> bytes:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    return page.get_pixmap(dpi=72, colorspace=pymupdf.csGRAY, annots=annots).samples


@pytest.mark.parametrize(
    "entries",
    [
        "/Subtype/Stamp/Rect[20 100 280 200]",
        "/Subtype/Square/Rect[40 40 160 90]/C[1 0 0]/BS<</W 4>>",
    ],
    ids=["stamp", "square"],
)
def test_an_annotation_without_an_appearance_is_released_as_shown(entries: str) -> None:
    pdf = with_an_annotation(entries)
    assert shown(pdf) != shown(pdf, annots=False)  # MuPDF draws it

    release = sanitize(burn_in(pdf, []))

    assert verify(pdf, release, []).ok
    assert shown(release) == shown(pdf)
    assert not list(pymupdf.open(stream=release, filetype="pdf")[0].annots())  # baked in
