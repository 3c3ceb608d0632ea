"""Fixture builders for the redaction leak suite: one PDF per hiding place.

Every case plants a unique canary ("CANARY-7f3a-<case>") in one place a PDF can hold
text, and says where a reviewer would have drawn the mark: over the canary where it is
shown on the page, or nowhere when the place is not on the page at all (metadata, an
attachment, an old revision, ...), in which case sanitizing alone must remove it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from review.pdf.geometry import normalize
from review.pdf.redact import RedactionMark

PREFIX = "CANARY-7f3a-"
REASON = "(b)(6)"
FILLER = (
    "The agency received the request on the date shown above and searched the records",
    "of the program office. Responsive pages are released with the exemptions noted.",
    "Questions about this release may be sent to the disclosure officer in writing.",
)


@dataclass(frozen=True)
class LeakCase:
    name: str
    canary: str
    pdf: bytes
    marks: list[RedactionMark] = field(default_factory=list)
    # Where the canary is drawn as pixels only (no text layer): checked by OCR or pixels.
    pixel_marks: list[RedactionMark] = field(default_factory=list)


def canary_for(name: str) -> str:
    return f"{PREFIX}{name.replace('_', '')}"


def _new_page(doc: pymupdf.Document, rotation: int = 0) -> pymupdf.Page:
    page = doc.new_page(width=612, height=792)
    for line, text in enumerate(FILLER):
        page.insert_text((72, 90 + 16 * line), text, fontsize=10)
    page.insert_text((72, 700), "Page footer with release number 2024-0042", fontsize=9)
    if rotation:
        page.set_rotation(rotation)
    return page


def _mark(page: pymupdf.Page, rect: pymupdf.Rect, margin: float = 2.0) -> RedactionMark:
    grown = pymupdf.Rect(rect.x0 - margin, rect.y0 - margin, rect.x1 + margin, rect.y1 + margin)
    return RedactionMark(page=page.number, box=normalize(page, grown), legal_reason=REASON)


def _word_rect(page: pymupdf.Page, canary: str) -> pymupdf.Rect:
    """Where the canary is on the page, in unrotated space (as a detector would see it)."""
    flags = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_MEDIABOX_CLIP
    rects = [pymupdf.Rect(w[:4]) for w in page.get_text("words", flags=flags) if canary in w[4]]
    assert rects, "builder did not place the canary as a word"
    union = rects[0]
    for rect in rects[1:]:
        union |= rect
    return union


def _finish(name: str, doc: pymupdf.Document, rects: list[pymupdf.Rect] | None = None) -> LeakCase:
    page = doc[0]
    marks = [_mark(page, rect) for rect in rects or []]
    return LeakCase(name, canary_for(name), doc.tobytes(garbage=1), marks)


def _text_case(name: str, rotation: int = 0, **text_options: object) -> LeakCase:
    doc = pymupdf.open()
    page = _new_page(doc, rotation)
    canary = canary_for(name)
    page.insert_text(
        (72, 200), f"Requester name {canary} and file number", fontsize=11, **text_options
    )
    return _finish(name, doc, [_word_rect(page, canary)])


def page_text() -> LeakCase:
    return _text_case("page_text")


def white_on_white() -> LeakCase:
    return _text_case("white_on_white", color=(1, 1, 1))


def invisible_text() -> LeakCase:
    return _text_case("invisible_text", render_mode=3)


def rotated_90() -> LeakCase:
    return _text_case("rotated_90", rotation=90)


def rotated_270() -> LeakCase:
    return _text_case("rotated_270", rotation=270)


def invisible_duplicate() -> LeakCase:
    """Visible canary under the mark, plus an invisible copy elsewhere (an OCR layer)."""
    doc = pymupdf.open()
    page = _new_page(doc)
    canary = canary_for("invisible_duplicate")
    page.insert_text((72, 200), f"Requester {canary}", fontsize=11)
    rect = _word_rect(page, canary)
    page.insert_text((72, 500), f"ocr layer {canary}", fontsize=11, render_mode=3)
    return _finish("invisible_duplicate", doc, [rect])


def text_under_image() -> LeakCase:
    doc = pymupdf.open()
    page = _new_page(doc)
    canary = canary_for("text_under_image")
    page.insert_text((72, 200), f"Account {canary}", fontsize=11)
    rect = _word_rect(page, canary)
    gray = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 20), 0)
    gray.clear_with(200)
    page.insert_image(pymupdf.Rect(60, 180, 360, 215), pixmap=gray)
    return _finish("text_under_image", doc, [rect])


def text_in_image() -> LeakCase:
    """The canary exists only as pixels of an embedded image."""
    name = "text_in_image"
    canary = canary_for(name)
    scratch = pymupdf.open()
    sheet = scratch.new_page(width=400, height=60)
    sheet.insert_text((10, 40), canary, fontsize=24)
    pixmap = sheet.get_pixmap(dpi=150)
    doc = pymupdf.open()
    page = _new_page(doc)
    target = pymupdf.Rect(72, 250, 472, 310)
    page.insert_image(target, pixmap=pixmap)
    mark = _mark(page, target, margin=0.0)
    return LeakCase(name, canary, doc.tobytes(garbage=1), [mark], [mark])


def split_runs() -> LeakCase:
    """One word written by two text-showing operations placed edge to edge."""
    doc = pymupdf.open()
    page = _new_page(doc)
    canary = canary_for("split_runs")
    head, tail = canary[:9], canary[9:]
    width = pymupdf.get_text_length(head, fontname="helv", fontsize=11)
    page.insert_text((72, 200), head, fontsize=11)
    page.insert_text((72 + width, 200), tail, fontsize=11)
    return _finish("split_runs", doc, [_word_rect(page, canary)])


def freetext_annotation() -> LeakCase:
    doc = pymupdf.open()
    page = _new_page(doc)
    canary = canary_for("freetext_annotation")
    rect = pymupdf.Rect(72, 300, 372, 330)
    page.add_freetext_annot(rect, canary, fontsize=11)
    return _finish("freetext_annotation", doc, [rect])


def text_annotation_popup() -> LeakCase:
    """A sticky note: the canary lives in /Contents and its popup, not on the page."""
    doc = pymupdf.open()
    page = _new_page(doc)
    name = "text_annotation_popup"
    annot = page.add_text_annot((400, 400), canary_for(name))
    annot.set_popup(pymupdf.Rect(420, 400, 600, 480))
    annot.set_open(True)
    annot.update()
    return _finish(name, doc)


def _with_form_field(name: str) -> tuple[pymupdf.Document, pymupdf.Rect]:
    doc = pymupdf.open()
    page = _new_page(doc)
    widget = pymupdf.Widget()
    widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.field_name = "requester"
    widget.field_value = canary_for(name)
    widget.rect = pymupdf.Rect(72, 400, 372, 420)
    page.add_widget(widget)
    return doc, widget.rect


def form_field() -> LeakCase:
    doc, rect = _with_form_field("form_field")
    return _finish("form_field", doc, [rect])


def inherited_form_field() -> LeakCase:
    """A form field on a page whose resources sit on the page tree's node, as LibreOffice
    writes them: baking the field puts its value into that shared dictionary."""
    doc, rect = _with_form_field("inherited_form_field")
    page = doc[0]
    kind, resources = doc.xref_get_key(page.xref, "Resources")
    if kind == "dict":
        shared = doc.get_new_xref()
        doc.update_object(shared, resources)
        resources = f"{shared} 0 R"
    node = int(doc.xref_get_key(page.xref, "Parent")[1].split()[0])
    doc.xref_set_key(node, "Resources", resources)
    doc.xref_set_key(page.xref, "Resources", "null")
    return _finish("inherited_form_field", doc, [rect])


def bookmark_title() -> LeakCase:
    doc = pymupdf.open()
    _new_page(doc)
    doc.set_toc([[1, canary_for("bookmark_title"), 1]])
    return _finish("bookmark_title", doc)


def document_info() -> LeakCase:
    doc = pymupdf.open()
    _new_page(doc)
    canary = canary_for("document_info")
    doc.set_metadata({"title": canary, "author": canary, "subject": canary, "keywords": canary})
    return _finish("document_info", doc)


def xmp_metadata() -> LeakCase:
    doc = pymupdf.open()
    _new_page(doc)
    canary = canary_for("xmp_metadata")
    doc.set_xml_metadata(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF '
        'xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f"<dc:creator>{canary}</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>"
    )
    return _finish("xmp_metadata", doc)


def embedded_file() -> LeakCase:
    doc = pymupdf.open()
    _new_page(doc)
    canary = canary_for("embedded_file")
    doc.embfile_add("notes.txt", canary.encode(), filename="notes.txt", desc=canary)
    return _finish("embedded_file", doc)


def associated_file() -> LeakCase:
    """A PDF/A-3 associated file (/AF on the catalog and the page): embedded, but in no
    /Names tree, so a viewer's attachment list may not show it."""
    doc = pymupdf.open()
    page = _new_page(doc)
    canary = canary_for("associated_file")
    data, spec = doc.get_new_xref(), doc.get_new_xref()
    doc.update_object(data, "<</Type/EmbeddedFile/Subtype/text#2Fplain>>")
    doc.update_stream(data, canary.encode(), compress=False)
    doc.update_object(
        spec, f"<</Type/Filespec/AFRelationship/Source/F({canary}.txt)/EF<</F {data} 0 R>>>>"
    )
    doc.xref_set_key(doc.pdf_catalog(), "AF", f"[{spec} 0 R]")
    doc.xref_set_key(page.xref, "AF", f"[{spec} 0 R]")
    return _finish("associated_file", doc)


def document_javascript() -> LeakCase:
    doc = pymupdf.open()
    _new_page(doc)
    canary = canary_for("document_javascript")
    action = doc.get_new_xref()
    doc.update_object(action, f"<</Type/Action/S/JavaScript/JS(app.alert('{canary}');)>>")
    catalog = doc.pdf_catalog()
    doc.xref_set_key(catalog, "Names", f"<</JavaScript<</Names[(init) {action} 0 R]>>>>")
    doc.xref_set_key(catalog, "OpenAction", f"{action} 0 R")
    return _finish("document_javascript", doc)


def optional_content_off() -> LeakCase:
    """Text in a layer that is OFF: not shown, so no reviewer could have marked it."""
    doc = pymupdf.open()
    page = _new_page(doc)
    layer = doc.add_ocg("draft notes", on=False)
    page.insert_text((72, 450), canary_for("optional_content_off"), fontsize=11, oc=layer)
    return _finish("optional_content_off", doc)


def earlier_revision() -> LeakCase:
    """Revision 1 shows the canary; revision 2 (saveIncr) replaces the page content."""
    name = "earlier_revision"
    canary = canary_for(name)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "revisions.pdf"
        doc = pymupdf.open()
        page = _new_page(doc)
        page.insert_text((72, 200), canary, fontsize=11)
        doc.save(path, expand=255)  # uncompressed: the canary sits in revision 1 as hex text
        doc.close()
        doc = pymupdf.open(path)
        page = doc[0]
        page.add_redact_annot(_word_rect(page, canary))
        page.apply_redactions()
        doc.saveIncr()
        doc.close()
        pdf = path.read_bytes()
    # insert_text writes hex strings: the canary sits in revision 1 as hex.
    assert canary.encode().hex().encode() in pdf.lower() and pdf.count(b"%%EOF") == 2
    return LeakCase(name, canary, pdf)


CASES: dict[str, Callable[[], LeakCase]] = {
    builder.__name__: builder
    for builder in (
        page_text,
        text_under_image,
        white_on_white,
        invisible_text,
        invisible_duplicate,
        text_in_image,
        freetext_annotation,
        text_annotation_popup,
        form_field,
        inherited_form_field,
        bookmark_title,
        document_info,
        xmp_metadata,
        embedded_file,
        associated_file,
        document_javascript,
        optional_content_off,
        earlier_revision,
        rotated_90,
        rotated_270,
        split_runs,
    )
}


def text_document(
    pages: int, *, marks_per_page: int = 3, seed: int = 7, inside_lines: bool = False
) -> tuple[bytes, list[RedactionMark]]:
    """A plain multi-page text document with a few marks per page (benchmarks, verifier).
    The marked values stand apart at the right of their lines, or, `inside_lines`, in
    the middle of them (the burned box then meets the words around it)."""
    doc = pymupdf.open()
    marks: list[RedactionMark] = []
    for number in range(pages):
        page = doc.new_page(width=612, height=792)
        values = {
            5 + 12 * k: f"SSN-{seed}{number:03d}{k}-{5 + 12 * k:02d}" for k in range(marks_per_page)
        }
        for line in range(40):
            value = values.get(line)
            if inside_lines:
                middle = f" {value} " if value else " "
                text = f"{FILLER[(line + number) % 3][:30]}{middle}ref {seed}-{number}-{line}"
                page.insert_text((50, 60 + 17 * line), text, fontsize=9)
                continue
            # Short enough to end well left of the marked values at x=420.
            text = f"{FILLER[(line + number) % 3][:50]} ref {seed}-{number}-{line}"
            page.insert_text((50, 60 + 17 * line), text, fontsize=9)
            if value:
                page.insert_text((420, 60 + 17 * line), value, fontsize=9)
        for value in values.values():
            marks.append(_mark(page, _word_rect(page, value), margin=1.0))
    return doc.tobytes(garbage=1, deflate=True), marks
