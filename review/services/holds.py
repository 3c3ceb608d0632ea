"""Holds: legal holds on a submission or document, the SLA-breach and dead-letter holds on
an item, and the hold check that every release path (approve, render, sign, download)
calls before it acts. Every hold has a way out a compliance officer can take, and
taking it resumes the work the hold blocked (an approved item goes on to rendering)."""

from __future__ import annotations

import datetime as dt

from django.db import transaction

from audit.clock import db_now
from audit.services import Actor, Event, actor_label, emit_many
from intake.models import Document, Submission
from review.errors import HoldActive, InvalidDecision
from review.models import DeadLetter, Hold, ItemState, LegalHold, Outbox, Queue, ReviewItem
from review.selectors import active_legal_hold
from review.services.outbox import outbox_add
from review.services.transitions import item_event_emit, item_lock


def hold_check(item: ReviewItem, *, action: str, actor: Actor) -> None:
    """Raise HoldActive if a legal hold or a queue hold stops `action`. Called before the
    caller's transaction opens: the refusal is audited in its own, so it stays recorded."""
    legal = active_legal_hold(item.document)
    if legal is None and item.hold == Hold.NONE:
        return
    reason = "legal_hold" if legal else item.hold
    with transaction.atomic(durable=True):
        item_event_emit(item, "HOLD_BLOCKED", actor=actor, extra={"action": action, "hold": reason})
    raise HoldActive(
        f"this item is on hold ({reason}); it cannot be {action} until the hold is lifted"
    )


def legal_hold_place(
    *,
    reason: str,
    actor: Actor,
    submission: Submission | None = None,
    document: Document | None = None,
) -> LegalHold:
    if not reason.strip():
        raise InvalidDecision("a legal hold needs a reason")
    if document is not None and submission is None:
        target_submission = document.submission
    elif submission is not None and document is None:
        target_submission = submission
    else:
        raise InvalidDecision("place a hold on a submission or on a document")
    # Not durable: the admin's add form already wraps its save in a transaction.
    with transaction.atomic():
        hold = LegalHold.objects.create(
            submission=submission,
            document=document,
            reason=reason.strip()[:300],
            placed_by=actor_label(actor),
            placed_at=db_now(),
        )
        emit_many(
            [
                Event(
                    event_type="LEGAL_HOLD_PLACED",
                    actor=actor,
                    submission_id=target_submission.id,
                    document_id=document.id if document is not None else None,
                    correlation_id=target_submission.correlation_id,
                    extra={
                        "legal_hold": hold.pk,
                        "target": "document" if document is not None else "submission",
                    },
                )
            ]
        )
        return hold


def legal_hold_release(*, hold_id: int, reason: str, actor: Actor) -> LegalHold:
    if not reason.strip():
        raise InvalidDecision("releasing a legal hold needs a reason")
    with transaction.atomic(durable=True):
        hold = (
            LegalHold.objects.select_for_update(of=("self",))
            .select_related("submission", "document__submission")
            .get(pk=hold_id)
        )
        if hold.lifted_at is not None:
            return hold
        hold.lifted_at = db_now()
        hold.lifted_by = actor_label(actor)
        hold.lift_reason = reason.strip()[:300]
        hold.save(update_fields=["lifted_at", "lifted_by", "lift_reason"])
        # The check constraint guarantees exactly one target.
        submission = hold.submission or hold.document.submission  # type: ignore[union-attr]
        held = (
            ReviewItem.objects.filter(document_id=hold.document_id)
            if hold.document_id
            else ReviewItem.objects.filter(document__submission=submission)
        )
        emit_many(
            [
                Event(
                    event_type="LEGAL_HOLD_RELEASED",
                    actor=actor,
                    submission_id=submission.id,
                    document_id=hold.document_id,
                    correlation_id=submission.correlation_id,
                    extra={"legal_hold": hold.pk},
                )
            ]
        )
        for item_id in held.order_by("id").values_list("id", flat=True):
            _resume_blocked_work(item_lock(item_id=item_id), actor=actor, cause="legal_hold")
        return hold


def hold_lift(*, item_id: int, reason: str, actor: Actor) -> ReviewItem:
    """A compliance officer's explicit decision to lift an SLA-breach or dead-letter hold.
    The item stays in the compliance queue; nothing is approved or released by this."""
    if not reason.strip():
        raise InvalidDecision("lifting a hold needs a reason")
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        if item.hold in (Hold.NONE, Hold.LITIGATION):
            raise InvalidDecision(f"item {item.pk} has no SLA or dead-letter hold to lift")
        if item.hold == Hold.SLA_BREACH and item.deadline <= db_now():
            raise InvalidDecision(
                f"item {item.pk} is past its deadline: resolve the breach with a new "
                "deadline, or close the item as failed"
            )
        previous = item.hold
        item.hold = Hold.NONE
        item.queue = Queue.COMPLIANCE_REVIEW
        item.save(update_fields=["hold", "queue"])
        DeadLetter.objects.filter(item=item, resolved_at__isnull=True).update(resolved_at=db_now())
        item_event_emit(
            item,
            "HOLD_LIFTED",
            actor=actor,
            extra={"hold": previous, "reason": reason.strip()[:200]},
        )
        _resume_blocked_work(item, actor=actor, cause=previous)
        return item


def breach_resolve(*, item_id: int, deadline: dt.datetime, reason: str, actor: Actor) -> ReviewItem:
    """A compliance officer sets a new deadline for an item whose SLA was breached: the
    hold ends, the sweeper leaves the item alone until the new deadline passes, and work
    the hold blocked resumes. Nothing is approved or released by this."""
    if not reason.strip():
        raise InvalidDecision("resolving a breach needs a reason")
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        if item.hold != Hold.SLA_BREACH:
            raise InvalidDecision(f"item {item.pk} has no SLA breach to resolve")
        if deadline <= db_now():
            raise InvalidDecision("the new deadline must lie in the future")
        previous = item.deadline
        item.deadline = deadline
        item.hold = Hold.NONE
        item.save(update_fields=["deadline", "hold"])
        item_event_emit(
            item,
            "BREACH_RESOLVED",
            actor=actor,
            extra={
                "previous_deadline": previous.isoformat(),
                "deadline": deadline.isoformat(),
                "reason": reason.strip()[:200],
            },
        )
        _resume_blocked_work(item, actor=actor, cause=Hold.SLA_BREACH)
        return item


def _resume_blocked_work(item: ReviewItem, *, actor: Actor, cause: str) -> None:
    """After a hold ends: an approved item with no other hold goes on to rendering,
    through the outbox, in the transaction that ended the hold. Caller holds the lock."""
    if item.state != ItemState.APPROVED or item.hold != Hold.NONE:
        return
    if active_legal_hold(item.document) is not None:
        return
    outbox_add(item=item, task=Outbox.Task.RENDER_AND_SIGN, reason=f"{cause} ended")
    item_event_emit(
        item, "WORK_RESUMED", actor=actor, extra={"task": "render_and_sign", "after": cause}
    )
