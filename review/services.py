"""Queue domain operations. Each state-changing entry point writes its audit event in the
same transaction as the change (DESIGN rule 5)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.files.storage import storages
from django.db import transaction
from django.db.models import Max

from audit.clock import db_now
from audit.services import Actor, Event, actor_label, emit_many
from intake.models import Document
from review.errors import IllegalTransition
from review.models import ItemState, Mark, Policy, Proposal, ReviewItem
from review.pdf.detect import DetectionPolicy, DetectionResult, detect
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
