"""The transition kernel: the one table of allowed moves, the item lock, and the item's
audit event written with every move."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from audit.clock import db_now
from audit.services import Actor, Event, emit_many
from review import metrics
from review.errors import IllegalTransition
from review.models import ItemState, ReviewItem

S = ItemState

# The one table of allowed moves. Terminal states (signed, failed) have none.
ALLOWED_TRANSITIONS: dict[str, frozenset[str]] = {
    S.ACCEPTED: frozenset({S.PROPOSED, S.FAILED}),
    S.PROPOSED: frozenset({S.IN_REVIEW, S.FAILED}),
    S.IN_REVIEW: frozenset({S.APPROVED, S.PROPOSED, S.FAILED}),
    S.APPROVED: frozenset({S.SIGNED, S.PROPOSED, S.FAILED}),  # proposed: reopened
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


def item_event_emit(item: ReviewItem, event_type: str, *, actor: Actor, **fields: Any) -> None:
    """Append one audit event about `item`. Caller holds the transaction of the change."""
    emit_many([item_event(item, event_type, actor=actor, **fields)])


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

    Locks the item. Nests: every caller that changes more than the state (a claim, an
    approval, a proposal) wraps it in its own transaction with that change.
    """
    with transaction.atomic():
        item = item_lock(item_id=item_id)
        item_transition_locked(
            item, to_state=to_state, actor=actor, event_type=event_type, extra=extra,
            output_hash=output_hash,
        )  # fmt: skip
        return item


def item_transition_locked(
    item: ReviewItem,
    *,
    to_state: str,
    actor: Actor,
    event_type: str | None = None,
    extra: dict[str, Any] | None = None,
    output_hash: str = "",
    now: dt.datetime | None = None,
) -> None:
    """`item_transition` for a caller that already holds the item's row lock in its
    transaction (and read it with its document and submission): no second lock, no
    savepoint, and the caller's `now` when it has read the clock already."""
    from_state = item.state
    if to_state not in ALLOWED_TRANSITIONS.get(from_state, frozenset()):
        raise IllegalTransition(f"item {item.pk}: illegal transition {from_state} -> {to_state}")
    since = item.state_changed_at
    item.state = to_state
    item.state_changed_at = now or db_now()
    item.save(update_fields=["state", "state_changed_at"])
    seconds = (item.state_changed_at - since).total_seconds()
    # After commit only: a rolled-back transition is never observed.
    metrics.observe_transition_on_commit(from_state, to_state, seconds)
    item_event_emit(
        item,
        event_type or f"ITEM_{str(to_state).upper()}",
        actor=actor,
        output_hash=output_hash,
        attempt=item.attempts or None,
        extra={"from": from_state, "to": to_state, **(extra or {})},
    )


def items_transition_bulk(
    *, item_ids: Sequence[int], from_state: str, to_state: str, now: dt.datetime, **updates: Any
) -> int:
    """The set-based form of `item_transition`, for sweeps: same table of allowed moves,
    a conditional update that re-checks the state. The caller holds the item locks and
    writes one audit event per item in the same transaction."""
    if to_state not in ALLOWED_TRANSITIONS.get(from_state, frozenset()):
        raise IllegalTransition(f"illegal transition {from_state} -> {to_state}")
    return ReviewItem.objects.filter(pk__any_of=item_ids, state=from_state).update(
        state=to_state, state_changed_at=now, **updates
    )
