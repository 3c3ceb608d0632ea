"""A form XObject that draws with resources only an enclosing dictionary names keeps
them through burn-in and sanitize (`review/pdf/resources.py`).

MuPDF, like other viewers, looks a name a form's /Resources lack up in the dictionaries
enclosing it, so the reviewer saw the image or the text; its content filter, which every
redaction and every cleaning save runs, rebuilt each form's resources from its own
dictionary alone and dropped them (qpdf's form-xobjects-some-resources1.pdf lost an
image silently, ...2.pdf a line of text, which the gate refused)."""

from __future__ import annotations

import pymupdf

from review.pdf.geometry import Box
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

BLACK, GREY = 0, 128
INDIRECT = "indirect"
# Where the nested form draws its image, in pixels at 72 dpi (PDF 0..100 from the
# bottom of a 300 pt page).
IMAGE_PIXEL = (50, 250)


def _form(doc: pymupdf.Document, content: bytes, resources: str = "") -> int:
    xref = doc.get_new_xref()
    doc.update_object(xref, f"<</Type/XObject/Subtype/Form/BBox[0 0 300 300]{resources}>>")
    doc.update_stream(xref, content)
    return xref


def _grey_images(doc: pymupdf.Document, *levels: int) -> list[int]:
    """Image XObjects of one grey level each, made on a scratch page (deleted later)."""
    scratch = doc.new_page()
    for level in levels:
        pixmap = pymupdf.Pixmap(pymupdf.csGRAY, 4, 4, bytes([level]) * 16, 0)
        scratch.insert_image(pymupdf.Rect(0, 0, 10, 10), pixmap=pixmap)
    return [image[0] for image in scratch.get_images()]


def nested_forms(outer_image: int | None, inner_resources: str, outer_own: bool = True) -> bytes:
    """A page whose resources name a black image /Im and a form /A; A (which names the
    form /B, and a grey /Im when `outer_image` is GREY; without `outer_own`, A has no
    /Resources and the page names B) draws B; B draws /Im and a line of text in /F1,
    neither of which its own `inner_resources` name."""
    doc = pymupdf.open()
    black, grey = _grey_images(doc, BLACK, GREY)
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    if inner_resources == INDIRECT:  # /Resources, and its /XObject, objects of their own
        xobjects = doc.get_new_xref()
        doc.update_object(xobjects, "<<>>")
        resources = doc.get_new_xref()
        doc.update_object(resources, f"<</XObject {xobjects} 0 R>>")
        inner_resources = f"/Resources {resources} 0 R"
    inner = _form(
        doc,
        b"q 100 0 0 100 0 0 cm /Im Do Q BT /F1 12 Tf 120 40 Td (Inner form line) Tj ET",
        inner_resources,
    )
    grey_entry = f"/Im {grey} 0 R" if outer_image == GREY else ""
    outer = _form(
        doc, b"/B Do", f"/Resources<</XObject<</B {inner} 0 R{grey_entry}>>>>" if outer_own else ""
    )
    page = doc.new_page(width=300, height=300)
    doc.xref_set_key(
        page.xref,
        "Resources",
        f"<</Font<</F1 {font} 0 R>>/XObject<</A {outer} 0 R/B {inner} 0 R/Im {black} 0 R>>>>",
    )
    contents = doc.get_new_xref()
    doc.update_object(contents, "<<>>")
    doc.update_stream(contents, b"BT /F1 12 Tf 20 270 Td (Page heading) Tj ET /A Do")
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    doc.delete_page(0)
    return doc.tobytes()


def released(pdf: bytes) -> bytes:
    """Burned in with one mark over the page heading, then sanitized."""
    heading = next(
        w for w in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words") if w[4] == "Page"
    )
    marks = [RedactionMark(page=0, box=Box(*heading[:4]), legal_reason="(b)(6)")]
    out = sanitize(burn_in(pdf, marks))
    assert verify(pdf, out, marks).ok
    return out


def _grey_at_image(pdf: bytes) -> int:
    return pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(dpi=72).pixel(*IMAGE_PIXEL)[0]


def _words(pdf: bytes) -> list[str]:
    return [w[4] for w in pymupdf.open(stream=pdf, filetype="pdf")[0].get_text("words")]


def test_an_image_a_form_draws_through_the_page_resources_is_still_drawn():
    for inner_resources in ("", "/Resources<<>>", "/Resources<</XObject<<>>>>", INDIRECT):
        pdf = nested_forms(outer_image=None, inner_resources=inner_resources)
        assert _grey_at_image(pdf) == BLACK  # the page's /Im, as the reviewer saw it
        assert _grey_at_image(released(pdf)) == BLACK, inner_resources


def test_text_a_form_sets_in_a_font_only_the_page_names_is_still_there():
    pdf = nested_forms(None, inner_resources="/Resources<</XObject<<>>>>", outer_own=False)
    assert ["Inner", "form", "line"] == [w for w in _words(released(pdf)) if w != "Page"][-3:]


def test_the_innermost_dictionary_naming_a_resource_gives_it():
    # B lacks /Im; A, which draws B, names a grey one; the page a black one.
    pdf = nested_forms(outer_image=GREY, inner_resources="")
    assert _grey_at_image(pdf) == GREY
    assert _grey_at_image(released(pdf)) == GREY


def test_a_form_draws_through_resources_the_page_inherits_from_the_page_tree():
    doc = pymupdf.open(stream=nested_forms(outer_image=None, inner_resources=""))
    page = doc[0].xref
    pages = int(doc.xref_get_key(doc.pdf_catalog(), "Pages")[1].split()[0])
    doc.xref_set_key(pages, "Resources", doc.xref_get_key(page, "Resources")[1])
    doc.xref_set_key(page, "Resources", "null")
    pdf = doc.tobytes()
    assert _grey_at_image(pdf) == BLACK
    assert _grey_at_image(released(pdf)) == BLACK


def shadow_through_a_soft_mask() -> bytes:
    """A page heading, and a black square painted through a graphics state whose soft
    mask's form (no /Resources of its own) draws a white image only the page names."""
    doc = pymupdf.open()
    (white,) = _grey_images(doc, 255)
    mask = _form(doc, b"q 100 0 0 100 0 0 cm /Im Do Q", "/Group<</S/Transparency/CS/DeviceGray>>")
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    page = doc.new_page(width=300, height=300)
    doc.xref_set_key(
        page.xref,
        "Resources",
        f"<</Font<</F1 {font} 0 R>>/XObject<</Im {white} 0 R>>"
        f"/ExtGState<</Shadow<</SMask<</S/Luminosity/G {mask} 0 R>>>>>>>>",
    )
    contents = doc.get_new_xref()
    doc.update_object(contents, "<<>>")
    doc.update_stream(
        contents, b"BT /F1 12 Tf 20 270 Td (Page heading) Tj ET q /Shadow gs 0 g 0 0 100 100 re f Q"
    )
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")
    doc.delete_page(0)
    return doc.tobytes()


def test_an_image_a_soft_mask_draws_through_the_page_resources_is_still_drawn():
    pdf = shadow_through_a_soft_mask()
    assert _grey_at_image(pdf) == BLACK  # the mask lets the square through
    assert _grey_at_image(released(pdf)) == BLACK
