import threading
import uuid

import pymupdf
import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django_q.conf import Conf
from django_q.models import OrmQ

from audit.models import AuditEvent
from audit.services import verify_chain
from intake.models import Document, RejectedSubmission, Submission, ThrottleWindow
from intake.services.throttle import throttle_hit
from review.models import ItemState, Outbox, ReviewItem
from tests.intake.conftest import (
    certificate_encrypted_pdf_bytes,
    encrypted_pdf_bytes,
    make_api_client,
    owner_password_pdf_bytes,
    pdf_bytes,
    submit,
    upload,
)


def _error_codes(response) -> set[str]:
    return {e["code"] for e in response.json()["errors"]}


@pytest.mark.django_db
def test_submission_is_admitted_with_documents_items_and_events(api):
    response = submit(api, files=[upload("a.pdf", pdf_bytes()), upload("b.pdf", pdf_bytes(2))])

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["external_ref"] == "FOIA-2026-001"
    assert body["jurisdiction"] == "US-FED"
    assert {d["object_id"] for d in body["documents"]} == {"a.pdf", "b.pdf"}
    for document in body["documents"]:
        assert document["state"] == ItemState.ACCEPTED
        assert len(document["source_sha256"]) == 64
        assert len(document["job_key"]) == 64
    submission = Submission.objects.get(pk=body["id"])
    assert submission.documents.count() == 2
    assert ReviewItem.objects.filter(document__submission=submission).count() == 2
    admitted = AuditEvent.objects.filter(event_type="TASK_ADMITTED", submission_id=submission.id)
    assert admitted.count() == 2


@pytest.mark.django_db
def test_admission_enqueues_detection_after_commit(api, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = submit(api)
    assert response.status_code == 201
    # One relay kick for the admission; detection's own after-commit work (its
    # accepted_to_proposed observation) runs inline after it under Q_SYNC.
    assert [getattr(c, "__name__", "") for c in callbacks].count("outbox_relay") == 1
    assert callbacks[0].__name__ == "outbox_relay"
    document = Document.objects.get(pk=response.json()["documents"][0]["id"])
    assert document.item.state == ItemState.PROPOSED  # Q_SYNC ran the detection task inline


@pytest.mark.django_db
def test_same_idempotency_key_replays_the_original_body_and_creates_nothing(api):
    first = submit(api, headers={"Idempotency-Key": "portal-42"})
    second = submit(api, headers={"Idempotency-Key": "portal-42"})

    assert first.status_code == 201
    assert second.status_code == 200
    assert second["Idempotent-Replayed"] == "true"
    assert second.json() == first.json()
    assert Submission.objects.count() == 1
    assert Document.objects.count() == 1
    assert AuditEvent.objects.filter(event_type="IDEMPOTENCY_BLOCK").count() == 1


@pytest.mark.django_db
def test_same_payload_without_key_is_recognized_as_a_duplicate(api):
    first = submit(api)
    second = submit(api)
    assert second.status_code == 200
    assert second.json()["id"] == first.json()["id"]
    assert Submission.objects.count() == 1


@pytest.mark.django_db
def test_reused_idempotency_key_with_a_different_payload_is_refused_with_409(api):
    submit(api, headers={"Idempotency-Key": "portal-43"})
    response = submit(api, headers={"Idempotency-Key": "portal-43"}, external_ref="OTHER")
    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_key_reused"
    assert Submission.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("case", "expected_code"),
    [
        ("zero_bytes", "empty_file"),
        ("text_named_pdf", "not_pdf"),
        ("encrypted", "encrypted"),
        ("truncated", "malformed"),
        ("too_many_pages", "too_many_pages"),
        ("user_unit", "user_unit"),
        ("too_large", "too_large"),
        ("unknown_jurisdiction", "unknown_jurisdiction"),
        ("duplicate_path", "duplicate_path"),
        ("missing_external_ref", "required"),
    ],
)
def test_bad_submission_gets_a_named_400_and_is_recorded_as_rejected(
    api, settings, case, expected_code
):
    settings.INTAKE_MAX_PAGES = 3
    fields, files = {}, None
    good = pdf_bytes()
    if case == "zero_bytes":
        files = [upload("empty.pdf", b"")]
    elif case == "text_named_pdf":
        files = [upload("notes.pdf", b"Just some plain text, not a PDF at all.\n")]
    elif case == "encrypted":
        files = [upload("sealed.pdf", encrypted_pdf_bytes())]
    elif case == "truncated":
        whole = pdf_bytes(3, text="A long enough line of text to make the file bigger " * 3)
        files = [upload("cut.pdf", whole[: len(whole) // 2])]
    elif case == "too_many_pages":
        files = [upload("long.pdf", pdf_bytes(4))]
    elif case == "user_unit":
        doc = pymupdf.open(stream=good, filetype="pdf")
        doc.xref_set_key(doc[0].xref, "UserUnit", "72")
        files = [upload("drawing.pdf", doc.tobytes())]
    elif case == "too_large":
        settings.INTAKE_MAX_FILE_BYTES = len(good) - 1
        files = [upload("big.pdf", good)]
    elif case == "unknown_jurisdiction":
        fields["jurisdiction"] = "ATLANTIS"
    elif case == "duplicate_path":
        files = [upload("a.pdf", good), upload("b.pdf", pdf_bytes(2))]
        fields["paths"] = ["dir/same.pdf", "dir/same.pdf"]
    elif case == "missing_external_ref":
        fields["external_ref"] = None

    response = submit(api, files=files, headers={"X-Correlation-ID": "corr-reject-1"}, **fields)

    assert response.status_code == 400, response.content
    body = response.json()
    assert set(body) == {"code", "message", "errors"}
    assert expected_code in _error_codes(response)
    assert all({"field", "code", "message"} <= set(e) for e in body["errors"])
    rejected = RejectedSubmission.objects.get()
    assert expected_code in rejected.reason_codes
    assert rejected.correlation_id == "corr-reject-1"
    assert rejected.client == api.user
    for file_info in rejected.files:
        assert set(file_info) == {"index", "sha256", "size"}
    event = AuditEvent.objects.get(event_type="SCHEMA_REJECT")
    assert event.correlation_id == "corr-reject-1"
    assert Submission.objects.count() == 0


@pytest.mark.django_db
def test_pdf_with_an_owner_password_only_is_admitted_and_its_permission_flags_noted(api):
    response = submit(api, files=[upload("restricted.pdf", owner_password_pdf_bytes())])

    assert response.status_code == 201, response.content
    (document,) = response.json()["documents"]
    assert Document.objects.get(pk=document["id"]).permission_flags is True
    status = api.get(f"/api/v1/documents/{document['id']}/").json()
    assert status["permission_flags"] is True


@pytest.mark.django_db
def test_pdf_that_needs_a_password_to_open_is_still_refused_as_encrypted(api):
    response = submit(api, files=[upload("sealed.pdf", encrypted_pdf_bytes())])

    assert response.status_code == 400
    assert _error_codes(response) == {"encrypted"}


@pytest.mark.django_db
def test_pdf_encrypted_for_certificates_is_refused_as_encrypted_and_says_so(api):
    response = submit(api, files=[upload("pubsec.pdf", certificate_encrypted_pdf_bytes())])

    assert response.status_code == 400
    assert _error_codes(response) == {"encrypted"}
    assert "Adobe.PubSec security handler" in response.content.decode()
    rejected = RejectedSubmission.objects.get()
    assert rejected.reason_codes == ["encrypted"]


@pytest.mark.django_db
def test_search_terms_are_never_echoed_or_recorded_in_events_or_rejections(api):
    secret = "Zebulon Quartermaine"
    response = submit(api, search_terms=[secret])
    submit(api, files=[upload("x.pdf", b"")], search_terms=[secret])
    assert secret not in response.content.decode()
    for event in AuditEvent.objects.all():
        assert secret not in str(event.extra) and secret not in event.canonical().decode()
    for rejected in RejectedSubmission.objects.all():
        assert secret not in str(rejected.errors) + str(rejected.files)


@pytest.mark.django_db
def test_client_cannot_read_another_clients_submission_or_documents(api):
    other = make_api_client()
    body = submit(api).json()
    document_id = body["documents"][0]["id"]

    assert api.get(f"/api/v1/submissions/{body['id']}/").status_code == 200
    assert api.get(f"/api/v1/documents/{document_id}/").status_code == 200
    assert other.get(f"/api/v1/submissions/{body['id']}/").status_code == 404
    assert other.get(f"/api/v1/documents/{document_id}/").status_code == 404
    assert other.get(f"/api/v1/documents/{document_id}/events/").status_code == 404
    assert other.get(f"/api/v1/submissions/{uuid.uuid4()}/").json()["code"] == "not_found"


@pytest.mark.django_db
def test_a_token_request_reads_its_callers_roles_with_its_token_afresh_each_time(api):
    url = f"/api/v1/submissions/{submit(api).json()['id']}/"
    with CaptureQueriesContext(connection) as captured:
        assert api.get(url).status_code == 200

    statements = [query["sql"] for query in captured.captured_queries]
    assert not [sql for sql in statements if sql.startswith('SELECT "auth_group"."name"')]
    assert any("authtoken_token" in sql and "auth_user_groups" in sql for sql in statements)
    api.user.groups.clear()  # the intake role taken away counts on the very next request
    assert api.get(url).status_code == 403


@pytest.mark.django_db
def test_unauthenticated_request_is_refused(client):
    response = client.post("/api/v1/submissions/", {})
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


@pytest.mark.django_db
def test_client_over_its_rate_gets_429_with_retry_after_and_the_refusal_is_kept(api, settings):
    settings.INTAKE_THROTTLE_RATE = "2/min"
    responses = [submit(api, external_ref=f"R{n}") for n in range(3)]
    assert [r.status_code for r in responses] == [201, 201, 429]
    refused = responses[2]
    assert int(refused["Retry-After"]) > 0
    assert refused.json()["code"] == "throttled"
    rejected = RejectedSubmission.objects.get()
    assert (rejected.client, rejected.reason_codes) == (api.user, ["throttled"])
    assert AuditEvent.objects.filter(event_type="SCHEMA_REJECT").count() == 1


@pytest.mark.django_db
def test_correlation_id_is_echoed_and_carried_by_every_event_of_the_submission(
    api, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = submit(api, headers={"X-Correlation-ID": "portal-trace-77"})
    assert response["X-Correlation-ID"] == "portal-trace-77"
    events = AuditEvent.objects.filter(submission_id=response.json()["id"])
    assert {e.event_type for e in events} >= {"TASK_ADMITTED", "PROPOSED"}
    assert {e.correlation_id for e in events} == {"portal-trace-77"}


@pytest.mark.django_db
def test_malformed_correlation_id_is_replaced_by_a_fresh_one(api):
    response = submit(api, headers={"X-Correlation-ID": "bad id with spaces"})
    assert response.status_code == 201
    assert response["X-Correlation-ID"] != "bad id with spaces"
    assert response.json()["correlation_id"] == response["X-Correlation-ID"]


@pytest.mark.django_db
def test_document_status_and_events_expose_ids_and_hashes_only(api):
    body = submit(api).json()
    document_id = body["documents"][0]["id"]
    status = api.get(f"/api/v1/documents/{document_id}/").json()
    assert status["state"] == "accepted" and status["hold"] == "none"
    assert status["output_sha256"] is None
    events = api.get(f"/api/v1/documents/{document_id}/events/").json()
    assert [e["event_type"] for e in events] == ["TASK_ADMITTED"]
    assert "extra" not in events[0]


@pytest.mark.django_db
def test_schema_and_docs_pages_are_served(api):
    schema = api.get("/api/v1/schema/", headers={"Accept": "application/vnd.oai.openapi+json"})
    assert schema.status_code == 200
    assert "/api/v1/submissions/" in schema.json()["paths"]
    docs = api.get("/api/v1/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    assert "/static/drf_spectacular_sidecar/" in page  # Swagger UI served locally
    assert "jsdelivr" not in page and "unpkg" not in page


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_identical_posts_create_exactly_one_submission():
    api = make_api_client("retrying-portal")
    data = pdf_bytes()
    statuses: list[int] = []
    barrier = threading.Barrier(20)

    def post() -> None:
        try:
            barrier.wait()
            response = submit(
                api, files=[upload("same.pdf", data)], headers={"Idempotency-Key": "storm-1"}
            )
            statuses.append(response.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [200] * 19 + [201]
    # The 19 that lost wrote nothing: each one's write batch failed on the submission's
    # key, its last row, and took every earlier row of the batch with it.
    assert Submission.objects.count() == 1
    assert Document.objects.count() == 1
    assert ReviewItem.objects.count() == 1
    assert Outbox.objects.count() == 1
    assert AuditEvent.objects.filter(event_type="TASK_ADMITTED").count() == 1
    assert verify_chain().ok


@pytest.mark.django_db
def test_admission_statements_do_not_grow_with_the_number_of_files(
    api, django_capture_on_commit_callbacks
):
    def statements(files: int) -> int:
        uploads = [upload(f"{n}.pdf", pdf_bytes(text=uuid.uuid4().hex)) for n in range(files)]
        with CaptureQueriesContext(connection) as captured:
            # The after-commit relay is not counted: it runs after the answer is ready.
            with django_capture_on_commit_callbacks(execute=False):
                response = submit(api, files=uploads, external_ref=uuid.uuid4().hex)
        assert response.status_code == 201, response.content
        return len(captured.captured_queries)

    statements(1)  # the first request of a throttle window also forgets the earlier ones
    assert statements(12) == statements(1)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_admission_writes_all_its_rows_in_one_statement(monkeypatch):
    monkeypatch.setattr(Conf, "SYNC", False)  # as deployed: the ORM broker's queue table
    api = make_api_client("one-trip-portal")
    with CaptureQueriesContext(connection) as captured:
        response = submit(api, files=[upload(f"{n}.pdf", pdf_bytes(text=str(n))) for n in range(3)])
    assert response.status_code == 201, response.content
    writes = [q["sql"] for q in captured.captured_queries if "INSERT" in q["sql"]]
    assert len(writes) == 2  # the throttle's count, and the admission's one batch
    batch = writes[1]
    for table in ["intake_document", "review_reviewitem", "review_outbox", "django_q_ormq"]:
        assert f'INSERT INTO "{table}"' in batch
    assert batch.count("SELECT audit_append(") == 3
    assert batch.rstrip().split(";\n")[-1].startswith('INSERT INTO "intake_submission"')
    item = ReviewItem.objects.get(document_id=response.json()["documents"][0]["id"])
    assert item.created_at is not None and item.document.created_at is not None
    assert set(OrmQ.objects.values_list("key", flat=True)) == {"pii-default"}
    assert verify_chain().ok


@pytest.mark.postgres
@pytest.mark.django_db
def test_throttle_counts_are_kept_out_of_the_write_ahead_log():
    """An unlogged table: counting a request adds no WAL, so the commit of a count does not
    wait for a flush; a crash empties it, and every client starts a fresh window."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relpersistence FROM pg_class WHERE oid = %s::regclass",
            [ThrottleWindow._meta.db_table],
        )
        assert cursor.fetchone() == ("u",)


@pytest.mark.django_db
def test_a_new_throttle_window_lets_the_client_in_again_and_forgets_the_old_one(api):
    client_id, hour = api.user.pk, 1_800_000_000  # a window start for "/hour"
    answers = [throttle_hit(client_id=client_id, rate="2/hour", now=hour + s) for s in (1, 2, 3)]
    assert answers == [(True, 3599), (True, 3598), (False, 3597)]
    assert throttle_hit(client_id=client_id, rate="2/hour", now=hour + 3600) == (True, 3600)
    assert list(ThrottleWindow.objects.values_list("window_start", "hits")) == [(hour + 3600, 1)]
