"""django-q2 tasks: thin. Primitive ids in, one service call; failures go through the one
failure policy (`review.services.failures.failure_record`), so django-q2 itself never
re-runs a task that failed in code (`ack_failures`), only one whose worker died (`retry`)."""

import datetime as dt
from collections.abc import Callable

from django.db import DatabaseError
from django.utils import timezone
from django_q.exceptions import TimeoutException

from audit.checkpoints import checkpoint_create
from review.errors import HoldActive, PermanentFailure
from review.health import reconcile
from review.metrics import observe_sweep
from review.pdf.detect import DetectionError
from review.services.detection import proposal_detect
from review.services.failures import delivery_begin, delivery_end, failure_record
from review.services.outbox import outbox_done, outbox_relay
from review.services.release import artifact_render
from review.services.retention import disposal_run
from review.sweeps import sweep_pass

# Worth another try: the database or storage was unavailable, or a step timed out.
TRANSIENT = (DatabaseError, OSError, TimeoutError)


def _run(task: str, item_id: int, actor: str, work: Callable[[], object]) -> None:
    if not delivery_begin(item_id=item_id, task=task, actor=actor):
        return
    try:
        work()
    except HoldActive:
        return  # refused and audited by the service; the hold's owner decides what next
    except (PermanentFailure, DetectionError) as failure:
        reason = getattr(failure, "reason", type(failure).__name__)
        failure_record(item_id=item_id, reason=reason, permanent=True, retry_task=task, actor=actor)
    except TRANSIENT as failure:
        failure_record(
            item_id=item_id,
            reason=type(failure).__name__,
            permanent=False,
            retry_task=task,
            actor=actor,
        )
    except TimeoutException:
        # django-q2's timeout is a SystemExit: record it, then let the worker stop.
        failure_record(
            item_id=item_id, reason="timeout", permanent=False, retry_task=task, actor=actor
        )
        raise
    except Exception as failure:
        # A bug is not dropped either: counted and retried like a transient failure (so
        # it reaches the dead-letter queue after max_attempts), then shown to django-q2.
        failure_record(
            item_id=item_id,
            reason=f"unexpected:{type(failure).__name__}",
            permanent=False,
            retry_task=task,
            actor=actor,
        )
        raise
    finally:
        # Not reached when the worker is killed: that delivery stays counted, and its
        # outbox row unfinished, so the sweeper sends it again.
        delivery_end(item_id=item_id)
        outbox_done(item_id=item_id, task=task)


def detect_document(item_id: int) -> None:
    _run(
        "review.tasks.detect_document",
        item_id,
        "service:detector",
        lambda: proposal_detect(item_id=item_id, actor="service:detector"),
    )


def render_and_sign(item_id: int) -> None:
    _run(
        "review.tasks.render_and_sign",
        item_id,
        "service:renderer",
        lambda: artifact_render(item_id=item_id, actor="service:renderer"),
    )


def reconcile_daily() -> str:
    """Yesterday's admissions against outcomes, and what is still open and unheld."""
    totals, open_items = reconcile(day=(timezone.now() - dt.timedelta(days=1)).date())
    admitted = sum(day.admitted for day in totals)
    terminal = sum(day.terminal for day in totals)
    overdue = sum(1 for item in open_items if item.overdue)
    return f"admitted={admitted} terminal={terminal} open={len(open_items)} overdue={overdue}"


def dispose_expired() -> str:
    """The daily retention pass: bytes past their schedule go, legal holds keep theirs."""
    report = disposal_run()
    return (
        f"disposed={report.documents} files={report.files_deleted} held={report.held} "
        f"shared={report.shared} remnants={report.remnants}"
    )


def relay_outbox() -> str:
    return f"sent={outbox_relay()}"


def sweep() -> str:
    report = sweep_pass()
    observe_sweep(report.seconds)
    # The ledger's signed checkpoint rides on the sweeper's minute.
    checkpoint = checkpoint_create(actor="system:sweeper")
    return (
        f"reclaimed={report.reclaimed} bumped={report.bumped} breached={report.breached} "
        f"escalated={report.escalated} resent={report.resent} "
        f"checkpoint={checkpoint.number if checkpoint else '-'}"
    )
