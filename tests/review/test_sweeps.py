import datetime as dt

import pytest
from django.core.management import call_command
from django.db.models.functions import Now
from django_q.models import Schedule

from audit.clock import db_now
from audit.models import AuditEvent
from review.models import (
    Approval,
    Artifact,
    Claim,
    DeadLetter,
    Hold,
    ItemState,
    Outbox,
    Queue,
    ReviewItem,
)
from review.priority import BUMPED
from review.roles import REVIEWER
from review.services.claims import claim_next
from review.services.failures import dead_letter_record, failure_record
from review.sweeps import sweep_pass
from review.tasks import detect_document, reconcile_daily
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items

LETTER = simple_pdf(["Requester SSN 123-45-6789"])


def _claimed_item():
    (item,) = admitted_items({"a.pdf": LETTER})
    reviewer = user_create(role=REVIEWER)
    return item, claim_next(reviewer=reviewer)


def _events(kind: str) -> int:
    return AuditEvent.objects.filter(event_type=kind).count()


@pytest.mark.django_db
def test_sweeper_schedule_is_created_at_migrate_time():
    schedule = Schedule.objects.get(name="rrq-sweep")
    assert schedule.func == "review.tasks.sweep"
    assert schedule.schedule_type == Schedule.MINUTES and schedule.minutes == 1


@pytest.mark.django_db
def test_outbox_relay_and_daily_reconcile_schedules_are_created_at_migrate_time():
    relay = Schedule.objects.get(name="rrq-outbox-relay")
    assert (relay.func, relay.schedule_type, relay.minutes) == (
        "review.tasks.relay_outbox",
        Schedule.MINUTES,
        1,
    )
    daily = Schedule.objects.get(name="rrq-reconcile")
    assert (daily.func, daily.schedule_type) == ("review.tasks.reconcile_daily", Schedule.DAILY)
    assert reconcile_daily().startswith("admitted=")


@pytest.mark.django_db
def test_expired_claim_is_reclaimed_exactly_once_and_requeued_once():
    item, claim = _claimed_item()
    Claim.objects.filter(pk=claim.pk).update(
        claimed_at=Now() - dt.timedelta(minutes=30), expires_at=Now() - dt.timedelta(seconds=1)
    )

    first = sweep_pass()
    second = sweep_pass()

    assert (first.reclaimed, second.reclaimed) == (1, 0)
    claim.refresh_from_db()
    assert claim.outcome == Claim.Outcome.EXPIRED
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.PROPOSED
    event = AuditEvent.objects.get(event_type="CLAIM_RECLAIMED")
    assert event.extra["previous_owner"] == claim.reviewer.username


@pytest.mark.django_db
def test_unexpired_claim_is_left_alone():
    _claimed_item()
    assert sweep_pass().reclaimed == 0
    assert _events("CLAIM_RECLAIMED") == 0


@pytest.mark.django_db
def test_three_failures_give_requeued_requeued_dead_lettered(django_capture_on_commit_callbacks):
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    # The failures are reported from inside a delivery of the admission's detection row.
    Outbox.objects.filter(item=item).update(sent_at=db_now())
    outcomes = []
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            outcomes.append(
                failure_record(
                    item_id=item.pk,
                    reason="OperationalError",
                    permanent=False,
                    retry_task="review.tasks.detect_document",
                    actor="service:detector",
                )
            )
    assert outcomes == ["requeued", "requeued", "dead_lettered"]
    assert DeadLetter.objects.filter(item=item).count() == 1
    item.refresh_from_db()
    assert (item.attempts, item.hold) == (3, Hold.DEAD_LETTER)
    assert _events("REVIEW_FAILURE") == 3 and _events("MOVED_TO_DLQ") == 1
    # Each requeue armed the detection row again, due after its backoff: nothing was sent.
    (retry,) = Outbox.objects.filter(item=item, task=Outbox.Task.DETECT)
    assert retry.reason.startswith("retry") and retry.done_at is None
    assert retry.sent_at is None and retry.due_at > db_now()


@pytest.mark.django_db
def test_permanent_failure_dead_letters_at_once():
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    outcome = failure_record(
        item_id=item.pk,
        reason="corrupt_file",
        permanent=True,
        retry_task="review.tasks.detect_document",
        actor="service:detector",
    )
    assert outcome == "dead_lettered"
    assert DeadLetter.objects.get(item=item).last_reason == "corrupt_file"


@pytest.mark.django_db
def test_retry_that_would_pass_the_statutory_deadline_goes_to_a_human():
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    submission = item.document.submission
    type(submission).objects.filter(pk=submission.pk).update(
        statutory_deadline=db_now() + dt.timedelta(seconds=5)
    )
    outcome = failure_record(
        item_id=item.pk,
        reason="TimeoutError",
        permanent=False,
        retry_task="review.tasks.detect_document",
        actor="service:detector",
    )
    assert outcome == "escalated"
    assert _events("DEADLINE_ESCALATION") == 1
    assert ReviewItem.objects.get(pk=item.pk).hold == Hold.DEAD_LETTER


@pytest.mark.django_db
def test_breached_item_is_held_in_compliance_review_and_never_released():
    item, claim = _claimed_item()
    ReviewItem.objects.filter(pk=item.pk).update(deadline=Now() - dt.timedelta(minutes=1))

    report = sweep_pass()

    assert report.breached == 1
    item.refresh_from_db()
    assert (item.hold, item.queue, item.state) == (
        Hold.SLA_BREACH,
        Queue.COMPLIANCE_REVIEW,
        ItemState.PROPOSED,
    )
    assert Claim.objects.get(pk=claim.pk).ended_at is not None
    assert not Approval.objects.exists() and not Artifact.objects.exists()
    assert _events("SLA_BREACHED") == 1
    assert sweep_pass().breached == 0
    # A held item is not offered to anyone until a compliance officer lifts the hold.
    assert claim_next(reviewer=user_create(role=REVIEWER)) is None


@pytest.mark.django_db
def test_item_near_its_deadline_is_bumped_to_the_top_once():
    (item,) = admitted_items({"a.pdf": LETTER})
    ReviewItem.objects.filter(pk=item.pk).update(deadline=Now() + dt.timedelta(minutes=30))
    assert sweep_pass().bumped == 1
    assert sweep_pass().bumped == 0
    item.refresh_from_db()
    assert item.priority == BUMPED
    assert (
        0 < AuditEvent.objects.get(event_type="PRIORITY_BUMPED").extra["remaining_seconds"] <= 1800
    )


@pytest.mark.django_db
def test_a_bump_before_detection_is_not_undone_by_detection():
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    ReviewItem.objects.filter(pk=item.pk).update(deadline=Now() + dt.timedelta(minutes=30))
    assert sweep_pass().bumped == 1

    detect_document(item.pk)

    item.refresh_from_db()
    assert item.state == ItemState.PROPOSED and item.priority == BUMPED


@pytest.mark.django_db
def test_dead_letters_are_escalated_once_to_compliance():
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    dead_letter_record(item_id=item.pk, reason="corrupt_file", actor="service:detector")
    assert sweep_pass().escalated == 1
    assert sweep_pass().escalated == 0
    assert DeadLetter.objects.get(item=item).escalated_at is not None
    assert ReviewItem.objects.get(pk=item.pk).queue == Queue.COMPLIANCE_REVIEW


@pytest.mark.django_db
def test_sweep_command_reports_its_counts(capsys):
    call_command("sweep")
    assert "reclaimed 0, bumped 0, breached 0, escalated 0" in capsys.readouterr().out


@pytest.mark.django_db
def test_deliveries_whose_worker_died_are_bounded_by_max_attempts(monkeypatch):
    from review.services.failures import delivery_begin
    from review.tasks import detect_document

    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    for _ in range(3):  # three deliveries started, none finished: each worker was killed
        assert delivery_begin(item_id=item.pk, task="review.tasks.detect_document", actor="t")
    ran = []
    monkeypatch.setattr("review.tasks.proposal_detect", lambda **kw: ran.append(kw))

    detect_document(item.pk)

    assert ran == []  # the fourth delivery does not run again
    assert DeadLetter.objects.get(item=item).last_reason == "worker_lost:3"


@pytest.mark.django_db
def test_a_finished_delivery_resets_the_unfinished_count():
    from review.tasks import detect_document

    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    detect_document(item.pk)
    assert ReviewItem.objects.get(pk=item.pk).unfinished_deliveries == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("error", "reason"),
    [("timeout", "timeout"), ("bug", "unexpected:ZeroDivisionError")],
)
def test_task_timeouts_and_bugs_are_recorded_not_dropped(monkeypatch, error, reason):
    from django_q.exceptions import TimeoutException

    from review.tasks import detect_document

    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    exc = TimeoutException if error == "timeout" else ZeroDivisionError

    def fail(**kwargs):
        raise exc()

    monkeypatch.setattr("review.tasks.proposal_detect", fail)
    with pytest.raises(exc):
        detect_document(item.pk)
    item.refresh_from_db()
    assert (item.attempts, item.last_failure_reason) == (1, reason)
    assert AuditEvent.objects.get(event_type="REVIEW_FAILURE").extra["reason"] == reason
