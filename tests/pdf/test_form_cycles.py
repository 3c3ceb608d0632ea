"""A form that draws itself, or a form it is drawn from, is burned in as MuPDF draws it:
once, the inner draw skipped. MuPDF's redaction filter followed such a form down until
it ran out of room ("exception stack overflow"), so no box could be burned on the page,
and its preview and release failed (PdfPig's issue_671.pdf, an e-signature stamp whose
form names itself among its resources)."""

from __future__ import annotations

import pymupdf

from review.pdf.form_cycles import forms_drawn_once
from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark, burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify

FONTS = "/Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >>"


def _form(doc: pymupdf.Document) -> int:
    xref = doc.get_new_xref()
    doc.update_object(xref, "<< /Type /XObject /Subtype /Form /BBox [0 0 300 100] >>")
    return xref


def _draws(doc: pymupdf.Document, form: int, text: str, others: dict[str, int]) -> None:
    named = " ".join(f"/{name} {xref} 0 R" for name, xref in others.items())
    doc.xref_set_key(form, "Resources", f"<< {FONTS} /XObject << {named} >> >>")
    draws = " ".join(f"q 1 0 0 1 0 -20 cm /{name} Do Q" for name in others)
    doc.update_stream(form, f"BT /F1 12 Tf 0 80 Td ({text}) Tj ET {draws}".encode())


def _page(doc: pymupdf.Document, forms: dict[str, int], *, at: list[tuple[str, int]]) -> None:
    page = doc.new_page(width=400, height=400)
    named = " ".join(f"/{name} {xref} 0 R" for name, xref in forms.items())
    doc.xref_set_key(page.xref, "Resources", f"<< /XObject << {named} >> >>")
    contents = doc.get_new_xref()
    doc.update_object(contents, "<< >>")
    drawn = " ".join(f"q 1 0 0 1 40 {y} cm /{name} Do Q" for name, y in at)
    doc.update_stream(contents, drawn.encode())
    doc.xref_set_key(page.xref, "Contents", f"{contents} 0 R")


def _words(pdf: bytes) -> list[str]:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return [word[4] for word in doc[0].get_text("words", sort=True)]


def _mark(pdf: bytes, word: str) -> RedactionMark:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        page = doc[0]
        box = next(pymupdf.Rect(w[:4]) for w in page.get_text("words") if w[4] == word)
        return RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")


def _pixels(pdf: bytes) -> bytes:
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        return doc[0].get_pixmap(dpi=50).samples


def test_a_form_that_draws_itself_is_burned_in_once() -> None:
    doc = pymupdf.open()
    stamp = _form(doc)
    _draws(doc, stamp, "Signed by Jane Roe", {"Self": stamp})
    _page(doc, {"Stamp": stamp}, at=[("Stamp", 200)])
    pdf = doc.tobytes()
    assert _words(pdf) == ["Signed", "by", "Jane", "Roe"]
    mark = _mark(pdf, "Roe")

    output = sanitize(burn_in(pdf, [mark]))

    assert _words(output) == ["Signed", "by", "Jane", "(b)(6)"]
    assert verify(pdf, output, [mark]).ok
    # Nothing that MuPDF draws is lost by leaving the inner draw out.
    assert _pixels(burn_in(pdf, [])) == _pixels(pdf)


def test_forms_that_draw_each_other_still_draw_each_other_outside_the_cycle() -> None:
    # On the page: Alpha draws Beta (whose Alpha is skipped), and Beta draws Alpha
    # (whose Beta is skipped). Each must keep drawing the other where it is drawn alone.
    doc = pymupdf.open()
    alpha, beta = _form(doc), _form(doc)
    _draws(doc, alpha, "Alpha Roe", {"Other": beta})
    _draws(doc, beta, "Beta Doe", {"Other": alpha})
    _page(doc, {"A": alpha, "B": beta}, at=[("A", 300), ("B", 100)])
    pdf = doc.tobytes()
    drawn = ["Alpha", "Roe", "Beta", "Doe", "Beta", "Doe", "Alpha", "Roe"]
    assert _words(pdf) == drawn
    mark = _mark(pdf, "Doe")  # the first, drawn inside Alpha

    output = sanitize(burn_in(pdf, [mark]))

    assert _words(output) == ["Alpha", "Roe", "Beta", "(b)(6)", "Beta", "Doe", "Alpha", "Roe"]
    assert verify(pdf, output, [mark]).ok
    assert _pixels(burn_in(pdf, [])) == _pixels(pdf)


def test_forms_that_name_each_other_but_draw_none_are_left_as_they_are() -> None:
    """Baked annotations of an architect's sheet (225 forms) each named the page's
    resources, which name every form: a cycle by name that nothing draws. Its unrolling
    ran a minute and gave up; only what the content draws counts."""
    doc = pymupdf.open()
    alpha, beta = _form(doc), _form(doc)
    shared = doc.get_new_xref()
    doc.update_object(shared, f"<< {FONTS} /XObject << /A {alpha} 0 R /B {beta} 0 R >> >>")
    for form, text in ((alpha, "Alpha Roe"), (beta, "Beta Doe")):
        doc.xref_set_key(form, "Resources", f"{shared} 0 R")
        doc.update_stream(form, f"BT /F1 12 Tf 0 80 Td ({text}) Tj ET".encode())
    _page(doc, {"A": alpha, "B": beta}, at=[("A", 300), ("B", 100)])
    objects = doc.xref_length()

    forms_drawn_once(doc)

    assert doc.xref_length() == objects  # no form copied
    pdf = doc.tobytes()
    mark = _mark(pdf, "Doe")
    output = sanitize(burn_in(pdf, [mark]))
    assert _words(output) == ["Alpha", "Roe", "Beta", "(b)(6)"]
    assert verify(pdf, output, [mark]).ok
