import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from audit.models import AuditEvent
from intake.models import Document, RejectedSubmission, Submission
from tests.intake.conftest import encrypted_pdf_bytes, pdf_bytes


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.django_db
def test_create_intake_client_prints_a_working_token_once():
    output = _run("create_intake_client", "foia-portal")
    user = get_user_model().objects.get(username="foia-portal")
    token = Token.objects.get(user=user).key
    assert token in output
    assert not user.has_usable_password()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert api.get("/api/v1/documents/00000000-0000-0000-0000-000000000000/").status_code == 404
    with pytest.raises(CommandError, match="exists"):
        _run("create_intake_client", "foia-portal")


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "2024").mkdir()
    (tmp_path / "2025" / "q1").mkdir(parents=True)
    (tmp_path / "2024" / "letter.pdf").write_bytes(pdf_bytes(1, "twenty-four"))
    (tmp_path / "2025" / "q1" / "letter.pdf").write_bytes(pdf_bytes(2, "twenty-five"))
    (tmp_path / "notes.txt").write_text("not a pdf")
    (tmp_path / "2025" / "sealed.pdf").write_bytes(encrypted_pdf_bytes())
    return tmp_path


@pytest.mark.django_db
def test_ingest_folder_admits_nested_pdfs_as_one_run_and_records_the_rest(folder):
    _run("create_intake_client", "records-office")

    output = _run(
        "ingest_folder", str(folder), "--client", "records-office", "--jurisdiction", "UK"
    )

    assert "admitted 2, duplicates 0, rejected 2" in output
    assert "rejected notes.txt: not_pdf" in output
    assert "rejected 2025/sealed.pdf: encrypted" in output
    submission = Submission.objects.get()
    assert submission.channel == Submission.Channel.FOLDER
    documents = {d.object_id: d for d in submission.documents.all()}
    assert set(documents) == {"2024/letter.pdf", "2025/q1/letter.pdf"}
    assert documents["2024/letter.pdf"].job_key != documents["2025/q1/letter.pdf"].job_key
    rejected = RejectedSubmission.objects.get()
    assert sorted(rejected.reason_codes) == ["encrypted", "not_pdf"]


@pytest.mark.django_db
def test_ingesting_the_same_folder_twice_creates_nothing_new(folder):
    _run("create_intake_client", "records-office")
    _run("ingest_folder", str(folder), "--client", "records-office", "--jurisdiction", "UK")
    events_before = AuditEvent.objects.exclude(event_type="IDEMPOTENCY_BLOCK").count()

    output = _run(
        "ingest_folder", str(folder), "--client", "records-office", "--jurisdiction", "UK"
    )

    assert "admitted 0, duplicates 2, rejected 2" in output
    assert Submission.objects.count() == 1
    assert Document.objects.count() == 2
    assert RejectedSubmission.objects.count() == 1
    assert AuditEvent.objects.exclude(event_type="IDEMPOTENCY_BLOCK").count() == events_before
