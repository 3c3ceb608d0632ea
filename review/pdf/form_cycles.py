"""A form that draws itself is drawn once (Django-free).

MuPDF draws nothing for a form XObject that is already being drawn further up (a
cycle), so such a document renders. Its content filter, which every redaction runs,
follows the form down instead, until it runs out of room ("exception stack overflow"):
a box on that page could never be burned in, and the preview and the release failed.
PdfPig's issue_671.pdf is such a document, a Russian e-signature stamp whose form names
itself among its resources.

So, before the filter runs (`redact.ready_for_the_filter`, once annotations are drawn
into the pages and every form names its own resources), each form reached inside a
cycle is drawn as MuPDF draws it: where a form would draw one of the forms it is drawn
from, it gets a copy of its own that draws an empty form there instead, and the forms
above it get copies that draw that copy. A form drawn outside the cycle as well keeps
drawing everything there. (An empty form, not a missing name: MuPDF would look a
missing name up in the resources of the forms above, and find the cycle again.)

Only the forms a form's content draws count ("/Fm1 Do"), as for MuPDF: baking 225
annotations of an architect's sheet gave each appearance form the page's resources,
which name all 225 forms, and following every name made a cycle of forms that draw
none, whose unrolling ran for a minute before it gave up.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pymupdf
from pymupdf import mupdf

from review.pdf.content_streams import read_content

# Forms visited while unrolling the cycles of one document: past this (or past Python's
# recursion limit), the document is left as it is, and a redaction on the page fails
# with MuPDF's error.
_VISITS = 20_000


class _Tangled(Exception):
    pass


Put = Callable[[mupdf.PdfObj], None]
# A name drawn by "Do", its "#xx" escapes undone by `_name`.
_DO = re.compile(rb"/((?:[^\s/\[\]()<>{}%#]|#[0-9A-Fa-f]{2})+)\s*Do(?![^\s/\[\]()<>{}%])")


def forms_drawn_once(doc: pymupdf.Document) -> None:
    pdf = mupdf.pdf_specifics(doc.this)
    roots = list(_roots(pdf))
    inside = _DrawnForms(doc)
    if not _has_cycle([(form, resources) for _, form, resources in roots], inside):
        return
    unroll = _Unroll(pdf, inside)
    try:
        versions = [(put, unroll.version(form, resources, ())) for put, form, resources in roots]
    except (_Tangled, RecursionError):
        return
    for put, version in versions:
        if version is not None:
            put(version)


def _roots(pdf: mupdf.PdfDocument) -> Iterator[tuple[Put, mupdf.PdfObj, mupdf.PdfObj]]:
    """(put, form, resources it is drawn with) for each form a page draws: `put` makes
    that page draw another form by that name instead."""
    for number in range(mupdf.pdf_count_pages(pdf)):
        try:
            page = mupdf.pdf_lookup_page_obj(pdf, number)
        except (RuntimeError, mupdf.FzErrorBase):
            continue  # a page MuPDF cannot find: detection names it
        resources = mupdf.pdf_dict_get_inheritable(page, mupdf.PDF_ENUM_NAME_Resources)
        for name, form in _forms(resources):
            yield _page_entry(page, resources, name), form, resources


def _page_entry(page: mupdf.PdfObj, resources: mupdf.PdfObj, name: mupdf.PdfObj) -> Put:
    """Draw another form by `name` on this page alone: the page gets resources of its
    own (they may be inherited, or shared with forms, which must keep what they draw)."""

    def put(version: mupdf.PdfObj) -> None:
        own = mupdf.pdf_dict_get(page, mupdf.PDF_ENUM_NAME_Resources)
        if mupdf.pdf_is_indirect(own) or not mupdf.pdf_is_dict(own):
            own = mupdf.pdf_copy_dict(resources)
            mupdf.pdf_dict_put(page, mupdf.PDF_ENUM_NAME_Resources, own)
        _own_xobjects(own)
        mupdf.pdf_dict_put(mupdf.pdf_dict_get(own, mupdf.PDF_ENUM_NAME_XObject), name, version)

    return put


def _forms(resources: mupdf.PdfObj) -> list[tuple[mupdf.PdfObj, mupdf.PdfObj]]:
    """(name, form) of each form XObject `resources` names."""
    xobjects = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_XObject)
    found = []
    for index in range(mupdf.pdf_dict_len(xobjects)):
        xobject = mupdf.pdf_dict_get_val(xobjects, index)
        subtype = mupdf.pdf_dict_get(xobject, mupdf.PDF_ENUM_NAME_Subtype)
        if mupdf.pdf_is_stream(xobject) and mupdf.pdf_name_eq(subtype, mupdf.PDF_ENUM_NAME_Form):
            found.append((mupdf.pdf_dict_get_key(xobjects, index), xobject))
    return found


class _DrawnForms:
    """(name, form) of each form XObject that a form's content draws, of those its
    resources name (all of them where the content cannot be read)."""

    def __init__(self, doc: pymupdf.Document) -> None:
        self.doc = doc
        self._names: dict[int, set[str] | None] = {}

    def __call__(
        self, form: mupdf.PdfObj, resources: mupdf.PdfObj
    ) -> list[tuple[mupdf.PdfObj, mupdf.PdfObj]]:
        number = mupdf.pdf_to_num(form)
        if number not in self._names:
            data = read_content(self.doc, number) if number else None
            self._names[number] = (
                None if data is None else {_name(m[1]) for m in _DO.finditer(data)}
            )
        names = self._names[number]
        named = _forms(resources)
        return named if names is None else [f for f in named if mupdf.pdf_to_name(f[0]) in names]


def _name(spelled: bytes) -> str:
    return re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m[1], 16)]), spelled).decode(
        "latin-1"
    )


def _drawn_with(form: mupdf.PdfObj, caller: mupdf.PdfObj) -> mupdf.PdfObj:
    own = mupdf.pdf_dict_get(form, mupdf.PDF_ENUM_NAME_Resources)
    return own if mupdf.pdf_is_dict(own) else caller


def _key(form: mupdf.PdfObj, resources: mupdf.PdfObj) -> tuple[int, int]:
    return mupdf.pdf_to_num(form), mupdf.pdf_to_num(resources)


def _has_cycle(roots: list[tuple[mupdf.PdfObj, mupdf.PdfObj]], inside: _DrawnForms) -> bool:
    """Whether drawing any of `roots` (form, resources it is drawn with) ever draws a
    form inside itself: one depth-first walk without recursion, each (form, resources)
    pair entered once."""
    done: set[tuple[int, int]] = set()
    for form, caller in roots:
        on_path: set[int] = set()
        stack: list[tuple[mupdf.PdfObj, mupdf.PdfObj, Iterator[tuple], bool]] = [
            (form, _drawn_with(form, caller), iter(()), False)
        ]
        while stack:
            current, resources, children, entered = stack.pop()
            if not entered:
                if _key(current, resources) in done:
                    continue
                on_path.add(mupdf.pdf_to_num(current))
                children = iter(inside(current, resources))
            child = next(children, None)
            if child is None:
                on_path.discard(mupdf.pdf_to_num(current))
                done.add(_key(current, resources))
                continue
            stack.append((current, resources, children, True))
            inner = child[1]
            if mupdf.pdf_to_num(inner) in on_path:
                return True
            stack.append((inner, _drawn_with(inner, resources), iter(()), False))
    return False


class _Unroll:
    """The version of each form, drawn with given resources under given forms, that
    draws what MuPDF draws there (None: the form itself does)."""

    def __init__(self, pdf: mupdf.PdfDocument, inside: _DrawnForms) -> None:
        self.pdf = pdf
        self.inside = inside
        self.visits = 0
        self.known: dict[tuple[int, int, tuple[int, ...]], mupdf.PdfObj | None] = {}
        self.empty = mupdf.pdf_add_stream(
            pdf, mupdf.fz_new_buffer(0), mupdf.pdf_new_dict(pdf, 3), 0
        )
        for key, value in (("Type", "XObject"), ("Subtype", "Form")):
            mupdf.pdf_dict_puts(self.empty, key, mupdf.pdf_new_name(value))
        mupdf.pdf_dict_puts(self.empty, "BBox", mupdf.pdf_new_rect(pdf, mupdf.FzRect(0, 0, 0, 0)))

    def version(
        self, form: mupdf.PdfObj, caller: mupdf.PdfObj, above: tuple[int, ...]
    ) -> mupdf.PdfObj | None:
        resources = _drawn_with(form, caller)
        number = mupdf.pdf_to_num(form)
        key = (number, mupdf.pdf_to_num(resources), above)
        if key in self.known:
            return self.known[key]
        self.visits += 1
        if self.visits > _VISITS:
            raise _Tangled
        drawing = (*above, number)
        changes: dict[str, mupdf.PdfObj] = {}
        for name, inner in self.inside(form, resources):
            if mupdf.pdf_to_num(inner) in drawing:
                changes[mupdf.pdf_to_name(name)] = self.empty  # as MuPDF draws it
                continue
            inner_version = self.version(inner, resources, drawing)
            if inner_version is not None:
                changes[mupdf.pdf_to_name(name)] = inner_version
        result = self._copy(form, resources, changes) if changes else None
        self.known[key] = result
        return result

    def _copy(
        self, form: mupdf.PdfObj, resources: mupdf.PdfObj, changes: dict[str, mupdf.PdfObj]
    ) -> mupdf.PdfObj:
        """A new form with `form`'s dictionary and stream as stored, whose resources are
        `resources` with the named forms replaced."""
        own = mupdf.pdf_copy_dict(resources)
        _own_xobjects(own)
        xobjects = mupdf.pdf_dict_get(own, mupdf.PDF_ENUM_NAME_XObject)
        for name, version in changes.items():
            mupdf.pdf_dict_puts(xobjects, name, version)
        raw = mupdf.pdf_load_raw_stream(form)
        copy = mupdf.pdf_add_stream(self.pdf, raw, mupdf.pdf_copy_dict(form), 1)
        mupdf.pdf_dict_put(copy, mupdf.PDF_ENUM_NAME_Resources, own)
        return copy


def _own_xobjects(resources: mupdf.PdfObj) -> None:
    """Give `resources` an XObject dictionary of its own, a copy: changing it changes
    nothing that anything else draws with (copying a dictionary shares its values)."""
    xobjects = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_XObject)
    mupdf.pdf_dict_put(resources, mupdf.PDF_ENUM_NAME_XObject, mupdf.pdf_copy_dict(xobjects))
