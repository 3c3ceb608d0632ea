"""Queue domain operations. Each state-changing entry point writes its audit event in the
same transaction as the change (DESIGN rule 5)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max

from audit.clock import db_now
from audit.services import Actor, Event, actor_label, emit_many
from review.errors import IllegalTransition
from review.models import ItemState, Policy, ReviewItem

S = ItemState

# The one table of allowed moves. Terminal states (signed, failed) have none.
ALLOWED_TRANSITIONS: dict[str, frozenset[str]] = {
    S.ACCEPTED: frozenset({S.PROPOSED, S.FAILED}),
    S.PROPOSED: frozenset({S.IN_REVIEW, S.FAILED}),
    S.IN_REVIEW: frozenset({S.APPROVED, S.PROPOSED, S.FAILED}),
    S.APPROVED: frozenset({S.SIGNED, S.FAILED}),
    S.SIGNED: frozenset(),
    S.FAILED: frozenset(),
}


def item_lock(*, item_id: int) -> ReviewItem:
    """Lock one item row (with its document and submission read alongside).

    Caller must be inside a transaction. Lock order across models: item before claim.
    """
    return (
        ReviewItem.objects.select_for_update(of=("self",))
        .select_related("document__submission")
        .get(pk=item_id)
    )


def item_event(item: ReviewItem, event_type: str, *, actor: Actor, **fields: Any) -> Event:
    """An audit event about `item`, carrying its ids and its submission's correlation id."""
    document = item.document
    return Event(
        event_type=event_type,
        actor=actor,
        submission_id=document.submission_id,
        document_id=document.id,
        item_id=item.pk,
        correlation_id=document.submission.correlation_id,
        policy_version=document.policy_version,
        input_hash=fields.pop("input_hash", document.source_sha256),
        **fields,
    )


def item_transition(
    *,
    item_id: int,
    to_state: str,
    actor: Actor,
    event_type: str | None = None,
    extra: dict[str, Any] | None = None,
    output_hash: str = "",
) -> ReviewItem:
    """Move an item to `to_state` and record it, or raise IllegalTransition and write nothing.

    Locks the item. Usable on its own or inside a caller's transaction.
    """
    with transaction.atomic():
        item = item_lock(item_id=item_id)
        from_state = item.state
        if to_state not in ALLOWED_TRANSITIONS.get(from_state, frozenset()):
            raise IllegalTransition(
                f"item {item.pk}: illegal transition {from_state} -> {to_state}"
            )
        item.state = to_state
        item.state_changed_at = db_now()
        item.save(update_fields=["state", "state_changed_at"])
        emit_many(
            [
                item_event(
                    item,
                    event_type or f"ITEM_{str(to_state).upper()}",
                    actor=actor,
                    output_hash=output_hash,
                    attempt=item.attempts or None,
                    extra={"from": from_state, "to": to_state, **(extra or {})},
                )
            ]
        )
        return item


def policy_current() -> Policy:
    """The policy in force: the highest version."""
    return Policy.objects.order_by("-version").first() or Policy.objects.get(version=1)


def policy_publish(*, draft: Policy, actor: Actor) -> Policy:
    """Save `draft` as the next policy version; the versions before it stay untouched."""
    with transaction.atomic(durable=True):
        draft.pk = None
        draft._state.adding = True
        # Two concurrent publishes may compute the same number: the unique version
        # constraint lets one win and the other fail loudly instead of overwriting.
        draft.version = (Policy.objects.aggregate(v=Max("version"))["v"] or 0) + 1
        draft.created_by = actor_label(actor)
        draft.save()
        emit_many(
            [
                Event(
                    event_type="POLICY_PUBLISHED",
                    actor=actor,
                    policy_version=draft.version,
                    extra={"note": draft.note[:200]},
                )
            ]
        )
        return draft
