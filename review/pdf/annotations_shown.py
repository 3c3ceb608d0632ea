"""Annotations and form fields as the reviewer saw them, ready to bake (Django-free).

Burn-in bakes annotations and fields into the page content (MuPDF's `bake`), which
draws each from its stored appearance. The preview shows them as MuPDF draws them on
screen, which is not always that: an annotation MuPDF does not show, a page sharing its
list of annotations with another, a stamp with no appearance, a form asking viewers to
draw its fields afresh, a redaction annotation no reviewer approved. `annotations_as_shown`
settles each before the bake, so that the release shows what the preview did.
"""

from __future__ import annotations

import contextlib

import pymupdf
from pymupdf import mupdf

from review.pdf.on_screen import drawn_on_screen


def annotations_as_shown(doc: pymupdf.Document) -> None:
    """Ready `doc`'s annotations and fields to be baked as MuPDF shows them; redaction
    annotations already in it are dropped unapplied (only approved marks remove)."""
    _own_annotation_lists(doc)
    _drop_foreign_redactions(doc)
    _appearances_drawn(doc)
    if _asks_for_fresh_appearances(doc):
        _fields_drawn_as_shown(doc)


def _own_annotation_lists(doc: pymupdf.Document) -> None:
    """Give each page its own /Annots array, without the annotations MuPDF does not draw
    on screen (`on_screen.py`): baking would draw them into the release. Pages listing
    their annotations in one shared array object had them baked into one page only, and
    the others lost the form fields the reviewer saw there (qpdf's
    form-fields-and-annotations-shared.pdf)."""
    pdf = mupdf.pdf_specifics(doc.this)
    for number in range(doc.page_count):
        page = mupdf.pdf_lookup_page_obj(pdf, number)
        annots = mupdf.pdf_dict_get(page, mupdf.PDF_ENUM_NAME_Annots)
        if not mupdf.pdf_is_array(annots):
            # Missing, or a reference to no object (FPDI's invalid-annots-reference.pdf):
            # MuPDF shows no annotation on the page.
            mupdf.pdf_dict_del(page, mupdf.PDF_ENUM_NAME_Annots)
            continue
        if mupdf.pdf_is_indirect(annots):
            annots = mupdf.pdf_copy_array(annots)
            mupdf.pdf_dict_put(page, mupdf.PDF_ENUM_NAME_Annots, annots)
        for i in reversed(range(mupdf.pdf_array_len(annots))):
            if not drawn_on_screen(mupdf.pdf_array_get(annots, i)):
                mupdf.pdf_array_delete(annots, i)


def _appearances_drawn(doc: pymupdf.Document) -> None:
    """Store, for each stamp without an appearance stream, the one MuPDF draws for it on
    screen ("DRAFT", or the name it gives): what the reviewer saw. Baking dropped such a
    stamp (veraPDF's 6-3-3-t01-fail-m: one written with only its /Rect; the gate
    refused the release); the other kinds it draws as MuPDF shows them."""
    for page in doc:
        for annot in page.annots(types=(pymupdf.PDF_ANNOT_STAMP,)):
            if doc.xref_get_key(annot.xref, "AP")[0] == "null":
                # MuPDF draws a stamp upright whatever its /Rotate says; PyMuPDF would
                # turn the drawing, and fails doing so (iText's rotated_annotation.pdf
                # crashed the burn-in).
                doc.xref_set_key(annot.xref, "Rotate", "null")
                annot.update()


def _drop_foreign_redactions(doc: pymupdf.Document) -> None:
    for page in doc:
        foreign = [a.xref for a in page.annots(types=(pymupdf.PDF_ANNOT_REDACT,))]
        for xref in foreign:
            page.delete_annot(page.load_annot(xref))


def _asks_for_fresh_appearances(doc: pymupdf.Document) -> bool:
    """The form's /NeedAppearances is true, as MuPDF reads it. PyMuPDF's
    `need_appearances()` says true for "/NeedAppearances false" too (and writes false
    where it finds none): MuPDF showed pdf.js's opt_demo.pdf radio buttons as stored,
    and drawn afresh for the release they gained a ring."""
    trailer = mupdf.pdf_trailer(mupdf.pdf_specifics(doc.this))
    return mupdf.pdf_to_bool(mupdf.pdf_dict_getp(trailer, "Root/AcroForm/NeedAppearances"))


def _fields_drawn_as_shown(doc: pymupdf.Document) -> None:
    """Store, for each form field of a form asking viewers to draw its fields afresh
    (/NeedAppearances), the appearance MuPDF draws on screen: what the reviewer saw.
    Baking takes the stored appearances, which such a form leaves stale or empty. MuPDF
    draws each field afresh from its value (a check box or radio button in the state
    its /AS names) without keeping the drawing; asked to draw it again, it keeps the
    same drawing. PyMuPDF's own drawing differs: it set an Adobe sample's combo box a
    point off, checked a box whose /V said "Yes" and /AS "Off" (PyMuPDF's
    widgettest.pdf), failed on a combo box offering an option with no export value
    (poppler's checkbox_issue_159.pdf), and could not reach a field it cannot read
    (radio buttons inside their parent's /Kids, qpdf's form-errors.pdf)."""
    for page in doc:
        widget = mupdf.pdf_first_widget(mupdf.pdf_page_from_fz_page(page.this))
        while widget.m_internal:
            mupdf.pdf_annot_request_resynthesis(widget)
            # MuPDF shows the stored appearance of a field it cannot draw.
            with contextlib.suppress(RuntimeError, mupdf.FzErrorBase):
                mupdf.pdf_update_annot(widget)
            widget = mupdf.pdf_next_widget(widget)
