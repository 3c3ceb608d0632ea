"""Clean errors: malformed credentials, oversize requests, unsafe paths and blank fields
get the documented error shape with a 4xx, never a 500 or Django's HTML page, and a
refused submission is kept as a rejected submission with its reason."""

import re

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from audit.models import AuditEvent
from intake.apis import SubmissionInSerializer
from intake.models import RejectedSubmission, Submission
from intake.roles import INTAKE_CLIENT
from review.roles import REVIEWER
from testkit.builders import user_create
from tests.intake.conftest import URL, pdf_bytes, upload

pytestmark = pytest.mark.django_db

UUID = "00000000-0000-0000-0000-000000000001"
# Every page and endpoint of the site, with ids that need not exist: the credentials are
# refused before anything looks an id up.
EVERY_URL = [
    ("get", "/"),
    ("post", "/claim-next/"),
    ("get", "/items/1/"),
    ("get", "/items/1/pages/0.png"),
    ("post", "/items/1/decisions/"),
    ("post", "/items/1/heartbeat/"),
    ("post", "/items/1/claim-again/"),
    ("post", "/items/1/release/"),
    ("post", "/items/1/approve/"),
    ("post", "/items/1/escalate/"),
    ("get", "/ops/"),
    ("get", f"/ops/runs/{UUID}/"),
    ("get", "/ops/items/1/"),
    ("get", f"/documents/{UUID}/output"),
    ("get", f"/documents/{UUID}/redaction-log.csv"),
    ("post", "/api/v1/submissions/"),
    ("get", f"/api/v1/submissions/{UUID}/"),
    ("get", f"/api/v1/submissions/{UUID}/health"),
    ("get", f"/api/v1/documents/{UUID}/"),
    ("get", f"/api/v1/documents/{UUID}/events/"),
    ("get", f"/api/v1/documents/{UUID}/evidence"),
    ("get", f"/api/v1/documents/{UUID}/output"),
    ("get", f"/api/v1/documents/{UUID}/redaction-log.csv"),
    ("get", "/api/v1/audit/"),
    ("get", "/api/v1/schema/"),
    ("get", "/api/v1/docs/"),
    ("get", "/admin/"),
    ("get", "/accounts/login/"),
    ("get", "/metrics"),
]
BAD = ["\x00", "\x01", "\n", "\x7f", "\x9b"]


def _shape(response) -> dict:
    body = response.json()
    assert set(body) == {"code", "message", "errors"}
    return body


@pytest.mark.parametrize(("method", "url"), EVERY_URL)
@pytest.mark.parametrize("bad", BAD, ids=[f"U+{ord(c):04X}" for c in BAD])
def test_control_character_in_the_token_answers_401_on_every_page_and_endpoint(method, url, bad):
    token = Token.objects.create(user=user_create(role=INTAKE_CLIENT)).key
    client = Client(HTTP_AUTHORIZATION=f"Token {token[:20]}{bad}{token[20:]}")

    response = getattr(client, method)(url)

    assert response.status_code == 401
    assert _shape(response)["code"] == "malformed_credentials"
    assert not AuditEvent.objects.exists()


@pytest.mark.parametrize(("method", "url"), EVERY_URL)
def test_nul_byte_in_the_session_cookie_answers_400_and_clears_it(method, url):
    client = Client()
    client.force_login(user_create(role=REVIEWER))
    key = client.cookies["sessionid"].value

    response = getattr(client, method)(url, HTTP_COOKIE=f"sessionid={key[:8]}\x00{key[8:]}")

    assert response.status_code == 400
    assert _shape(response)["code"] == "malformed_cookie"
    assert response.cookies["sessionid"].value == ""


def _api():
    portal = user_create("portal", role=INTAKE_CLIENT)
    return Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=portal).key}")


def _rejection(code: str) -> RejectedSubmission:
    rejected = RejectedSubmission.objects.get()
    assert rejected.reason_codes == [code]
    event = AuditEvent.objects.get(event_type="SCHEMA_REJECT")
    assert event.extra["rejected_submission"] == rejected.pk
    return rejected


def test_more_files_than_allowed_answer_413_and_are_recorded_as_rejected(settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 3
    files = [upload(f"f{n}.pdf", pdf_bytes()) for n in range(4)]

    response = _api().post(
        URL, {"external_ref": "FOIA-9", "jurisdiction": "US-FED", "files": files}
    )

    assert response.status_code == 413
    body = _shape(response)
    assert body["code"] == "request_too_large"
    assert body["errors"] == [
        {"field": "files", "code": "too_many_files", "message": "at most 3 files in one submission"}
    ]
    assert _rejection("too_many_files").client.username == "portal"
    assert not Submission.objects.exists()


def test_form_field_over_the_memory_limit_answers_413_and_is_recorded(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = _api().post(
        URL,
        {
            "external_ref": "F" * 2000,
            "jurisdiction": "US-FED",
            "files": [upload("a.pdf", pdf_bytes())],
        },
        HTTP_IDEMPOTENCY_KEY="portal-req-1",
    )

    assert response.status_code == 413
    assert _shape(response)["errors"][0]["code"] == "field_too_large"
    assert _rejection("field_too_large").idempotency_key == "portal-req-1"


def test_more_fields_than_allowed_answer_413_and_are_recorded(settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 5

    response = _api().post(
        URL,
        {
            "external_ref": "FOIA-9",
            "jurisdiction": "US-FED",
            "search_terms": [f"term {n}" for n in range(10)],
            "files": [upload("a.pdf", pdf_bytes())],
        },
    )

    assert response.status_code == 413
    assert _shape(response)["errors"][0]["code"] == "too_many_fields"
    _rejection("too_many_fields")


def test_oversize_request_from_a_session_gets_the_error_shape_and_records_nothing(settings):
    # A session is refused anyway; its body is read for the CSRF check first.
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 1
    client = Client()
    client.force_login(user_create(role=REVIEWER))
    files = [upload(f"f{n}.pdf", pdf_bytes()) for n in range(2)]

    response = client.post(URL, {"external_ref": "X", "jurisdiction": "US-FED", "files": files})

    assert response.status_code in (403, 413)
    _shape(response)
    assert not RejectedSubmission.objects.exists() and not AuditEvent.objects.exists()


@pytest.mark.parametrize(
    ("path", "named"),
    [
        ("2026/letter\n.pdf", "U+000A"),
        ("2026/\u202efdp.txt", "U+202E"),
        ("2026/\u2066letter.pdf", "U+2066"),
        ("2026/let\x1bter.pdf", "U+001B"),
    ],
)
def test_paths_refuse_control_and_bidirectional_override_characters(path, named):
    response = _api().post(
        URL,
        {
            "external_ref": "FOIA-9",
            "jurisdiction": "US-FED",
            "files": [upload("a.pdf", pdf_bytes())],
            "paths": [path],
        },
    )

    assert response.status_code == 400
    (problem,) = _shape(response)["errors"]
    assert problem["field"] == "paths[0]"
    assert problem["code"] == "invalid_path_characters"
    assert named in problem["message"] and path not in problem["message"]
    _rejection("invalid_path_characters")


def test_a_file_name_never_brings_a_bidirectional_override_into_the_object_id():
    # Django drops unprintable characters from upload file names before we see them.
    response = _api().post(
        URL,
        {
            "external_ref": "FOIA-9",
            "jurisdiction": "US-FED",
            "files": [upload("letter\u202efdp.pdf", pdf_bytes())],
        },
    )

    assert response.status_code == 201
    assert response.json()["documents"][0]["object_id"] == "letterfdp.pdf"


def _schema_pattern(field: str) -> str:
    schema = Client().get("/api/v1/schema/", {"format": "json"}).json()
    return schema["components"]["schemas"]["SubmissionIn"]["properties"][field]["pattern"]


@pytest.mark.parametrize("field", ["external_ref", "jurisdiction"])
@pytest.mark.parametrize("value", ["", " ", "\t \u3000", "FOIA 1", " x "])
def test_blank_fields_are_refused_exactly_where_the_schema_says(field, value):
    pattern = _schema_pattern(field)
    data = {"external_ref": "FOIA-1", "jurisdiction": "US-FED", field: value}
    serializer = SubmissionInSerializer(data={**data, "files": [upload("a.pdf", pdf_bytes())]})

    server_accepts_the_field = serializer.is_valid() or field not in serializer.errors

    assert server_accepts_the_field == bool(re.search(pattern, value))


def _claimed_by_rita():
    from review.services.claims import claim_next
    from testkit.corpus import simple_pdf
    from tests.factories import admitted_items

    (item,) = admitted_items({"letter.pdf": simple_pdf(["Nothing to withhold here."])})
    rita = user_create("rita", role=REVIEWER)
    claim = claim_next(reviewer=rita)
    client = Client()
    client.force_login(rita)
    return item, claim, client


def test_nul_byte_in_an_escalation_note_is_refused_clearly_and_writes_nothing():
    item, claim, client = _claimed_by_rita()
    events = AuditEvent.objects.count()

    response = client.post(
        f"/items/{item.pk}/escalate/",
        {
            "claim_id": claim.pk,
            "to_queue": "senior_review",
            "reason": "legal_question",
            "note": "see page\x00 2",
        },
        follow=True,
    )

    assert response.status_code == 200
    assert "control characters" in response.content.decode()
    assert AuditEvent.objects.count() == events


def test_nul_byte_in_a_drawn_mark_category_is_refused_in_the_error_shape():
    from review.selectors import latest_proposal

    item, claim, client = _claimed_by_rita()
    body = {
        "claim_id": claim.pk,
        "base_version": latest_proposal(item.document).version,
        "changes": {},
        "added": [
            {
                "page": 0,
                "left": 0.1,
                "top": 0.1,
                "width": 0.2,
                "height": 0.05,
                "category": "na\x00me",
                "reason": "(b)(6)",
            }
        ],
    }

    response = client.post(f"/items/{item.pk}/decisions/", body, content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_decision"
    assert "control characters" in response.json()["message"]


def test_decisions_over_the_body_limit_answer_413_and_save_nothing(settings):
    from review.models import Proposal
    from review.selectors import latest_proposal

    item, claim, client = _claimed_by_rita()
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 500
    version = latest_proposal(item.document).version
    body = {"claim_id": claim.pk, "base_version": version, "changes": {"x" * 600: {}}}

    response = client.post(f"/items/{item.pk}/decisions/", body, content_type="application/json")

    assert response.status_code == 413
    assert response.json()["code"] == "request_too_large"
    assert Proposal.objects.filter(document=item.document).count() == 1
