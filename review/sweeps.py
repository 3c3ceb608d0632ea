"""The sweeper: one bounded, idempotent pass over claims, deadlines, dead letters and the
outbox (rows sent long ago and never finished are sent again).

Every step computes "now" once from the database, selects at most BATCH rows that can
change (skipping rows another worker holds), re-checks the state in a conditional bulk
update and bulk-inserts one audit event per changed row, all in one transaction per
batch. Work is proportional to the rows that change: the partial indexes on
ReviewItem and Claim cover exactly the candidates of each step.

Breach holds, never releases (DESIGN rule 4): nothing here approves, renders or
releases anything.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from audit.clock import db_now
from audit.services import Event, emit_many
from review.models import (
    TERMINAL_STATES,
    Claim,
    DeadLetter,
    Hold,
    ItemState,
    Queue,
    ReviewItem,
)
from review.priority import BUMPED
from review.selectors import policy_current
from review.services.outbox import outbox_resend_stale
from review.services.transitions import item_event, items_transition_bulk

SWEEPER = "system:sweeper"
# Small enough that one batch's transaction holds its row locks briefly (reviewers
# claiming meanwhile skip past them), large enough that a backlog clears in few batches.
BATCH = 500
# A pass stops after this many batches per step, so one pass stays short; the next pass
# (a minute later) carries on where it stopped.
MAX_BATCHES = 200


@dataclass
class SweepReport:
    reclaimed: int = 0
    bumped: int = 0
    breached: int = 0
    escalated: int = 0
    resent: int = 0
    seconds: float = 0.0
    details: dict[str, int] = field(default_factory=dict)


def sweep_pass() -> SweepReport:
    started = time.perf_counter()
    report = SweepReport()
    report.reclaimed = _repeat(_reclaim_expired_claims)
    report.bumped = _repeat(_bump_near_deadline)
    report.breached = _repeat(_hold_breached_items)
    report.escalated = _repeat(_escalate_dead_letters)
    report.resent = outbox_resend_stale()
    report.seconds = time.perf_counter() - started
    return report


def _repeat(step: Callable[[], int]) -> int:
    total = 0
    for _ in range(MAX_BATCHES):
        changed = step()
        total += changed
        if changed < BATCH:
            break
    return total


def _live_unheld() -> QuerySet[ReviewItem]:
    return ReviewItem.objects.exclude(state__in=TERMINAL_STATES).filter(hold=Hold.NONE)


# What the audit events need, and no more: never the submission's search terms. Plain
# rows, not model instances: a batch is hundreds of items, and building three models per
# item cost more than the statements that change them.
CANDIDATE_FIELDS = (
    "id",
    "state",
    "queue",
    "priority",
    "deadline",
    "document_id",
    "document__source_sha256",
    "document__policy_version",
    "document__submission_id",
    "document__submission__correlation_id",
)


def _lock(queryset: QuerySet[ReviewItem], order: str = "id") -> list[dict[str, Any]]:
    """Lock up to BATCH items, skipping rows a reviewer or another sweeper holds.
    Items are always locked before claims (the order every writer uses). Ordering by
    deadline lets the deadline steps walk their partial index instead of the table."""
    return list(
        queryset.select_for_update(skip_locked=True, of=("self",))
        .order_by(order, "id")
        .values(*CANDIDATE_FIELDS)[:BATCH]
    )


def _event(item: dict[str, Any], event_type: str, extra: dict[str, Any]) -> Event:
    """The sweeper's audit event about a locked candidate (as `item_event` for a model)."""
    return Event(
        event_type=event_type,
        actor=SWEEPER,
        submission_id=item["document__submission_id"],
        document_id=item["document_id"],
        item_id=item["id"],
        correlation_id=item["document__submission__correlation_id"],
        policy_version=item["document__policy_version"],
        input_hash=item["document__source_sha256"],
        extra=extra,
    )


def _reclaim_expired_claims() -> int:
    with transaction.atomic(durable=True):
        now = db_now()
        # Candidates come from the open-claim expiry index, not from a scan of items.
        expired = Claim.objects.filter(ended_at__isnull=True, expires_at__lte=now)
        items = _lock(
            ReviewItem.objects.filter(state=ItemState.IN_REVIEW, pk__in=expired.values("item_id"))
        )
        if not items:
            return 0
        claims = {
            item_id: (claim_id, owner)
            for item_id, claim_id, owner in Claim.objects.filter(
                item_id__any_of=[item["id"] for item in items],
                ended_at__isnull=True,
                expires_at__lte=now,
            ).values_list("item_id", "pk", "reviewer__username")
        }
        # Conditional on the claim still being open and expired: with the item rows
        # locked no reviewer can end these claims meanwhile, so exactly one side wins.
        Claim.objects.filter(
            pk__any_of=[claim_id for claim_id, _ in claims.values()],
            ended_at__isnull=True,
            expires_at__lte=now,
        ).update(ended_at=now, outcome=Claim.Outcome.EXPIRED)
        reclaimed = [item for item in items if item["id"] in claims]
        items_transition_bulk(
            item_ids=[item["id"] for item in reclaimed],
            from_state=ItemState.IN_REVIEW,
            to_state=ItemState.PROPOSED,
            now=now,
        )
        emit_many(
            _event(
                item,
                "CLAIM_RECLAIMED",
                {
                    "claim": claims[item["id"]][0],
                    "previous_owner": claims[item["id"]][1],
                    "from": ItemState.IN_REVIEW,
                    "to": ItemState.PROPOSED,
                },
            )
            for item in reclaimed
        )
        return len(reclaimed)


def _bump_near_deadline() -> int:
    warn = dt.timedelta(minutes=policy_current().warn_window_minutes)
    with transaction.atomic(durable=True):
        now = db_now()
        items = _lock(
            _live_unheld().filter(
                priority_bumped_at__isnull=True, deadline__gt=now, deadline__lte=now + warn
            ),
            order="deadline",
        )
        if not items:
            return 0
        ReviewItem.objects.filter(
            pk__any_of=[item["id"] for item in items], priority_bumped_at__isnull=True
        ).update(priority=BUMPED, priority_bumped_at=now)
        emit_many(
            _event(
                item,
                "PRIORITY_BUMPED",
                {
                    "remaining_seconds": int((item["deadline"] - now).total_seconds()),
                    "previous_priority": item["priority"],
                },
            )
            for item in items
        )
        return len(items)


def _hold_breached_items() -> int:
    with transaction.atomic(durable=True):
        now = db_now()
        items = _lock(_live_unheld().filter(deadline__lte=now), order="deadline")
        if not items:
            return 0
        ids = [item["id"] for item in items]
        open_claims = dict(
            Claim.objects.filter(item_id__any_of=ids, ended_at__isnull=True).values_list(
                "item_id", "pk"
            )
        )
        Claim.objects.filter(pk__any_of=open_claims.values(), ended_at__isnull=True).update(
            ended_at=now, outcome=Claim.Outcome.RELEASED
        )
        in_review = {item["id"] for item in items if item["state"] == ItemState.IN_REVIEW}
        if in_review:
            items_transition_bulk(
                item_ids=list(in_review),
                from_state=ItemState.IN_REVIEW,
                to_state=ItemState.PROPOSED,
                now=now,
            )
        ReviewItem.objects.filter(pk__any_of=ids, hold=Hold.NONE).update(
            hold=Hold.SLA_BREACH, queue=Queue.COMPLIANCE_REVIEW
        )
        emit_many(
            _event(
                item,
                "SLA_BREACHED",
                {
                    "overdue_seconds": int((now - item["deadline"]).total_seconds()),
                    "state": ItemState.PROPOSED if item["id"] in in_review else item["state"],
                    "claim_ended": open_claims.get(item["id"]),
                    "from_queue": item["queue"],
                },
            )
            for item in items
        )
        return len(items)


def _escalate_dead_letters() -> int:
    with transaction.atomic(durable=True):
        now = db_now()
        letters = list(
            DeadLetter.objects.filter(escalated_at__isnull=True)
            .select_for_update(skip_locked=True, of=("self",))
            .select_related("item__document__submission")
            .order_by("failed_at", "id")[:BATCH]
        )
        if not letters:
            return 0
        DeadLetter.objects.filter(
            pk__any_of=[letter.pk for letter in letters], escalated_at__isnull=True
        ).update(escalated_at=now)
        ReviewItem.objects.filter(pk__any_of=[letter.item_id for letter in letters]).update(
            queue=Queue.COMPLIANCE_REVIEW
        )
        emit_many(
            item_event(
                letter.item,
                "ESCALATED",
                actor=SWEEPER,
                extra={
                    "dead_letter": letter.pk,
                    "to_queue": Queue.COMPLIANCE_REVIEW,
                    "reason": letter.last_reason,
                },
            )
            for letter in letters
        )
        return len(letters)
