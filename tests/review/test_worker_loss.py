"""A django-q2 worker killed mid-task: the broker delivers the task again, it finishes
once, and the item ends exactly as it would have without the kill.

Real cluster (`manage.py qcluster`, ORM broker) in a subprocess against the test
database, so PostgreSQL only: pytest-django's SQLite test database lives in memory, out
of reach of a second process.

How re-delivery works in django-q2 1.11.1 (source under site-packages/django_q):
- `tasks.async_task` runs a task inline when `Conf.SYNC` is on, unless the caller passes
  `sync=` itself (`if "sync" not in task and Conf.SYNC`). `Conf` reads `Q_CLUSTER` once,
  at import (`conf.py`), so overriding `settings.Q_CLUSTER` in a test changes nothing;
  passing `sync=False` is the way to reach the broker from a sync-mode test process.
- The package is signed with SECRET_KEY (`signing.SignedPackage`), so the cluster must
  run with the test process's SECRET_KEY or the pusher drops the task as a bad signature.
- `brokers/orm.py`: `enqueue` writes an OrmQ row with `lock=now`; `dequeue` takes rows with
  `lock < now` and leases each by a conditional update to `lock = now + Conf.RETRY`
  (`timeout()`). `acknowledge` deletes the row, and only the monitor calls it, after the
  worker put a result on the result queue (`monitor.monitor`).
- A worker killed with SIGKILL never puts a result: the guard (`cluster.Sentinel.guard`)
  sees `not p.is_alive()` and spawns a fresh worker (`reincarnate`), but nobody
  acknowledges or re-queues the task. Its OrmQ row stays until the lease lapses, then the
  pusher's next `dequeue` leases it again: re-delivery `retry` seconds after the first
  dequeue, not after the kill.
- `save_task` creates the Task row only from a result, so the killed delivery leaves no
  trace there: `attempt_count` is 1 after the successful re-delivery.
"""

import os
import signal
import time

import pytest
from django_q.models import Failure, OrmQ, Success, Task
from django_q.tasks import async_task

from audit.models import AuditEvent
from audit.services import verify_chain
from review.models import ItemState, Mark, Proposal, ReviewItem
from review.tasks import detect_document
from testkit.corpus import simple_pdf
from tests.factories import admitted_items
from tests.qcluster import cluster_env, cluster_start, clusters_stop, wait_for

TASK = "tests.worker_tasks.block_once_then_detect"
# timeout < retry, as in production (STYLE 10): a kill lands well inside the 4 s timeout,
# and the lease lapses 6 s after the first dequeue. Short, so the test takes ~10 s.
Q_TIMEOUT, Q_RETRY = 4, 6
MARKER_WAIT, PROPOSED_WAIT, ACK_WAIT = 30, 60, 15

# Compared between the killed run and the control run: every stored field of a mark
# except the row ids. (Both items share a submission, so the per-submission text-hash
# key, and with it `text_hash` and `group`, is the same for both.)
MARK_FIELDS = [f.name for f in Mark._meta.concrete_fields if f.name not in {"id", "proposal"}]


def _cluster_env() -> dict[str, str]:
    # The default cluster serves the default queue the test enqueues on.
    return cluster_env(Q_TIMEOUT=str(Q_TIMEOUT), Q_RETRY=str(Q_RETRY))


def _outcome(item_id: int) -> dict:
    """What an item looks like after detection, minus what differs by construction."""
    item = ReviewItem.objects.get(pk=item_id)
    proposals = list(Proposal.objects.filter(document_id=item.document_id))
    return {
        "state": item.state,
        "queue": item.queue,
        "hold": item.hold,
        "attempts": item.attempts,
        "last_failure_reason": item.last_failure_reason,
        "proposals": [(p.version, p.proposal_sha256) for p in proposals],
        "marks": list(
            Mark.objects.filter(proposal__in=proposals).order_by("mark_key").values(*MARK_FIELDS)
        ),
        "events": list(
            AuditEvent.objects.filter(item_id=item_id)
            .order_by("sequence")
            .values_list("event_type", flat=True)
        ),
    }


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_worker_killed_mid_task_is_redelivered_and_finishes_once(tmp_path, monkeypatch):
    # Given two items admitted together, with the same PDF. Admission queues detection after
    # commit; in this sync-mode test process that would run it inline, so the queue call
    # is recorded instead (and checked), and this test queues its own blocking task.
    queued: list[tuple] = []
    monkeypatch.setattr("review.services.outbox.async_task", lambda *a, **kw: queued.append(a))
    pdf = simple_pdf(["Requester SSN 123-45-6789"])
    item, control = admitted_items({"a.pdf": pdf, "b.pdf": pdf}, detect=False)
    assert queued == [
        ("review.tasks.detect_document", item.pk),
        ("review.tasks.detect_document", control.pk),
    ]
    assert item.state == ItemState.ACCEPTED
    # The control goes the unkilled way: the task function, called once.
    detect_document(control.pk)

    marker_dir = tmp_path / "markers"
    marker_dir.mkdir()
    log = tmp_path / "qcluster.log"
    started = time.monotonic()
    cluster = cluster_start(_cluster_env(), log)
    try:
        # When the worker has the task and is blocked in it...
        async_task(TASK, item.pk, str(marker_dir), sync=False)
        enqueued_at = time.monotonic()
        marker = marker_dir / "first-delivery.pid"
        pid = int(
            wait_for(
                lambda: marker.exists() and marker.read_text(), MARKER_WAIT, "first delivery", log
            )
        )
        # Only ever kill a process of the cluster this test started.
        assert os.getpgid(pid) == cluster.pid
        os.kill(pid, signal.SIGKILL)
        killed_at = time.monotonic()

        # ...then the broker delivers it again once the lease lapses, and it finishes.
        wait_for(
            lambda: ReviewItem.objects.filter(pk=item.pk, state=ItemState.PROPOSED).exists(),
            PROPOSED_WAIT,
            "the item to reach proposed",
            log,
        )
        proposed_at = time.monotonic()
        # The monitor records the result, then acknowledges (deletes) the OrmQ row.
        wait_for(
            lambda: Task.objects.filter(func=TASK).exists() and not OrmQ.objects.exists(),
            ACK_WAIT,
            "the result to be saved and acknowledged",
            log,
        )
    finally:
        clusters_stop(cluster)
    print(
        f"\nworker loss: kill at {killed_at - started:.1f}s, proposed at "
        f"{proposed_at - started:.1f}s ({proposed_at - killed_at:.1f}s after the kill)"
    )

    # Then the second delivery came from the lapsed lease: the first dequeue (after the
    # enqueue) leased the row for Q_RETRY seconds. (Half a second for clock jitter.)
    assert proposed_at - enqueued_at >= Q_RETRY - 0.5
    # The work ran to completion exactly once, in a different worker.
    runs = (marker_dir / "runs").read_text().split()
    assert len(runs) == 1
    assert int(runs[0]) != pid
    # django-q2 saw one delivery finish, successfully; the killed one left no result.
    task = Task.objects.get(func=TASK)
    assert task.success
    assert task.attempt_count == 1
    assert Success.objects.filter(func=TASK).count() == 1
    assert not Failure.objects.exists()
    # One proposal, one PROPOSED event, an intact ledger.
    assert Proposal.objects.filter(document_id=item.document_id).count() == 1
    assert AuditEvent.objects.filter(item_id=item.pk, event_type="PROPOSED").count() == 1
    assert verify_chain().ok
    # And the item is where an unkilled run leaves it.
    killed, unkilled = _outcome(item.pk), _outcome(control.pk)
    assert killed["state"] == ItemState.PROPOSED
    assert killed["marks"]
    assert killed == unkilled
    # Priority blends the time left to the deadline, so two runs seconds apart may round
    # one step apart; anything more would be a real difference.
    priorities = ReviewItem.objects.filter(pk__in=[item.pk, control.pk]).values_list(
        "priority", flat=True
    )
    assert max(priorities) - min(priorities) <= 1
