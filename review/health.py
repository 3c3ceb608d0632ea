"""Run health: where a submission's items stopped, which handoff stalled, and checks an
auditor or pager relies on (reconciliation, cross-document consistency).

Everything here reports ids, states, counts, ages and hashes: never document content.
Thresholds come from the policy and each item's SLA window, not from queue depth:
- ingestion: accepted, detection not finished within `handoff_stall_minutes`;
- assignment: proposed and unclaimed for a quarter of its SLA class's window, or inside
  the warn window before its deadline;
- review: in review with the lease run out and not yet reclaimed, or reclaimed
  `max_attempts` times or more;
- rendering: approved without an artifact for `handoff_stall_minutes`;
- signing: rendered, not signed, for `handoff_stall_minutes`;
- dead_letter: an unresolved dead letter waits for a human.
Holds are reported, not counted as stalls: a hold is a deliberate stop.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Exists, Max, Min, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce, Now, TruncDate

from audit.clock import db_now
from audit.models import AuditEvent
from intake.models import Submission
from review.models import (
    TERMINAL_STATES,
    Artifact,
    Claim,
    DeadLetter,
    Hold,
    ItemState,
    LegalHold,
    Mark,
    Proposal,
    ReviewItem,
)
from review.selectors import policy_current

HANDOFFS = ("ingestion", "assignment", "review", "rendering", "signing", "dead_letter")


@dataclass(frozen=True)
class Stall:
    handoff: str
    count: int
    oldest_age_seconds: int


@dataclass
class RunHealth:
    submission_id: Any
    external_ref: str
    received_at: dt.datetime
    statutory_deadline: dt.datetime
    counts_by_state: dict[str, int] = field(default_factory=dict)
    expected_terminal: int = 0
    observed_terminal: int = 0
    oldest_open_age_seconds: int | None = None
    last_transition_at: dt.datetime | None = None
    last_event: str = ""
    holds: dict[str, int] = field(default_factory=dict)
    legal_hold: bool = False
    stalls: list[Stall] = field(default_factory=list)

    @property
    def stalled(self) -> bool:
        return bool(self.stalls)

    @property
    def diagnosis(self) -> str:
        """The first handoff in pipeline order where items stopped, else 'healthy'."""
        return self.stalls[0].handoff if self.stalls else "healthy"

    def as_dict(self) -> dict[str, Any]:
        return {
            "submission_id": str(self.submission_id),
            "external_ref": self.external_ref,
            "received_at": self.received_at.isoformat(),
            "statutory_deadline": self.statutory_deadline.isoformat(),
            "counts_by_state": self.counts_by_state,
            "expected_terminal": self.expected_terminal,
            "observed_terminal": self.observed_terminal,
            "oldest_open_age_seconds": self.oldest_open_age_seconds,
            "last_transition_at": self.last_transition_at.isoformat()
            if self.last_transition_at
            else None,
            "last_event": self.last_event,
            "holds": self.holds,
            "legal_hold": self.legal_hold,
            "diagnosis": self.diagnosis,
            "stalls": [
                {"handoff": s.handoff, "count": s.count, "oldest_age_seconds": s.oldest_age_seconds}
                for s in self.stalls
            ],
        }


def _stalled_items(now: dt.datetime) -> dict[str, QuerySet]:
    """Per handoff: the stalled items (each queryset cheap via the state indexes)."""
    policy = policy_current()
    stall = dt.timedelta(minutes=policy.handoff_stall_minutes)
    warn = dt.timedelta(minutes=policy.warn_window_minutes)
    items = ReviewItem.objects.all()
    # A quarter of the item's SLA window gone with nobody claiming it.
    unclaimed_too_long = Q(pk__in=[])
    for sla_class, hours in policy.sla_hours.items():
        quarter = dt.timedelta(hours=float(hours)) / 4
        unclaimed_too_long |= Q(sla_class=sla_class, state_changed_at__lte=now - quarter)
    open_expired = Claim.objects.filter(
        item=OuterRef("pk"), ended_at__isnull=True, expires_at__lte=now
    )
    expired_claims = (
        Claim.objects.filter(item=OuterRef("pk"), outcome=Claim.Outcome.EXPIRED)
        .order_by()
        .values("item")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return {
        "ingestion": items.filter(
            state=ItemState.ACCEPTED, hold=Hold.NONE, state_changed_at__lte=now - stall
        ),
        "assignment": items.filter(state=ItemState.PROPOSED, hold=Hold.NONE).filter(
            Q(deadline__lte=now + warn) | unclaimed_too_long
        ),
        # The open items first, then each one's claims: a join of every item with every
        # claim ever made, grouped, would read the whole history on every scrape.
        "review": items.filter(state__in=[ItemState.PROPOSED, ItemState.IN_REVIEW])
        .alias(reclaims=Coalesce(Subquery(expired_claims), 0))
        .filter(
            Q(state=ItemState.IN_REVIEW) & Exists(open_expired)
            | Q(reclaims__gte=policy.max_attempts)
        ),
        "rendering": items.filter(
            state=ItemState.APPROVED, hold=Hold.NONE, state_changed_at__lte=now - stall
        ).exclude(Exists(Artifact.objects.filter(document=OuterRef("document")))),
        "signing": items.filter(state=ItemState.APPROVED, hold=Hold.NONE).filter(
            Exists(
                Artifact.objects.filter(
                    document=OuterRef("document"),
                    signed_at__isnull=True,
                    created_at__lte=now - stall,
                )
            )
        ),
        "dead_letter": items.filter(
            Exists(DeadLetter.objects.filter(item=OuterRef("pk"), resolved_at__isnull=True))
        ),
    }


def stalled_counts() -> dict[str, int]:
    """How many items are stalled at each handoff, service-wide (for metrics)."""
    return {handoff: items.count() for handoff, items in _stalled_items(db_now()).items()}


def run_health(*, submissions: QuerySet[Submission] | None = None) -> list[RunHealth]:
    """Health of every run with live work (or of the given submissions), riskiest first."""
    now = db_now()
    if submissions is None:
        submissions = Submission.objects.filter(
            documents__item__state__in=[s for s in ItemState.values if s not in TERMINAL_STATES]
        ).distinct()
    runs = {
        s.id: RunHealth(s.id, s.external_ref, s.received_at, s.statutory_deadline)
        for s in submissions.only("id", "external_ref", "received_at", "statutory_deadline")
    }
    if not runs:
        return []
    ids = list(runs)
    scoped = ReviewItem.objects.filter(document__submission__in=ids)
    for by_state in scoped.values("document__submission", "state").annotate(n=Count("id")):
        runs[by_state["document__submission"]].counts_by_state[by_state["state"]] = by_state["n"]
    for by_hold in (
        scoped.exclude(hold=Hold.NONE)
        .values("document__submission", "hold")
        .annotate(n=Count("id"))
    ):
        runs[by_hold["document__submission"]].holds[by_hold["hold"]] = by_hold["n"]
    for oldest in (
        scoped.exclude(state__in=TERMINAL_STATES)
        .values("document__submission")
        .annotate(created=Min("created_at"))
    ):
        age = now - oldest["created"]
        runs[oldest["document__submission"]].oldest_open_age_seconds = int(age.total_seconds())
    for last in scoped.values("document__submission").annotate(at=Max("state_changed_at")):
        runs[last["document__submission"]].last_transition_at = last["at"]
    newest = (
        AuditEvent.objects.filter(submission_id__in=ids)
        .values("submission_id")
        .annotate(sequence=Max("sequence"))
        .values("sequence")
    )
    for submission_id, event_type in AuditEvent.objects.filter(sequence__in=newest).values_list(
        "submission_id", "event_type"
    ):
        if submission_id in runs:
            runs[submission_id].last_event = event_type
    held = LegalHold.objects.filter(lifted_at__isnull=True).filter(
        Q(submission__in=ids) | Q(document__submission__in=ids)
    )
    for hold in held.values("submission_id", "document__submission_id"):
        runs[hold["submission_id"] or hold["document__submission_id"]].legal_hold = True
    for handoff, queryset in _stalled_items(now).items():
        # A dead letter waits since the failure that parked it, whatever the item's
        # state changed at and whenever the sweeper escalated it.
        since = (
            Min("dead_letters__failed_at", filter=Q(dead_letters__resolved_at__isnull=True))
            if handoff == "dead_letter"
            else Min("state_changed_at")
        )
        rows = (
            queryset.filter(document__submission__in=ids)
            .values("document__submission")
            .annotate(n=Count("id", distinct=True), since=since)
        )
        for row in rows:
            runs[row["document__submission"]].stalls.append(
                Stall(handoff, row["n"], int((now - row["since"]).total_seconds()))
            )
    for run in runs.values():
        run.expected_terminal = sum(run.counts_by_state.values())
        run.observed_terminal = sum(run.counts_by_state.get(s, 0) for s in TERMINAL_STATES)
        run.stalls.sort(key=lambda s: HANDOFFS.index(s.handoff))
    return sorted(runs.values(), key=_risk)


def _risk(run: RunHealth) -> tuple:
    """Stalled runs first, then the nearest statutory deadline, then the oldest work."""
    return (not run.stalled, run.statutory_deadline, -(run.oldest_open_age_seconds or 0))


def item_timeline(item: ReviewItem) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(item_id=item.pk).order_by("sequence")


# --- Reconciliation ---------------------------------------------------------------------


@dataclass(frozen=True)
class DayTotals:
    day: dt.date
    admitted: int
    terminal: int


def reconcile(*, day: dt.date | None = None) -> tuple[list[DayTotals], list[Any]]:
    """Admissions against terminal outcomes per day of receipt, and every item that is
    neither terminal nor held, oldest first (optionally for items received on `day`)."""
    items = ReviewItem.objects.annotate(day=TruncDate("document__submission__received_at"))
    if day is not None:
        items = items.filter(day=day)
    per_day = (
        items.values("day")
        .annotate(
            admitted=Count("id"),
            terminal=Count("id", filter=Q(state__in=TERMINAL_STATES)),
        )
        .order_by("day")
    )
    totals = [DayTotals(row["day"], row["admitted"], row["terminal"]) for row in per_day]
    open_items = list(
        items.exclude(state__in=TERMINAL_STATES)
        .filter(hold=Hold.NONE)
        .annotate(overdue=Q(deadline__lt=Now()))
        .select_related("document__submission")
        .order_by("created_at", "id")
    )
    return totals, open_items


# --- Consistency across one submission --------------------------------------------------


@dataclass(frozen=True)
class ConsistencyFlag:
    """A value redacted in one document but left visible (or undecided) in another."""

    item_id: int
    document_id: Any
    mark_key: str
    page: int
    category: str
    decision: str
    redacted_in: tuple[Any, ...]


def consistency_flags(*, submission_id: Any) -> list[ConsistencyFlag]:
    """Compare the salted text hashes of marks across the submission's documents: the
    detector keys them per submission, so equal values hash alike. Only documents not yet
    signed are flagged (that is where a fix is still possible)."""
    latest = {}
    for proposal in Proposal.objects.filter(document__submission_id=submission_id).order_by(
        "document", "version"
    ):
        latest[proposal.document_id] = proposal.pk
    marks = list(
        Mark.objects.filter(proposal_id__in=latest.values())
        .exclude(text_hash="")
        .values("proposal__document_id", "mark_key", "page", "category", "decision", "text_hash")
    )
    redacted: dict[str, set[Any]] = defaultdict(set)
    for mark in marks:
        if mark["decision"] == Mark.Decision.ACCEPTED:
            redacted[mark["text_hash"]].add(mark["proposal__document_id"])
    items = dict(
        ReviewItem.objects.filter(document__submission_id=submission_id)
        .exclude(state=ItemState.SIGNED)
        .values_list("document_id", "id")
    )
    flags = []
    for mark in marks:
        document_id = mark["proposal__document_id"]
        elsewhere = redacted.get(mark["text_hash"], set()) - {document_id}
        if mark["decision"] != Mark.Decision.ACCEPTED and elsewhere and document_id in items:
            flags.append(
                ConsistencyFlag(
                    item_id=items[document_id],
                    document_id=document_id,
                    mark_key=mark["mark_key"],
                    page=mark["page"],
                    category=mark["category"],
                    decision=mark["decision"],
                    redacted_in=tuple(sorted(str(d) for d in elsewhere)),
                )
            )
    return flags
