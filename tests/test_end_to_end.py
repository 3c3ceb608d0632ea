"""The whole pipeline through HTTP: submit, detect, claim, decide, approve, render, sign,
download, then read the story back from the audit trail."""

import csv
import hashlib
import io

import pymupdf
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client

from audit.clock import db_now
from review.models import Artifact, LegalHold
from review.pdf.sign import load_certificate, validate
from review.roles import COMPLIANCE_OFFICER, REVIEWER
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.intake.conftest import make_api_client, submit, upload
from tests.pipeline import review_over_http

SSN = "123-45-6789"
NAME = "Zebulon Quartermaine"
PDF = simple_pdf(
    [f"Requester {NAME}", f"SSN {SSN}", "Reply to jo@example.com", "Yours, the office"]
)


@pytest.fixture
def signed_document(db, django_capture_on_commit_callbacks):
    api = make_api_client("foia-portal")
    with django_capture_on_commit_callbacks(execute=True):
        body = submit(api, files=[upload("letter.pdf", PDF)], search_terms=[NAME]).json()
    document_id = body["documents"][0]["id"]

    review_over_http(django_capture_on_commit_callbacks, user_create("rita", role=REVIEWER))
    return api, document_id


def test_submitted_pdf_comes_back_redacted_signed_and_fully_audited(signed_document):
    api, document_id = signed_document

    status = api.get(f"/api/v1/documents/{document_id}/").json()
    assert status["state"] == "signed"
    categories = {row["category"] for row in status["redaction_log"]}
    assert {"social security number", "email address", "requested term"} <= categories

    download = api.get(f"/api/v1/documents/{document_id}/output")
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith("attachment")
    assert download["X-Content-Type-Options"] == "nosniff"
    data = download.content
    assert hashlib.sha256(data).hexdigest() == status["output_sha256"]
    assert Artifact.objects.get(document_id=document_id).signed_sha256 == status["output_sha256"]
    with pymupdf.open(stream=data, filetype="pdf") as doc:
        text = doc[0].get_text()
    assert SSN not in text and NAME not in text and "jo@example.com" not in text
    assert "Yours, the office" in text
    assert validate(data, [load_certificate(settings.SIGNING_CERT_FILE)]).ok

    events = api.get(f"/api/v1/documents/{document_id}/events/").json()
    assert [e["event_type"] for e in events] == [
        "TASK_ADMITTED",
        "PROPOSED",
        "CLAIMED",
        "PROPOSAL_REVISED",
        "APPROVED",
        "RENDERED",
        "SIGNED",
        "DOWNLOADED",
    ]
    assert [e["sequence"] for e in events] == sorted(e["sequence"] for e in events)
    assert events[-2]["output_hash"] == status["output_sha256"]
    assert all(SSN not in str(e) and NAME not in str(e) for e in events)
    call_command("verify_audit")


def test_redaction_log_csv_lists_page_reason_category_and_count(signed_document):
    api, document_id = signed_document
    response = api.get(f"/api/v1/documents/{document_id}/redaction-log.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert {"page", "legal_reason", "exemption_title", "category", "count"} == set(rows[0])
    assert {r["category"] for r in rows} >= {
        "social security number",
        "email address",
        "requested term",
    }
    assert all(r["legal_reason"] == "(b)(6)" and r["page"] == "1" for r in rows)
    assert {r["exemption_title"] for r in rows} == {"Personal privacy"}
    assert SSN not in response.content.decode()


def test_legal_hold_blocks_download_through_the_api_and_the_compliance_link(signed_document):
    api, document_id = signed_document
    officer = user_create("olga", role=COMPLIANCE_OFFICER)
    web = Client()
    web.force_login(officer)
    assert web.get(f"/documents/{document_id}/output").status_code == 200

    LegalHold.objects.create(
        document_id=document_id, reason="subpoena", placed_by="user:olga", placed_at=db_now()
    )

    refused = api.get(f"/api/v1/documents/{document_id}/output")
    assert refused.status_code == 423
    assert refused.json()["code"] == "hold_active"
    assert web.get(f"/documents/{document_id}/output").status_code == 423


def test_output_is_not_downloadable_before_signing(db):
    api = make_api_client("early-portal")
    body = submit(api, files=[upload("letter.pdf", PDF)]).json()
    response = api.get(f"/api/v1/documents/{body['documents'][0]['id']}/output")
    assert response.status_code == 409
    assert response.json()["code"] == "not_signed"
