"""GET /metrics: who may read it, that it parses, that it agrees with the database, and
that nothing a document, a file name or a search term contains ever reaches it."""

import datetime as dt
import os
import subprocess
import sys
import uuid
from collections import Counter

import pytest
from django.db import transaction
from django.db.models.functions import Now
from django.test import Client
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from audit.models import AuditEvent
from review.models import Claim, DeadLetter, Hold, ItemState, Queue, ReviewItem
from review.roles import REVIEWER
from review.services.claims import claim_next
from review.services.failures import dead_letter_record
from review.services.transitions import item_transition
from review.sweeps import sweep_pass
from review.tasks import sweep
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items
from tests.intake.conftest import make_api_client, submit, upload
from tests.pipeline import review_over_http

URL = "/metrics"
TRANSITIONS = {
    "accepted_to_proposed",
    "proposed_to_in_review",
    "in_review_to_approved",
    "approved_to_signed",
}
LETTER = simple_pdf(["Requester SSN 123-45-6789", "Reply to jo@example.com"])


def _staff_client() -> Client:
    user = user_create()
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(user)
    return client


def _scrape(client: Client | None = None) -> str:
    response = (client or _staff_client()).get(URL)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    return response.content.decode()


def _families(body: str) -> dict:
    return {family.name: family for family in text_string_to_metric_families(body)}


def _value(families: dict, family: str, sample: str, **labels: str) -> float:
    (value,) = [
        s.value for s in families[family].samples if s.name == sample and s.labels == labels
    ]
    return value


# -- access ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_anonymous_request_without_credentials_is_refused_with_401():
    response = Client().get(URL)
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert b"rrq_" not in response.content


@pytest.mark.django_db
def test_logged_in_user_who_is_not_staff_is_refused_with_403():
    client = Client()
    client.force_login(user_create(role=REVIEWER))
    assert client.get(URL).status_code == 403


@pytest.mark.django_db
def test_staff_session_may_read_metrics():
    assert "rrq_items" in _scrape()


@pytest.mark.django_db
def test_configured_bearer_token_may_read_metrics(settings):
    settings.METRICS_TOKEN = "scrape-token-for-tests"
    response = Client().get(URL, headers={"Authorization": "Bearer scrape-token-for-tests"})
    assert response.status_code == 200
    assert b"rrq_items" in response.content


@pytest.mark.django_db
def test_wrong_token_is_refused_with_403(settings):
    settings.METRICS_TOKEN = "scrape-token-for-tests"
    for header in ("Bearer scrape-token-for-test", "Bearer scrape-token-for-tests-x", "Bearer ü"):
        assert Client().get(URL, headers={"Authorization": header}).status_code == 403


@pytest.mark.django_db
def test_token_access_is_off_while_no_token_is_configured(settings):
    settings.METRICS_TOKEN = ""
    assert Client().get(URL, headers={"Authorization": "Bearer "}).status_code == 401
    assert Client().get(URL, headers={"Authorization": "Bearer anything"}).status_code == 403


@pytest.mark.django_db
def test_only_get_is_allowed():
    assert _staff_client().post(URL).status_code == 405


# -- content ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_body_parses_and_carries_every_series_with_only_enum_labels():
    families = _families(_scrape())

    expected_types = {
        "rrq_items": "gauge",
        "rrq_dead_letters": "gauge",
        "rrq_dead_letter_oldest_age_seconds": "gauge",
        "rrq_claim_lease_expirations": "counter",
        "rrq_idempotency_blocks": "counter",
        "rrq_transition_seconds": "histogram",
        "rrq_admission_seconds": "histogram",
        "rrq_sweep_pass_seconds": "histogram",
        "rrq_oldest_open_item_age_seconds": "gauge",
        "rrq_parse_failures": "counter",
        "rrq_duplicate_deliveries": "counter",
        "rrq_lease_expirations_resolved": "counter",
    }
    assert {name: families[name].type for name in expected_types} == expected_types
    item_labels = {tuple(sorted(s.labels.items())) for s in families["rrq_items"].samples}
    assert item_labels == {
        (("hold", hold), ("queue", queue), ("state", state))
        for state in ItemState.values
        for queue in Queue.values
        for hold in Hold.values
    }
    transition_labels = {
        s.labels["transition"]
        for s in families["rrq_transition_seconds"].samples
        if s.name == "rrq_transition_seconds_count"
    }
    assert transition_labels == TRANSITIONS
    for name in ("rrq_dead_letters", "rrq_dead_letter_oldest_age_seconds"):
        assert [s.labels for s in families[name].samples] == [{}]
    duplicate_labels = {
        s.labels["task"] for s in families["rrq_duplicate_deliveries"].samples if "task" in s.labels
    }
    assert duplicate_labels == {"detect_document", "render_and_sign"}
    for name in (
        "rrq_claim_lease_expirations",
        "rrq_idempotency_blocks",
        "rrq_lease_expirations_resolved",
    ):
        assert [(s.name, s.labels) for s in families[name].samples] == [(f"{name}_total", {})]
    for name in ("rrq_admission_seconds", "rrq_sweep_pass_seconds"):
        assert {k for s in families[name].samples for k in s.labels} == {"le"}


@pytest.mark.django_db
def test_series_match_the_database_after_claims_expiries_dead_letters_and_replays():
    # Given two detected items, one claimed, its lease expired and reclaimed, then
    # claimed again; a third item parked in the dead-letter queue an hour ago; and a
    # submission sent twice with one Idempotency-Key.
    admitted_items({"a.pdf": LETTER, "b.pdf": LETTER})
    reviewer = user_create(role=REVIEWER)
    claim = claim_next(reviewer=reviewer)
    Claim.objects.filter(pk=claim.pk).update(
        claimed_at=Now() - dt.timedelta(minutes=30), expires_at=Now() - dt.timedelta(seconds=1)
    )
    assert sweep_pass().reclaimed == 1
    claim_next(reviewer=reviewer)
    (parked,) = admitted_items({"c.pdf": LETTER}, detect=False)
    dead_letter_record(item_id=parked.pk, reason="PermanentFailure", actor="system:test")
    DeadLetter.objects.update(failed_at=Now() - dt.timedelta(hours=1))
    api = make_api_client()
    for _ in range(2):
        submit(api, files=[upload("d.pdf", LETTER)], headers={"Idempotency-Key": "k-1"})

    # When the metrics are scraped
    families = _families(_scrape())

    # Then every count is the database's
    in_db = Counter(ReviewItem.objects.values_list("state", "queue", "hold"))
    assert in_db[(ItemState.IN_REVIEW, Queue.REVIEW, Hold.NONE)] == 1
    assert in_db[(ItemState.PROPOSED, Queue.REVIEW, Hold.NONE)] == 1
    assert in_db[(ItemState.ACCEPTED, Queue.REVIEW, Hold.DEAD_LETTER)] == 1
    scraped = {
        (s.labels["state"], s.labels["queue"], s.labels["hold"]): s.value
        for s in families["rrq_items"].samples
    }
    assert {key: value for key, value in scraped.items() if value} == {
        key: float(n) for key, n in in_db.items()
    }
    assert _value(families, "rrq_dead_letters", "rrq_dead_letters") == 1
    age = _value(
        families, "rrq_dead_letter_oldest_age_seconds", "rrq_dead_letter_oldest_age_seconds"
    )
    assert 3600 <= age < 3600 + 120
    assert (
        _value(families, "rrq_claim_lease_expirations", "rrq_claim_lease_expirations_total")
        == AuditEvent.objects.filter(event_type="CLAIM_RECLAIMED").count()
        == 1
    )
    assert (
        _value(families, "rrq_idempotency_blocks", "rrq_idempotency_blocks_total")
        == AuditEvent.objects.filter(event_type="IDEMPOTENCY_BLOCK").count()
        == 1
    )


@pytest.mark.django_db
def test_resolved_dead_letters_are_not_counted():
    (parked,) = admitted_items({"c.pdf": LETTER}, detect=False)
    dead_letter_record(item_id=parked.pk, reason="PermanentFailure", actor="system:test")
    DeadLetter.objects.update(resolved_at=Now())

    families = _families(_scrape())

    assert _value(families, "rrq_dead_letters", "rrq_dead_letters") == 0
    age = _value(
        families, "rrq_dead_letter_oldest_age_seconds", "rrq_dead_letter_oldest_age_seconds"
    )
    assert age == 0


# -- a full pipeline run -----------------------------------------------------------------


def _pipeline(capture, *, text: str, search_term: str, path: str, external_ref: str) -> str:
    """Submit → detect → claim → decide → approve → render → sign through HTTP, running
    on-commit callbacks (django-q2 is in sync mode), as the end-to-end test does."""
    api = make_api_client()
    with capture(execute=True):
        response = submit(
            api,
            files=[upload(path.rsplit("/", 1)[-1], simple_pdf([text, "SSN 123-45-6789"]))],
            paths=[path],
            search_terms=[search_term],
            external_ref=external_ref,
        )
    assert response.status_code == 201, response.content
    document_id = response.json()["documents"][0]["id"]

    review_over_http(capture, user_create(role=REVIEWER))
    assert api.get(f"/api/v1/documents/{document_id}/").json()["state"] == "signed"
    return document_id


def _counts(families: dict, family: str, **labels: str) -> float:
    return _value(families, family, f"{family}_count", **labels)


@pytest.mark.django_db
def test_a_signed_document_is_observed_in_every_transition_and_admission_histogram(
    django_capture_on_commit_callbacks,
):
    staff = _staff_client()
    before = _families(_scrape(staff))

    _pipeline(
        django_capture_on_commit_callbacks,
        text="Requester Zebulon Quartermaine",
        search_term="Zebulon Quartermaine",
        path="letters/letter.pdf",
        external_ref="FOIA-7",
    )
    sweep()  # the scheduled task, which observes its pass
    after = _families(_scrape(staff))

    for transition in TRANSITIONS:
        grown = _counts(after, "rrq_transition_seconds", transition=transition) - _counts(
            before, "rrq_transition_seconds", transition=transition
        )
        assert grown == 1, transition
    assert _counts(after, "rrq_admission_seconds") - _counts(before, "rrq_admission_seconds") == 1
    assert _counts(after, "rrq_sweep_pass_seconds") - _counts(before, "rrq_sweep_pass_seconds") == 1


@pytest.mark.django_db
def test_a_rolled_back_transition_is_not_observed(django_capture_on_commit_callbacks):
    (item,) = admitted_items({"a.pdf": LETTER})
    before = _families(_scrape())
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            item_transition(item_id=item.pk, to_state=ItemState.IN_REVIEW, actor="system:test")
            raise RuntimeError("roll back")
    after = _families(_scrape())

    label = {"transition": "proposed_to_in_review"}
    assert _counts(after, "rrq_transition_seconds", **label) == _counts(
        before, "rrq_transition_seconds", **label
    )


@pytest.mark.django_db
def test_no_canary_from_pdfs_file_names_or_search_terms_reaches_the_metrics(
    django_capture_on_commit_callbacks,
):
    canary = f"CANARY{uuid.uuid4().hex[:12]}"
    _pipeline(
        django_capture_on_commit_callbacks,
        text=f"Requester {canary} wrote",
        search_term=canary,
        path=f"{canary}/{canary}.pdf",
        external_ref=canary,
    )
    (parked,) = admitted_items({f"{canary}.pdf": LETTER}, search_terms=[canary], detect=False)
    dead_letter_record(item_id=parked.pk, reason="PermanentFailure", actor="system:test")
    sweep_pass()

    body = _scrape()

    assert "rrq_transition_seconds_count" in body
    assert canary.lower() not in body.lower()


def test_multiprocess_mode_sums_the_observations_of_every_process(tmp_path):
    # Given PROMETHEUS_MULTIPROC_DIR, as `make run` sets it for web and workers alike
    script = (
        "import django; django.setup()\n"
        "from intake import metrics as intake_metrics\n"
        "from review import metrics\n"
        "assert metrics.MULTIPROCESS\n"
        "intake_metrics.observe_admission(0.2)\n"
        "metrics.observe_transition('approved', 'signed', 3.0)\n"
    )
    env = {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings_test",
    }
    # When two processes each observe once
    for _ in range(2):
        subprocess.run([sys.executable, "-c", script], env=env, check=True, timeout=120)

    # Then a scrape through the multiprocess collector sees both
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(tmp_path))
    assert registry.get_sample_value("rrq_admission_seconds_count") == 2
    assert (
        registry.get_sample_value(
            "rrq_transition_seconds_count", {"transition": "approved_to_signed"}
        )
        == 2
    )
