"""The gate refuses a release that shows what the original hid. A form that leaves a
path unpainted at its end has it filled by MuPDF with the page's next shape: a police
order's stamp ("Fl. 1", its unit and case number) lay under a yellow box that way, was
found as hidden content, and was shown on release once burn-in rewrote the content
without the stray path (sanitize, judging the output afresh, saw nothing hidden)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.hidden import find_hidden
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import VerificationReport, verify
from testkit.drawing import append_content, set_resource

YELLOW = (255, 255, 153)


def letter() -> tuple[pymupdf.Document, pymupdf.Page]:
    """A letter naming a complainant, its file number at the top right."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 200), "Complainant: Jane Doe", fontsize=12)
    page.insert_text((400, 90), "File 2022-0014837", fontsize=10)
    return doc, page


def released(pdf: bytes) -> tuple[bytes, VerificationReport]:
    """The release with the complainant's name redacted, and the gate's report."""
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(0, normalize(page, page.search_for("Jane Doe")[0]), "(b)(6)")
    output = sanitize(burn_in(pdf, [mark]))
    return output, verify(pdf, output, [mark])


def test_text_a_rewrite_uncovers_is_refused_as_unseen_content() -> None:
    doc, page = letter()
    form = doc.get_new_xref()
    doc.update_object(form, "<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] >>")
    doc.update_stream(form, b"0 g 390 690 130 30 re")  # never painted
    set_resource(page, "XObject/Fm0", f"{form} 0 R")
    append_content(page, b"q /Fm0 Do Q 1 1 0.6 rg 20 770 200 14 re f")  # the label
    pdf = doc.tobytes()
    shown = pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(dpi=72)
    assert shown.pixel(450, 87) == YELLOW  # the file number, as the reviewer saw it
    assert [(h.kind, h.text) for h in find_hidden(pdf)] == [("covered", "File2022-0014837")]

    output, report = released(pdf)

    assert "2022-0014837" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert [(f.code, f.page) for f in report.failures] == [("unseen_content", 0)]


def test_a_hidden_copy_over_a_seen_word_is_no_uncovered_text() -> None:
    """A tiny copy of a word set at the word's own start: sanitize removes the copy, and
    the glyphs the release draws there are the ones the reviewer saw."""
    doc, page = letter()
    page.insert_text((400, 90), "File 2022-0014837", fontsize=0.5)
    pdf = doc.tobytes()
    assert {h.kind for h in find_hidden(pdf)} == {"tiny"}

    assert released(pdf)[1].ok


def test_an_image_the_original_hid_is_judged_without_a_glyphs_place() -> None:
    """A hidden image has no glyph's place: the output's own analysis judges it, and
    the check of uncovered glyphs passes it by (a Florida order holds one)."""
    doc, page = letter()
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    pixmap.set_rect(pixmap.irect, (200, 30, 30))
    page.insert_image(pymupdf.Rect(400, 110, 440, 150), pixmap=pixmap)
    page.draw_rect(pymupdf.Rect(390, 105, 450, 155), color=None, fill=(0, 0, 0))
    pdf = doc.tobytes()
    assert [h.kind for h in find_hidden(pdf)] == ["covered"]

    assert released(pdf)[1].ok
