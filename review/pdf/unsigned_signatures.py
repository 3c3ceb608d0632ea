"""Unsigned signature fields drawn as the document stores them (Django-free).

MuPDF draws an unsigned signature field as its own orange "SIGN" arrow and ignores the
appearance the document stores for it (pdf-appearance.c: "they are often blank and we
want the sign arrow to be visible"); other viewers draw the stored appearance, and so did
burn-in, which bakes stored appearances. The reviewer saw "SIGN" on the original page,
the release held the stored words, and the gate refused every such document for text
it added (iText's emptySigWithAppearance.pdf: "SIGNATURE" in a grey box; five more of
iText's signature tests): an unsigned form could never be released.

`drawn_as_stored` bakes those fields into their pages when a document is opened, so that
every reading of it (the page images, detection, burn-in, the gate) sees the stored
appearance as page content, as a viewer shows it. Fields hidden from the screen, and
fields without a stored appearance (MuPDF's arrow is all anyone sees of them), are left
as they are.
"""

from __future__ import annotations

from collections.abc import Iterator

import pymupdf
from pymupdf import mupdf

from review.pdf.on_screen import drawn_on_screen

_MUPDF_ERRORS = (RuntimeError, mupdf.FzErrorBase)


def drawn_as_stored(doc: pymupdf.Document) -> None:
    """Bake the unsigned signature fields of `doc` that store an appearance and are
    drawn on screen into their pages' content; every other annotation stays. A document
    MuPDF cannot read or bake is left as it is, for the open check to judge."""
    if not doc.is_pdf:
        return  # a picture handed in as a PDF: the open check refuses it
    pdf = mupdf.pdf_specifics(doc.this)
    if not mupdf.pdf_dict_getp(mupdf.pdf_trailer(pdf), "Root/AcroForm").m_internal:
        return  # no form, no field
    try:
        pages = list(_pages_listing_them(pdf))
    except _MUPDF_ERRORS:
        return
    if not pages:
        return
    for page, listed, unsigned in pages:
        baked = [a for a, u in zip(listed, unsigned, strict=True) if u]
        mupdf.pdf_dict_put(page, mupdf.PDF_ENUM_NAME_Annots, _array(pdf, baked))
    try:
        # Baking takes each listed field's stored appearance; only these are listed.
        doc.bake(annots=False, widgets=True)
    except _MUPDF_ERRORS:
        for page, listed, _ in pages:  # as it was: MuPDF's arrow, as before
            mupdf.pdf_dict_put(page, mupdf.PDF_ENUM_NAME_Annots, _array(pdf, listed))
        return
    for page, listed, unsigned in pages:
        rest = [a for a, u in zip(listed, unsigned, strict=True) if not u]
        if rest:
            mupdf.pdf_dict_put(page, mupdf.PDF_ENUM_NAME_Annots, _array(pdf, rest))
        else:
            mupdf.pdf_dict_del(page, mupdf.PDF_ENUM_NAME_Annots)


def _pages_listing_them(
    pdf: mupdf.PdfDocument,
) -> Iterator[tuple[mupdf.PdfObj, list[mupdf.PdfObj], list[bool]]]:
    """Each page listing such a field: the page, its annotations, which are such. The
    pages are the fields' own (/P): walking the page tree would have MuPDF repair a
    broken one here, which the open check names (iText's brokenPageTreeNullLast.pdf)."""
    pages: dict[int, mupdf.PdfObj] = {}
    for widget in _form_widgets(pdf):
        page = mupdf.pdf_dict_get(widget, mupdf.PDF_ENUM_NAME_P)
        if mupdf.pdf_is_indirect(page) and mupdf.pdf_is_dict(page):
            if _unsigned_and_stored(pdf, widget):
                pages.setdefault(mupdf.pdf_to_num(page), page)
    for page in pages.values():
        annots = mupdf.pdf_dict_get(page, mupdf.PDF_ENUM_NAME_Annots)
        if mupdf.pdf_is_array(annots):
            listed = [mupdf.pdf_array_get(annots, i) for i in range(mupdf.pdf_array_len(annots))]
            unsigned = [_unsigned_and_stored(pdf, a) for a in listed]
            if any(unsigned):
                yield page, listed, unsigned


def _form_widgets(pdf: mupdf.PdfDocument) -> Iterator[mupdf.PdfObj]:
    """The form's fields without kids (its widgets), each once."""
    fields = mupdf.pdf_dict_getp(mupdf.pdf_trailer(pdf), "Root/AcroForm/Fields")
    stack = [mupdf.pdf_array_get(fields, i) for i in range(mupdf.pdf_array_len(fields))]
    seen: set[int] = set()
    while stack:
        field = stack.pop()
        if mupdf.pdf_is_indirect(field):
            if mupdf.pdf_to_num(field) in seen:
                continue  # a cycle of /Kids
            seen.add(mupdf.pdf_to_num(field))
        kids = mupdf.pdf_dict_get(field, mupdf.PDF_ENUM_NAME_Kids)
        if mupdf.pdf_is_array(kids):
            stack += [mupdf.pdf_array_get(kids, i) for i in range(mupdf.pdf_array_len(kids))]
        elif mupdf.pdf_is_dict(field):
            yield field


def _unsigned_and_stored(pdf: mupdf.PdfDocument, annot: mupdf.PdfObj) -> bool:
    subtype = mupdf.pdf_dict_get(annot, mupdf.PDF_ENUM_NAME_Subtype)
    field_type = mupdf.pdf_dict_get_inheritable(annot, mupdf.PDF_ENUM_NAME_FT)
    return (
        mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Widget)
        and mupdf.pdf_name_eq(field_type, mupdf.PDF_ENUM_NAME_Sig)
        and bool(mupdf.pdf_dict_getp(annot, "AP/N").m_internal)
        and drawn_on_screen(annot)
        and not mupdf.pdf_signature_is_signed(pdf, annot)
    )


def _array(pdf: mupdf.PdfDocument, items: list[mupdf.PdfObj]) -> mupdf.PdfObj:
    array = mupdf.pdf_new_array(pdf, len(items))
    for item in items:
        mupdf.pdf_array_push(array, item)
    return array
