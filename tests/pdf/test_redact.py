"""Leak suite: every hiding place of a canary is empty after burn-in and sanitizing."""

from __future__ import annotations

import shutil

import pymupdf
import pytest

from review.pdf.geometry import Box, display_rect, normalize, page_rect
from review.pdf.hidden import HIDDEN_ANNOTATION, find_hidden
from review.pdf.redact import RedactionMark, burn_in, render_page_png
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit import leak_corpus
from testkit.leak_corpus import LeakCase

HAS_TESSERACT = shutil.which("tesseract") is not None
TEXT_FLAGS = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_MEDIABOX_CLIP


def _release(case: LeakCase) -> bytes:
    return sanitize(burn_in(case.pdf, case.marks))


def _forms(canary: str) -> list[bytes]:
    raw = canary.encode()
    return [raw, raw.hex().encode(), raw.hex().upper().encode(), canary.encode("utf-16-be")]


def assert_canary_absent(output: bytes, canary: str) -> None:
    forms = _forms(canary)
    assert not any(form in output for form in forms), "raw bytes"
    doc = pymupdf.open(stream=output, filetype="pdf")
    for page in doc:
        assert canary not in page.get_text(flags=TEXT_FLAGS), f"page {page.number} text"
        for annot in page.annots():
            assert canary not in str(annot.info), "annotation contents"
        for widget in page.widgets():
            assert canary not in str(widget.field_value), "widget value"
    for xref in range(1, doc.xref_length()):
        obj = doc.xref_object(xref, compressed=True).encode("latin-1", "replace")
        assert not any(form in obj for form in forms), f"object {xref}"
        if doc.xref_is_stream(xref):
            stream = doc.xref_stream(xref) or b""
            assert not any(form in stream for form in forms), f"stream {xref}"
    assert canary not in str(doc.metadata), "document info"
    assert canary not in doc.get_xml_metadata(), "XMP"
    assert doc.embfile_names() == [], "embedded files"
    assert canary not in str(doc.get_toc()), "outline"


@pytest.mark.parametrize("case_name", sorted(leak_corpus.CASES))
def test_canary_is_gone_after_burn_in_and_sanitize(case_name: str) -> None:
    case = leak_corpus.CASES[case_name]()

    output = _release(case)

    assert_canary_absent(output, case.canary)


@pytest.mark.parametrize("case_name", sorted(leak_corpus.CASES))
def test_released_file_passes_the_verifier(case_name: str) -> None:
    case = leak_corpus.CASES[case_name]()

    report = verify(case.pdf, _release(case), case.marks)

    assert report.ok, report.failures


def _ocr(page: pymupdf.Page, box: Box) -> str:
    """OCR exactly what a reader sees inside `box` (rendered, rotation applied)."""
    pixmap = page.get_pixmap(dpi=300, clip=display_rect(page, box))
    scan = pymupdf.open(stream=pixmap.pdfocr_tobytes(language="eng"), filetype="pdf")
    return scan[0].get_text().upper()


@pytest.mark.skipif(not HAS_TESSERACT, reason="tesseract not installed")
@pytest.mark.parametrize(
    ("case_name", "control"),
    [
        ("page_text", True),
        ("text_in_image", True),
        ("white_on_white", False),
        ("rotated_90", False),
    ],
)
def test_ocr_of_burned_box_finds_no_canary(case_name: str, control: bool) -> None:
    case = leak_corpus.CASES[case_name]()
    before = pymupdf.open(stream=case.pdf, filetype="pdf")
    after = pymupdf.open(stream=_release(case), filetype="pdf")
    mark = case.marks[0]

    if control:  # OCR can read the canary in the original, so its silence below means something
        assert "CANARY" in _ocr(before[mark.page], mark.box)
    assert "CANARY" not in _ocr(after[mark.page], mark.box)


def test_image_pixels_under_the_box_are_uniformly_black() -> None:
    case = leak_corpus.text_in_image()
    doc = pymupdf.open(stream=_release(case), filetype="pdf")
    mark = case.pixel_marks[0]
    page = doc[mark.page]
    rect = page_rect(page, mark.box)
    # Inset past the anti-aliased edge and the centred white legal-reason stamp.
    band = pymupdf.Rect(rect.x0 + 2, rect.y0 + 2, rect.x0 + 60, rect.y1 - 2)

    pixmap = page.get_pixmap(dpi=72, clip=band, colorspace=pymupdf.csGRAY)

    assert set(pixmap.samples) == {0}


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_the_black_box_lies_on_the_mark_of_a_turned_scan_cropped_off_the_origin(
    rotation: int,
) -> None:
    """PyMuPDF drew the redaction's fill beside the box on a page with /Rotate and a
    crop box away from the origin (most scanners write both): the box's place showed
    white, and the black landed on whatever lay 100 points away."""
    doc = pymupdf.open()
    page = doc.new_page(width=600, height=800)
    scan = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 80), 0)
    scan.set_rect(scan.irect, (230, 220, 200))
    page.insert_image(page.rect, pixmap=scan)
    page.set_cropbox(pymupdf.Rect(100, 50, 500, 700))
    page.set_rotation(rotation)
    pdf = doc.tobytes()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    box = pymupdf.Rect(150, 200, 350, 240)  # unrotated page space
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")

    output = burn_in(pdf, [mark])

    released = pymupdf.open(stream=output, filetype="pdf")[0]
    shown = box * released.rotation_matrix
    pixmap = released.get_pixmap(dpi=72, colorspace=pymupdf.csGRAY)
    inside = [
        pixmap.pixel(x, y)[0]
        for x in range(int(shown.x0) + 2, int(shown.x1) - 2)
        for y in range(int(shown.y0) + 2, int(shown.y1) - 2)
    ]
    assert sum(1 for v in inside if v == 0) > 0.9 * len(inside)  # the stamp is white
    assert verify(pdf, sanitize(output), [mark]).ok


def test_burn_in_is_deterministic() -> None:
    case = leak_corpus.page_text()

    assert burn_in(case.pdf, case.marks) == burn_in(case.pdf, case.marks)


def test_burned_box_is_stamped_with_the_legal_reason() -> None:
    case = leak_corpus.page_text()
    doc = pymupdf.open(stream=burn_in(case.pdf, case.marks), filetype="pdf")
    page = doc[0]

    stamped = page.get_text(clip=page_rect(page, case.marks[0].box)).split()

    assert stamped == [leak_corpus.REASON]


def test_marks_on_one_box_share_one_stamp_naming_each_reason_once() -> None:
    case = leak_corpus.page_text()
    box = Box(0.1, 0.1, 0.7, 0.15)
    reasons = ["(b)(6)", "(b)(6)", "(b)(7)(C)"]  # one name, found by three detectors
    marks = [RedactionMark(page=0, box=box, legal_reason=reason) for reason in reasons]
    doc = pymupdf.open(stream=burn_in(case.pdf, marks), filetype="pdf")
    page = doc[0]

    assert page.get_text(clip=page_rect(page, box)).split() == ["(b)(6)", "(b)(7)(C)"]


def test_the_stamp_lies_on_its_box_where_the_crop_box_reaches_past_the_media_box() -> None:
    """PdfPig's MOZILLA-7375-0.pdf: /MediaBox [18 18 612 792] and /CropBox [0 0 630 810].
    A shape's text is placed from the crop box's corner, and every stamp came out 18
    points up and left of its box, on the page beside it."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((100, 200), "Requester Jane Roe of Springfield", fontsize=12)
    doc.xref_set_key(page.xref, "MediaBox", "[18 18 612 792]")
    doc.xref_set_key(page.xref, "CropBox", "[0 0 630 810]")
    pdf = doc.tobytes()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    name = page.search_for("Jane Roe")[0]
    mark = RedactionMark(page=0, box=normalize(page, name), legal_reason="(b)(6)")

    output = sanitize(burn_in(pdf, [mark]))

    (stamp,) = [
        w
        for w in pymupdf.open(stream=output, filetype="pdf")[0].get_text("words")
        if w[4] == "(b)(6)"
    ]
    assert name.contains((pymupdf.Rect(stamp[:4]).tl + pymupdf.Rect(stamp[:4]).br) / 2)
    assert verify(pdf, output, [mark]).ok


def test_box_too_small_for_the_stamp_is_filled_without_text() -> None:
    case = leak_corpus.page_text()
    tiny = RedactionMark(page=0, box=Box(0.5, 0.5, 0.505, 0.503), legal_reason="(b)(6)")
    doc = pymupdf.open(stream=burn_in(case.pdf, [tiny]), filetype="pdf")
    rect = page_rect(doc[0], tiny.box)

    assert doc[0].get_text(clip=rect).strip() == ""
    assert doc[0].get_pixmap(dpi=288, clip=rect, colorspace=pymupdf.csGRAY).samples[:1] == b"\x00"


def test_burn_in_keeps_unmarked_text_and_does_not_sanitize() -> None:
    case = leak_corpus.document_info()
    doc = pymupdf.open(stream=burn_in(case.pdf, []), filetype="pdf")

    assert "disclosure officer" in doc[0].get_text()
    assert doc.metadata["title"] == case.canary  # sanitize's job, not burn-in's


def _words_after(pdf: bytes, rect: pymupdf.Rect) -> list[str]:
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    mark = RedactionMark(page=0, box=normalize(page, rect), legal_reason="(b)(6)")
    burned = pymupdf.open(stream=burn_in(pdf, [mark]), filetype="pdf")[0]
    return [w[4] for w in burned.get_text("words") if w[4] != "(b)(6)"]


@pytest.mark.parametrize("rotate", [0, 90])
def test_a_box_over_a_word_on_tightly_set_lines_leaves_the_lines_above_and_below(
    rotate: int,
) -> None:
    """12 pt lines 13.8 pt apart (a word processor's single spacing): a word's box,
    which holds the line's leading, reaches into the lines above and below it. MuPDF
    would take every glyph it touches there; the burn-in takes the word alone."""
    doc = pymupdf.open()
    page = doc.new_page()
    lines = ("Minutes taken by the clerk", "Requester Thornton appealed", "Reviewed by the officer")
    for n, text in enumerate(lines):
        at = (72 + 13.8 * n, 300) if rotate else (72, 300 + 13.8 * n)
        page.insert_text(at, text, fontsize=12, rotate=rotate)
    words = page.get_text("words")
    box = next(pymupdf.Rect(w[:4]) for w in words if w[4] == "Thornton")
    assert len([w for w in words if pymupdf.Rect(w[:4]).intersects(box)]) > 3  # reaches out
    pdf = doc.tobytes()

    left = _words_after(pdf, box)

    assert left == [w[4] for w in words if w[4] != "Thornton"]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")
    assert verify(pdf, sanitize(burn_in(pdf, [mark])), [mark]).ok


def test_a_box_holding_the_middle_of_a_line_takes_it_and_one_grazing_its_top_does_not() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((54, 100), "Minutes of the meeting held at the town hall", fontsize=14)
    words = page.get_text("words")
    line = pymupdf.Rect(words[0][:4]) | pymupdf.Rect(words[-1][:4])
    pdf = doc.tobytes()

    past_middle = _words_after(pdf, pymupdf.Rect(line.tl, (line.x1, line.y0 + 0.6 * line.height)))
    grazing = _words_after(pdf, pymupdf.Rect(line.tl, (line.x1, line.y0 + 0.2 * line.height)))

    assert past_middle == []
    assert grazing == [w[4] for w in words]


def test_a_box_over_a_heading_between_two_tall_lines_still_takes_the_heading() -> None:
    """A section number set between two lines whose boxes reach over it (a large space
    glyph at each line's start makes them 55 pt tall; seen on PyMuPDF's test_2979.pdf).
    Narrowed off both, the box kept no height and took nothing: the number stayed under
    the black box."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 322), "6.4.4.2 Heading", fontsize=11)
    helvetica = pymupdf.Font("helv")
    for baseline in (312, 350):
        writer = pymupdf.TextWriter(page.rect)
        writer.append((72, baseline), " ", font=helvetica, fontsize=40)
        writer.append((250, baseline), "goal. If similar", font=helvetica, fontsize=11)
        writer.write_text(page)
    pdf = doc.tobytes()
    page = pymupdf.open(stream=pdf, filetype="pdf")[0]
    (number,) = [w for w in page.get_text("words") if w[4] == "6.4.4.2"]
    box = pymupdf.Rect(number[:4])
    lines = [line for block in page.get_text("dict")["blocks"] for line in block.get("lines", ())]
    assert sum(pymupdf.Rect(line["bbox"]).intersects(box) for line in lines) == 3  # it + 2 tall

    assert _words_after(pdf, box) == ["Heading", "goal.", "If", "similar", "goal.", "If", "similar"]
    mark = RedactionMark(page=0, box=normalize(page, box), legal_reason="(b)(6)")
    assert verify(pdf, sanitize(burn_in(pdf, [mark])), [mark]).ok


@pytest.mark.parametrize("asks", [True, False], ids=["fresh appearances", "stored appearances"])
def test_a_form_is_burned_as_the_reviewer_saw_it(asks: bool) -> None:
    """A form saying /NeedAppearances true is drawn from its values; one saying false,
    as stored (pdf.js's opt_demo.pdf: PyMuPDF reads false as true)."""
    doc = pymupdf.open()
    page = doc.new_page()
    field = pymupdf.Widget()
    field.field_type, field.field_name = pymupdf.PDF_WIDGET_TYPE_TEXT, "requester"
    field.rect, field.field_value = pymupdf.Rect(72, 72, 300, 96), "Alice Example"
    page.add_widget(field)
    # The value changed after its appearance was drawn: the stored appearance still
    # says "Alice Example", which viewers draw unless the form asks for fresh ones.
    doc.xref_set_key(next(page.widgets()).xref, "V", pymupdf.get_pdf_str("Bob Sample"))
    doc.need_appearances(asks)
    pdf = doc.tobytes()

    burned = pymupdf.open(stream=burn_in(pdf, []), filetype="pdf")

    shown = pymupdf.open(stream=pdf, filetype="pdf")[0].get_text().split()
    assert shown == (["Bob", "Sample"] if asks else ["Alice", "Example"])
    assert burned[0].get_text().split() == shown


def consent_form() -> tuple[pymupdf.Document, int]:
    """A page with a checked check box and "Consent given" beside it; the box's xref."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((100, 84), "Consent given", fontsize=11)
    box = pymupdf.Widget()
    box.field_type, box.field_name = pymupdf.PDF_WIDGET_TYPE_CHECKBOX, "consent"
    box.rect, box.field_value = pymupdf.Rect(72, 72, 90, 90), True
    page.add_widget(box)
    return doc, next(page.widgets()).xref


def test_a_check_box_under_fresh_appearances_shows_the_state_the_reviewer_saw() -> None:
    """A check box shows the appearance its /AS names: MuPDF drew PyMuPDF's
    widgettest.pdf box (/V /Yes, /AS /Off) unchecked, and drawing it again from its
    value checked it in the release."""
    doc, box = consent_form()
    doc.xref_set_key(box, "AS", "/Off")
    doc.need_appearances(True)
    pdf = doc.tobytes()
    assert pymupdf.open(stream=pdf, filetype="pdf")[0].get_text().split() == ["Consent", "given"]

    output = sanitize(burn_in(pdf, []))

    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().split() == ["Consent", "given"]
    assert verify(pdf, output, []).ok


def test_a_check_box_under_fresh_appearances_is_drawn_as_the_reviewer_saw_it() -> None:
    """Viewers draw the fields of such a form afresh: MuPDF shows its own check, not
    the stored one (an Adobe sample stored a heavier check of its own font; here a
    filled square). The release shows the check the reviewer saw."""
    doc, box = consent_form()
    stored_check = doc.xref_get_key(box, "AP/N/Yes")[1].split()[0]
    doc.update_stream(int(stored_check), b"0 g 0 0 18 18 re f")
    doc.need_appearances(True)
    pdf = doc.tobytes()
    shown = pymupdf.open(stream=pdf, filetype="pdf")[0].get_pixmap(dpi=72)

    output = sanitize(burn_in(pdf, []))

    released = pymupdf.open(stream=output, filetype="pdf")[0].get_pixmap(dpi=72)
    assert shown.samples == released.samples
    assert verify(pdf, output, []).ok


def test_mark_on_a_missing_page_is_rejected() -> None:
    case = leak_corpus.page_text()
    mark = RedactionMark(page=3, box=Box(0.1, 0.1, 0.2, 0.2), legal_reason="(b)(6)")

    with pytest.raises(ValueError, match="page 3"):
        burn_in(case.pdf, [mark])


def test_render_page_png_applies_rotation() -> None:
    case = leak_corpus.rotated_90()

    png = render_page_png(case.pdf, 0, dpi=36)

    pixmap = pymupdf.Pixmap(png)
    assert png.startswith(b"\x89PNG")
    assert pixmap.width > pixmap.height  # a portrait page turned 90 degrees


def test_pages_written_inside_the_page_tree_are_burned_and_released() -> None:
    """Page dictionaries written inside their parent's /Kids, with no object of their
    own (qpdf's direct-pages.pdf): sanitize edits pages by object number and crashed."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((50, 100), "Claimant Jane Roe", fontsize=11)
    pages = int(doc.xref_get_key(doc.pdf_catalog(), "Pages")[1].split()[0])
    doc.xref_set_key(pages, "Kids", "[" + doc.xref_object(page.xref, compressed=True) + "]")
    pdf = doc.tobytes()
    written = pymupdf.open(stream=pdf, filetype="pdf")
    assert written.page_xref(0) == 0
    mark = RedactionMark(
        page=0,
        box=normalize(written[0], written[0].search_for("Jane Roe")[0]),
        legal_reason="(b)(6)",
    )

    output = sanitize(burn_in(pdf, [mark]))

    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().split() == [
        "Claimant",
        "(b)(6)",
    ]
    assert verify(pdf, output, [mark]).ok


def test_a_form_field_no_viewer_shows_is_hidden_content_and_left_out_of_the_release() -> None:
    """A field flagged NoView (or Hidden) is not drawn on screen, so the reviewer never
    saw its value: it is shown as hidden content, and the release leaves it out. Baking
    drew it into the page, and the release showed it (pdf.js's
    annotation_hidden_noview.pdf)."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    for name, value, rect in (
        ("claimant", "Jane Roe", pymupdf.Rect(50, 50, 250, 70)),
        ("internal", "Flagged for audit", pymupdf.Rect(50, 100, 250, 120)),
    ):
        widget = pymupdf.Widget()
        widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        widget.field_name = name
        widget.field_value = value
        widget.rect = rect
        page.add_widget(widget)
    doc.xref_set_key(page.annot_xrefs()[-1][0], "F", str(pymupdf.PDF_ANNOT_IS_NO_VIEW))
    pdf = doc.tobytes()
    assert pymupdf.open(stream=pdf, filetype="pdf")[0].get_text().split() == ["Jane", "Roe"]
    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [
        (HIDDEN_ANNOTATION, "Flagged for audit")
    ]

    output = sanitize(burn_in(pdf, []))

    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().split() == ["Jane", "Roe"]
    assert b"Flagged" not in output
    assert verify(pdf, output, []).ok


def test_a_widget_mupdf_does_not_draw_is_left_out_of_the_release() -> None:
    """MuPDF draws a widget only with a field type and a name, its own or its parents'.
    A signature's widget with no link to its field (pyHanko's
    separate-annots-kids-indir.pdf) was not on the preview, but baking drew its
    appearance, "Digitally signed by", into the release. It is hidden content."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((50, 40), "Signed copy", fontsize=12)
    widget = pymupdf.Widget()
    widget.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    widget.field_name = "signer"
    widget.field_value = "Digitally signed by Jane Roe"
    widget.rect = pymupdf.Rect(50, 100, 280, 120)
    page.add_widget(widget)
    xref = page.annot_xrefs()[0][0]
    pdf = doc.tobytes()
    shown = pymupdf.open(stream=pdf, filetype="pdf")
    assert shown[0].get_text().split() == [
        "Signed",
        "copy",
        *"Digitally signed by Jane Roe".split(),
    ]
    for key in ("FT", "T"):
        # Its field is elsewhere, unlinked: MuPDF no longer draws it.
        shown.xref_set_key(xref, key, "null")
    pdf = shown.tobytes()
    assert pymupdf.open(stream=pdf, filetype="pdf")[0].get_text().split() == ["Signed", "copy"]
    assert [f.kind for f in find_hidden(pdf)] == [HIDDEN_ANNOTATION]

    output = sanitize(burn_in(pdf, []))

    assert pymupdf.open(stream=output, filetype="pdf")[0].get_text().split() == ["Signed", "copy"]
    assert verify(pdf, output, []).ok
