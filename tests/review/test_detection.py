import os

import pymupdf
import pytest
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models.functions import Now

from audit.models import AuditEvent
from intake.services.admission import submission_admit
from intake.services.checks import IncomingFile
from review.models import ItemState, Mark, Outbox, Proposal, ReviewItem
from review.pdf.detect import NEEDS_MANUAL_REVIEW, NO_TEXT_LAYER
from review.pdf.ocr import ocr_available
from review.services import outbox
from review.tasks import detect_document
from testkit.builders import user_create
from testkit.corpus import scanned_pdf, simple_pdf

SSN = "123-45-6789"
NAME = "Zebulon Quartermaine"


def _admit(pdfs: dict[str, bytes], *, search_terms=(), priority_score=50) -> list[ReviewItem]:
    admission = submission_admit(
        client=user_create(),
        files=[IncomingFile(object_id=k, upload=SimpleUploadedFile(k, v)) for k, v in pdfs.items()],
        external_ref="FOIA-1",
        jurisdiction_code="US-FED",
        search_terms=search_terms,
        priority_score=priority_score,
        correlation_id="detect-test",
        actor="client:test",
    )
    return list(ReviewItem.objects.filter(document__submission=admission.submission).order_by("id"))


@pytest.mark.django_db
def test_detection_writes_proposal_v1_with_boxes_and_moves_item_to_proposed():
    pdf = simple_pdf([f"Applicant {NAME}", f"SSN {SSN}", "Contact: jo@example.com"])
    (item,) = _admit({"a.pdf": pdf}, search_terms=[NAME])

    detect_document(item.pk)

    item.refresh_from_db()
    assert item.state == ItemState.PROPOSED
    proposal = Proposal.objects.get(document=item.document)
    assert proposal.version == 1 and proposal.previous is None
    categories = {m.category for m in proposal.marks.all()}
    assert {"ssn", "email", "search_term"} <= categories
    for mark in proposal.marks.all():
        assert 0 <= mark.x0 < mark.x1 <= 1 and 0 <= mark.y0 < mark.y1 <= 1
        assert mark.legal_reason == "(b)(6)"
        assert mark.decision == Mark.Decision.PENDING
        assert len(mark.text_hash) == 64
    event = AuditEvent.objects.get(event_type="PROPOSED", item_id=item.pk)
    assert event.output_hash == proposal.proposal_sha256
    assert event.extra["marks"] == proposal.marks.count()


@pytest.mark.django_db
def test_matched_text_is_stored_nowhere_in_marks_or_events():
    (item,) = _admit({"a.pdf": simple_pdf([f"SSN {SSN} for {NAME}"])}, search_terms=[NAME])
    detect_document(item.pk)
    for mark in Mark.objects.all():
        values = " ".join(str(getattr(mark, f.attname)) for f in Mark._meta.concrete_fields)
        assert SSN not in values and NAME not in values
    for event in AuditEvent.objects.all():
        assert SSN.encode() not in event.canonical() and NAME.encode() not in event.canonical()


@pytest.mark.django_db
def test_delivering_the_detection_task_twice_yields_one_proposal_and_one_event():
    (item,) = _admit({"a.pdf": simple_pdf([f"SSN {SSN}"])})
    detect_document(item.pk)
    detect_document(item.pk)
    assert Proposal.objects.filter(document=item.document).count() == 1
    assert AuditEvent.objects.filter(event_type="PROPOSED", item_id=item.pk).count() == 1


@pytest.mark.django_db
def test_document_without_marks_still_goes_to_review():
    (item,) = _admit({"clean.pdf": simple_pdf(["Minutes of the parks committee."])})
    detect_document(item.pk)
    item.refresh_from_db()
    assert item.state == ItemState.PROPOSED
    assert Proposal.objects.get(document=item.document).marks.count() == 0


@pytest.mark.django_db
def test_uncertain_marks_put_a_document_first_among_equals():
    items = _admit(
        {
            "sure.pdf": simple_pdf([f"SSN {SSN}"]),
            "unsure.pdf": simple_pdf(["Policy number: PX-77120034"]),
        }
    )
    for item in items:
        detect_document(item.pk)
    sure, unsure = (ReviewItem.objects.get(pk=i.pk) for i in items)
    lowest = {
        i.pk: min(m.confidence for m in Proposal.objects.get(document=i.document).marks.all())
        for i in (sure, unsure)
    }
    assert lowest[unsure.pk] < lowest[sure.pk]
    assert unsure.priority < sure.priority


@pytest.mark.django_db
def test_scanned_page_without_ocr_gets_a_whole_page_manual_review_mark(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no tesseract binary to be found
    monkeypatch.setenv("TESSDATA_PREFIX", str(tmp_path))
    (item,) = _admit({"scan.pdf": scanned_pdf([f"SSN {SSN}"])})
    detect_document(item.pk)
    (mark,) = Proposal.objects.get(document=item.document).marks.all()
    assert mark.category == NEEDS_MANUAL_REVIEW
    assert mark.needs_manual_review == NO_TEXT_LAYER
    assert (mark.x0, mark.y0, mark.x1, mark.y1) == (0, 0, 1, 1)


@pytest.mark.django_db
@pytest.mark.skipif(not os.path.exists("/usr/bin/tesseract"), reason="Tesseract not installed")
def test_scanned_page_with_ocr_gets_marks_on_the_recognized_values():
    (item,) = _admit({"scan.pdf": scanned_pdf([f"SSN {SSN}"])})
    detect_document(item.pk)
    categories = [m.category for m in Proposal.objects.get(document=item.document).marks.all()]
    assert "ssn" in categories


def _files_under(folder: str) -> list[str]:
    storage = storages["originals"]
    if not storage.exists(folder):
        return []
    folders, files = storage.listdir(folder)
    return files + [f for name in folders for f in _files_under(f"{folder}/{name}")]


@pytest.mark.skipif(not ocr_available(), reason="Tesseract with English tessdata not installed")
@pytest.mark.django_db
def test_a_long_scan_is_read_over_several_recorded_deliveries_then_proposed(settings, monkeypatch):
    settings.DETECTION_OCR_SECONDS = 0  # each delivery reads one page, then hands over
    sent = []
    monkeypatch.setattr(outbox, "async_task", lambda *args, **kwargs: sent.append(args))
    pages = [scanned_pdf([f"Page {n} SSN {SSN}"]) for n in range(3)]
    scan = pymupdf.open()
    for page in pages:
        scan.insert_pdf(pymupdf.open(stream=page))
    (item,) = _admit({"scan.pdf": scan.tobytes()})

    for _ in range(5):
        # A moment later the relay sends what is due, and a worker runs it.
        Outbox.objects.filter(item=item, done_at__isnull=True).update(due_at=Now())
        if not outbox.outbox_relay():
            break
        detect_document(item.pk)

    continued = AuditEvent.objects.filter(item_id=item.pk, event_type="DETECTION_CONTINUES")
    progress = [
        (e.extra["pages_read"], e.extra["pages_to_read"]) for e in continued.order_by("sequence")
    ]
    assert progress == [(1, 3), (2, 3)] and len(sent) == 3
    item.refresh_from_db()
    assert item.state == ItemState.PROPOSED
    proposal = Proposal.objects.get(document=item.document)
    assert sorted({m.page for m in proposal.marks.filter(category="ssn")}) == [0, 1, 2]
    assert not Outbox.objects.filter(item=item, done_at__isnull=True).exists()
    assert _files_under(f"ocr/{item.document.source_sha256[:2]}") == []  # read, then deleted
