"""The ways out for an item that cannot go on as it is: reopen an approved item for
review (a failed release gate, a second look), or close it as failed for good. Both are
a person's decision with a reason, audited with the state change."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models.functions import Now

from audit.clock import db_now
from audit.services import actor_label
from review.errors import InvalidDecision, NotAllowed
from review.models import (
    TERMINAL_STATES,
    Approval,
    Claim,
    CloseReason,
    DeadLetter,
    Hold,
    ItemState,
    Queue,
    ReviewItem,
)
from review.selectors import QUEUE_PERMISSION
from review.services.decisions import MarkFields, proposal_create
from review.services.outbox import outbox_cancel
from review.services.transitions import item_lock, item_transition


def item_reopen(*, item_id: int, reason: str, actor: User) -> ReviewItem:
    """Return an approved item (dead-lettered or not) to the review queue at its
    priority. Its approval is kept, marked superseded; the approved marks become a new
    proposal version, so the next approval is of a version nobody approved before.
    Compliance officers may reopen; so may a senior reviewer who did not approve it."""
    if not reason.strip():
        raise InvalidDecision("reopening needs a reason")
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        if item.state != ItemState.APPROVED:
            raise InvalidDecision(f"item {item.pk} is {item.state}: only an approved item reopens")
        approval = (
            Approval.objects.select_related("proposal").filter(item=item).latest("approved_at")
        )
        _require_reopener(actor, approval)
        approval.superseded_at = db_now()
        approval.superseded_reason = reason.strip()[:200]
        approval.save(update_fields=["superseded_at", "superseded_reason"])
        latest = approval.proposal  # an approved item's latest version is the approved one
        proposal_create(
            document=item.document,
            version=latest.version + 1,
            marks=[MarkFields.of(mark) for mark in latest.marks.all()],
            created_by=actor_label(actor),
            policy_version=latest.policy_version,
            previous=latest,
        )
        DeadLetter.objects.filter(item=item, resolved_at__isnull=True).update(resolved_at=Now())
        if item.hold == Hold.DEAD_LETTER:
            item.hold = Hold.NONE
        item.attempts = 0
        item.save(update_fields=["hold", "attempts"])
        outbox_cancel(item=item)
        return item_transition(
            item_id=item.pk,
            to_state=ItemState.PROPOSED,
            actor=actor,
            event_type="REOPENED",
            extra={
                "approval": approval.pk,
                "proposal_version": latest.version + 1,
                "reason": reason.strip()[:200],
                "last_failure": item.last_failure_reason,
            },
        )


def _require_reopener(actor: User, approval: Approval) -> None:
    if actor.has_perm(QUEUE_PERMISSION[Queue.COMPLIANCE_REVIEW]):
        return
    if actor.has_perm(QUEUE_PERMISSION[Queue.SENIOR_REVIEW]) and actor.pk != approval.reviewer_id:
        return
    raise NotAllowed(
        "only a compliance officer, or a senior reviewer who did not approve it, may reopen an item"
    )


def item_close(*, item_id: int, reason_code: str, note: str, actor: User) -> ReviewItem:
    """Close an item as `failed` for good, with a reason from the fixed list: terminal,
    audited, reported to the intake client. Its queued work is cancelled, an open claim
    ends, a dead letter is resolved; the ledger keeps everything."""
    if not actor.has_perm(QUEUE_PERMISSION[Queue.COMPLIANCE_REVIEW]):
        raise NotAllowed("only a compliance officer may close an item as failed")
    if reason_code not in CloseReason.values:
        raise InvalidDecision(f"choose a reason: {', '.join(CloseReason.values)}")
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        if item.state in TERMINAL_STATES:
            raise InvalidDecision(f"item {item.pk} is already {item.state}")
        Claim.objects.filter(item=item, ended_at__isnull=True).update(
            ended_at=Now(), outcome=Claim.Outcome.RELEASED
        )
        DeadLetter.objects.filter(item=item, resolved_at__isnull=True).update(resolved_at=Now())
        item.hold = Hold.NONE
        item.closed_reason = reason_code
        item.save(update_fields=["hold", "closed_reason"])
        outbox_cancel(item=item)
        return item_transition(
            item_id=item.pk,
            to_state=ItemState.FAILED,
            actor=actor,
            event_type="CLOSED",
            extra={"reason": reason_code, "note": note.strip()[:200]},
        )
