"""The transactional outbox: the one way work that continues an item is queued.

`outbox_add` writes a row in the transaction of the state change that needs the work,
so the change and the message commit together or not at all. The relay hands due rows
to django-q2, to the worker pool of their kind of work on the item's lane, and marks them
sent (right after the commit that wrote them, and every minute on a schedule); rows an
admission opens skip the relay when the broker's queue is a table of this database (see
`outbox_add_new`); the finished task marks its row done; the
sweeper sends again any row sent long ago and never finished (a lost enqueue, a broker
that dropped it). Tasks are idempotent, so a second delivery is harmless.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models import F
from django.db.models.functions import Now
from django.utils import timezone
from django_q.brokers import get_broker
from django_q.conf import Conf
from django_q.models import OrmQ
from django_q.tasks import async_task

from audit.clock import StatementTime, db_now
from common.batch import WriteBatch
from review.models import Outbox, ReviewItem

RELAY_BATCH = 200


def outbox_add(
    *, item: ReviewItem, task: str, reason: str, due_at: dt.datetime | None = None
) -> Outbox:
    """Queue `task` for `item` once the caller's transaction commits. The caller holds
    the item lock, so rows of one item are written one at a time. An unfinished row of
    the same task is reused: a pending one is made due no later than asked, one in
    flight (its task is running and asks for a retry) is armed again."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("an outbox row is written in the transaction of its state change")
    due_at = due_at or db_now()
    row = Outbox.objects.filter(item=item, task=task, done_at__isnull=True).first()
    if row is None:
        row = Outbox.objects.create(
            item=item,
            task=task,
            lane=_lane(item),
            reason=reason[:40],
            created_at=db_now(),
            due_at=due_at,
        )
    elif row.sent_at is not None:
        Outbox.objects.filter(pk=row.pk).update(sent_at=None, due_at=due_at, reason=reason[:40])
    elif due_at < row.due_at:
        Outbox.objects.filter(pk=row.pk).update(due_at=due_at)
    _relay_after_commit()
    return row


def outbox_add_new(
    *, batch: WriteBatch, items: Sequence[ReviewItem], task: str, reason: str, now: dt.datetime
) -> list[Outbox]:
    """`outbox_add` for items the caller's write batch creates (no row of theirs can
    exist yet): their rows, due at `now`, go into the batch. With django-q2's ORM broker
    on this database the tasks go into the batch too and the rows are written as sent:
    the task and the change commit together, and the admission costs no relay
    transaction after its commit. Otherwise the relay runs once the batch commits."""
    enqueued_now = _broker_in_this_database()
    rows = [
        Outbox(
            item=item,
            task=task,
            lane=_lane(item),
            reason=reason[:40],
            created_at=now,
            due_at=now,
            sent_at=now if enqueued_now else None,
            sends=1 if enqueued_now else 0,
        )
        for item in items
    ]
    batch.insert(rows)
    if enqueued_now:
        for row in rows:
            pool = worker_pool(row)
            async_task(row.task, row.item_id, cluster=pool, broker=_IntoBatch(batch, pool))
    else:
        batch.after_write(outbox_relay)
    return rows


class _IntoBatch:
    """A django-q2 broker for `async_task` (its `broker` option) that writes the task's
    queue row into a write batch instead of inserting it at once: the row the ORM broker
    writes (`django_q.brokers.orm.ORM.enqueue`), with the same signed package."""

    def __init__(self, batch: WriteBatch, cluster: str) -> None:
        self.batch = batch
        self.list_key = get_broker(cluster).list_key

    def enqueue(self, package: str) -> str:
        self.batch.insert([OrmQ(key=self.list_key, payload=package, lock=timezone.now())])
        return "in its admission's write batch"  # django-q2 logs it as the enqueue id


def _broker_in_this_database() -> bool:
    """Whether an enqueue is a row of this database's transaction: django-q2's ORM broker
    on the default database. Not in sync mode, where `async_task` runs the task at once
    (it must see the committed change), nor with a broker outside the database (a task
    could run before the commit, or be sent for a change rolled back)."""
    return Conf.ORM == DEFAULT_DB_ALIAS and not Conf.SYNC


def _relay_after_commit() -> None:
    """Relay at once after commit, once per atomic block however many rows it wrote (an
    admission of 500 documents); a lost kick only waits for the scheduled relay."""
    connection = transaction.get_connection()
    here = set(connection.savepoint_ids)  # the atomic block writing the rows
    if not any(
        callback is outbox_relay and savepoints == here
        for savepoints, callback, _ in connection.run_on_commit
    ):
        transaction.on_commit(outbox_relay, robust=True)


def _lane(item: ReviewItem) -> str:
    """All work of an urgent submission (priority score at or above the threshold) runs
    on the high lane: detection, rendering, retries and requeues alike."""
    score = item.document.submission.priority_score
    return Outbox.Lane.HIGH if score >= settings.HIGH_LANE_MIN_SCORE else Outbox.Lane.DEFAULT


# The one routing table: which pool does each kind of work (settings.WORKER_POOLS).
POOL_OF_TASK = {Outbox.Task.DETECT: "pii", Outbox.Task.RENDER_AND_SIGN: "bulk"}


def worker_pool(row: Outbox) -> str:
    """The cluster that runs `row`: its kind of work's pool, on the item's lane."""
    pool = f"{POOL_OF_TASK[Outbox.Task(row.task)]}-{row.lane}"
    if pool not in settings.WORKER_POOLS:
        raise ValueError(f"no worker pool {pool!r} in settings.WORKER_POOLS")
    return pool


def outbox_relay(*, limit: int = RELAY_BATCH) -> int:
    """Hand due, unsent rows to django-q2. Marked sent first and enqueued after commit:
    a crash in between leaves a sent, unfinished row that the sweeper sends again."""
    with transaction.atomic(durable=True):
        rows = list(
            Outbox.objects.filter(
                sent_at__isnull=True, done_at__isnull=True, due_at__lte=StatementTime()
            )
            .order_by("due_at", "id")
            .select_for_update(skip_locked=True)[:limit]
        )
        Outbox.objects.filter(pk__in=[row.pk for row in rows]).update(
            sent_at=Now(), sends=F("sends") + 1
        )
    for row in rows:
        try:
            async_task(row.task, row.item_id, cluster=worker_pool(row))
        except Exception:
            # The broker refused it: due again at once, for the next relay.
            Outbox.objects.filter(pk=row.pk, done_at__isnull=True).update(sent_at=None)
            raise
    return len(rows)


def outbox_done(*, item_id: int, task: str) -> None:
    """A delivery of `task` finished (its failure, if any, already recorded)."""
    Outbox.objects.filter(
        item_id=item_id, task=task, sent_at__isnull=False, done_at__isnull=True
    ).update(done_at=Now())


def outbox_resend_stale() -> int:
    """Rows sent longer ago than any delivery can take and never finished: send them
    again (their enqueue was lost, or the broker dropped them)."""
    bound = dt.timedelta(seconds=settings.OUTBOX_RESEND_AFTER_SECONDS)
    return Outbox.objects.filter(done_at__isnull=True, sent_at__lt=Now() - bound).update(
        sent_at=None
    )


def outbox_cancel(*, item: ReviewItem) -> int:
    """The item's queued work is no longer wanted (it was closed, or reopened before its
    rendering ran): its unfinished rows end. Caller holds the item lock."""
    return Outbox.objects.filter(item=item, done_at__isnull=True).update(done_at=Now())
