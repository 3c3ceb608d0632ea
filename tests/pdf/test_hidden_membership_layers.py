"""Content an OFF layer hides is found, reported and removed whatever names the layer:
a group the default configuration lists under /OFF with no /Usage dictionary, drawn
through a form XObject whose /OC is a membership dictionary (/OCMD) with no name.

pdf.js's issue12007_reduced.pdf (from Illustrator) is such a file: PyMuPDF's get_ocgs()
reported its two OFF groups as on, so detection reported nothing and sanitize kept the
forms and dropped /OCProperties, and the release showed two pictures and their captions
that no reviewer had seen."""

from __future__ import annotations

import pymupdf
import pytest

from review.pdf.detect import HIDDEN_CONTENT, DetectionPolicy, detect
from review.pdf.hidden import HIDDEN_LAYER
from review.pdf.layers import layers_off, layers_on
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

SEEN = "Quarterly figures for the board"
UNSEEN = "Draft note for Jane Roe only"


def layered_pdf(membership: str = "indirect") -> bytes:
    """A page that shows SEEN, and draws UNSEEN through a form whose /OC is an /OCMD
    naming a group the default configuration turns off: an object of its own
    ("indirect") or written into the form ("direct", as in the PDF Association's
    pdf20-utf8-test.pdf)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 40), SEEN)
    font = doc.get_new_xref()
    doc.update_object(font, "<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>")
    group, form = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(group, "<</Type/OCG/Name(Layer Test 2 - Not Vis)>>")
    if membership == "indirect":
        oc = doc.get_new_xref()
        doc.update_object(oc, f"<</Type/OCMD/OCGs {group} 0 R>>")
        oc_value = f"{oc} 0 R"
    else:
        oc_value = f"<</Type/OCMD/OCGs {group} 0 R>>"
    doc.update_object(
        form,
        f"<</Type/XObject/Subtype/Form/BBox[0 0 300 200]/OC {oc_value}"
        f"/Resources<</Font<</F1 {font} 0 R>>>>>>",
    )
    doc.update_stream(form, f"BT /F1 11 Tf 20 120 Td ({UNSEEN}) Tj ET".encode())
    kind, resources = doc.xref_get_key(page.xref, "Resources")
    owner = int(resources.split()[0]) if kind == "xref" else page.xref
    doc.xref_set_key(
        owner, "XObject" if kind == "xref" else "Resources/XObject", f"<</Fm0 {form} 0 R>>"
    )
    contents = doc.get_new_xref()
    doc.update_object(contents, "<<>>")
    doc.update_stream(contents, b"q /Fm0 Do Q")
    doc.xref_set_key(page.xref, "Contents", f"[{page.get_contents()[0]} 0 R {contents} 0 R]")
    doc.xref_set_key(
        doc.pdf_catalog(),
        "OCProperties",
        f"<</OCGs[{group} 0 R]/D<</Order[{group} 0 R]/OFF[{group} 0 R]>>>>",
    )
    return doc.tobytes()


def words(pdf: bytes) -> str:
    return pymupdf.open(stream=pdf, filetype="pdf")[0].get_text()


def test_a_group_the_configuration_turns_off_is_off_though_it_has_no_usage() -> None:
    doc = pymupdf.open(stream=layered_pdf(), filetype="pdf")

    (group,) = doc.get_ocgs()
    assert layers_off(doc) == {group}
    assert UNSEEN not in words(layered_pdf())  # as MuPDF draws it
    layered = layers_on(doc)
    assert layered is not None and UNSEEN in layered[0].get_text()


@pytest.mark.parametrize("membership", ["indirect", "direct"])
def test_text_an_off_layer_hides_through_a_membership_dictionary_is_reported(
    membership: str,
) -> None:
    result = detect(layered_pdf(membership), DetectionPolicy(salt=b"s", ocr=False))

    hidden = [m for m in result.marks if m.category == HIDDEN_CONTENT]
    assert hidden and {m.needs_manual_review for m in hidden} == {HIDDEN_LAYER}
    assert all(0.3 < m.box.y0 < 0.45 for m in hidden)  # the form's line, not the page's


@pytest.mark.parametrize("membership", ["indirect", "direct"])
def test_sanitize_removes_what_the_off_layer_hid_and_keeps_what_was_seen(membership: str) -> None:
    pdf = layered_pdf(membership)
    assert SEEN in words(pdf) and UNSEEN not in words(pdf)  # as MuPDF draws it

    released = sanitize(pdf)

    shown = pymupdf.open(stream=released, filetype="pdf")
    assert "OCProperties" not in shown.xref_object(shown.pdf_catalog())
    assert SEEN in words(released) and UNSEEN not in words(released)
    assert UNSEEN.encode() not in pymupdf.open(stream=released).tobytes(expand=True)
    assert verify(pdf, released, []).ok


def test_what_a_membership_policy_hides_with_every_group_on_stays_out_of_the_release() -> None:
    # iText's LayerMembershipExample: "no cat" is marked with an /OCMD whose policy is
    # /AllOff of two groups that are on; with no group off, sanitize cut nothing, dropped
    # /OCProperties, and the release showed "no cat" over "cat".
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((20, 40), SEEN)  # gives the page its Helvetica as /helv
    group, policy = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(group, "<</Type/OCG/Name(layer 1)>>")
    doc.update_object(policy, f"<</Type/OCMD/OCGs[{group} 0 R]/P/AllOff>>")
    resources = int(doc.xref_get_key(page.xref, "Resources")[1].split()[0])
    doc.xref_set_key(resources, "Properties", f"<</Pr1 {policy} 0 R>>")
    contents = page.get_contents()[0]
    doc.update_stream(
        contents,
        doc.xref_stream(contents)
        + f"\n/OC /Pr1 BDC BT /helv 11 Tf 20 120 Td ({UNSEEN}) Tj ET EMC\n".encode(),
    )
    doc.xref_set_key(
        doc.pdf_catalog(), "OCProperties", f"<</OCGs[{group} 0 R]/D<</Order[{group} 0 R]>>>>"
    )
    pdf = doc.tobytes()
    assert layers_off(pymupdf.open(stream=pdf, filetype="pdf")) == set()
    assert UNSEEN not in words(pdf)  # as MuPDF draws it

    released = sanitize(pdf)

    assert UNSEEN not in words(released)
    assert SEEN in words(released)
