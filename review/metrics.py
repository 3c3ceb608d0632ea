"""Prometheus metrics, served at `GET /metrics` to staff or to a scraper holding a token.

Two kinds of series:

* Read from the database at scrape time (`DatabaseCollector`): items by state, queue and
  hold; the age of the oldest item not yet finished; unresolved dead letters and the age
  of the oldest, from the failure that parked it (not from its escalation); claim lease
  expirations and idempotency blocks, counted in the audit ledger; expired leases whose
  item was then approved under a later claim (resolved without intervention). The database is the truth shared by
  every web and worker process on every machine, so any one process can answer a scrape.
* Observed in the process where the work happens: transition durations, admission
  latency, sweeper pass duration (histograms); documents detection could not parse or
  open, and task deliveries refused as duplicates of finished work (counters). The service runs many processes (web and
  several `qcluster` workers, each forking its own children), so when the environment
  variable `PROMETHEUS_MULTIPROC_DIR` names a directory, prometheus-client's multiprocess
  mode is used: every process writes its observations to memory-mapped files there and a
  scrape of any process sums them. The directory must exist, be shared by all processes
  of one machine, and be emptied before they start (`make run` does both). Without the
  variable (tests, a single process) the histograms live in this process only.

DESIGN rule 6: labels carry only fixed enums (state, queue, hold, transition name), never
document content, object ids or file names, search terms, user names or any other id.
"""

from __future__ import annotations

import functools
import hmac
import os
from collections.abc import Iterator

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Exists, Min, OuterRef
from django.db.models.functions import Now
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from audit.clock import db_now
from audit.models import AuditEvent
from intake.metrics import ADMISSION_SECONDS
from review.health import stalled_counts
from review.models import (
    TERMINAL_STATES,
    Claim,
    DeadLetter,
    Hold,
    ItemState,
    Outbox,
    Queue,
    ReviewItem,
)

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

# The transitions whose durations are worth a histogram, and their label values:
# detection (accepted -> proposed, an early warning of a slow or stuck detector) and the
# three human-paced ones. Anything else (sweeps, failures, releases) is not observed.
TRANSITIONS = {
    (ItemState.ACCEPTED, ItemState.PROPOSED): "accepted_to_proposed",
    (ItemState.PROPOSED, ItemState.IN_REVIEW): "proposed_to_in_review",
    (ItemState.IN_REVIEW, ItemState.APPROVED): "in_review_to_approved",
    (ItemState.APPROVED, ItemState.SIGNED): "approved_to_signed",
}

# Audit event types counted as Prometheus counters (the ledger is append-only, so the
# counts only grow: true counters that survive process restarts).
LEDGER_COUNTERS = {
    "CLAIM_RECLAIMED": (
        "rrq_claim_lease_expirations",
        "Claims whose lease expired and were reclaimed by the sweeper.",
    ),
    "IDEMPOTENCY_BLOCK": (
        "rrq_idempotency_blocks",
        "Repeated submissions answered with the original admission (Idempotency-Key replay).",
    ),
}

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
# From an automatic step (seconds) to a queue wait under a statutory deadline (weeks).
TRANSITION_BUCKETS = (
    1.0, 5.0, 15.0, 30.0, MINUTE, 2 * MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE,
    HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, DAY, 2 * DAY, 4 * DAY, 7 * DAY, 14 * DAY, 28 * DAY,
)  # fmt: skip
# A pass is bounded (review.sweeps.MAX_BATCHES); most passes change nothing.
SWEEP_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)

# Not registered on prometheus-client's global registry (which would also expose this
# process's own CPU and memory, meaningless across many processes): see `registry`.
TRANSITION_SECONDS = Histogram(
    "rrq_transition_seconds",
    "Time an item spent in the first state before moving to the second.",
    ["transition"],
    buckets=TRANSITION_BUCKETS,
    registry=None,
)
SWEEP_PASS_SECONDS = Histogram(
    "rrq_sweep_pass_seconds",
    "Wall time of one sweeper pass.",
    buckets=SWEEP_BUCKETS,
    registry=None,
)

PARSE_FAILURES = Counter(
    "rrq_parse_failures",
    "Documents detection could not open, parse or draw (deterministic: the same bytes "
    "fail again; the item goes to the dead-letter queue).",
    registry=None,
)
# Label values: the task names of review.tasks, without the module.
DELIVERY_TASKS = ("detect_document", "render_and_sign")
DUPLICATE_DELIVERIES = Counter(
    "rrq_duplicate_deliveries",
    "Task deliveries that found their work already done and changed nothing (a "
    "redelivered or resent task, refused by the task's idempotency check).",
    ["task"],
    registry=None,
)

# Each labelled child exists from the start, so every series is present (at zero) on the
# first scrape instead of appearing with its first observation.
for _name in TRANSITIONS.values():
    TRANSITION_SECONDS.labels(transition=_name)
for _task in DELIVERY_TASKS:
    DUPLICATE_DELIVERIES.labels(task=_task)


def observe_transition(from_state: str, to_state: str, seconds: float) -> None:
    """Record how long an item stayed in `from_state`; other transitions are ignored.
    Call it after commit, so a rolled-back transition is never counted."""
    name = TRANSITIONS.get((ItemState(from_state), ItemState(to_state)))
    if name is not None:
        TRANSITION_SECONDS.labels(transition=name).observe(max(seconds, 0.0))


def observe_transition_on_commit(from_state: str, to_state: str, seconds: float) -> None:
    """Observe the transition when the current transaction commits, never on rollback.
    Registers nothing for transitions without a histogram (so the on-commit queue holds
    only work that matters); robust, so a metrics error cannot fail a committed change."""
    if (ItemState(from_state), ItemState(to_state)) in TRANSITIONS:
        transaction.on_commit(
            functools.partial(observe_transition, from_state, to_state, seconds), robust=True
        )


def observe_sweep(seconds: float) -> None:
    SWEEP_PASS_SECONDS.observe(seconds)


def observe_parse_failure() -> None:
    """A document failed to open, parse or draw in detection."""
    PARSE_FAILURES.inc()


def observe_duplicate_delivery(task: str) -> None:
    """A delivery of `task` (a name in DELIVERY_TASKS) found its work done already."""
    DUPLICATE_DELIVERIES.labels(task=task).inc()


class DatabaseCollector(Collector):
    """Series read from the database on every scrape (a dozen small queries)."""

    def collect(self) -> Iterator[Metric]:
        yield self._items()
        yield self._oldest_open_item()
        yield from self._dead_letters()
        yield from self._outbox()
        yield self._stalls()
        yield from self._ledger_counters()

    def _items(self) -> Metric:
        family = GaugeMetricFamily(
            "rrq_items",
            "Review items by lifecycle state, queue and hold.",
            labels=["state", "queue", "hold"],
        )
        counts = {
            (row["state"], row["queue"], row["hold"]): row["n"]
            for row in ReviewItem.objects.order_by()
            .values("state", "queue", "hold")
            .annotate(n=Count("id"))
        }
        # Every combination of the enums, zeros included, so a series never vanishes
        # when its last item moves on; values outside the enums cannot become labels.
        for state in ItemState.values:
            for queue in Queue.values:
                for hold in Hold.values:
                    family.add_metric([state, queue, hold], counts.get((state, queue, hold), 0))
        return family

    def _oldest_open_item(self) -> Metric:
        # Held items count too: a hold is a deliberate stop, but every item finishes.
        oldest = ReviewItem.objects.exclude(state__in=TERMINAL_STATES).aggregate(
            oldest=Min("created_at")
        )["oldest"]
        age = (db_now() - oldest).total_seconds() if oldest is not None else 0.0
        return GaugeMetricFamily(
            "rrq_oldest_open_item_age_seconds",
            "Age since admission of the oldest item not yet signed or failed, held or not, "
            "by the database clock (0 when none).",
            value=max(age, 0.0),
        )

    def _dead_letters(self) -> Iterator[Metric]:
        open_letters = DeadLetter.objects.filter(resolved_at__isnull=True).aggregate(
            n=Count("id"), oldest=Min("failed_at")
        )
        yield GaugeMetricFamily(
            "rrq_dead_letters",
            "Unresolved dead letters.",
            value=open_letters["n"],
        )
        oldest = open_letters["oldest"]
        age = (db_now() - oldest).total_seconds() if oldest is not None else 0.0
        yield GaugeMetricFamily(
            "rrq_dead_letter_oldest_age_seconds",
            "Age of the oldest unresolved dead letter, from the failure that parked it "
            "(not from its escalation), by the database clock (0 when none).",
            value=max(age, 0.0),
        )

    def _outbox(self) -> Iterator[Metric]:
        unsent = Outbox.objects.filter(sent_at__isnull=True, due_at__lte=Now()).aggregate(
            n=Count("id"), oldest=Min("due_at")
        )
        yield GaugeMetricFamily(
            "rrq_outbox_unsent", "Outbox rows due and not yet sent.", value=unsent["n"]
        )
        oldest = unsent["oldest"]
        age = (db_now() - oldest).total_seconds() if oldest is not None else 0.0
        yield GaugeMetricFamily(
            "rrq_outbox_oldest_unsent_age_seconds",
            "How long the oldest due outbox row has waited to be sent (0 when none).",
            value=max(age, 0.0),
        )

    def _stalls(self) -> Metric:
        family = GaugeMetricFamily(
            "rrq_stalled_items",
            "Items stalled at a handoff (as the run health page diagnoses them).",
            labels=["handoff"],
        )
        for handoff, count in stalled_counts().items():
            family.add_metric([handoff], count)
        return family

    def _ledger_counters(self) -> Iterator[Metric]:
        # A count over the indexed `event_type` column, restricted to two event types: the
        # work grows with the number of such events, not with the whole ledger (an index
        # range per type, index-only on PostgreSQL). Both are rare by nature (a lease that
        # ran out, a client retrying a finished request), so years of history stay a small
        # count; this is accepted rather than keeping a second, mutable tally beside an
        # append-only ledger that would have to be kept in step with it.
        counts = dict(
            AuditEvent.objects.filter(event_type__in=list(LEDGER_COUNTERS))
            .order_by()
            .values_list("event_type")
            .annotate(n=Count("id"))
        )
        for event_type, (name, documentation) in LEDGER_COUNTERS.items():
            yield CounterMetricFamily(name, documentation, value=counts.get(event_type, 0))
        # Claims are ended, never deleted, so this count only grows. Expired claims are
        # rare (see above); each is checked against its item's later claims (by item).
        approved_later = Claim.objects.filter(
            item=OuterRef("item"),
            outcome=Claim.Outcome.SUBMITTED,
            claimed_at__gte=OuterRef("ended_at"),
        )
        yield CounterMetricFamily(
            "rrq_lease_expirations_resolved",
            "Expired claim leases whose item was claimed again and approved under a later "
            "claim: the handback worked without anyone intervening.",
            value=Claim.objects.filter(outcome=Claim.Outcome.EXPIRED)
            .filter(Exists(approved_later))
            .count(),
        )


def _build_registry() -> CollectorRegistry:
    registry = CollectorRegistry(auto_describe=False)
    if MULTIPROCESS:
        from prometheus_client import multiprocess

        # Reads every process's files at each scrape; histograms are summed across them.
        multiprocess.MultiProcessCollector(registry)
    else:
        for observed in (
            TRANSITION_SECONDS,
            ADMISSION_SECONDS,
            SWEEP_PASS_SECONDS,
            PARSE_FAILURES,
            DUPLICATE_DELIVERIES,
        ):
            registry.register(observed)
    registry.register(DatabaseCollector())
    return registry


registry = _build_registry()


def _bearer_token(request: HttpRequest) -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _token_ok(token: str) -> bool:
    expected = settings.METRICS_TOKEN
    # An empty setting disables token access; compare bytes in constant time.
    return bool(expected) and hmac.compare_digest(token.encode(), expected.encode())


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    """Staff users (session) or `Authorization: Bearer <METRICS_TOKEN>`; otherwise 401
    without credentials, 403 with wrong ones."""
    token = _bearer_token(request)
    allowed = getattr(request.user, "is_staff", False) or (token is not None and _token_ok(token))
    if not allowed:
        if token is None and not request.user.is_authenticated:
            response = HttpResponse("authentication required\n", status=401)
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        else:
            response = HttpResponse("forbidden\n", status=403)
        response["Content-Type"] = "text/plain; charset=utf-8"
        return response
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
