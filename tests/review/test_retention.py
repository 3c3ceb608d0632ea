"""Retention: a versioned schedule per jurisdiction, the daily disposal of expired bytes
from both storages, legal holds that keep them, and truthful answers afterwards."""

import datetime as dt
import uuid
from io import StringIO

import pytest
from django.core.files.storage import storages
from django.core.management import call_command
from django.db.models.functions import Now
from django_q.models import Schedule

from audit.clock import db_now
from audit.models import AuditEvent
from audit.services import verify_chain
from intake.models import Document, Jurisdiction
from review.models import Artifact, CloseReason, Disposal, RetentionPolicy, ReviewItem
from review.pdf.detect import DetectionPolicy
from review.roles import REVIEWER
from review.services.detection import StoredOcr
from review.services.holds import legal_hold_place, legal_hold_release
from review.services.recovery import item_close
from review.services.retention import disposal_run, retention_governing, retention_publish
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items
from tests.intake.conftest import make_api_client, submit, upload
from tests.pipeline import review_over_http

pytestmark = pytest.mark.django_db


def _letter() -> bytes:
    """Bytes of their own: content-addressed storage would share a file between tests."""
    return simple_pdf([f"Requester SSN 123-45-6789 ref {uuid.uuid4().hex}"])


def _publish(days: int = 30, *, code: str = "US-FED", note: str = "records schedule 7"):
    return retention_publish(
        draft=RetentionPolicy(
            jurisdiction=Jurisdiction.objects.get(code=code),
            originals_days=days,
            previews_days=days,
            derivatives_days=days,
            note=note,
        ),
        actor="user:records-officer",
    )


def _signed_over_api(capture, api=None):
    """Submit through the API, review and approve through the pages, render and sign."""
    api = api or make_api_client()
    with capture(execute=True):
        response = submit(api, files=[upload("letter.pdf", _letter())])
    assert response.status_code == 201, response.content
    document_id = response.json()["documents"][0]["id"]
    review_over_http(capture, user_create(role=REVIEWER))
    item = ReviewItem.objects.select_related("document__submission").get(document_id=document_id)
    assert item.state == "signed"
    return api, item


def _exists(storage: str, path: str) -> bool:
    return storages[storage].exists(path)


def _files(document: Document) -> list[tuple[str, str]]:
    files = [("originals", document.original_path)]
    for artifact in Artifact.objects.filter(document=document):
        files += [("derivatives", artifact.storage_path), ("derivatives", artifact.signed_path)]
    return files


def _days_after_end(item: ReviewItem, days: float) -> dt.datetime:
    item.refresh_from_db()
    return item.state_changed_at + dt.timedelta(days=days)


def test_signed_document_past_its_period_loses_its_bytes_and_the_ledger_keeps_their_hashes(
    django_capture_on_commit_callbacks,
):
    # Given a signed document under US-FED's 30-day schedule
    _, item = _signed_over_api(django_capture_on_commit_callbacks)
    policy = _publish(30)
    files = _files(item.document)
    assert len(files) == 3 and all(_exists(*f) for f in files)

    # When the disposal pass runs a day after the period ended
    report = disposal_run(now=_days_after_end(item, 31))

    # Then the original and both derivatives are gone from their storages
    assert report.documents == 1 and report.held == 0
    assert not any(_exists(*f) for f in files)
    rows = {d.kind: d for d in Disposal.objects.filter(document=item.document)}
    assert set(rows) == {"original", "previews", "derivatives"}
    assert all(d.retention == policy and d.deleted_at is not None for d in rows.values())
    # and one DISPOSED event in the document's chain names what went, by hash
    artifact = Artifact.objects.get(document=item.document)
    event = AuditEvent.objects.get(event_type="DISPOSED")
    assert event.chain == f"document:{item.document_id}"
    assert event.item_id == item.pk
    assert event.extra["retention_version"] == policy.version == 1
    assert event.extra["jurisdiction"] == "US-FED"
    assert event.extra["sha256"]["original"] == [item.document.source_sha256]
    assert event.extra["sha256"]["derivatives"] == [artifact.output_sha256, artifact.signed_sha256]
    # and the ledger still verifies, through the command auditors run
    assert verify_chain().ok
    out = StringIO()
    call_command("verify_audit", stdout=out)
    assert "OK" in out.getvalue()


def test_nothing_is_disposed_before_the_period_ends(django_capture_on_commit_callbacks):
    _, item = _signed_over_api(django_capture_on_commit_callbacks)
    _publish(30)
    files = _files(item.document)

    report = disposal_run(now=_days_after_end(item, 29.9))

    assert report.documents == 0
    assert all(_exists(*f) for f in files)
    assert not Disposal.objects.exists()
    assert not AuditEvent.objects.filter(event_type="DISPOSED").exists()


def test_a_jurisdiction_without_a_schedule_keeps_everything(django_capture_on_commit_callbacks):
    _, item = _signed_over_api(django_capture_on_commit_callbacks)
    _publish(1, code="UK")

    assert disposal_run(now=_days_after_end(item, 3650)).documents == 0
    assert all(_exists(*f) for f in _files(item.document))


def test_a_legal_hold_keeps_the_bytes_until_it_is_released(django_capture_on_commit_callbacks):
    # Given a signed document past its period, its submission under a legal hold
    _, item = _signed_over_api(django_capture_on_commit_callbacks)
    _publish(30)
    officer = user_create()
    hold = legal_hold_place(submission=item.document.submission, reason="litigation", actor=officer)
    files = _files(item.document)
    later = _days_after_end(item, 45)

    # When the pass runs, nothing of it goes, and the pass says why
    held = disposal_run(now=later)
    assert (held.documents, held.held) == (0, 1)
    assert all(_exists(*f) for f in files)
    assert not Disposal.objects.exists()

    # When the hold is released, the next pass disposes of it
    legal_hold_release(hold_id=hold.pk, reason="case closed", actor=officer)
    assert disposal_run(now=later).documents == 1
    assert not any(_exists(*f) for f in files)


def test_a_hold_on_the_document_alone_also_keeps_it(django_capture_on_commit_callbacks):
    _, item = _signed_over_api(django_capture_on_commit_callbacks)
    _publish(30)
    legal_hold_place(document=item.document, reason="subpoena", actor=user_create())

    report = disposal_run(now=_days_after_end(item, 45))

    assert (report.documents, report.held) == (0, 1)
    assert all(_exists(*f) for f in _files(item.document))


def test_api_and_downloads_answer_truthfully_after_disposal(
    django_capture_on_commit_callbacks, officer_client
):
    # Given a signed document whose bytes were disposed of
    api, item = _signed_over_api(django_capture_on_commit_callbacks)
    url = f"/api/v1/documents/{item.document_id}/"
    assert api.get(url).json()["disposal"] is None
    assert api.get(f"{url}output").status_code == 200
    _publish(30)
    disposal_run(now=_days_after_end(item, 31))
    disposed_at = Disposal.objects.get(document=item.document, kind="derivatives").disposed_at

    # Then the document API says what went, when, and under which version
    body = api.get(url).json()
    assert body["state"] == "signed"
    assert body["output_sha256"] == Artifact.objects.get(document=item.document).signed_sha256
    assert body["disposal"]["jurisdiction"] == "US-FED"
    assert body["disposal"]["retention_version"] == 1
    assert body["disposal"]["derivatives_disposed_at"] is not None
    assert body["disposal"]["original_disposed_at"] == body["disposal"]["derivatives_disposed_at"]
    submission = api.get(f"/api/v1/submissions/{item.document.submission_id}/").json()
    assert submission["documents"][0]["disposal"] == body["disposal"]

    # and a download answers 410 Gone in the API's error shape, saying when and why
    gone = api.get(f"{url}output")
    assert gone.status_code == 410
    error = gone.json()
    assert error["code"] == "disposed" and error["errors"] == []
    assert f"{disposed_at:%Y-%m-%d}" in error["message"]
    assert "retention v1" in error["message"]
    # and so does the compliance officers' download; the admin lists the disposal
    page = officer_client.get(f"/documents/{item.document_id}/output")
    assert page.status_code == 410
    listed = officer_client.get("/admin/review/disposal/", {"q": str(item.document_id)})
    assert listed.status_code == 200 and listed.context["cl"].result_count == 3
    documents = officer_client.get("/admin/intake/document/", {"q": str(item.document_id)})
    assert f"bytes disposed of {disposed_at:%Y-%m-%d} (retention v1)" in documents.text
    assert "signed PDF" not in documents.text
    # and the item's pages say so too, instead of failing on a missing file
    item_page = officer_client.get(f"/items/{item.pk}/")
    assert item_page.status_code in (200, 410), item_page.status_code
    assert "disposed" in item_page.text
    assert officer_client.get(f"/items/{item.pk}/pages/0.png").status_code == 410
    # while the ledger-side records stay: the redaction log, the events, the evidence
    assert api.get(f"{url}redaction-log.csv").status_code == 200
    events = api.get(f"/api/v1/documents/{item.document_id}/events/").json()
    assert events[-1]["event_type"] == "DISPOSED"
    assert api.get(f"/api/v1/documents/{item.document_id}/evidence").status_code == 200


def test_a_failed_document_without_output_still_answers_not_signed_after_disposal(officer):
    api = make_api_client()
    # Admitted through the API; detection never runs (its on-commit relay is not run).
    document_id = submit(api, files=[upload("a.pdf", _letter())]).json()["documents"][0]["id"]
    item = ReviewItem.objects.get(document_id=document_id)
    item_close(item_id=item.pk, reason_code=CloseReason.WITHDRAWN, note="", actor=officer)
    _publish(30)
    disposal_run(now=_days_after_end(item, 31))

    url = f"/api/v1/documents/{item.document_id}/"
    body = api.get(url).json()
    assert (body["state"], body["closed_reason"]) == ("failed", "withdrawn")
    assert body["disposal"]["original_disposed_at"] is not None
    refused = api.get(f"{url}output")
    assert (refused.status_code, refused.json()["code"]) == (409, "not_signed")


def test_disposing_of_an_original_deletes_the_text_ocr_read_from_it(officer):
    # A long scan closed half read: text layers of its pages are still kept.
    (item,) = admitted_items({"scan.pdf": _letter()}, detect=False)
    document = item.document
    StoredOcr(document.source_sha256, DetectionPolicy(salt=b"s")).put(0, b"%PDF-1.7 text")
    folder = f"ocr/{document.source_sha256[:2]}/{document.source_sha256}/200-eng"
    assert storages["originals"].listdir(folder)[1] == ["0.pdf"]
    item_close(item_id=item.pk, reason_code=CloseReason.WITHDRAWN, note="", actor=officer)
    _publish(30)

    disposal_run(now=_days_after_end(item, 31))

    assert not _exists("originals", document.original_path)
    assert storages["originals"].listdir(folder)[1] == []


def test_a_schedule_change_applies_only_to_work_that_ends_under_it(officer):
    # Given one item that ended under v1 (30 days), then v2 (400 days), then a second item
    first, second = admitted_items({"a.pdf": _letter(), "b.pdf": _letter()}, detect=False)
    _publish(30)
    item_close(item_id=first.pk, reason_code=CloseReason.WITHDRAWN, note="", actor=officer)
    v2 = _publish(400, note="longer after the audit")
    item_close(item_id=second.pk, reason_code=CloseReason.WITHDRAWN, note="", actor=officer)
    first.refresh_from_db()
    second.refresh_from_db()
    assert retention_governing(first).version == 1
    assert retention_governing(second) == v2

    # When the pass runs 60 days on
    disposal_run(now=_days_after_end(second, 60))

    # Then only the item governed by v1 is disposed of
    assert set(Disposal.objects.values_list("document_id", flat=True)) == {first.document_id}
    assert not _exists("originals", first.document.original_path)
    assert _exists("originals", second.document.original_path)
    assert (
        AuditEvent.objects.get(event_type="DISPOSED", item_id=first.pk).extra["retention_version"]
        == 1
    )


def test_the_first_version_governs_work_that_ended_before_any_schedule(officer):
    (item,) = admitted_items({"a.pdf": _letter()}, detect=False)
    item_close(item_id=item.pk, reason_code=CloseReason.UNPROCESSABLE, note="", actor=officer)
    policy = _publish(30)
    item.refresh_from_db()

    assert retention_governing(item) == policy
    assert disposal_run(now=_days_after_end(item, 31)).documents == 1


def test_a_live_item_is_never_disposed_of():
    (item,) = admitted_items({"a.pdf": _letter()})
    _publish(1)

    assert disposal_run(now=db_now() + dt.timedelta(days=3650)).documents == 0
    assert _exists("originals", item.document.original_path)


def test_a_file_shared_with_a_live_document_waits_for_it(officer):
    # Given the same PDF in two submissions (one stored file), one item closed
    same = _letter()
    (closed,) = admitted_items({"a.pdf": same}, detect=False)
    (live,) = admitted_items({"a.pdf": same}, detect=False)
    assert closed.document.original_path == live.document.original_path
    item_close(item_id=closed.pk, reason_code=CloseReason.WITHDRAWN, note="", actor=officer)
    _publish(30)

    # When the pass runs past the closed item's period
    report = disposal_run(now=_days_after_end(closed, 31))

    # Then the live document keeps its original, and the closed one waits (truthfully
    # retained) instead of being marked disposed while its bytes remain
    assert (report.documents, report.shared) == (0, 1)
    assert _exists("originals", live.document.original_path)
    assert not Disposal.objects.exists()


def test_dispose_dry_run_lists_what_would_go_and_changes_nothing(officer):
    (item,) = admitted_items({"a.pdf": _letter()}, detect=False)
    item_close(item_id=item.pk, reason_code=CloseReason.WITHDRAWN, note="", actor=officer)
    _publish(30)
    # The pass reads the database clock: the item ended 31 days ago.
    ReviewItem.objects.filter(pk=item.pk).update(state_changed_at=Now() - dt.timedelta(days=31))
    events = AuditEvent.objects.count()

    out = StringIO()
    call_command("dispose", "--dry-run", stdout=out)

    assert f"would dispose {item.document_id} item={item.pk} US-FED retention v1" in out.getvalue()
    assert "would dispose of 1 document(s)" in out.getvalue()
    assert _exists("originals", item.document.original_path)
    assert not Disposal.objects.exists()
    assert AuditEvent.objects.count() == events

    call_command("dispose", stdout=StringIO())

    assert not _exists("originals", item.document.original_path)
    assert Disposal.objects.filter(document=item.document).count() == 3


def test_a_second_pass_disposes_of_nothing_twice(officer):
    (item,) = admitted_items({"a.pdf": _letter()}, detect=False)
    item_close(item_id=item.pk, reason_code=CloseReason.WITHDRAWN, note="", actor=officer)
    _publish(30)
    later = _days_after_end(item, 31)

    assert disposal_run(now=later).documents == 1
    assert disposal_run(now=later).documents == 0
    assert AuditEvent.objects.filter(event_type="DISPOSED").count() == 1


def test_a_deletion_cut_short_after_its_record_committed_is_finished_by_the_next_pass(officer):
    from review.services import retention

    (item,) = admitted_items({"a.pdf": _letter()}, detect=False)
    item_close(item_id=item.pk, reason_code=CloseReason.WITHDRAWN, note="", actor=officer)
    _publish(30)
    later = _days_after_end(item, 31)
    # The worker dies right after the disposal's transaction commits, before deleting.
    retention._dispose_batch(actor="system:test", now=later)
    assert _exists("originals", item.document.original_path)
    assert Disposal.objects.filter(deleted_at__isnull=True).count() == 3

    report = disposal_run(now=later)

    assert (report.documents, report.files_deleted) == (0, 1)
    assert not _exists("originals", item.document.original_path)
    assert not Disposal.objects.filter(deleted_at__isnull=True).exists()
    assert AuditEvent.objects.filter(event_type="DISPOSED").count() == 1


def test_daily_disposal_schedule_is_created_at_migrate_time():
    schedule = Schedule.objects.get(name="rrq-dispose")
    assert (schedule.func, schedule.schedule_type) == (
        "review.tasks.dispose_expired",
        Schedule.DAILY,
    )


# -- the admin --------------------------------------------------------------------------


def _form(**fields):
    return {
        "jurisdiction": "US-FED",
        "originals_days": "2555",
        "previews_days": "30",
        "derivatives_days": "3650",
        "note": "records schedule GRS 4.2",
        **fields,
    }


def test_compliance_publishes_a_schedule_and_a_change_is_a_new_version(officer_client):
    added = officer_client.post("/admin/review/retentionpolicy/add/", _form())
    assert added.status_code == 302, added.content
    v1 = RetentionPolicy.objects.get()
    assert (v1.version, v1.originals_days, v1.created_by) == (1, 2555, "user:olga")

    changed = officer_client.post(
        f"/admin/review/retentionpolicy/{v1.pk}/change/",
        _form(originals_days="3650", note="extended"),
    )

    assert changed.status_code == 302, changed.content
    v1.refresh_from_db()
    v2 = RetentionPolicy.objects.get(version=2)
    assert (v1.originals_days, v2.originals_days) == (2555, 3650)
    assert v2.jurisdiction_id == "US-FED"
    assert AuditEvent.objects.filter(event_type="RETENTION_PUBLISHED").count() == 2
    assert officer_client.get("/admin/review/disposal/").status_code == 200


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"previews_days": "4000"}, "previews_days", "at most as long as originals"),
        ({"originals_days": "0"}, "originals_days", "greater than or equal to 1"),
        ({"derivatives_days": "-3"}, "derivatives_days", ""),
        ({"derivatives_days": "99999"}, "derivatives_days", "less than or equal to 36500"),
        ({"note": ""}, "note", "required"),
    ],
)
def test_the_admin_refuses_a_schedule_it_cannot_keep(officer_client, fields, field, message):
    response = officer_client.post("/admin/review/retentionpolicy/add/", _form(**fields))

    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert field in errors and message in " ".join(errors[field])
    assert not RetentionPolicy.objects.exists()
