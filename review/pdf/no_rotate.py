"""Annotations kept upright on a turned page, placed where MuPDF shows them (Django-free).

An annotation or field flagged NoRotate (/F bit 5) on a page with a /Rotate is shown
turned back about its rectangle's top left corner, so that it stays upright on screen;
the preview shows it so. MuPDF's text extraction and its baking ignore the flag:
detection and the release gate read its words, and burn-in drew it, turned with the
page, away from where the reviewer saw it (pdfium's bug_1883.pdf: two arrows; a
comment's text a box drawn on the preview then missed).
`kept_upright`, run by every reader of the pages (`prepare.py`), gives each such
annotation the placement MuPDF shows: each normal appearance is drawn through a new form
of its own that places it turned, the rectangle is the turned one, and the flag is
cleared. An appearance another annotation shares is left as it is. Sticky notes (/Text)
are left alone: MuPDF keeps their icons upright everywhere, baking too, flagged or not.
"""

from __future__ import annotations

import re
from collections import Counter

import pymupdf
from pymupdf import mupdf

_STATE = re.compile(r"/([^\s/<>\[\]()]+)\s+(\d+) 0 R")


def kept_upright(doc: pymupdf.Document) -> None:
    """Place each NoRotate annotation of a turned page of `doc` as MuPDF shows it."""
    pdf = mupdf.pdf_specifics(doc.this)
    turned: list[tuple[int, mupdf.PdfObj, list[int], int]] = []
    listed: Counter[int] = Counter()  # pages listing each flagged annotation
    for number in range(doc.page_count):
        try:
            page = mupdf.pdf_lookup_page_obj(pdf, number)
        except (RuntimeError, mupdf.FzErrorBase):
            continue  # a page MuPDF cannot find: detection names it
        flagged = _flagged(mupdf.pdf_dict_get(page, mupdf.PDF_ENUM_NAME_Annots))
        listed.update(flagged)
        # MuPDF turns the annotation by the number as written, 450 as 90.
        rotation = mupdf.pdf_to_int(
            mupdf.pdf_dict_get_inheritable(page, mupdf.PDF_ENUM_NAME_Rotate)
        )
        if flagged and rotation % 360:
            turned.append((number, page, flagged, rotation))
    for number, page, flagged, rotation in turned:
        # One annotation listed on pages turned differently is shown differently on each.
        own = [_own_copy(pdf, page, xref) if listed[xref] > 1 else xref for xref in flagged]
        _turned(doc, doc[number], own, rotation)


def _own_copy(pdf: mupdf.PdfDocument, page: mupdf.PdfObj, xref: int) -> int:
    """A copy of annotation `xref` listed on `page` instead of it; its object number."""
    annots = mupdf.pdf_dict_get(page, mupdf.PDF_ENUM_NAME_Annots)
    if mupdf.pdf_is_indirect(annots):
        annots = mupdf.pdf_copy_array(annots)
        mupdf.pdf_dict_put(page, mupdf.PDF_ENUM_NAME_Annots, annots)
    copy = mupdf.pdf_add_object(pdf, mupdf.pdf_deep_copy_obj(mupdf.pdf_load_object(pdf, xref)))
    for index in range(mupdf.pdf_array_len(annots)):
        if mupdf.pdf_to_num(mupdf.pdf_array_get(annots, index)) == xref:
            mupdf.pdf_array_put(annots, index, copy)
    return mupdf.pdf_to_num(copy)


def _flagged(annots: mupdf.PdfObj) -> list[int]:
    """The object numbers of the annotations in `annots` flagged NoRotate."""
    found = []
    for index in range(mupdf.pdf_array_len(annots)):  # 0 for anything not an array
        annot = mupdf.pdf_array_get(annots, index)
        flags = mupdf.pdf_to_int(mupdf.pdf_dict_get(annot, mupdf.PDF_ENUM_NAME_F))
        subtype = mupdf.pdf_dict_get(annot, mupdf.PDF_ENUM_NAME_Subtype)
        # MuPDF keeps a sticky note's icon upright everywhere, flagged or not.
        note = mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Text)
        if flags & pymupdf.PDF_ANNOT_IS_NO_ROTATE and not note and mupdf.pdf_is_indirect(annot):
            found.append(mupdf.pdf_to_num(annot))
    return found


def _turned(doc: pymupdf.Document, page: pymupdf.Page, xrefs: list[int], rotation: int) -> None:
    ctm = page.transformation_matrix * page.rotation_matrix  # PDF space to the screen
    for xref in xrefs:
        keys = _appearance_keys(doc, xref)
        try:
            rect = pymupdf.Rect(_numbers(doc, xref, "Rect")).normalize()
            fits = [_fit(doc, xref, key, rect) for key in keys]
        except ValueError:
            continue  # a rectangle or box not written as numbers: left as it is
        if not keys:
            continue  # MuPDF draws one afresh, from the rectangle: left as it is
        corner = pymupdf.Point(rect.x0, rect.y1) * ctm
        # As MuPDF runs it: turned back on the screen about the top left corner.
        turn = (
            ctm
            * pymupdf.Matrix(1, 0, 0, 1, -corner.x, -corner.y)
            * pymupdf.Matrix(-rotation)
            * pymupdf.Matrix(1, 0, 0, 1, corner.x, corner.y)
            * ~ctm
        )
        for key, fit in zip(keys, fits, strict=True):
            _drawn_turned(doc, xref, key, fit * turn, rect * turn)
        doc.xref_set_key(xref, "Rect", _array(rect * turn))
        flags = int(float(doc.xref_get_key(xref, "F")[1]))
        doc.xref_set_key(xref, "F", str(flags & ~pymupdf.PDF_ANNOT_IS_NO_ROTATE))


def _appearance_keys(doc: pymupdf.Document, xref: int) -> list[str]:
    """The paths of annotation `xref`'s normal appearance streams (one per state)."""
    kind, value = doc.xref_get_key(xref, "AP/N")
    if kind == "xref" and doc.xref_is_stream(int(value.split()[0])):
        return ["AP/N"]
    if kind == "xref":
        value = doc.xref_object(int(value.split()[0]))
    elif kind != "dict":
        return []
    return [
        f"AP/N/{name}" for name, number in _STATE.findall(value) if doc.xref_is_stream(int(number))
    ]


def _fit(doc: pymupdf.Document, xref: int, key: str, rect: pymupdf.Rect) -> pymupdf.Matrix:
    """The matrix MuPDF fits appearance `key` of annotation `xref` into `rect` with
    (after the appearance's own /Matrix)."""
    stream = int(doc.xref_get_key(xref, key)[1].split()[0])
    kind, _ = doc.xref_get_key(stream, "Matrix")
    matrix = (
        pymupdf.Matrix(_numbers(doc, stream, "Matrix")) if kind == "array" else pymupdf.Identity
    )
    drawn = (pymupdf.Rect(_numbers(doc, stream, "BBox")) * matrix).normalize()
    scale_x = rect.width / drawn.width if drawn.width else 1
    scale_y = rect.height / drawn.height if drawn.height else 1
    return pymupdf.Matrix(
        scale_x, 0, 0, scale_y, rect.x0 - drawn.x0 * scale_x, rect.y0 - drawn.y0 * scale_y
    )


def _drawn_turned(
    doc: pymupdf.Document, xref: int, key: str, placed: pymupdf.Matrix, box: pymupdf.Rect
) -> None:
    """Appearance `key` of annotation `xref` replaced by a form of box `box` that draws
    it `placed`."""
    stream = int(doc.xref_get_key(xref, key)[1].split()[0])
    form = doc.get_new_xref()
    doc.update_object(
        form,
        f"<</Type/XObject/Subtype/Form/BBox {_array(box)}"
        f"/Resources <</XObject <</Shown {stream} 0 R>>>>>>",
    )
    doc.update_stream(form, f"q {_array(placed)[1:-1]} cm /Shown Do Q".encode())
    doc.xref_set_key(xref, key, f"{form} 0 R")


def _numbers(doc: pymupdf.Document, xref: int, key: str) -> list[float]:
    return [float(n) for n in doc.xref_get_key(xref, key)[1].strip("[]").split()]


def _array(values: pymupdf.Rect | pymupdf.Matrix) -> str:
    return "[" + " ".join(f"{v:g}" for v in values) + "]"
