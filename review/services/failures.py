"""Failures and dead letters: the one failure policy (retry with backoff, dead-letter, or
escalate to a human before the statutory deadline), requeueing a dead letter, and the
delivery count that catches workers killed mid-task."""

from __future__ import annotations

import datetime as dt
import secrets

from django.db import transaction
from django.db.models.functions import Now

from audit.clock import db_now
from audit.services import Actor
from review.errors import InvalidDecision
from review.models import Claim, DeadLetter, Hold, ItemState, Outbox, ReviewItem
from review.selectors import policy_current
from review.services.outbox import outbox_add
from review.services.transitions import item_event_emit, item_lock, item_transition_locked

RETRY_BASE_SECONDS = 30
RETRY_MAX_SECONDS = 3600


def retry_delay(attempt: int) -> dt.timedelta:
    """Exponential backoff with full jitter: spreads retries of a failed dependency."""
    ceiling = min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2 ** max(0, attempt - 1))
    return dt.timedelta(seconds=ceiling / 2 + secrets.randbelow(int(ceiling / 2) + 1))


def failure_record(
    *, item_id: int, reason: str, permanent: bool, retry_task: str, actor: Actor
) -> str:
    """The one failure policy. Count the attempt durably, then: a permanent failure or
    the last allowed attempt goes to the dead-letter queue; a retry that would land past
    the statutory deadline goes to a human instead; otherwise the task is retried later
    with backoff and jitter. Returns "requeued", "dead_lettered" or "escalated"."""
    policy = policy_current()
    reason = reason[:200]
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        item.attempts += 1
        item.last_failure_reason = reason
        item.save(update_fields=["attempts", "last_failure_reason"])
        item_event_emit(
            item,
            "REVIEW_FAILURE",
            actor=actor,
            attempt=item.attempts,
            extra={"reason": reason, "permanent": permanent, "task": retry_task},
        )
        if permanent or item.attempts >= policy.max_attempts:
            dead_letter_record(item_id=item.pk, reason=reason, actor=actor)
            return "dead_lettered"
        retry_at = db_now() + retry_delay(item.attempts)
        if retry_at >= item.document.submission.statutory_deadline:
            dead_letter_record(item_id=item.pk, reason=f"deadline_escalation:{reason}", actor=actor)
            item_event_emit(
                item,
                "DEADLINE_ESCALATION",
                actor=actor,
                attempt=item.attempts,
                extra={"reason": reason, "retry_at": retry_at.isoformat()},
            )
            return "escalated"
        outbox_add(item=item, task=retry_task, reason=f"retry {item.attempts}", due_at=retry_at)
        return "requeued"


def dead_letter_record(*, item_id: int, reason: str, actor: Actor) -> DeadLetter:
    """Park an item for a human: a DeadLetter row (references and reason only) and the
    `dead_letter` hold, with MOVED_TO_DLQ, in one transaction. Idempotent per item.
    Nests: the failure policy calls it inside the transaction that counts the attempt."""
    with transaction.atomic():
        item = item_lock(item_id=item_id)
        existing = DeadLetter.objects.filter(item=item, resolved_at__isnull=True).first()
        if existing is not None:
            return existing
        letter = DeadLetter.objects.create(
            item=item, attempts=item.attempts, last_reason=reason[:200], failed_at=db_now()
        )
        item.hold = Hold.DEAD_LETTER
        item.last_failure_reason = reason[:200]
        item.save(update_fields=["hold", "last_failure_reason"])
        item_event_emit(
            item,
            "MOVED_TO_DLQ",
            actor=actor,
            attempt=item.attempts or None,
            extra={"dead_letter": letter.pk, "reason": reason[:200]},
        )
        return letter


# Items a page failure takes out of review: waiting for it or in it. An approved item's
# failures belong to its release task and the failure policy above.
QUARANTINED_STATES = (ItemState.PROPOSED, ItemState.IN_REVIEW)


def item_quarantine(*, item_id: int, reason: str, actor: Actor) -> ReviewItem:
    """A page of the item's document cannot be drawn for a reviewer (or MuPDF failed on
    the document while a decision was saved): in one transaction, end the open claim at
    once (released, so the reviewer may claim other work), send an item in review back
    to `proposed`, count the failure and park the item in the dead-letter queue with
    `reason` (REVIEW_FAILURE, MOVED_TO_DLQ). Claim next takes only unheld items, so
    nobody is handed it again until compliance requeues it (`dead_letter_requeue`) or
    closes it (`item_close`). Idempotent: the second failing page of the same document
    finds it parked and changes nothing."""
    reason = reason[:200]
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        if item.state not in QUARANTINED_STATES or item.hold == Hold.DEAD_LETTER:
            return item
        now = db_now()
        claim_ids = list(
            Claim.objects.filter(item=item, ended_at__isnull=True).values_list("pk", flat=True)
        )
        Claim.objects.filter(pk__in=claim_ids, ended_at__isnull=True).update(
            ended_at=Now(), outcome=Claim.Outcome.RELEASED
        )
        if item.state == ItemState.IN_REVIEW:
            item_transition_locked(
                item,
                to_state=ItemState.PROPOSED,
                actor=actor,
                event_type="RELEASED",
                extra={"claim": claim_ids[0] if claim_ids else None, "reason": reason},
                now=now,
            )
        item.attempts += 1
        item.save(update_fields=["attempts"])
        item_event_emit(
            item,
            "REVIEW_FAILURE",
            actor=actor,
            attempt=item.attempts,
            extra={"reason": reason, "permanent": True, "task": "page_render"},
        )
        dead_letter_record(item_id=item.pk, reason=reason, actor=actor)
        item.refresh_from_db(fields=["hold", "last_failure_reason"])
        return item


def dead_letter_requeue(*, dead_letter_id: int, reason: str, actor: Actor) -> ReviewItem:
    """Give a dead-lettered item fresh attempts and run its pending step again."""
    if not reason.strip():
        raise InvalidDecision("requeueing needs a reason")
    with transaction.atomic(durable=True):
        letter = DeadLetter.objects.select_related("item").get(pk=dead_letter_id)
        item = item_lock(item_id=letter.item_id)
        item.attempts = 0
        item.hold = Hold.NONE
        item.save(update_fields=["attempts", "hold"])
        DeadLetter.objects.filter(pk=letter.pk, resolved_at__isnull=True).update(
            resolved_at=db_now()
        )
        item_event_emit(
            item,
            "DLQ_REQUEUED",
            actor=actor,
            extra={"dead_letter": letter.pk, "reason": reason.strip()[:200]},
        )
        task = {
            ItemState.ACCEPTED: Outbox.Task.DETECT,
            ItemState.APPROVED: Outbox.Task.RENDER_AND_SIGN,
        }.get(ItemState(item.state))
        if task:
            outbox_add(item=item, task=task, reason="requeued")
        return item


def delivery_begin(*, item_id: int, task: str, actor: Actor) -> bool:
    """Count a task delivery before its work starts; False if the item must not run.

    A delivery that never finishes (its worker was killed) is not seen by django-q2's
    attempt counter, so the broker would hand it out forever. Consecutive unfinished
    deliveries are counted here and, at the policy's max_attempts, the item goes to the
    dead-letter queue instead of running again.
    """
    policy = policy_current()
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        if item.unfinished_deliveries >= policy.max_attempts:
            unfinished = item.unfinished_deliveries
            item.unfinished_deliveries = 0
            item.save(update_fields=["unfinished_deliveries"])
        else:
            item.unfinished_deliveries += 1
            item.save(update_fields=["unfinished_deliveries"])
            return True
    failure_record(
        item_id=item_id,
        reason=f"worker_lost:{unfinished}",
        permanent=True,
        retry_task=task,
        actor=actor,
    )
    return False


def delivery_end(*, item_id: int) -> None:
    """The delivery finished (with or without an error already recorded)."""
    ReviewItem.objects.filter(pk=item_id, unfinished_deliveries__gt=0).update(
        unfinished_deliveries=0
    )
