"""Retention: versioned schedules per jurisdiction, and the daily disposal of the bytes
they let go.

The rules of a disposal pass:
- Only an item that ended (`signed` or `failed`: terminal, never left again) is
  disposed of, counted from the moment it ended (`state_changed_at`, stamped on the
  database clock by the transition kernel).
- Each item is governed by the retention version of its jurisdiction that was in force
  when it ended (the latest published at or before that moment; the first version for
  items that ended before any existed). A later version changes nothing for it. A
  jurisdiction without a version keeps everything.
- Never under a legal hold (on the document or on its submission): such documents are
  skipped and counted, and disposed of by a later pass once the hold is released.
- Storage is content-addressed, so one stored file can belong to several documents (the
  same PDF submitted twice). A file is deleted only when every document naming it is
  disposed of in the same pass; until then its documents wait, still truthfully
  "retained", since the bytes exist.
- The ledger is kept. Each disposal writes a Disposal row per kind and a `DISPOSED`
  event in the document's chain with the hashes of what went, in one transaction; the
  files are deleted after that commit and `deleted_at` records it. A deletion cut short
  by a crash is finished by the next pass, so a committed disposal always ends with the
  bytes gone, and bytes never go without a record saying so.
- Known limit: a document waiting on a shared file is selected again by every batch;
  should a whole batch (BATCH documents) wait so, the pass stops there until they can go.
- Previews are never written to storage (review.selectors caches them for minutes and
  rebuilds them from the original): their disposal clears any cached copy.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.core.files.storage import storages
from django.db import transaction
from django.db.models import Exists, Max, OuterRef, Q, QuerySet

from audit.clock import db_now
from audit.services import Actor, Event, actor_label, emit_many
from intake.models import Document
from review.errors import OutputDisposed
from review.models import (
    TERMINAL_STATES,
    Artifact,
    Disposal,
    LegalHold,
    Proposal,
    RetentionPolicy,
    ReviewItem,
)
from review.services.detection import ocr_pages_delete
from review.services.remnants import remnants_remove
from review.services.transitions import item_event

DISPOSER = "system:retention"
Kind = Disposal.Kind
DAYS_FIELD: dict[str, str] = {
    Kind.ORIGINAL: "originals_days",
    Kind.PREVIEWS: "previews_days",
    Kind.DERIVATIVES: "derivatives_days",
}
STORAGE: dict[str, str] = {Kind.ORIGINAL: "originals", Kind.DERIVATIVES: "derivatives"}
# Documents per transaction: each gets a few rows and one ledger event, so a batch
# commits in well under a second; a daily backlog of 100,000 clears in one pass.
BATCH = 500
MAX_BATCHES = 200


# -- versions ---------------------------------------------------------------------------


def retention_publish(*, draft: RetentionPolicy, actor: Actor) -> RetentionPolicy:
    """Save `draft` as the next retention version of its jurisdiction; the versions
    before it stay untouched and keep governing the work that ended under them."""
    draft.full_clean(exclude=["version", "published_at", "created_by"])
    # Not durable: the admin's change view already wraps its save in a transaction.
    with transaction.atomic():
        draft.pk = None
        draft._state.adding = True
        # Two concurrent publishes may compute the same number: the unique constraint
        # lets one win and the other fail loudly instead of overwriting.
        latest = RetentionPolicy.objects.filter(jurisdiction=draft.jurisdiction).aggregate(
            v=Max("version")
        )["v"]
        draft.version = (latest or 0) + 1
        draft.published_at = db_now()
        draft.created_by = actor_label(actor)
        draft.save()
        emit_many(
            [
                Event(
                    event_type="RETENTION_PUBLISHED",
                    actor=actor,
                    extra={
                        "jurisdiction": draft.jurisdiction_id,
                        "retention_version": draft.version,
                        "originals_days": draft.originals_days,
                        "previews_days": draft.previews_days,
                        "derivatives_days": draft.derivatives_days,
                        "note": draft.note[:200],
                    },
                )
            ]
        )
        return draft


@dataclass(frozen=True)
class Segment:
    """The items one version governs: its jurisdiction's, ended in [start, end)."""

    policy: RetentionPolicy
    start: dt.datetime | None
    end: dt.datetime | None

    def governs(self, jurisdiction: str, ended_at: dt.datetime) -> bool:
        return (
            self.policy.jurisdiction_id == jurisdiction
            and (self.start is None or ended_at >= self.start)
            and (self.end is None or ended_at < self.end)
        )


def _segments() -> list[Segment]:
    by_jurisdiction: dict[str, list[RetentionPolicy]] = defaultdict(list)
    for policy in RetentionPolicy.objects.order_by("jurisdiction", "version"):
        by_jurisdiction[policy.jurisdiction_id].append(policy)
    segments = []
    for versions in by_jurisdiction.values():
        for index, policy in enumerate(versions):
            following = versions[index + 1] if index + 1 < len(versions) else None
            segments.append(
                Segment(
                    policy,
                    start=policy.published_at if index else None,
                    end=following.published_at if following else None,
                )
            )
    return segments


def retention_governing(item: ReviewItem) -> RetentionPolicy | None:
    """The retention version that governs a terminal item, or None (kept: not ended,
    or its jurisdiction has no schedule)."""
    if item.state not in TERMINAL_STATES:
        return None
    jurisdiction = item.document.submission.jurisdiction_id
    return next(
        (s.policy for s in _segments() if s.governs(jurisdiction, item.state_changed_at)), None
    )


# -- reads ------------------------------------------------------------------------------


def document_disposals(document: Any) -> dict[str, Disposal]:
    """The document's disposals by kind (empty while everything is retained)."""
    return {
        d.kind: d for d in Disposal.objects.filter(document=document).select_related("retention")
    }


def _disposed(disposal: Disposal, what: str, days: int) -> OutputDisposed:
    retention = disposal.retention
    return OutputDisposed(
        f"{what} was disposed of on {disposal.disposed_at:%Y-%m-%d} under "
        f"{retention.jurisdiction_id} retention v{retention.version} "
        f"({days} days after the item ended); its hashes and the audit ledger are kept"
    )


def output_disposed_check(document: Any) -> None:
    """Raise OutputDisposed (410) if the document's signed output was disposed of. A
    document that never had one (closed as failed) keeps its usual answer."""
    disposal = (
        Disposal.objects.filter(document=document, kind=Kind.DERIVATIVES)
        .select_related("retention")
        .first()
    )
    if (
        disposal is not None
        and Artifact.objects.filter(document=document, signed_at__isnull=False).exists()
    ):
        raise _disposed(disposal, "the signed output", disposal.retention.derivatives_days)


def original_disposed_check(document: Any) -> None:
    """Raise OutputDisposed (410) if the document's original (so every page image) was
    disposed of."""
    disposal = (
        Disposal.objects.filter(document=document, kind=Kind.ORIGINAL)
        .select_related("retention")
        .first()
    )
    if disposal is not None:
        raise _disposed(disposal, "the original", disposal.retention.originals_days)


def _unheld() -> Q:
    active = LegalHold.objects.filter(lifted_at__isnull=True)
    return ~Q(Exists(active.filter(document=OuterRef("document")))) & ~Q(
        Exists(active.filter(submission=OuterRef("document__submission")))
    )


def _due(kind: str, segments: list[Segment], now: dt.datetime) -> QuerySet[ReviewItem]:
    """Terminal items whose `kind` bytes are past their governing version's period and
    not yet disposed of (legal holds not applied)."""
    due = Q(pk__in=[])
    for segment in segments:
        within = Q(
            document__submission__jurisdiction_id=segment.policy.jurisdiction_id,
            state_changed_at__lte=now
            - dt.timedelta(days=getattr(segment.policy, DAYS_FIELD[kind])),
        )
        if segment.start is not None:
            within &= Q(state_changed_at__gte=segment.start)
        if segment.end is not None:
            within &= Q(state_changed_at__lt=segment.end)
        due |= within
    disposed = Disposal.objects.filter(document=OuterRef("document"), kind=kind)
    return (
        ReviewItem.objects.filter(state__in=TERMINAL_STATES).filter(due).exclude(Exists(disposed))
    )


@dataclass
class PlannedDocument:
    item: ReviewItem
    policy: RetentionPolicy
    kinds: list[str] = field(default_factory=list)
    # Per kind: storage names to delete and the hashes of their bytes.
    paths: dict[str, list[str]] = field(default_factory=dict)
    sha256s: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class DisposalPlan:
    documents: list[PlannedDocument] = field(default_factory=list)
    held: int = 0  # due, but under a legal hold
    shared: int = 0  # due, but a file is still another document's

    @property
    def empty(self) -> bool:
        return not self.documents


def disposal_plan(*, now: dt.datetime | None = None, limit: int = BATCH) -> DisposalPlan:
    """What a pass at `now` (the database clock by default) would dispose of: at most
    `limit` documents, oldest ended first. Changes nothing (`dispose --dry-run`)."""
    now = now or db_now()
    segments = _segments()
    plan = DisposalPlan()
    if not segments:
        return plan
    wanted: dict[int, set[str]] = defaultdict(set)
    held: set[int] = set()
    for kind in DAYS_FIELD:
        due = _due(kind, segments, now)
        held.update(due.exclude(_unheld()).values_list("id", flat=True))
        for item_id in (
            due.filter(_unheld())
            .order_by("state_changed_at", "id")
            .values_list("id", flat=True)[:limit]
        ):
            wanted[item_id].add(kind)
    plan.held = len(held)
    items = ReviewItem.objects.select_related("document__submission").filter(pk__in=list(wanted))
    for item in sorted(items, key=lambda i: (i.state_changed_at, i.pk))[:limit]:
        jurisdiction = item.document.submission.jurisdiction_id
        policy = next(s.policy for s in segments if s.governs(jurisdiction, item.state_changed_at))
        planned = PlannedDocument(item=item, policy=policy)
        for kind in DAYS_FIELD:  # fixed order: original, previews, derivatives
            if kind in wanted[item.pk]:
                planned.kinds.append(kind)
                planned.paths[kind], planned.sha256s[kind] = _bytes_of(item.document, kind)
        plan.documents.append(planned)
    plan.shared = _drop_shared(plan)
    return plan


def _bytes_of(document: Any, kind: str) -> tuple[list[str], list[str]]:
    if kind == Kind.ORIGINAL:
        return [document.original_path], [document.source_sha256]
    if kind == Kind.DERIVATIVES:
        paths, hashes = [], []
        for artifact in Artifact.objects.filter(document=document).order_by("id"):
            paths.append(artifact.storage_path)
            hashes.append(artifact.output_sha256)
            if artifact.signed_path:
                paths.append(artifact.signed_path)
                hashes.append(artifact.signed_sha256)
        return paths, hashes
    # Previews: cache keys (review.selectors.proposal_preview), hashed if still cached.
    keys, hashes = [], []
    for proposal_sha256 in Proposal.objects.filter(document=document).values_list(
        "proposal_sha256", flat=True
    ):
        key = f"preview:{document.source_sha256}:{proposal_sha256}"
        pdf = cache.get(key)
        if pdf is not None:
            keys.append(key)
            hashes.append(hashlib.sha256(pdf).hexdigest())
    return keys, hashes


def _drop_shared(plan: DisposalPlan) -> int:
    """Take out of the plan every document with a stored file that another document,
    not disposed of in this plan, still names; repeat, since taking one out can keep a
    file another planned document shares with it. Returns how many were taken out."""
    dropped = 0
    while True:
        going = {
            kind: {p.item.document_id for p in plan.documents if kind in p.kinds}
            for kind in STORAGE
        }
        blocked = set()
        for planned in plan.documents:
            for kind in STORAGE:
                paths = planned.paths.get(kind) or []
                if paths and (_holders(kind, paths) - going[kind]):
                    blocked.add(planned.item.pk)
        if not blocked:
            return dropped
        dropped += len(blocked)
        plan.documents = [p for p in plan.documents if p.item.pk not in blocked]


def _holders(kind: str, paths: list[str]) -> set[Any]:
    """Documents whose `kind` bytes sit at any of `paths` and are not disposed of."""
    if kind == Kind.ORIGINAL:
        rows = Document.objects.filter(original_path__in=paths)
        disposed = Disposal.objects.filter(document=OuterRef("pk"), kind=kind)
        return set(rows.exclude(Exists(disposed)).values_list("id", flat=True))
    artifacts = Artifact.objects.filter(Q(storage_path__in=paths) | Q(signed_path__in=paths))
    disposed = Disposal.objects.filter(document=OuterRef("document"), kind=kind)
    return set(artifacts.exclude(Exists(disposed)).values_list("document_id", flat=True))


# -- the pass ---------------------------------------------------------------------------


@dataclass
class DisposalReport:
    documents: int = 0
    files_deleted: int = 0
    held: int = 0
    shared: int = 0
    remnants: int = 0
    planned: list[PlannedDocument] = field(default_factory=list)


def disposal_run(
    *, actor: Actor = DISPOSER, now: dt.datetime | None = None, dry_run: bool = False
) -> DisposalReport:
    """One bounded, idempotent pass: finish interrupted deletions, then dispose of what
    is due at `now` (the database clock by default), a batch per transaction, and remove
    what killed processes left behind. With `dry_run`, report what would go and change
    nothing."""
    report = DisposalReport()
    report.remnants = remnants_remove(
        storage_aliases=STORAGE.values(), actor=actor, dry_run=dry_run
    )
    if dry_run:
        plan = disposal_plan(now=now, limit=BATCH * MAX_BATCHES)
        report.planned, report.held, report.shared = plan.documents, plan.held, plan.shared
        report.documents = len(plan.documents)
        return report
    report.files_deleted += _finish_deletions()
    for _ in range(MAX_BATCHES):
        disposed, plan = _dispose_batch(actor=actor, now=now)
        report.documents += len(plan.documents)
        report.held, report.shared = plan.held, plan.shared
        report.files_deleted += _delete_files(disposed)
        if len(plan.documents) < BATCH:
            break
    return report


def _dispose_batch(*, actor: Actor, now: dt.datetime | None) -> tuple[list[Disposal], DisposalPlan]:
    """Record one batch's disposals and their DISPOSED events in one transaction.

    The plan is made inside the transaction, so the legal holds and shared files it
    checks are read in the transaction that records the disposal: a hold committed after
    that is too late for bytes the schedule already let go (the ledger is kept anyway)."""
    with transaction.atomic(durable=True):
        disposed_at = db_now()
        plan = disposal_plan(now=now or disposed_at)
        rows: list[Disposal] = []
        events: list[Event] = []
        for planned in plan.documents:
            for kind in planned.kinds:
                rows.append(
                    Disposal(
                        document=planned.item.document,
                        kind=kind,
                        retention=planned.policy,
                        disposed_at=disposed_at,
                        sha256s=planned.sha256s[kind],
                        paths=planned.paths[kind],
                    )
                )
            events.append(
                item_event(
                    planned.item,
                    "DISPOSED",
                    actor=actor,
                    extra={
                        "jurisdiction": planned.policy.jurisdiction_id,
                        "retention_version": planned.policy.version,
                        "kinds": planned.kinds,
                        "ended_at": planned.item.state_changed_at.isoformat(),
                        "sha256": {kind: planned.sha256s[kind] for kind in planned.kinds},
                    },
                )
            )
        created = Disposal.objects.bulk_create(rows)
        emit_many(events)
    return created, plan


def _delete_files(disposals: list[Disposal]) -> int:
    """Delete the bytes of committed disposals and record that they are gone. A missing
    file counts as deleted (a second pass after a crash between delete and record)."""
    deleted = 0
    for disposal in disposals:
        if disposal.kind == Kind.PREVIEWS:
            cache.delete_many(disposal.paths)  # cache entries, not files
        else:
            storage = storages[STORAGE[disposal.kind]]
            for path in disposal.paths:
                storage.delete(path)
            deleted += len(disposal.paths)
            if disposal.kind == Kind.ORIGINAL:
                # Text OCR read from it, kept while a long scan was being read.
                ocr_pages_delete(disposal.document.source_sha256)
        Disposal.objects.filter(pk=disposal.pk, deleted_at__isnull=True).update(deleted_at=db_now())
    return deleted


def _finish_deletions() -> int:
    return _delete_files(
        list(Disposal.objects.filter(deleted_at__isnull=True).order_by("disposed_at", "id"))
    )
