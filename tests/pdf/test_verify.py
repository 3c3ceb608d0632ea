"""The release gate fails closed on every kind of leak, and never names the text."""

from __future__ import annotations

import io

import pymupdf

from review.pdf.geometry import page_rect
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.verify import verify
from testkit import leak_corpus


def _open(pdf: bytes) -> pymupdf.Document:
    return pymupdf.open(stream=pdf, filetype="pdf")


def _released() -> tuple[leak_corpus.LeakCase, bytes]:
    case = leak_corpus.page_text()
    return case, sanitize(burn_in(case.pdf, case.marks))


def test_properly_redacted_and_sanitized_file_passes() -> None:
    case, output = _released()

    report = verify(case.pdf, output, case.marks)

    assert report.ok
    assert report.failures == []


def test_multi_page_document_with_several_marks_passes() -> None:
    pdf, marks = leak_corpus.text_document(5)

    assert verify(pdf, sanitize(burn_in(pdf, marks)), marks).ok


def test_fake_redaction_black_rectangle_over_live_text_fails() -> None:
    case = leak_corpus.page_text()
    doc = _open(case.pdf)
    page = doc[0]
    page.draw_rect(page_rect(page, case.marks[0].box), color=(0, 0, 0), fill=(0, 0, 0))
    # Not sanitized: sanitize now removes text under a later opaque shape itself.
    fake = doc.tobytes()

    report = verify(case.pdf, fake, case.marks)

    assert not report.ok
    assert {"text_under_box", "redacted_string_present"} <= report.codes()
    assert case.canary not in repr(report)


def test_extra_incremental_revision_fails(tmp_path) -> None:
    case, output = _released()
    path = tmp_path / "out.pdf"
    path.write_bytes(output)
    doc = pymupdf.open(path)
    doc[0].insert_text((72, 760), "appended later", fontsize=8)
    doc.saveIncr()
    doc.close()

    report = verify(case.pdf, path.read_bytes(), case.marks)

    assert "multiple_revisions" in report.codes()


def test_embedded_file_fails() -> None:
    case, output = _released()
    doc = _open(output)
    doc.embfile_add("extra.bin", b"payload")

    report = verify(case.pdf, doc.tobytes(garbage=4), case.marks)

    assert "embedded_file" in report.codes()


def test_javascript_fails() -> None:
    case, output = _released()
    doc = _open(output)
    action = doc.get_new_xref()
    doc.update_object(action, "<</S/JavaScript/JS(app.alert(1);)>>")
    doc.xref_set_key(doc.pdf_catalog(), "OpenAction", f"{action} 0 R")

    report = verify(case.pdf, doc.tobytes(garbage=4), case.marks)

    assert "javascript" in report.codes()


def test_metadata_left_in_the_output_fails() -> None:
    case, output = _released()
    doc = _open(output)
    doc.set_metadata({"author": "someone"})

    assert "metadata" in verify(case.pdf, doc.tobytes(garbage=4), case.marks).codes()


def test_unrelated_word_removed_outside_the_boxes_is_collateral_damage() -> None:
    case = leak_corpus.page_text()
    doc = _open(case.pdf)
    page = doc[0]
    officer = next(w for w in page.get_text("words") if w[4] == "officer")
    page.add_redact_annot(pymupdf.Rect(officer[:4]))
    page.apply_redactions()
    damaged = sanitize(burn_in(doc.tobytes(), case.marks))

    report = verify(case.pdf, damaged, case.marks)

    assert [f.code for f in report.failures] == ["collateral_damage"]
    assert report.failures[0].page == 0


def test_page_count_change_fails() -> None:
    case, output = _released()
    doc = _open(output)
    doc.new_page()

    assert "page_count_changed" in verify(case.pdf, doc.tobytes(garbage=4), case.marks).codes()


def test_redacted_value_hidden_in_an_invisible_layer_elsewhere_fails() -> None:
    """An OCR-style copy (render mode 3) off the box is a leak even if nobody sees it."""
    case, output = _released()
    doc = _open(output)
    doc[0].insert_text((72, 600), case.canary, fontsize=11, render_mode=3)

    report = verify(case.pdf, doc.tobytes(garbage=4), case.marks)

    assert "redacted_string_present" in report.codes()
    assert case.canary not in repr(report)


def test_redacted_value_in_a_stream_only_is_found() -> None:
    case, output = _released()
    doc = _open(output)
    xref = doc.get_new_xref()
    doc.update_object(xref, "<<>>")
    doc.update_stream(xref, f"% note {case.canary}".encode())
    doc.xref_set_key(doc.pdf_catalog(), "Stash", f"{xref} 0 R")

    report = verify(case.pdf, doc.tobytes(garbage=4), case.marks)

    assert any(f.code == "redacted_string_present" and f.xref for f in report.failures)


def test_report_never_contains_the_text() -> None:
    case = leak_corpus.page_text()
    unredacted = sanitize(case.pdf)

    report = verify(case.pdf, unredacted, case.marks)

    assert not report.ok
    buffer = io.StringIO()
    print(report, report.failures, file=buffer)
    assert case.canary not in repr(report) + buffer.getvalue()
    assert "Requester" not in repr(report)
