"""The transactional outbox: work that continues an item is a row committed with the
state change, relayed on the submission's lane, and sent again when its enqueue is lost."""

import datetime as dt

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django_q.conf import Conf
from django_q.models import OrmQ

from audit.clock import db_now
from audit.models import AuditEvent
from intake.roles import INTAKE_CLIENT
from intake.services.admission import submission_admit
from intake.services.checks import IncomingFile
from review.models import ItemState, Outbox, Proposal
from review.roles import REVIEWER
from review.services import outbox
from review.services.claims import claim_next
from review.services.failures import retry_delay
from review.services.outbox import outbox_add, outbox_relay
from review.sweeps import sweep_pass
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items, approve, decide_all

LETTER = simple_pdf(["Requester SSN 123-45-6789"])


@pytest.fixture
def sent(monkeypatch):
    """What the relay hands to django-q2, recorded instead of run (a lost enqueue)."""
    calls: list[tuple[tuple, dict]] = []
    monkeypatch.setattr(outbox, "async_task", lambda *a, **kw: calls.append((a, kw)))
    return calls


@pytest.mark.django_db
def test_admission_commits_one_detection_row_per_item_with_the_items():
    items = admitted_items({"a.pdf": LETTER, "b.pdf": LETTER}, detect=False)

    rows = Outbox.objects.filter(item__in=items)
    assert sorted(rows.values_list("item_id", "task", "reason")) == [
        (items[0].pk, Outbox.Task.DETECT, "admitted"),
        (items[1].pk, Outbox.Task.DETECT, "admitted"),
    ]
    assert all(row.sent_at is None and row.lane == Outbox.Lane.DEFAULT for row in rows)


@pytest.mark.django_db(transaction=True)
def test_an_outbox_row_outside_a_state_change_transaction_is_refused(sent):
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)

    with pytest.raises(RuntimeError, match="transaction of its state change"):
        outbox_add(item=item, task=Outbox.Task.DETECT, reason="stray")


@pytest.mark.django_db
def test_a_lost_detection_enqueue_is_sent_again_and_detection_runs_once(sent, monkeypatch):
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    assert outbox_relay() == 1  # handed over, then lost: nothing ran
    item.refresh_from_db()
    assert item.state == ItemState.ACCEPTED

    # Long after the send, the sweeper sees the row unfinished and arms it again.
    stale = db_now() - dt.timedelta(seconds=settings.OUTBOX_RESEND_AFTER_SECONDS + 60)
    Outbox.objects.filter(item=item).update(sent_at=stale)
    assert sweep_pass().resent == 1
    monkeypatch.undo()  # the broker works again (sync mode runs the task inline)
    assert outbox_relay() == 1

    item.refresh_from_db()
    assert item.state == ItemState.PROPOSED
    assert Outbox.objects.get(item=item).done_at is not None
    assert outbox_relay() == 0 and sweep_pass().resent == 0
    assert Proposal.objects.filter(document=item.document).count() == 1
    assert AuditEvent.objects.filter(item_id=item.pk, event_type="PROPOSED").count() == 1


@pytest.mark.django_db
def test_a_row_is_not_sent_before_it_is_due(sent):
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    Outbox.objects.filter(item=item).update(due_at=db_now() + dt.timedelta(minutes=5))

    assert outbox_relay() == 0 and sent == []


@pytest.mark.django_db
def test_every_task_of_a_high_lane_submission_is_sent_on_the_high_lane(
    sent, django_capture_on_commit_callbacks
):
    (item,) = admitted_items({"a.pdf": LETTER}, priority_score=80)
    reviewer = user_create(role=REVIEWER)
    claim = claim_next(reviewer=reviewer)
    with django_capture_on_commit_callbacks(execute=True):
        approve(item, claim, reviewer, decide_all(item, claim, reviewer))

    assert {row.lane for row in Outbox.objects.filter(item=item)} == {Outbox.Lane.HIGH}
    assert ((Outbox.Task.RENDER_AND_SIGN, item.pk), {"cluster": "bulk-high"}) in sent


@pytest.mark.django_db
def test_detection_and_rendering_run_in_separate_pools_on_the_item_lane(
    sent, django_capture_on_commit_callbacks
):
    (item,) = admitted_items({"a.pdf": LETTER}, priority_score=10)
    reviewer = user_create(role=REVIEWER)
    claim = claim_next(reviewer=reviewer)
    with django_capture_on_commit_callbacks(execute=True):
        approve(item, claim, reviewer, decide_all(item, claim, reviewer))

    assert [kwargs["cluster"] for args, kwargs in sent if args[1] == item.pk] == [
        "pii-default",
        "bulk-default",
    ]
    assert set(settings.Q_CLUSTER["ALT_CLUSTERS"]) == set(settings.WORKER_POOLS)


@pytest.mark.django_db
def test_the_high_lane_starts_at_a_priority_score_of_80():
    low, high = (
        admitted_items({"a.pdf": LETTER}, priority_score=score, detect=False)[0]
        for score in (79, 80)
    )

    assert Outbox.objects.get(item=low).lane == Outbox.Lane.DEFAULT
    assert Outbox.objects.get(item=high).lane == Outbox.Lane.HIGH


def test_retry_backoff_is_jittered_between_half_and_all_of_its_ceiling():
    # Attempt 3: a ceiling of 30 s x 2^2 = 120 s, so a delay of 60 to 120 s.
    delays = {retry_delay(3).total_seconds() for _ in range(200)}

    assert min(delays) >= 60 and max(delays) <= 120
    assert len(delays) > 20  # jittered, not a fixed delay


@pytest.mark.django_db
def test_approval_writes_its_render_row_in_its_own_transaction(sent):
    (item,) = admitted_items({"a.pdf": LETTER})
    reviewer = user_create(role=REVIEWER)
    claim = claim_next(reviewer=reviewer)

    approval = approve(item, claim, reviewer, decide_all(item, claim, reviewer))

    # Written by the approval itself, before any after-commit hook ran: not yet sent.
    row = Outbox.objects.get(item=item, task=Outbox.Task.RENDER_AND_SIGN)
    assert row.reason == "approved" and row.sent_at is None and sent == []
    assert row.created_at >= approval.approved_at


@pytest.mark.django_db
def test_an_admission_of_many_documents_kicks_the_relay_once(
    sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        items = admitted_items({f"{n}.pdf": LETTER for n in range(3)}, detect=False)

    assert callbacks == [outbox_relay]
    assert sorted(args[1] for args, _ in sent) == sorted(item.pk for item in items)


@pytest.fixture
def orm_broker_queue(monkeypatch):
    """The deployed configuration: django-q2's ORM broker, not sync mode (the suite runs
    tasks inline). The queue is the broker's own table, read back as it stores tasks."""
    monkeypatch.setattr(Conf, "SYNC", False)

    def queued() -> list[tuple[str, str, tuple]]:
        return [(row.key, row.task["func"], row.task["args"]) for row in OrmQ.objects.all()]

    return queued


@pytest.mark.django_db
def test_with_the_orm_broker_admission_enqueues_detection_in_its_own_transaction(
    orm_broker_queue, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        items = admitted_items({"a.pdf": LETTER, "b.pdf": LETTER}, detect=False)

    assert callbacks == []  # no relay after the commit: the tasks committed with it
    assert sorted(orm_broker_queue()) == [
        ("pii-default", Outbox.Task.DETECT, (item.pk,)) for item in items
    ]
    rows = Outbox.objects.filter(item__in=items)
    assert all(row.sent_at is not None and row.sends == 1 for row in rows)
    assert outbox_relay() == 0  # nothing left for the relay to send twice


@pytest.mark.django_db
def test_a_rolled_back_admission_leaves_no_task_in_the_orm_broker_queue(orm_broker_queue):
    client = user_create(role=INTAKE_CLIENT)

    def admit():
        return submission_admit(
            client=client,
            files=[IncomingFile(object_id="a.pdf", upload=SimpleUploadedFile("a.pdf", LETTER))],
            external_ref="FOIA-1",
            jurisdiction_code="US-FED",
            idempotency_key="one-key",
            correlation_id="c1",
            actor="client:test",
        )

    first = admit()
    # The duplicate runs the whole admission, enqueue included, then loses the unique
    # key on the submission row and rolls back: its task must go with it.
    again = admit()

    assert again.replayed and again.submission.pk == first.submission.pk
    assert len(orm_broker_queue()) == 1
    assert Outbox.objects.count() == 1
