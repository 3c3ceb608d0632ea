"""django-q2 tasks: thin. Primitive ids in, one service call; failures go through the one
failure policy (`review.services.failure_record`), so django-q2 itself never re-runs a
task that failed in code (`ack_failures`), only one whose worker died (`retry`)."""

from django.db import DatabaseError

from review.errors import HoldActive
from review.pdf.detect import DetectionError
from review.services import (
    PermanentFailure,
    artifact_render,
    failure_record,
    proposal_detect,
)
from review.sweeps import sweep_pass

# Worth another try: the database or storage was unavailable, or a step timed out.
TRANSIENT = (DatabaseError, OSError, TimeoutError)


def _run(task: str, item_id: int, actor: str, work) -> None:  # type: ignore[no-untyped-def]
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


def sweep() -> str:
    report = sweep_pass()
    return (
        f"reclaimed={report.reclaimed} bumped={report.bumped} breached={report.breached} "
        f"escalated={report.escalated}"
    )
