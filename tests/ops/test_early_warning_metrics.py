"""The early-warning series: each one moves when the thing it measures happens, seen
through a real scrape of GET /metrics."""

import datetime as dt
import uuid

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.db.models.functions import Now

from intake.models import Submission
from review.health import run_health
from review.models import Claim, DeadLetter, Hold, ItemState, ReviewItem
from review.roles import COMPLIANCE_OFFICER, REVIEWER
from review.services.claims import claim_next
from review.services.failures import dead_letter_record
from review.services.recovery import item_close
from review.sweeps import sweep_pass
from review.tasks import detect_document, render_and_sign
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items, approve, approved_item, decide_all
from tests.ops.test_metrics import _families, _scrape, _value

pytestmark = pytest.mark.django_db


def _letter() -> bytes:
    return simple_pdf([f"Requester SSN 123-45-6789 ref {uuid.uuid4().hex}"])


def _counter(families: dict, name: str, **labels: str) -> float:
    return _value(families, name, f"{name}_total", **labels)


def test_oldest_open_item_age_counts_from_admission_and_ignores_finished_items():
    assert _value(_families(_scrape()), *["rrq_oldest_open_item_age_seconds"] * 2) == 0
    old, young = admitted_items({"a.pdf": _letter(), "b.pdf": _letter()})
    ReviewItem.objects.filter(pk=old.pk).update(created_at=Now() - dt.timedelta(days=3))

    age = _value(_families(_scrape()), *["rrq_oldest_open_item_age_seconds"] * 2)
    assert 3 * 86400 <= age < 3 * 86400 + 120

    # A held item is still open; a failed one is finished.
    ReviewItem.objects.filter(pk=old.pk).update(hold=Hold.SLA_BREACH)
    assert _value(_families(_scrape()), *["rrq_oldest_open_item_age_seconds"] * 2) >= 3 * 86400
    officer = user_create(role=COMPLIANCE_OFFICER)
    item_close(item_id=old.pk, reason_code="withdrawn", note="", actor=officer)
    assert _value(_families(_scrape()), *["rrq_oldest_open_item_age_seconds"] * 2) < 120


def test_a_document_detection_cannot_open_is_counted_as_a_parse_failure():
    (item,) = admitted_items({"a.pdf": _letter()}, detect=False)
    before = _counter(_families(_scrape()), "rrq_parse_failures")
    # The stored original is damaged after admission (a storage fault): it no longer opens.
    storage = storages["originals"]
    storage.delete(item.document.original_path)
    storage.save(item.document.original_path, ContentFile(b"%PDF-1.7 not really a pdf"))

    detect_document(item.pk)

    assert _counter(_families(_scrape()), "rrq_parse_failures") == before + 1
    assert ReviewItem.objects.get(pk=item.pk).hold == Hold.DEAD_LETTER


def test_a_redelivered_detection_is_counted_as_a_duplicate_and_changes_nothing():
    (item,) = admitted_items({"a.pdf": _letter()})
    before = _families(_scrape())

    detect_document(item.pk)  # the broker hands the finished task out again

    after = _families(_scrape())
    label = {"task": "detect_document"}
    grown = _counter(after, "rrq_duplicate_deliveries", **label) - _counter(
        before, "rrq_duplicate_deliveries", **label
    )
    assert grown == 1
    assert _counter(after, "rrq_duplicate_deliveries", task="render_and_sign") == _counter(
        before, "rrq_duplicate_deliveries", task="render_and_sign"
    )
    assert item.document.proposals.count() == 1


def test_a_redelivered_render_of_a_signed_item_is_counted_as_a_duplicate():
    item = approved_item(_letter())
    render_and_sign(item.pk)
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.SIGNED
    before = _counter(_families(_scrape()), "rrq_duplicate_deliveries", task="render_and_sign")

    render_and_sign(item.pk)

    after = _counter(_families(_scrape()), "rrq_duplicate_deliveries", task="render_and_sign")
    assert after == before + 1
    assert item.document.artifacts.count() == 1


def test_an_expired_lease_counts_as_resolved_once_the_item_is_approved_under_a_later_claim():
    (item,) = admitted_items({"a.pdf": _letter()})
    first = claim_next(reviewer=user_create(role=REVIEWER))
    Claim.objects.filter(pk=first.pk).update(
        claimed_at=Now() - dt.timedelta(minutes=30), expires_at=Now() - dt.timedelta(seconds=1)
    )
    assert sweep_pass().reclaimed == 1
    resolved = "rrq_lease_expirations_resolved"
    assert _counter(_families(_scrape()), resolved) == 0

    # Claimed again by someone else: not resolved yet, the review has not finished
    reviewer = user_create(role=REVIEWER)
    second = claim_next(reviewer=reviewer)
    assert _counter(_families(_scrape()), resolved) == 0

    approve(item, second, reviewer, decide_all(item, second, reviewer))

    families = _families(_scrape())
    assert _counter(families, resolved) == 1
    assert _counter(families, "rrq_claim_lease_expirations") == 1


def test_detection_time_is_observed_as_the_accepted_to_proposed_transition(
    django_capture_on_commit_callbacks,
):
    label = {"transition": "accepted_to_proposed"}
    before = _value(
        _families(_scrape()), "rrq_transition_seconds", "rrq_transition_seconds_count", **label
    )
    (item,) = admitted_items({"a.pdf": _letter()}, detect=False)

    with django_capture_on_commit_callbacks(execute=True):
        detect_document(item.pk)

    after = _value(
        _families(_scrape()), "rrq_transition_seconds", "rrq_transition_seconds_count", **label
    )
    assert after == before + 1


def test_dead_letter_age_runs_from_the_failure_not_from_the_escalation():
    # Given an item that failed for good two hours ago, escalated by the sweeper just now
    (item,) = admitted_items({"a.pdf": _letter()}, detect=False)
    dead_letter_record(item_id=item.pk, reason="PermanentFailure", actor="system:test")
    DeadLetter.objects.update(failed_at=Now() - dt.timedelta(hours=2))
    assert sweep_pass().escalated == 1
    assert DeadLetter.objects.get().escalated_at is not None

    # Then the metric and the run health both count from the failure
    age = _value(_families(_scrape()), *["rrq_dead_letter_oldest_age_seconds"] * 2)
    assert 2 * 3600 <= age < 2 * 3600 + 120
    (health,) = run_health(submissions=Submission.objects.filter(pk=item.document.submission_id))
    (stall,) = [s for s in health.stalls if s.handoff == "dead_letter"]
    assert 2 * 3600 <= stall.oldest_age_seconds < 2 * 3600 + 120
