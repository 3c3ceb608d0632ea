"""Hidden-content leak suite: text no reviewer sees on the page is found, shown, removed
and gated.

Each case (testkit.hidden_corpus) hides one canary on page 1 of a two-page document, on
an upright page and on a page rotated 90 degrees. Detection must show it to the
reviewer, the release (`sanitize(burn_in(pdf, marks))`) must hold no trace of it while
keeping every visible word, and the gate must pass the release and refuse an output
that still carries it. Clean documents, real-world PDFs, owner-password PDFs and a word
that is a prefix of another word are the false-alarm side.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pymupdf
import pytest

from review.pdf import hidden
from review.pdf.detect import DetectionPolicy, detect
from review.pdf.hidden import find_hidden
from review.pdf.opencheck import PdfRejected, open_check
from review.pdf.paintlog import PLAIN_PROOF_LIMIT, PaintLog
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit import hidden_corpus
from testkit.damage import with_a_dangling_xref_entry
from testkit.drawing import append_content
from testkit.hidden_corpus import HiddenCase
from testkit.leak_corpus import text_document
from tests.pdf.test_redact import assert_canary_absent

CASE_NAMES = hidden_corpus.case_names()
# Without the media-box clip flag AND with an unbounded clip: by default PyMuPDF clips
# extraction to the crop box, so text in the strip outside it would not be seen.
UNCLIPPED = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_MEDIABOX_CLIP
# Kinds whose canary MuPDF's default extraction already leaves out.
NOT_EXTRACTED_BY_DEFAULT = {"outside_crop_box", "clipped", "hidden_layer", "hidden_annotation"}
REAL_WORLD_PDFS = (
    Path("/usr/share/doc/libtasn1-doc/libtasn1.pdf"),
    Path("/usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf"),
)
RENDER_DPI = 100  # the reviewer's preview resolution (redact.render_page_png)
# 0.5 pt text still darkens a few pixels at preview resolution: a speck, not text.
TINY_SPECK_SAMPLES = 200


def _open(pdf: bytes) -> pymupdf.Document:
    return pymupdf.open(stream=pdf, filetype="pdf")


def _words(page: pymupdf.Page) -> list[str]:
    """Every word on the page, wherever it lies, rendered or not."""
    return [w[4] for w in page.get_text("words", flags=UNCLIPPED, clip=pymupdf.INFINITE_RECT())]


def _release(pdf: bytes) -> bytes:
    return sanitize(burn_in(pdf, []))


@pytest.fixture(scope="module", params=CASE_NAMES)
def case(request) -> HiddenCase:
    return hidden_corpus.build(request.param)


# ----------------------------------------------------------- the builders themselves


def test_every_kind_of_hidden_content_has_a_leak_case_upright_and_rotated() -> None:
    cases = [hidden_corpus.build(name) for name in CASE_NAMES]

    assert hidden_corpus.KINDS == hidden.KINDS
    for rotated in (False, True):
        assert {c.kind for c in cases if c.rotated is rotated} == set(hidden.KINDS)
    canaries = [c.canary for c in cases]
    assert len(set(canaries)) == len(canaries)
    assert all(c.isascii() and c.isalnum() and len(c) >= 10 for c in canaries)


def test_builder_plants_its_canary_where_it_can_be_extracted(case: HiddenCase) -> None:
    doc = _open(case.pdf)
    page = doc[case.page]

    if case.kind == "hidden_annotation":
        assert any(case.canary in a.info["content"] for a in page.annots())
    elif case.kind == "hidden_layer":
        assert case.canary not in _words(page)  # MuPDF honours the OFF state...
        for config in doc.layer_ui_configs():
            doc.set_layer_ui_config(config["number"], pymupdf.PDF_OC_ON)
        assert case.canary in _words(doc[case.page])  # ...and shows it once switched on
    else:
        assert case.canary in _words(page)
    assert page.rotation == (hidden_corpus.ROTATION if case.rotated else 0)
    assert all(case.canary not in _words(p) for p in doc if p.number != case.page)
    assert case.canary.encode() not in case.control
    assert case.canary not in str([_words(p) for p in _open(case.control)])


def test_hidden_page_looks_the_same_with_and_without_its_canary(case: HiddenCase) -> None:
    shown = _open(case.pdf)[case.page].get_pixmap(dpi=RENDER_DPI, annots=True)
    control = _open(case.control)[case.page].get_pixmap(dpi=RENDER_DPI, annots=True)

    differing = sum(a != b for a, b in zip(shown.samples, control.samples, strict=True))

    assert differing <= (TINY_SPECK_SAMPLES if case.kind == "tiny" else 0)


def test_default_text_extraction_leaves_out_a_canary_the_page_does_not_draw(
    case: HiddenCase,
) -> None:
    text = _open(case.pdf)[case.page].get_text()

    if case.kind in NOT_EXTRACTED_BY_DEFAULT:
        assert case.canary not in text
    else:  # covered, same colour, tiny, invisible: extraction ignores what hides them
        assert case.canary in text


# ------------------------------------------------------------ found, shown, removed


def test_hidden_text_is_found_with_its_kind_on_its_page(case: HiddenCase) -> None:
    findings = find_hidden(case.pdf)

    assert any(
        f.page == case.page and f.kind == case.kind and case.canary in f.text for f in findings
    ), [(f.page, f.kind) for f in findings]
    assert all(f.page == case.page for f in findings)


def test_hidden_text_becomes_a_hidden_content_mark_for_manual_review(case: HiddenCase) -> None:
    result = detect(case.pdf, DetectionPolicy(salt=b"k"))

    assert any(
        m.page == case.page
        and m.category == "hidden_content"
        and m.needs_manual_review == case.kind
        for m in result.marks
    ), [(m.page, m.category, m.needs_manual_review) for m in result.marks]


def test_release_holds_no_trace_of_the_canary_and_keeps_every_visible_word(
    case: HiddenCase,
) -> None:
    output = _release(case.pdf)

    assert_canary_absent(output, case.canary)  # raw bytes, text, objects, streams, metadata
    released = _open(output)
    assert all(case.canary not in " ".join(_words(page)) for page in released)
    assert find_hidden(output) == []
    for number, expected in enumerate(hidden_corpus.visible_words(case.control)):
        missing = Counter(expected) - Counter(_words(released[number]))
        assert not missing, f"page {number} lost {sorted(missing)}"


def test_release_passes_the_gate(case: HiddenCase) -> None:
    report = verify(case.pdf, _release(case.pdf), [])

    assert report.ok, report.failures


def test_gate_refuses_an_output_that_was_not_sanitized(case: HiddenCase) -> None:
    if case.kind == "hidden_annotation":
        # burn_in bakes annotations into the page and drops them, and a hidden one bakes
        # to nothing, so its output is clean already. Gate the untouched original
        # instead; there the hidden annotation may be reported as `unseen_content` or
        # by the older structural `annotation` check.
        report = verify(case.pdf, case.pdf, [])
        accepted = {"unseen_content", "annotation"}
    else:
        report = verify(case.pdf, burn_in(case.pdf, []), [])
        accepted = {"unseen_content"}

    assert not report.ok
    assert any(f.code in accepted and f.page == case.page for f in report.failures), report.failures
    assert case.canary not in repr(report)


# ------------------------------------------------------------------- false alarms

CLEAN = hidden_corpus.clean_documents()


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_document_has_no_hidden_content(name: str) -> None:
    assert find_hidden(CLEAN[name]) == []


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_clean_document_passes_the_gate_after_sanitizing(name: str) -> None:
    pdf = CLEAN[name]

    report = verify(pdf, _release(pdf), [])

    assert report.ok, report.failures


@pytest.mark.parametrize("path", REAL_WORLD_PDFS, ids=lambda path: path.name)
def test_real_world_pdf_has_no_hidden_content_and_passes_the_gate(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is not installed")
    pdf = path.read_bytes()

    assert find_hidden(pdf) == []
    report = verify(pdf, _release(pdf), [])
    assert report.ok, report.failures


# ---------------------------------------------------------- gate: word boundaries


def test_redacted_word_that_starts_a_longer_word_elsewhere_passes_the_gate() -> None:
    """ "Ann" is redacted; "Annex." stays and is not a leak of it."""
    case = hidden_corpus.ann_and_annex()

    output = sanitize(burn_in(case.pdf, [case.mark]))

    assert "Annex." in _words(_open(output)[0])
    report = verify(case.pdf, output, [case.mark])
    assert report.ok, report.failures


def test_redacted_word_left_in_the_output_fails_the_gate() -> None:
    case = hidden_corpus.ann_and_annex()

    report = verify(case.pdf, case.pdf, [case.mark])

    assert not report.ok
    assert "redacted_string_present" in report.codes()


def test_redacted_word_added_back_as_a_separate_word_elsewhere_fails_the_gate() -> None:
    case = hidden_corpus.ann_and_annex()
    doc = _open(sanitize(burn_in(case.pdf, [case.mark])))
    doc[0].insert_text((72, 500), f"Signed by {case.word} on Monday.", fontsize=11)

    report = verify(case.pdf, doc.tobytes(garbage=4), [case.mark])

    assert "redacted_string_present" in report.codes()


# --------------------------------------------------------- owner-password documents

ENCRYPTED = {c.name: c for c in hidden_corpus.encrypted_cases()}
OWNER_ONLY = sorted(name for name, c in ENCRYPTED.items() if not c.user_password)


@pytest.mark.parametrize("name", OWNER_ONLY)
def test_pdf_with_only_an_owner_password_is_admitted(name: str) -> None:
    check = open_check(ENCRYPTED[name].pdf, max_pages=100)

    assert check.page_count == 1


def test_pdf_that_needs_a_user_password_is_refused_as_encrypted() -> None:
    with pytest.raises(PdfRejected) as refused:
        open_check(ENCRYPTED["user_password"].pdf, max_pages=100)

    assert refused.value.code == "encrypted"


@pytest.mark.parametrize("name", OWNER_ONLY)
def test_pdf_with_only_an_owner_password_is_released_unencrypted_with_its_text(
    name: str,
) -> None:
    pdf = ENCRYPTED[name].pdf

    output = _release(pdf)

    released = _open(output)
    # is_encrypted is False for an owner-only file too once MuPDF has opened it with
    # the empty user password: also check the trailer and the reported encryption.
    assert released.is_encrypted is False
    assert released.xref_get_key(-1, "Encrypt")[0] == "null"
    assert not released.metadata.get("encryption")
    assert hidden_corpus.visible_words(output) == hidden_corpus.visible_words(pdf)
    assert verify(pdf, output, []).ok


def _highlighted_page(cover_too: bool, rotation: int = 0, *, inline: bool = False) -> bytes:
    """Words under an Acrobat-style highlighter: a yellow rectangle in Multiply blend
    mode, painted after the text, its graphics state an object of its own or `inline` in
    the resources (as in a highlight annotation's appearance, pdf.js's issue15012.pdf).
    With `cover_too`, a white box (Normal blend) also covers a canary on the same page."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((20, 40), "Highlighted words here", fontsize=11)
    if cover_too:
        page.insert_text((20, 100), "CANARYunderwhitebox", fontsize=11)
    multiply = "<</Type/ExtGState/BM/Multiply>>"
    if not inline:
        xref = doc.get_new_xref()
        doc.update_object(xref, multiply)
        multiply = f"{xref} 0 R"
    resources = int(doc.xref_get_key(page.xref, "Resources")[1].split()[0])
    doc.xref_set_key(resources, "ExtGState", f"<</GSM {multiply}>>")
    content = page.get_contents()[-1]  # painted after all the text
    stream = doc.xref_stream(content) + b"\nq /GSM gs 1 1 0 rg 18 255 100 15 re f Q\n"
    if cover_too:
        stream += b"q 1 1 1 rg 18 195 130 15 re f Q\n"
    doc.update_stream(content, stream)
    page.set_rotation(rotation)
    return doc.tobytes()


@pytest.mark.parametrize(("rotation", "inline"), [(0, False), (90, False), (0, True)])
def test_words_under_a_multiply_highlighter_are_seen_and_released(
    rotation: int, inline: bool
) -> None:
    pdf = _highlighted_page(cover_too=False, rotation=rotation, inline=inline)

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    assert "Highlighted words here" in pymupdf.open(stream=output, filetype="pdf")[0].get_text()
    assert verify(pdf, output, []).ok


def test_a_dangling_cross_reference_entry_does_not_stop_the_look_for_blend_modes() -> None:
    """pdf.js's prefilled_f1040.pdf: looking for a blend mode under a white box, every
    object is read, and detection failed on the whole document."""
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=300)
    page.insert_text((20, 40), "CANARYunderwhitebox", fontsize=11)
    page.draw_rect(pymupdf.Rect(18, 28, 150, 44), color=None, fill=(1, 1, 1))
    pdf = with_a_dangling_xref_entry(doc)

    assert [(f.kind, f.text) for f in find_hidden(pdf)] == [("covered", "CANARYunderwhitebox")]


@pytest.mark.parametrize("rotation", [0, 90])
def test_a_white_box_still_covers_text_where_the_document_also_highlights(rotation: int) -> None:
    pdf = _highlighted_page(cover_too=True, rotation=rotation)

    found = find_hidden(pdf)

    assert [(f.kind, f.text) for f in found] == [("covered", "CANARYunderwhitebox")]
    text = pymupdf.open(stream=sanitize(burn_in(pdf, [])), filetype="pdf")[0].get_text()
    assert "CANARYunderwhitebox" not in text and "Highlighted words here" in text


def test_an_ocr_layer_painted_under_or_over_its_scan_is_not_hidden_content() -> None:
    doc = pymupdf.open()
    scan = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 10, 10), 0)
    scan.clear_with(230)
    under = doc.new_page(width=300, height=300)
    under.insert_text((20, 40), "Text of the scan", fontsize=11, render_mode=3, fontname="tiro")
    under.insert_image(under.rect, pixmap=scan)  # the text layer first, then the scan
    over = doc.new_page(width=300, height=300)
    over.insert_image(over.rect, pixmap=scan)
    over.insert_text((20, 40), "Text of the scan", fontsize=11, render_mode=3, fontname="tiro")
    pdf = doc.tobytes()

    assert find_hidden(pdf) == []
    output = sanitize(burn_in(pdf, []))
    released = pymupdf.open(stream=output, filetype="pdf")
    assert all(not page.get_text().strip() for page in released)  # sanitize drops OCR text
    assert verify(pdf, output, []).ok


# ------------------------------------------------- the plain-page screen (speed path)


def _screened_documents() -> dict[str, bytes]:
    documents = {name: hidden_corpus.build(name).pdf for name in CASE_NAMES}
    documents.update(CLEAN)
    for inside_lines in (False, True):
        pdf, marks = text_document(2, seed=3, inside_lines=inside_lines)
        burned = burn_in(pdf, marks)
        documents[f"burned-inside-{inside_lines}"] = burned
        documents[f"released-inside-{inside_lines}"] = sanitize(burned)
    documents.update({path.name: path.read_bytes() for path in REAL_WORLD_PDFS if path.exists()})
    return documents


SCREENED = _screened_documents()


@pytest.mark.parametrize("name", sorted(SCREENED))
def test_a_page_screened_as_plain_hides_nothing_glyph_by_glyph(name: str) -> None:
    for page in _open(SCREENED[name]):
        crop = page.cropbox
        screen = PaintLog.of(page, (0.0, 0.0, crop.width, crop.height))

        assert [(kind, pymupdf.Rect(box)) for kind, box in screen.log] == [
            (kind, pymupdf.Rect(box)) for kind, box in page.get_bboxlog()
        ]
        if screen.plain:
            assert hidden.analyse_page(page, exhaustive=True).hidden == [], page.number


def test_every_page_with_hidden_content_fails_the_screen(case: HiddenCase) -> None:
    doc = _open(case.pdf)
    page = doc[case.page]
    crop = page.cropbox

    screen = PaintLog.of(page, (0.0, 0.0, crop.width, crop.height))

    # Layers and annotations are found apart from the page's painting.
    assert screen.plain is (case.kind in ("hidden_layer", "hidden_annotation"))


def test_burned_boxes_inside_lines_leave_their_pages_plain() -> None:
    pdf, marks = text_document(2, seed=5, inside_lines=True)

    released = _open(sanitize(burn_in(pdf, marks)))

    for page in released:
        crop = page.cropbox
        assert PaintLog.of(page, (0.0, 0.0, crop.width, crop.height)).plain


def test_a_box_over_half_a_word_is_not_plain_and_the_covered_letters_are_found() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=300, height=200)
    page.insert_text((40, 60), "Confidential Halfcovered", fontsize=12)
    word = page.search_for("Halfcovered")[0]
    page.draw_rect(
        pymupdf.Rect(word.x0 + word.width / 2, word.y0 - 2, word.x1 + 2, word.y1 + 2),
        fill=(0, 0, 0),
        color=None,
    )
    page = _open(doc.tobytes())[0]

    screen = PaintLog.of(page, (0.0, 0.0, 300.0, 200.0))

    assert not screen.plain
    found = find_hidden(doc.tobytes())
    assert [h.kind for h in found] == ["covered"]
    assert found[0].text.lower() in "halfcovered" and len(found[0].text) >= 4


@pytest.mark.parametrize("words", [PLAIN_PROOF_LIMIT - 10, PLAIN_PROOF_LIMIT + 10])
def test_a_page_painting_past_the_proof_limit_is_left_to_the_glyph_analysis(words: int) -> None:
    """Proving a page plain looks at every earlier painting for each one: a page of
    700,000 image placements took hours. Past the limit the page is not proved plain;
    the glyph analysis looks at it, and finds nothing hidden on an ordinary page."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((36, 30), "Tally sheet", fontsize=10)
    tally = b"".join(
        b"BT /helv 3 Tf %d %d Td (x) Tj ET " % (36 + n % 135 * 4, 40 + n // 135 * 4)
        for n in range(words)
    )
    append_content(page, tally)

    analysis = hidden.analyse_page(page)

    assert analysis.hidden == []
    proved_plain = analysis.visible == []  # a plain page's glyphs are not listed
    assert proved_plain is (words < PLAIN_PROOF_LIMIT)
