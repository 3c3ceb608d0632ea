import hashlib

import pymupdf
import pytest
from django.conf import settings
from django.core.files.storage import storages

from audit.models import AuditEvent
from audit.services import verify_chain
from review.errors import IllegalTransition
from review.models import Artifact, DeadLetter, Hold, ItemState, ReviewItem
from review.pdf.sign import load_certificate, validate
from review.services import release
from review.services.release import artifact_render
from review.tasks import render_and_sign
from testkit.corpus import simple_pdf
from tests.factories import admitted_items, approved_item

SSN = "123-45-6789"
LETTER = simple_pdf([f"Requester SSN {SSN}", "Reply to jo@example.com", "Kind regards, the office"])


def _read(storage: str, path: str) -> bytes:
    with storages[storage].open(path, "rb") as handle:
        return handle.read()


@pytest.mark.django_db
def test_approved_item_is_rendered_verified_stored_and_signed():
    item = approved_item(LETTER)

    render_and_sign(item.pk)

    item.refresh_from_db()
    assert item.state == ItemState.SIGNED
    artifact = Artifact.objects.get(document=item.document)
    unsigned = _read("derivatives", artifact.storage_path)
    signed = _read("derivatives", artifact.signed_path)
    assert hashlib.sha256(unsigned).hexdigest() == artifact.output_sha256
    assert hashlib.sha256(signed).hexdigest() == artifact.signed_sha256
    with pymupdf.open(stream=signed, filetype="pdf") as doc:
        text = doc[0].get_text()
    assert SSN not in text and "Kind regards" in text
    status = validate(signed, [load_certificate(settings.SIGNING_CERT_FILE)])
    assert status.ok, status
    signed_event = AuditEvent.objects.get(event_type="SIGNED", item_id=item.pk)
    approval = artifact.approval
    assert signed_event.output_hash == artifact.signed_sha256
    assert signed_event.extra["preview_sha256"] == approval.preview_sha256
    assert signed_event.extra["proposal_sha256"] == approval.proposal_sha256
    assert signed_event.extra["source_sha256"] == approval.source_sha256
    assert verify_chain().ok


@pytest.mark.django_db
def test_derivatives_and_originals_live_in_separate_roots():
    assert settings.ORIGINALS_ROOT != settings.DERIVATIVES_ROOT
    item = approved_item(LETTER)
    render_and_sign(item.pk)
    artifact = Artifact.objects.get(document=item.document)
    assert storages["derivatives"].exists(artifact.storage_path)
    assert not storages["originals"].exists(artifact.storage_path)


@pytest.mark.django_db
def test_redelivered_task_produces_no_second_output():
    item = approved_item(LETTER)
    render_and_sign(item.pk)
    render_and_sign(item.pk)
    assert Artifact.objects.filter(document=item.document).count() == 1
    assert AuditEvent.objects.filter(event_type="RENDERED", item_id=item.pk).count() == 1
    assert AuditEvent.objects.filter(event_type="SIGNED", item_id=item.pk).count() == 1


@pytest.mark.django_db
def test_task_stopped_after_storing_then_rerun_gives_one_artifact_and_one_rendered(monkeypatch):
    item = approved_item(LETTER)
    real_store = release._store_derivative
    stored: list[str] = []

    def store_then_die(data):
        path, digest = real_store(data)
        stored.append(digest)
        raise SystemExit("worker killed after storing the output")

    monkeypatch.setattr(release, "_store_derivative", store_then_die)
    with pytest.raises(SystemExit):
        render_and_sign(item.pk)
    assert not Artifact.objects.exists()
    monkeypatch.setattr(release, "_store_derivative", real_store)

    render_and_sign(item.pk)

    artifact = Artifact.objects.get(document=item.document)
    assert artifact.output_sha256 == stored[0]  # the same bytes again: deterministic output
    assert AuditEvent.objects.filter(event_type="RENDERED", item_id=item.pk).count() == 1
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.SIGNED


@pytest.mark.django_db
def test_task_stopped_between_render_and_sign_finishes_signing_on_rerun(monkeypatch):
    item = approved_item(LETTER)
    monkeypatch.setattr(release, "_sign", lambda **kw: (_ for _ in ()).throw(SystemExit("killed")))
    with pytest.raises(SystemExit):
        render_and_sign(item.pk)
    monkeypatch.undo()
    render_and_sign(item.pk)
    assert Artifact.objects.filter(document=item.document).count() == 1
    assert AuditEvent.objects.filter(event_type="RENDERED", item_id=item.pk).count() == 1
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.SIGNED


@pytest.mark.django_db
def test_fake_redaction_fails_the_gate_and_lands_in_the_dead_letter_queue(monkeypatch):
    item = approved_item(LETTER)

    def black_box_over_live_text(pdf: bytes) -> bytes:
        doc = pymupdf.open()
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 72 + 9), f"Requester SSN {SSN}", fontsize=9)
        page.draw_rect(pymupdf.Rect(60, 60, 400, 120), fill=(0, 0, 0))
        return doc.tobytes()

    monkeypatch.setattr(release, "sanitize", black_box_over_live_text)
    render_and_sign(item.pk)

    item.refresh_from_db()
    assert item.state == ItemState.APPROVED  # nothing advanced, nothing released
    assert item.hold == Hold.DEAD_LETTER
    letter = DeadLetter.objects.get(item=item)
    assert letter.last_reason.startswith("verification_failed")
    assert not Artifact.objects.exists()
    event = AuditEvent.objects.get(event_type="MOVED_TO_DLQ")
    assert SSN.encode() not in event.canonical()


@pytest.mark.django_db
def test_nothing_is_rendered_without_an_approval():
    (item,) = admitted_items({"letter.pdf": LETTER})
    with pytest.raises(IllegalTransition):
        artifact_render(item_id=item.pk, actor="service:renderer")
    assert not Artifact.objects.exists()
