"""Every page and every form XObject it draws names its resources itself (Django-free).

A form XObject without /Resources, or whose /Resources lack a name its content uses,
draws with what the page (or the form that draws it) names: MuPDF looks a missing name
up in each enclosing resource dictionary in turn, innermost first, and so do other
viewers; PDF 1.1 producers relied on it. MuPDF's content filter, which every redaction
and every cleaning save runs, writes each stream's resources anew from its own
dictionary only: whatever it drew through an enclosing one is lost (qpdf's
form-xobjects-some-resources1.pdf lost an image, ...2.pdf a line of text). So before
any such save (`name_every_resource`), page resources inherited from the page tree are
put on the page, and each form a page draws is given, in its own /Resources, each
resource its content uses from where MuPDF would find it.

A soft mask's form (/SMask /G of a graphics state) is completed as a form drawn where
the state is set. Residual: a form drawn in two places whose enclosing dictionaries
give one name two different resources keeps the first; Type 3 glyph procedures and
tiling pattern cells are not followed.
"""

from __future__ import annotations

import re

import pymupdf
from pymupdf import mupdf

from review.pdf.content_streams import read_content
from review.pdf.content_tokens import NAME, TOKEN_END, WHITE, operations

# An operator whose name operand (the one just before it) names a resource, by category.
_CATEGORY_OF = {
    b"Do": "XObject",
    b"gs": "ExtGState",
    b"sh": "Shading",
    b"cs": "ColorSpace",
    b"CS": "ColorSpace",
    b"scn": "Pattern",
    b"SCN": "Pattern",
    b"BDC": "Properties",
    b"DP": "Properties",
    b"Tf": "Font",
}
_DEVICE_SPACES = frozenset({"DeviceGray", "DeviceRGB", "DeviceCMYK", "Pattern"})
_DEFAULT_SPACES = frozenset({"DefaultGray", "DefaultRGB", "DefaultCMYK"})
_RESOURCES = mupdf.PdfObj(mupdf.PDF_ENUM_NAME_Resources)
# Names found this way inside a string or an inline image's data are harmless: a name
# no enclosing dictionary has is left alone, and one it has costs an unused entry.
_USE = re.compile(NAME + WHITE + rb"*(Do|gs|sh|cs|CS|scn|SCN|BDC|DP)" + TOKEN_END)
_FONT_USE = re.compile(
    NAME + WHITE + rb"+[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)" + WHITE + rb"*(Tf)" + TOKEN_END
)
_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")


def name_every_resource(doc: pymupdf.Document) -> None:
    """Put inherited page resources on the pages, and complete the /Resources of every
    form XObject the pages draw from the dictionaries enclosing it (module docstring)."""
    _resources_on_pages(doc)
    forms = _Forms(doc)
    for page in doc:
        drawn: set[tuple[str, str]] = set()
        for xref in page.get_contents():
            drawn |= forms.uses(xref)
        forms.complete_drawn((page.xref,), drawn)


def default_spaces_named(doc: pymupdf.Document) -> None:
    """Name each default colour space (/DefaultRGB, /DefaultCMYK, /DefaultGray) in the
    content that draws with it, as "q /DefaultRGB cs Q", which draws nothing. Such a
    space changes what "rg", "k" and "g" paint without any operator naming it, so MuPDF's
    content filter, which keeps only the resources a stream names, dropped it: every
    colour on the PDF Association's DefaultColorSpaces pages changed. Run before
    `name_every_resource`, which then gives a form that inherits it its own entry."""
    pdf = mupdf.pdf_specifics(doc.this)
    named: set[int] = set()

    def name_in(xref: int, spaces: list[str]) -> None:
        data = read_content(doc, xref) if spaces and xref not in named else None
        if data is not None:
            named.add(xref)
            doc.update_stream(xref, b"".join(b"q /%s cs Q " % s.encode() for s in spaces) + data)

    for page in doc:
        page_obj = mupdf.pdf_lookup_page_obj(pdf, page.number)
        resources = mupdf.pdf_dict_get_inheritable(page_obj, mupdf.PDF_ENUM_NAME_Resources)
        on_page = _default_spaces(resources)
        contents = page.get_contents()
        if contents:
            # The first stream only: a page's streams run on as one, and a later one may
            # start inside a text object, where "q" may not stand (pdf.js's bug886717).
            name_in(contents[0], on_page)
        for xref, *_ in page.get_xobjects():
            own = mupdf.pdf_dict_get(mupdf.pdf_load_object(pdf, xref), _RESOURCES)
            name_in(xref, _default_spaces(own) or on_page)


def _default_spaces(resources: mupdf.PdfObj) -> list[str]:
    spaces = mupdf.pdf_dict_get(resources, mupdf.PDF_ENUM_NAME_ColorSpace)
    names = [
        mupdf.pdf_to_name(mupdf.pdf_dict_get_key(spaces, index))
        for index in range(mupdf.pdf_dict_len(spaces))  # 0 for none
    ]
    return [name for name in names if name in _DEFAULT_SPACES]


def gs_fonts_named(doc: pymupdf.Document) -> None:
    """Give each font that a graphics state dictionary sets (/Font [font size] in an
    ExtGState) a name in the /Resources of the stream that sets it, and set it with "Tf"
    right after the "gs". MuPDF's content filter writes such a font as "/ExtGState size
    Tf", a name no resource has: MuPDF then draws the text in a fallback font, and other
    viewers draw nothing (veraPDF's 6-1-12-t02 files: an "A" set in Arial Bold changed
    shape in every release). Run after `name_every_resource`, so each form's
    /Resources hold the ExtGState it names."""
    owners: dict[int, int] = {}  # content stream -> object whose /Resources it uses
    for page in doc:
        for xref in page.get_contents():
            owners.setdefault(xref, page.xref)
        for form in page.get_xobjects():
            owners.setdefault(form[0], form[0])
    pdf = mupdf.pdf_specifics(doc.this)
    for xref, owner in owners.items():
        fonts = _fonts_of_states(pdf, owner)
        data = read_content(doc, xref) if fonts else None
        if not data:
            continue  # most streams: no graphics state of theirs sets a font
        out: list[bytes] = []
        cursor = 0
        for op in operations(data):
            if op.operator == b"gs" and len(op.operands) == 1:
                name = _ESCAPE.sub(lambda m: bytes([int(m[1], 16)]), op.operands[0])
                if font := fonts.get(name.decode("latin-1")):
                    ref, size = font
                    tf = f" /{_font_named(doc, owner, ref)} {size} Tf".encode()
                    out.append(data[cursor : op.end] + tf)
                    cursor = op.end
        if out:
            doc.update_stream(xref, b"".join(out) + data[cursor:])


def _fonts_of_states(pdf: mupdf.PdfDocument, owner: int) -> dict[str, tuple[str, str]]:
    """By "/name": the font reference and size of each ExtGState in the /Resources of
    `owner` that sets a font."""
    states = mupdf.pdf_dict_getp(mupdf.pdf_load_object(pdf, owner), "Resources/ExtGState")
    found = {}
    for index in range(mupdf.pdf_dict_len(states)):  # 0 for none
        font = mupdf.pdf_dict_get(mupdf.pdf_dict_get_val(states, index), mupdf.PDF_ENUM_NAME_Font)
        if mupdf.pdf_is_array(font) and mupdf.pdf_array_len(font) == 2:
            ref, size = mupdf.pdf_array_get(font, 0), mupdf.pdf_array_get(font, 1)
            if mupdf.pdf_is_indirect(ref) and mupdf.pdf_is_number(size):
                name = mupdf.pdf_to_name(mupdf.pdf_dict_get_key(states, index))
                reference = f"{mupdf.pdf_to_num(ref)} {mupdf.pdf_to_gen(ref)} R"
                found["/" + name] = (reference, f"{mupdf.pdf_to_real(size):g}")
    return found


def _font_named(doc: pymupdf.Document, owner: int, ref: str) -> str:
    """A name for the font `ref` in the /Font resources of `owner`, added if new."""
    number = 0
    while True:
        name = f"GSFont{number}"
        kind, value = doc.xref_get_key(owner, f"Resources/Font/{name}")
        if kind == "null":
            put_at(doc, owner, ("Resources", "Font", name), ref)
            return name
        if value == ref:
            return name
        number += 1


class _Forms:
    """Completes the forms of one document, each stream read once."""

    def __init__(self, doc: pymupdf.Document) -> None:
        self.doc = doc
        self._uses: dict[int, set[tuple[str, str]]] = {}
        # Forms whose every use their own /Resources name, and those under them: later
        # places that draw one find nothing to add (the first place wins).
        self._complete: set[int] = set()
        # (page, form): a form is completed once per page at most, however many forms
        # of the page draw it.
        self._visited: set[tuple[int, int]] = set()

    def complete_drawn(self, chain: tuple[int, ...], drawn: set[tuple[str, str]]) -> bool:
        """Complete each form that the stream owned by `chain[-1]` draws (its `drawn`
        resource uses), then the forms each of those draws. `chain`: the objects whose
        /Resources enclose the stream, outermost (the page) first. Whether every form
        drawn here is complete now."""
        doc, all_complete = self.doc, True
        for category, name in sorted(drawn):
            if category == "XObject":
                form = form_xref(doc, resolve_in(doc, chain, category, name))
            elif category == "ExtGState":
                form = _soft_mask_group(doc, chain, name)
            else:
                continue
            if form is None or form in self._complete or form in chain:
                continue  # not a form, done, or drawing itself
            if (chain[0], form) in self._visited:
                all_complete = False
                continue
            self._visited.add((chain[0], form))
            own = self.uses(form)
            named = True
            for use_category, use_name in own:
                keys = ("Resources", use_category, use_name)
                if doc.xref_get_key(form, "/".join(keys))[0] != "null":
                    continue
                value = resolve_in(doc, chain, use_category, use_name)
                if value is None:
                    named = False  # drawn with nothing here; another place may have it
                else:
                    put_at(doc, form, keys, value)
            if self.complete_drawn((*chain, form), own) and named:
                self._complete.add(form)
            else:
                all_complete = False
        return all_complete

    def uses(self, xref: int) -> set[tuple[str, str]]:
        """The resources (category, name) the content stream `xref` names."""
        if xref not in self._uses:
            data = read_content(self.doc, xref) or b""
            found = set()
            for match in (*_USE.finditer(data), *_FONT_USE.finditer(data)):
                name = _ESCAPE.sub(lambda m: bytes([int(m[1], 16)]), match[1]).decode("latin-1")
                category = _CATEGORY_OF[match[2]]
                # A slash in a name would read as a key path; the device spaces are no
                # resources.
                if "/" not in name and not (category == "ColorSpace" and name in _DEVICE_SPACES):
                    found.add((category, name))
            self._uses[xref] = found
        return self._uses[xref]


def resolve_in(
    doc: pymupdf.Document, chain: tuple[int, ...], category: str, name: str
) -> str | None:
    """The resource `name` of `category` as MuPDF finds it for a stream enclosed by
    `chain`: from the innermost /Resources that has it (PDF source text), or None."""
    for owner in reversed(chain):
        kind, value = doc.xref_get_key(owner, f"Resources/{category}/{name}")
        if kind != "null":
            return value
    return None


def put_at(doc: pymupdf.Document, xref: int, keys: tuple[str, ...], value: str) -> None:
    """Set the entry at the path `keys` of object `xref` (missing dictionaries made),
    writing into the object where a dictionary on the path is one (PyMuPDF sets no path
    that runs through an indirect object)."""
    for depth in range(1, len(keys)):
        kind, found = doc.xref_get_key(xref, "/".join(keys[:depth]))
        if kind == "xref":
            put_at(doc, int(found.split()[0]), keys[depth:], value)
            return
        if kind != "dict":
            break  # missing: made along the path below
    doc.xref_set_key(xref, "/".join(keys), value)


def opacities_clamped(page: pymupdf.Page) -> None:
    """Write each opacity (/CA, /ca) outside 0 to 1 of the graphics states the page and
    the forms it draws name as MuPDF draws it, clamped: its redaction drops text shown at
    an opacity of 0, not at -0.1, which it draws as 0 too (the W3C opacity clamping test
    among iText's html2pdf files kept its invisible lines, and the gate refused it)."""
    pdf = mupdf.pdf_specifics(page.parent.this)
    for owner in [page.xref, *(xref for xref, *_ in page.get_xobjects())]:
        states = mupdf.pdf_dict_getp(mupdf.pdf_load_object(pdf, owner), "Resources/ExtGState")
        for index in range(mupdf.pdf_dict_len(states)):  # 0 for anything not a dictionary
            state = mupdf.pdf_dict_get_val(states, index)
            for key in (mupdf.PDF_ENUM_NAME_CA, mupdf.PDF_ENUM_NAME_ca):
                value = mupdf.pdf_dict_get(state, key)
                opacity = mupdf.pdf_to_real(value)
                if mupdf.pdf_is_number(value) and not 0 <= opacity <= 1:
                    mupdf.pdf_dict_put_real(state, key, min(1.0, max(0.0, opacity)))


def _soft_mask_group(doc: pymupdf.Document, chain: tuple[int, ...], name: str) -> int | None:
    """The form the soft mask of graphics state `name` draws (its /SMask /G), which
    draws with the resources enclosing the stream that sets the state: a drop shadow's
    mask drew an image only the page named, and lost it (PyMuPDF's test_4466.pdf)."""
    for owner in reversed(chain):
        if doc.xref_get_key(owner, f"Resources/ExtGState/{name}")[0] != "null":
            kind, group = doc.xref_get_key(owner, f"Resources/ExtGState/{name}/SMask/G")
            return form_xref(doc, group) if kind == "xref" else None
    return None


def form_xref(doc: pymupdf.Document, value: str | None) -> int | None:
    """The xref of the form XObject `value` refers to, or None."""
    if value is None or not value.endswith(" 0 R"):
        return None
    try:
        xref = int(value.split()[0])
        subtype = doc.xref_get_key(xref, "Subtype")
    except (ValueError, RuntimeError):
        return None  # a broken reference: MuPDF draws nothing of it either
    return xref if subtype == ("name", "/Form") else None


def _resources_on_pages(doc: pymupdf.Document) -> None:
    """Every page names its resources itself, and the page tree's nodes hold none. A page
    without /Resources uses its node's; once burn-in's redactions give a page resources
    of its own, whatever the node holds is drawn by no page but stays in the file (seen:
    a LibreOffice form whose field values baking had put there)."""
    nodes: set[int] = set()
    for page in doc:
        inherited = None
        own = doc.xref_get_key(page.xref, "Resources")[0] != "null"
        kind, parent = doc.xref_get_key(page.xref, "Parent")
        while kind == "xref":
            node = int(parent.split()[0])
            nodes.add(node)
            if not own and inherited is None:
                found, value = doc.xref_get_key(node, "Resources")
                inherited = value if found != "null" else None
            kind, parent = doc.xref_get_key(node, "Parent")
        if inherited is not None:
            doc.xref_set_key(page.xref, "Resources", inherited)
    pdf = pymupdf.mupdf.pdf_specifics(doc.this)
    for node in nodes:
        pymupdf.mupdf.pdf_dict_dels(pymupdf.mupdf.pdf_load_object(pdf, node), "Resources")
