"""Reviewer decisions and proposals: the one schema of a mark's fields, the proposal hash,
new proposal versions from a reviewer's decisions, and escalation to a senior queue."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass, fields, replace

from django.contrib.auth.models import User
from django.db import transaction

from audit.services import actor_label
from intake.models import Document
from intake.selectors import exemption_catalogue
from review.errors import InvalidDecision, StaleProposal
from review.models import Claim, ItemState, Mark, Proposal, Queue, ReviewItem
from review.pdf.detect import HIDDEN_CONTENT
from review.selectors import latest_proposal
from review.services.claims import claim_end, claim_require
from review.services.transitions import item_event_emit, item_lock, item_transition

ESCALATION_REASONS = {
    "legal_question": "Needs a legal judgement",
    "complex_content": "Content too complex for this queue",
    "conflict_of_interest": "Conflict of interest",
    "detector_failure": "Detector missed or mangled content",
}
REVIEWER_DETECTOR = "reviewer"


@dataclass(frozen=True)
class MarkFields:
    """A mark's fields as a proposal stores and hashes them: the one schema shared by
    detection (version 1), reviewer edits (version n+1) and the release check."""

    mark_key: str
    group: str
    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    category: str
    legal_reason: str
    detector: str
    detector_version: str
    confidence: float
    decision: str = Mark.Decision.PENDING
    text_hash: str = ""
    needs_manual_review: str = ""

    @classmethod
    def of(cls, mark: Mark) -> MarkFields:
        return cls(**{f.name: getattr(mark, f.name) for f in fields(cls)})


def proposal_sha256(marks: Sequence[MarkFields]) -> str:
    """Hash of the canonical JSON of a proposal's marks (ordered by mark key)."""
    rows = sorted((asdict(mark) for mark in marks), key=lambda row: row["mark_key"])
    canonical = json.dumps(rows, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def proposal_create(
    *,
    document: Document,
    version: int,
    marks: Sequence[MarkFields],
    created_by: str,
    policy_version: int,
    previous: Proposal | None = None,
) -> Proposal:
    """Write one immutable proposal version with its marks. Caller holds the item lock."""
    proposal = Proposal.objects.create(
        document=document,
        version=version,
        previous=previous,
        proposal_sha256=proposal_sha256(marks),
        created_by=created_by,
        policy_version=policy_version,
    )
    Mark.objects.bulk_create(Mark(proposal=proposal, **asdict(mark)) for mark in marks)
    return proposal


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


def _chosen_reason(
    reason: str, catalogue: Collection[str], *, where: str, jurisdiction: str
) -> None:
    """A reason a reviewer gives is a code of the item's jurisdiction's catalogue."""
    if reason not in catalogue:
        raise InvalidDecision(
            f"{where}: {reason!r} is not in the {jurisdiction} exemption catalogue; "
            "choose one of its codes"
        )


def _validated_new_mark(
    new: NewMark, *, index: int, document: Document, version: int, catalogue: Collection[str]
) -> MarkFields:
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
    _chosen_reason(
        new.legal_reason,
        catalogue,
        where=f"new mark {index}",
        jurisdiction=document.submission.jurisdiction_id,
    )
    key = f"v{version}n{index + 1}"
    return MarkFields(
        mark_key=key,
        group=key,
        page=new.page,
        x0=new.x0,
        y0=new.y0,
        x1=new.x1,
        y1=new.y1,
        category=new.category,
        legal_reason=new.legal_reason,
        detector=REVIEWER_DETECTOR,
        detector_version="-",
        confidence=1.0,
        decision=Mark.Decision.ACCEPTED,
    )


def _changed_mark(
    mark: MarkFields, change: MarkChange, catalogue: Collection[str], jurisdiction: str
) -> MarkFields:
    key = mark.mark_key
    if mark.category == HIDDEN_CONTENT and (
        change.decision not in (None, Mark.Decision.ACCEPTED)
        or change.legal_reason not in (None, mark.legal_reason)
    ):
        raise InvalidDecision(
            f"mark {key}: hidden content is always removed from the release; "
            "draw a box over what matters or escalate the item"
        )
    if change.decision is not None and change.decision not in Mark.Decision.values:
        raise InvalidDecision(f"mark {key}: unknown decision {change.decision!r}")
    if change.legal_reason is not None and not 0 < len(change.legal_reason) <= 64:
        raise InvalidDecision(f"mark {key}: a legal reason is required")
    if change.legal_reason not in (None, mark.legal_reason):
        _chosen_reason(
            change.legal_reason, catalogue, where=f"mark {key}", jurisdiction=jurisdiction
        )
    return replace(
        mark,
        decision=mark.decision if change.decision is None else change.decision,
        legal_reason=mark.legal_reason if change.legal_reason is None else change.legal_reason,
    )


def proposal_revise(
    *,
    item_id: int,
    claim_id: int,
    reviewer: User,
    base_version: int,
    changes: dict[str, MarkChange],
    added: Sequence[NewMark] = (),
) -> Proposal:
    """Write version n+1 with the reviewer's decisions; version n stays as it was.
    `base_version` must be the latest version (a stale page cannot overwrite newer work)."""
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        claim_require(claim_id=claim_id, item=item, reviewer=reviewer)
        latest = latest_proposal(item.document)
        if latest is None or latest.version != base_version:
            raise StaleProposal(
                f"you edited version {base_version}; version {latest and latest.version} "
                "is newer. Reload the item."
            )
        marks = {m.mark_key: MarkFields.of(m) for m in latest.marks.all()}
        unknown = set(changes) - set(marks)
        if unknown:
            raise InvalidDecision(f"unknown marks: {', '.join(sorted(unknown))}")
        jurisdiction = item.document.submission.jurisdiction
        catalogue = set(exemption_catalogue(jurisdiction))
        changed = 0
        for key, change in changes.items():
            before = marks[key]
            after = _changed_mark(before, change, catalogue, jurisdiction.code)
            changed += (before.decision != after.decision) + (
                before.legal_reason != after.legal_reason
            )
            marks[key] = after
        version = latest.version + 1
        rows = [
            *marks.values(),
            *(
                _validated_new_mark(
                    new, index=i, document=item.document, version=version, catalogue=catalogue
                )
                for i, new in enumerate(added)
            ),
        ]
        if not changed and not added:
            return latest
        proposal = proposal_create(
            document=item.document,
            version=version,
            marks=rows,
            created_by=actor_label(reviewer),
            policy_version=latest.policy_version,
            previous=latest,
        )
        decisions = Counter(row.decision for row in rows)
        item_event_emit(
            item,
            "PROPOSAL_REVISED",
            actor=reviewer,
            output_hash=proposal.proposal_sha256,
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
        return proposal


ESCALATION_NOTE_MAX = 1000


def item_escalate(
    *, item_id: int, claim_id: int, reviewer: User, to_queue: str, reason: str, note: str
) -> ReviewItem:
    """Hand the item to a more senior queue with a reason and a note for whoever takes
    it; the claim ends and the item returns to the pool."""
    if to_queue not in (Queue.SENIOR_REVIEW, Queue.COMPLIANCE_REVIEW):
        raise InvalidDecision("escalate to senior_review or compliance_review")
    if reason not in ESCALATION_REASONS:
        raise InvalidDecision("choose a reason for the escalation")
    note = note.strip()
    if not note:
        raise InvalidDecision("write a note for the senior reviewer: what should they look at?")
    if len(note) > ESCALATION_NOTE_MAX:
        raise InvalidDecision(f"the note is longer than {ESCALATION_NOTE_MAX} characters")
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        claim_end(claim_id=claim_id, item=item, reviewer=reviewer, outcome=Claim.Outcome.RELEASED)
        from_queue = item.queue
        item.queue = to_queue
        item.escalation_reason = reason
        item.escalation_note = note
        item.save(update_fields=["queue", "escalation_reason", "escalation_note"])
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
