"""Queue domain operations. Each state-changing entry point writes its audit event in the
same transaction as the change (DESIGN rule 5)."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.db import IntegrityError, transaction
from django.db.models import Exists, Max, OuterRef, Q
from django.db.models.functions import Now
from django_q.models import Schedule
from django_q.tasks import async_task

from audit.clock import db_now
from audit.services import Actor, Event, actor_label, emit_many
from intake.models import Document
from review import metrics
from review.errors import (
    ClaimLost,
    DomainError,
    HoldActive,
    IllegalTransition,
    InvalidDecision,
    NotAllowed,
    StaleProposal,
)
from review.models import (
    Approval,
    Artifact,
    Claim,
    DeadLetter,
    Hold,
    ItemState,
    LegalHold,
    Mark,
    Policy,
    Proposal,
    Queue,
    ReviewItem,
)
from review.pdf.detect import DetectionPolicy, DetectionResult, detect
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from review.pdf.sign import make_signer, sign_pdf
from review.pdf.verify import verify
from review.priority import item_priority

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
        since = item.state_changed_at
        item.state = to_state
        item.state_changed_at = db_now()
        item.save(update_fields=["state", "state_changed_at"])
        seconds = (item.state_changed_at - since).total_seconds()
        # After commit only: a rolled-back transition is never observed.
        metrics.observe_transition_on_commit(from_state, to_state, seconds)
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
    # Not durable: the admin's change view already wraps its save in a transaction.
    with transaction.atomic():
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


def _mark_salt(submission_id: object) -> bytes:
    """Per-submission key for mark text hashes: equal values within one submission hash
    alike (for the cross-document consistency check), nothing is comparable across them."""
    return hmac.new(settings.SECRET_KEY.encode(), str(submission_id).encode(), "sha256").digest()


def detection_policy_for(document: Document) -> DetectionPolicy:
    policy = Policy.objects.get(version=document.policy_version)
    submission = document.submission
    jurisdiction = submission.jurisdiction
    return DetectionPolicy(
        salt=_mark_salt(submission.id),
        categories=frozenset(policy.categories),
        min_confidence=dict(policy.category_min_confidence),
        legal_reasons=dict(jurisdiction.exemption_codes),
        default_reason=jurisdiction.default_exemption,
        search_terms=tuple(submission.search_terms),
    )


def proposal_sha256(marks: Sequence[dict[str, Any]]) -> str:
    """Hash of the canonical JSON of a proposal's marks (ordered by mark key)."""
    canonical = json.dumps(
        sorted(marks, key=lambda m: m["mark_key"]), sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _mark_rows(result: DetectionResult) -> list[dict[str, Any]]:
    rows = []
    for index, mark in enumerate(result.marks):
        rows.append(
            {
                "mark_key": f"m{index + 1}",
                "group": mark.group,
                "page": mark.page,
                "x0": round(mark.box.x0, 6),
                "y0": round(mark.box.y0, 6),
                "x1": round(mark.box.x1, 6),
                "y1": round(mark.box.y1, 6),
                "category": mark.category,
                "legal_reason": mark.legal_reason,
                "detector": mark.detector,
                "detector_version": mark.detector_version,
                "confidence": round(mark.confidence, 4),
                "decision": Mark.Decision.PENDING,
                "text_hash": mark.text_hash,
                "needs_manual_review": mark.needs_manual_review or "",
            }
        )
    return rows


def proposal_detect(*, item_id: int, actor: Actor) -> Proposal:
    """Write proposal version 1 for an accepted item and move it to `proposed`.

    Safe to deliver twice: a second delivery finds version 1 and changes nothing
    (and the unique (document, version) constraint backs that up under a race).
    """
    item = ReviewItem.objects.select_related("document__submission__jurisdiction").get(pk=item_id)
    document = item.document
    existing = Proposal.objects.filter(document=document, version=1).first()
    if existing is not None:
        return existing
    with storages["originals"].open(document.original_path, "rb") as handle:
        result = detect(handle.read(), detection_policy_for(document))
    rows = _mark_rows(result)
    digest = proposal_sha256(rows)
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        existing = Proposal.objects.filter(document=document, version=1).first()
        if existing is not None:
            return existing
        proposal = Proposal.objects.create(
            document=document,
            version=1,
            proposal_sha256=digest,
            created_by=actor_label(actor),
            policy_version=document.policy_version,
        )
        Mark.objects.bulk_create(Mark(proposal=proposal, **row) for row in rows)
        lowest = min((m.confidence for m in result.marks), default=None)
        item.priority = item_priority(
            time_left=item.deadline - db_now(),
            priority_score=document.submission.priority_score,
            lowest_confidence=lowest,
        )
        item.save(update_fields=["priority"])
        item_transition(
            item_id=item.pk,
            to_state=ItemState.PROPOSED,
            actor=actor,
            event_type="PROPOSED",
            output_hash=digest,
            extra={
                "proposal_version": 1,
                "marks": len(rows),
                "by_category": dict(Counter(r["category"] for r in rows)),
                "pages_ocred": len(result.pages_ocred),
                "pages_without_text": len(result.pages_without_text),
            },
        )
        return proposal


# --- Reviewer work: claims, decisions, approval ------------------------------------------

QUEUE_PERMISSION = {
    Queue.REVIEW: "review.review_queue",
    Queue.SENIOR_REVIEW: "review.review_senior_queue",
    Queue.COMPLIANCE_REVIEW: "review.review_compliance_queue",
}
ESCALATION_REASONS = {
    "legal_question": "Needs a legal judgement",
    "complex_content": "Content too complex for this queue",
    "conflict_of_interest": "Conflict of interest",
    "detector_failure": "Detector missed or mangled content",
}
REVIEWER_DETECTOR = "reviewer"


def reviewer_queues(user: Any) -> list[str]:
    """The queues `user` may claim from, most junior first."""
    return [queue for queue, perm in QUEUE_PERMISSION.items() if user.has_perm(perm)]


def active_legal_hold(document: Document) -> LegalHold | None:
    return (
        LegalHold.objects.filter(lifted_at__isnull=True)
        .filter(Q(document=document) | Q(submission_id=document.submission_id))
        .first()
    )


def _open_legal_hold_exists() -> Exists:
    return Exists(
        LegalHold.objects.filter(lifted_at__isnull=True).filter(
            Q(document=OuterRef("document")) | Q(submission=OuterRef("document__submission"))
        )
    )


def claim_next(*, reviewer: Any) -> Claim | None:
    """Claim the most urgent unclaimed item `reviewer` may take, or return None.

    PostgreSQL: `FOR UPDATE SKIP LOCKED` lets concurrent claimers pass each other's rows.
    SQLite: the transaction holds the database write lock (IMMEDIATE), so the select and
    the guarded transition cannot interleave with another claimer. Either way the
    transition re-checks the state under lock and the partial unique constraint allows
    one open claim per item.
    """
    queues = reviewer_queues(reviewer)
    if not queues:
        raise NotAllowed("you are not a reviewer")
    policy = policy_current()
    with transaction.atomic(durable=True):
        # Lock the reviewer first: two tabs claiming at once must not both pass the limit
        # check below (lock order: reviewer, then item, then claim).
        get_user_model().objects.select_for_update().filter(pk=reviewer.pk).first()
        held = Claim.objects.filter(
            reviewer=reviewer, ended_at__isnull=True, expires_at__gt=Now()
        ).count()
        if held >= policy.max_open_claims_per_reviewer:
            raise DomainError(
                f"you already hold {held} open claim(s); finish or release it first",
                code="claim_limit",
            )
        item = (
            ReviewItem.objects.filter(state=ItemState.PROPOSED, hold=Hold.NONE, queue__in=queues)
            .exclude(_open_legal_hold_exists())
            .order_by("priority", "deadline", "id")
            .select_for_update(skip_locked=True, of=("self",))
            .first()
        )
        if item is None:
            return None
        now = db_now()
        claim = Claim.objects.create(
            item=item,
            reviewer=reviewer,
            claimed_at=now,
            expires_at=now + dt.timedelta(minutes=policy.lease_minutes),
        )
        item_transition(
            item_id=item.pk,
            to_state=ItemState.IN_REVIEW,
            actor=reviewer,
            event_type="CLAIMED",
            extra={"claim": claim.pk, "lease_seconds": policy.lease_minutes * 60},
        )
        return claim


def _end_claim(*, claim_id: int, item: ReviewItem, reviewer: Any, outcome: str) -> None:
    """Compare-and-set: end the claim only if it is still this user's open, unexpired
    claim on this item. A sweeper's reclaim is the same kind of conditional update, so at
    the lease boundary exactly one of them wins. Caller holds the item lock."""
    ended = Claim.objects.filter(
        pk=claim_id,
        item=item,
        reviewer=reviewer,
        ended_at__isnull=True,
        expires_at__gt=Now(),
    ).update(ended_at=Now(), outcome=outcome)
    if ended != 1:
        raise ClaimLost()


def _require_claim(*, claim_id: int, item: ReviewItem, reviewer: Any) -> Claim:
    claim = Claim.objects.filter(
        pk=claim_id, item=item, reviewer=reviewer, ended_at__isnull=True, expires_at__gt=Now()
    ).first()
    if claim is None:
        raise ClaimLost()
    return claim


def claim_release(*, item_id: int, claim_id: int, reviewer: Any) -> ReviewItem:
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        _end_claim(claim_id=claim_id, item=item, reviewer=reviewer, outcome=Claim.Outcome.RELEASED)
        return item_transition(
            item_id=item.pk,
            to_state=ItemState.PROPOSED,
            actor=reviewer,
            event_type="RELEASED",
            extra={"claim": claim_id},
        )


def claim_heartbeat(*, item_id: int, claim_id: int, reviewer: Any) -> dt.datetime:
    """Extend an open claim by the lease length, never past the policy's maximum from the
    claim's start. Not audited: it changes no item state, and an event every half
    minute per open tab would drown the ledger; the claim row keeps the expiry."""
    policy = policy_current()
    claim = (
        Claim.objects.filter(
            pk=claim_id,
            item_id=item_id,
            reviewer=reviewer,
            ended_at__isnull=True,
            expires_at__gt=Now(),
        )
        .only("claimed_at")
        .first()
    )
    if claim is None:
        raise ClaimLost()
    expires_at = min(
        db_now() + dt.timedelta(minutes=policy.lease_minutes),
        claim.claimed_at + dt.timedelta(minutes=policy.lease_max_minutes),
    )
    extended = Claim.objects.filter(
        pk=claim_id, ended_at__isnull=True, expires_at__gt=Now()
    ).update(expires_at=expires_at)
    if extended != 1:
        raise ClaimLost()
    return expires_at


@dataclass(frozen=True)
class MarkChange:
    decision: str | None = None
    legal_reason: str | None = None


@dataclass(frozen=True)
class NewMark:
    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    category: str
    legal_reason: str


def latest_proposal(document: Document) -> Proposal:
    return Proposal.objects.filter(document=document).order_by("-version").first()  # type: ignore[return-value]


def _mark_row(mark: Mark) -> dict[str, Any]:
    return {f: getattr(mark, f) for f in MARK_FIELDS}


MARK_FIELDS = (
    "mark_key",
    "group",
    "page",
    "x0",
    "y0",
    "x1",
    "y1",
    "category",
    "legal_reason",
    "detector",
    "detector_version",
    "confidence",
    "decision",
    "text_hash",
    "needs_manual_review",
)


def _validated_new_mark(
    new: NewMark, *, index: int, document: Document, version: int
) -> dict[str, Any]:
    if not 0 <= new.page < document.page_count:
        raise InvalidDecision(f"new mark {index}: page {new.page + 1} does not exist")
    if not (0 <= new.x0 < new.x1 <= 1 and 0 <= new.y0 < new.y1 <= 1):
        raise InvalidDecision(f"new mark {index}: the box must lie on the page")
    if (new.x1 - new.x0) * (new.y1 - new.y0) < 1e-6:
        raise InvalidDecision(f"new mark {index}: the box is too small")
    if not new.category or len(new.category) > 40:
        raise InvalidDecision(f"new mark {index}: a category is required")
    if not new.legal_reason or len(new.legal_reason) > 64:
        raise InvalidDecision(f"new mark {index}: a legal reason is required")
    key = f"v{version}n{index + 1}"
    return {
        "mark_key": key,
        "group": key,
        "page": new.page,
        "x0": new.x0,
        "y0": new.y0,
        "x1": new.x1,
        "y1": new.y1,
        "category": new.category,
        "legal_reason": new.legal_reason,
        "detector": REVIEWER_DETECTOR,
        "detector_version": "-",
        "confidence": 1.0,
        "decision": Mark.Decision.ACCEPTED,
        "text_hash": "",
        "needs_manual_review": "",
    }


def proposal_revise(
    *,
    item_id: int,
    claim_id: int,
    reviewer: Any,
    base_version: int,
    changes: dict[str, MarkChange],
    added: Sequence[NewMark] = (),
) -> Proposal:
    """Write version n+1 with the reviewer's decisions; version n stays as it was.
    `base_version` must be the latest version (a stale page cannot overwrite newer work)."""
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        _require_claim(claim_id=claim_id, item=item, reviewer=reviewer)
        latest = latest_proposal(item.document)
        if latest is None or latest.version != base_version:
            raise StaleProposal(
                f"you edited version {base_version}; version {latest and latest.version} "
                "is newer. Reload the item."
            )
        rows = [_mark_row(m) for m in latest.marks.all()]
        by_key = {row["mark_key"]: row for row in rows}
        unknown = set(changes) - set(by_key)
        if unknown:
            raise InvalidDecision(f"unknown marks: {', '.join(sorted(unknown))}")
        changed = 0
        for key, change in changes.items():
            row = by_key[key]
            if change.decision is not None:
                if change.decision not in Mark.Decision.values:
                    raise InvalidDecision(f"mark {key}: unknown decision {change.decision!r}")
                changed += row["decision"] != change.decision
                row["decision"] = change.decision
            if change.legal_reason is not None:
                if not change.legal_reason or len(change.legal_reason) > 64:
                    raise InvalidDecision(f"mark {key}: a legal reason is required")
                changed += row["legal_reason"] != change.legal_reason
                row["legal_reason"] = change.legal_reason
        version = latest.version + 1
        rows += [
            _validated_new_mark(new, index=i, document=item.document, version=version)
            for i, new in enumerate(added)
        ]
        if not changed and not added:
            return latest
        digest = proposal_sha256(rows)
        proposal = Proposal.objects.create(
            document=item.document,
            version=version,
            previous=latest,
            proposal_sha256=digest,
            created_by=actor_label(reviewer),
            policy_version=latest.policy_version,
        )
        Mark.objects.bulk_create(Mark(proposal=proposal, **row) for row in rows)
        decisions = Counter(row["decision"] for row in rows)
        emit_many(
            [
                item_event(
                    item,
                    "PROPOSAL_REVISED",
                    actor=reviewer,
                    output_hash=digest,
                    extra={
                        "version": version,
                        "previous_sha256": latest.proposal_sha256,
                        "accepted": decisions[Mark.Decision.ACCEPTED],
                        "rejected": decisions[Mark.Decision.REJECTED],
                        "pending": decisions[Mark.Decision.PENDING],
                        "changed": changed,
                        "added": len(added),
                    },
                )
            ]
        )
        return proposal


def _refuse_on_hold(item: ReviewItem, *, action: str, actor: Actor) -> None:
    """Raise HoldActive if a legal hold or a queue hold stops `action`; the refusal is
    audited in its own transaction (the caller's rolls back)."""
    legal = active_legal_hold(item.document)
    if legal is None and item.hold == Hold.NONE:
        return
    reason = "legal_hold" if legal else item.hold
    with transaction.atomic():
        emit_many(
            [
                item_event(
                    item, "HOLD_BLOCKED", actor=actor, extra={"action": action, "hold": reason}
                )
            ]
        )
    raise HoldActive(
        f"this item is on hold ({reason}); it cannot be {action} until the hold is lifted"
    )


def item_approve(
    *, item_id: int, claim_id: int, reviewer: Any, proposal_version: int, preview_sha256: str
) -> Approval:
    """Approve the latest proposal, bound to the source, proposal and preview hashes."""
    from review.selectors import proposal_preview  # the preview is a read, built on demand

    item = ReviewItem.objects.select_related("document__submission").get(pk=item_id)
    _refuse_on_hold(item, action="approved", actor=reviewer)
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        _require_claim(claim_id=claim_id, item=item, reviewer=reviewer)
        latest = latest_proposal(item.document)
        if latest is None or latest.version != proposal_version:
            raise StaleProposal("a newer version of the marks exists; review it before approving")
        pending = latest.marks.filter(decision=Mark.Decision.PENDING).count()
        if pending:
            raise InvalidDecision(f"{pending} mark(s) are still undecided; decide every mark first")
        expected = proposal_preview(latest).sha256
        if preview_sha256 != expected:
            raise StaleProposal("the preview you saw is not the preview of these marks; reload")
        _end_claim(claim_id=claim_id, item=item, reviewer=reviewer, outcome=Claim.Outcome.SUBMITTED)
        approval = Approval.objects.create(
            item=item,
            reviewer=reviewer,
            proposal=latest,
            proposal_sha256=latest.proposal_sha256,
            source_sha256=item.document.source_sha256,
            preview_sha256=preview_sha256,
            approved_at=db_now(),
        )
        item_transition(
            item_id=item.pk,
            to_state=ItemState.APPROVED,
            actor=reviewer,
            event_type="APPROVED",
            output_hash=latest.proposal_sha256,
            extra={
                "approval": approval.pk,
                "claim": claim_id,
                "proposal_version": latest.version,
                "preview_sha256": preview_sha256,
            },
        )
        transaction.on_commit(partial(async_task, "review.tasks.render_and_sign", item.pk))
        return approval


def item_escalate(
    *, item_id: int, claim_id: int, reviewer: Any, to_queue: str, reason: str
) -> ReviewItem:
    """Hand the item to a more senior queue; the claim ends and the item returns to the pool."""
    if to_queue not in (Queue.SENIOR_REVIEW, Queue.COMPLIANCE_REVIEW):
        raise InvalidDecision("escalate to senior_review or compliance_review")
    if reason not in ESCALATION_REASONS:
        raise InvalidDecision("choose a reason for the escalation")
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        _end_claim(claim_id=claim_id, item=item, reviewer=reviewer, outcome=Claim.Outcome.RELEASED)
        from_queue = item.queue
        item.queue = to_queue
        item.save(update_fields=["queue"])
        return item_transition(
            item_id=item.pk,
            to_state=ItemState.PROPOSED,
            actor=reviewer,
            event_type="ESCALATED",
            extra={
                "claim": claim_id,
                "from_queue": from_queue,
                "to_queue": to_queue,
                "reason": reason,
            },
        )


# --- Rendering, verification and signing -------------------------------------------------


class PermanentFailure(Exception):
    """A failure that retrying cannot fix (corrupt input, a failed release gate)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def dead_letter_record(*, item_id: int, reason: str, actor: Actor) -> DeadLetter:
    """Park an item for a human: a DeadLetter row (references and reason only) and the
    `dead_letter` hold, with MOVED_TO_DLQ, in one transaction. Idempotent per item."""
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
        emit_many(
            [
                item_event(
                    item,
                    "MOVED_TO_DLQ",
                    actor=actor,
                    attempt=item.attempts or None,
                    extra={"dead_letter": letter.pk, "reason": reason[:200]},
                )
            ]
        )
        return letter


def _store_derivative(data: bytes) -> tuple[str, str]:
    """Content-addressed in the derivatives storage: a re-run writes the same name."""
    digest = hashlib.sha256(data).hexdigest()
    storage = storages["derivatives"]
    name = f"sha256/{digest[:2]}/{digest}.pdf"
    if not storage.exists(name):
        name = storage.save(name, ContentFile(data))
    return name, digest


def _signer() -> Any:
    return make_signer(key_file=settings.SIGNING_KEY_FILE, cert_file=settings.SIGNING_CERT_FILE)


def _certificate_sha256() -> str:
    pem = settings.SIGNING_CERT_FILE.read_bytes()
    der = x509.load_pem_x509_certificate(pem).public_bytes(serialization.Encoding.DER)
    return hashlib.sha256(der).hexdigest()


def artifact_render(*, item_id: int, actor: Actor) -> Artifact | None:
    """Render the approved proposal, verify it, store it, then sign it.

    Only the marks of the proposal named by the item's Approval are burned in, and only
    after the stored original, the proposal and the burned preview still hash to what
    the reviewer approved (DESIGN rule 1). Re-delivery is safe at every step: the
    Artifact is unique per (document, proposal), outputs are content-addressed, and a
    finished step is found, not repeated. A failed release gate raises PermanentFailure.
    """
    from review.selectors import original_bytes, redaction_marks

    item = ReviewItem.objects.select_related("document__submission").get(pk=item_id)
    if item.state == ItemState.SIGNED:
        return Artifact.objects.filter(document=item.document, signed_at__isnull=False).first()
    if item.state != ItemState.APPROVED:
        raise IllegalTransition(f"item {item.pk} is {item.state}, not approved: nothing to render")
    _refuse_on_hold(item, action="rendered", actor=actor)
    approval = Approval.objects.select_related("proposal").filter(item=item).latest("approved_at")
    proposal = approval.proposal
    artifact = Artifact.objects.filter(document=item.document, proposal=proposal).first()
    if artifact is None:
        artifact = _render_verified(
            item=item,
            approval=approval,
            actor=actor,
            original=original_bytes(item.document),
            marks=redaction_marks(proposal),
        )
    if artifact.signed_at is None:
        artifact = _sign(item=item, artifact=artifact, approval=approval, actor=actor)
    return artifact


def _render_verified(
    *, item: ReviewItem, approval: Approval, actor: Actor, original: bytes, marks: list[Any]
) -> Artifact:
    proposal = approval.proposal
    if hashlib.sha256(original).hexdigest() != approval.source_sha256:
        raise PermanentFailure("source_hash_mismatch")
    rows = [_mark_row(m) for m in proposal.marks.all()]
    if proposal_sha256(rows) != approval.proposal_sha256:
        raise PermanentFailure("proposal_hash_mismatch")
    burned = burn_in(original, marks)
    if hashlib.sha256(burned).hexdigest() != approval.preview_sha256:
        raise PermanentFailure("preview_hash_mismatch")
    output = sanitize(burned)
    report = verify(original, output, marks)
    if not report.ok:
        # Codes and pages only: the report never carries text.
        raise PermanentFailure(
            "verification_failed:" + ",".join(sorted({f.code for f in report.failures}))
        )
    path, digest = _store_derivative(output)
    try:
        with transaction.atomic():
            artifact = Artifact.objects.create(
                document=item.document,
                proposal=proposal,
                approval=approval,
                storage_path=path,
                output_sha256=digest,
            )
            emit_many(
                [
                    item_event(
                        item,
                        "RENDERED",
                        actor=actor,
                        output_hash=digest,
                        extra={
                            "artifact": artifact.pk,
                            "approval": approval.pk,
                            "marks": len(marks),
                        },
                    )
                ]
            )
            return artifact
    except IntegrityError:
        # A concurrent delivery stored the same output first: use its row.
        return Artifact.objects.get(document=item.document, proposal=proposal)


def _sign(*, item: ReviewItem, artifact: Artifact, approval: Approval, actor: Actor) -> Artifact:
    _refuse_on_hold(item, action="signed", actor=actor)
    with storages["derivatives"].open(artifact.storage_path, "rb") as handle:
        unsigned = handle.read()
    if hashlib.sha256(unsigned).hexdigest() != artifact.output_sha256:
        raise PermanentFailure("stored_output_hash_mismatch")
    signed = sign_pdf(
        unsigned, _signer(), reason=f"Redaction approved under approval {approval.pk}"
    )
    signed_path, signed_digest = _store_derivative(signed)
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item.pk)
        artifact = Artifact.objects.select_for_update().get(pk=artifact.pk)
        if artifact.signed_at is not None:
            return artifact  # another delivery signed first
        artifact.signed_path = signed_path
        artifact.signed_sha256 = signed_digest
        artifact.certificate_sha256 = _certificate_sha256()
        artifact.signature = {"format": "PAdES-B", "field": "RRQSignature"}
        artifact.signed_at = db_now()
        artifact.save(
            update_fields=[
                "signed_path",
                "signed_sha256",
                "certificate_sha256",
                "signature",
                "signed_at",
            ]
        )
        item_transition(
            item_id=item.pk,
            to_state=ItemState.SIGNED,
            actor=actor,
            event_type="SIGNED",
            output_hash=signed_digest,
            extra={
                "artifact": artifact.pk,
                "approval": approval.pk,
                "rendered_sha256": artifact.output_sha256,
                "source_sha256": approval.source_sha256,
                "proposal_sha256": approval.proposal_sha256,
                "preview_sha256": approval.preview_sha256,
                "certificate_sha256": artifact.certificate_sha256,
            },
        )
        return artifact


# --- Set-based transitions, failures and holds --------------------------------------------


def items_transition_bulk(
    *, item_ids: Sequence[int], from_state: str, to_state: str, now: dt.datetime, **updates: Any
) -> int:
    """The set-based form of `item_transition`, for sweeps: same table of allowed moves,
    a conditional update that re-checks the state. The caller holds the item locks and
    writes one audit event per item in the same transaction."""
    if to_state not in ALLOWED_TRANSITIONS.get(from_state, frozenset()):
        raise IllegalTransition(f"illegal transition {from_state} -> {to_state}")
    return ReviewItem.objects.filter(pk__in=item_ids, state=from_state).update(
        state=to_state, state_changed_at=now, **updates
    )


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
        emit_many(
            [
                item_event(
                    item,
                    "REVIEW_FAILURE",
                    actor=actor,
                    attempt=item.attempts,
                    extra={"reason": reason, "permanent": permanent, "task": retry_task},
                )
            ]
        )
        if permanent or item.attempts >= policy.max_attempts:
            dead_letter_record(item_id=item.pk, reason=reason, actor=actor)
            return "dead_lettered"
        retry_at = db_now() + retry_delay(item.attempts)
        if retry_at >= item.document.submission.statutory_deadline:
            dead_letter_record(item_id=item.pk, reason=f"deadline_escalation:{reason}", actor=actor)
            emit_many(
                [
                    item_event(
                        item,
                        "DEADLINE_ESCALATION",
                        actor=actor,
                        attempt=item.attempts,
                        extra={"reason": reason, "retry_at": retry_at.isoformat()},
                    )
                ]
            )
            return "escalated"
        transaction.on_commit(
            partial(
                Schedule.objects.create,
                func=retry_task,
                args=repr((item.pk,)),
                schedule_type=Schedule.ONCE,
                repeats=-1,  # a ONCE schedule with negative repeats deletes itself after running
                next_run=retry_at,
                name=f"retry:{retry_task}:{item.pk}:{item.attempts}",
            )
        )
        return "requeued"


def legal_hold_place(
    *, reason: str, actor: Actor, submission: Any = None, document: Any = None
) -> LegalHold:
    if not reason.strip():
        raise InvalidDecision("a legal hold needs a reason")
    if (submission is None) == (document is None):
        raise InvalidDecision("place a hold on a submission or on a document")
    with transaction.atomic():
        hold = LegalHold.objects.create(
            submission=submission,
            document=document,
            reason=reason.strip()[:300],
            placed_by=actor_label(actor),
            placed_at=db_now(),
        )
        target = document or submission
        emit_many(
            [
                Event(
                    event_type="LEGAL_HOLD_PLACED",
                    actor=actor,
                    submission_id=document.submission_id if document else submission.id,
                    document_id=document.id if document else None,
                    correlation_id=(document.submission if document else submission).correlation_id,
                    extra={"legal_hold": hold.pk, "target": type(target).__name__.lower()},
                )
            ]
        )
        return hold


def legal_hold_release(*, hold_id: int, reason: str, actor: Actor) -> LegalHold:
    if not reason.strip():
        raise InvalidDecision("releasing a legal hold needs a reason")
    with transaction.atomic():
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
        submission = hold.submission if hold.submission else hold.document.submission  # type: ignore[union-attr]
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
        return hold


def hold_lift(*, item_id: int, reason: str, actor: Actor) -> ReviewItem:
    """A compliance officer's explicit decision to lift an SLA-breach or dead-letter hold.
    The item stays in the compliance queue; nothing is approved or released by this."""
    if not reason.strip():
        raise InvalidDecision("lifting a hold needs a reason")
    with transaction.atomic():
        item = item_lock(item_id=item_id)
        if item.hold in (Hold.NONE, Hold.LITIGATION):
            raise InvalidDecision(f"item {item.pk} has no SLA or dead-letter hold to lift")
        previous = item.hold
        item.hold = Hold.NONE
        item.queue = Queue.COMPLIANCE_REVIEW
        item.save(update_fields=["hold", "queue"])
        DeadLetter.objects.filter(item=item, resolved_at__isnull=True).update(resolved_at=db_now())
        emit_many(
            [
                item_event(
                    item,
                    "HOLD_LIFTED",
                    actor=actor,
                    extra={"hold": previous, "reason": reason.strip()[:200]},
                )
            ]
        )
        return item


def dead_letter_requeue(*, dead_letter_id: int, reason: str, actor: Actor) -> ReviewItem:
    """Give a dead-lettered item fresh attempts and run its pending step again."""
    if not reason.strip():
        raise InvalidDecision("requeueing needs a reason")
    with transaction.atomic():
        letter = DeadLetter.objects.select_related("item").get(pk=dead_letter_id)
        item = item_lock(item_id=letter.item_id)
        item.attempts = 0
        item.hold = Hold.NONE
        item.save(update_fields=["attempts", "hold"])
        DeadLetter.objects.filter(pk=letter.pk, resolved_at__isnull=True).update(
            resolved_at=db_now()
        )
        emit_many(
            [
                item_event(
                    item,
                    "DLQ_REQUEUED",
                    actor=actor,
                    extra={"dead_letter": letter.pk, "reason": reason.strip()[:200]},
                )
            ]
        )
        task = {
            ItemState.ACCEPTED: "review.tasks.detect_document",
            ItemState.APPROVED: "review.tasks.render_and_sign",
        }.get(ItemState(item.state))
        if task:
            transaction.on_commit(partial(async_task, task, item.pk))
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


# --- Release --------------------------------------------------------------------------


class NotReady(DomainError):
    code = "not_signed"
    status = 409


def signed_artifact(document: Document) -> Artifact | None:
    return (
        Artifact.objects.filter(document=document, signed_at__isnull=False)
        .select_related("approval")
        .order_by("-signed_at")
        .first()
    )


def artifact_download(*, document: Document, actor: Actor) -> tuple[Artifact, bytes]:
    """The signed output of a document, for its intake client or a compliance officer.
    Refused (and audited) under any hold; only a signed artifact is ever released."""
    item = ReviewItem.objects.select_related("document__submission").get(document=document)
    _refuse_on_hold(item, action="downloaded", actor=actor)
    artifact = signed_artifact(document)
    if artifact is None or item.state != ItemState.SIGNED:
        raise NotReady("the document has no signed output yet")
    with storages["derivatives"].open(artifact.signed_path, "rb") as handle:
        data = handle.read()
    if hashlib.sha256(data).hexdigest() != artifact.signed_sha256:
        raise PermanentFailure("signed_output_hash_mismatch")
    with transaction.atomic(durable=True):
        emit_many(
            [
                item_event(
                    item,
                    "DOWNLOADED",
                    actor=actor,
                    output_hash=artifact.signed_sha256,
                    extra={"artifact": artifact.pk},
                )
            ]
        )
    return artifact, data
