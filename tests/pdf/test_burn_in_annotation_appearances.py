"""An annotation written without an appearance stream is released as the reviewer saw
it (`annotations_shown._appearances_drawn`).

MuPDF draws such an annotation on screen from its type and properties (a stamp as
"DRAFT", a square as its border; the square was kept before, the stamp was not); baking, which puts every annotation into the page
content, takes stored appearances only, so the release lost it: the gate refused
veraPDF's 6-3-3-t01-fail-m (a stamp written with only its /Rect) as collateral damage."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
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
        "/Subtype/Stamp/Name/Confidential/Rect[20 100 110 190]/Rotate 90",
        "/Subtype/Stamp/Name/Confidential/Rect[120 100 210 190]/Rotate 45",
    ],
    ids=["stamp", "square", "stamp turned a quarter", "stamp turned 45 degrees"],
)
def test_an_annotation_without_an_appearance_is_released_as_shown(entries: str) -> None:
    pdf = with_an_annotation(entries)
    assert shown(pdf) != shown(pdf, annots=False)  # MuPDF draws it

    release = sanitize(burn_in(pdf, []))

    assert verify(pdf, release, []).ok
    assert shown(release) == shown(pdf)
    assert not list(pymupdf.open(stream=release, filetype="pdf")[0].annots())  # baked in


def test_a_word_under_a_note_icon_as_baked_is_no_collateral_damage() -> None:
    """A note written without an appearance is drawn by MuPDF as an icon; baked into the
    page, the icon covers the words at its corner, which the reviewer saw covered (the
    preview is the baked page) and sanitize takes. The gate read the original with
    MuPDF's icon as shown on screen, which covers less, and counted "Bed" as lost
    (iText's TimetableAnnotations1: every page refused)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((20, 100), "In Bed With Santa, then Cinema Paradiso", fontname="helv")
    page.insert_text((20, 260), "Reviewed by the programme committee", fontname="helv")
    note = doc.get_new_xref()
    doc.update_object(
        note,
        "<</Type/Annot/Subtype/Text/Name/Help/C[1 .55 0]/Contents(Produced in 1954)"
        f"/P {page.xref} 0 R/Rect[20 155 93 211]>>",
    )
    doc.xref_set_key(page.xref, "Annots", f"[{note} 0 R]")
    marked = normalize(page, page.search_for("committee")[0])
    pdf = doc.tobytes()
    marks = [RedactionMark(page=0, box=marked, legal_reason="(b)(6)")]

    output = sanitize(burn_in(pdf, marks))

    assert "Bed" not in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, marks).ok
