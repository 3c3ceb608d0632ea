"""Detection results: run the detectors on an accepted document and write proposal
version 1 with the item's first real priority."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from django.conf import settings
from django.db import transaction

from audit.clock import db_now
from audit.services import Actor, actor_label
from intake.models import Document
from review import metrics
from review.models import ItemState, Mark, Policy, Proposal, ReviewItem
from review.pdf.detect import (
    HIDDEN_CONTENT,
    DetectionError,
    DetectionPolicy,
    DetectionResult,
    detect,
)
from review.pdf.patterns import NER_CATEGORIES
from review.priority import item_priority
from review.selectors import mark_salt, original_bytes
from review.services.decisions import MarkFields, proposal_create
from review.services.transitions import item_lock, item_transition


def detection_policy_for(document: Document) -> DetectionPolicy:
    """The document's detection settings: its policy version's, narrowed by what that
    version sets for the submission's jurisdiction, with the jurisdiction's exemption
    codes, and the named entities of the submission's other documents."""
    policy = Policy.objects.get(version=document.policy_version)
    submission = document.submission
    jurisdiction = submission.jurisdiction
    local = dict(policy.detection_by_jurisdiction).get(jurisdiction.code, {})
    categories = frozenset(local.get("categories", policy.categories))
    regions = local.get("phone_regions") or [jurisdiction.holiday_country or "US"]
    base = DetectionPolicy(
        salt=mark_salt(submission),
        categories=categories,
        min_confidence={**policy.category_min_confidence, **local.get("min_confidence", {})},
        legal_reasons=dict(jurisdiction.exemption_codes),
        default_reason=jurisdiction.default_exemption,
        search_terms=tuple(submission.search_terms),
        ner=not categories.isdisjoint(NER_CATEGORIES),
        nlp_pipeline=settings.DETECTION_NLP_PIPELINE,
        phone_regions=tuple(regions),
    )
    if not base.ner:
        return base
    known: set[tuple[str, str]] = set()
    for other in submission.documents.exclude(pk=document.pk).order_by("pk"):
        known.update(_entities_of(other.source_sha256, original_bytes(other), base))
    return replace(base, known_entities=tuple(sorted(known)))


def _entities_of(sha256: str, pdf: bytes, policy: DetectionPolicy) -> tuple[tuple[str, str], ...]:
    """The named entities detection finds in one document, kept in this process's
    memory (never stored): every document of a submission asks for its siblings'."""
    key = (sha256, policy.salt, policy.categories, policy.nlp_pipeline)
    if key not in _ENTITY_CACHE:
        if len(_ENTITY_CACHE) >= _ENTITY_CACHE_SIZE:
            _ENTITY_CACHE.pop(next(iter(_ENTITY_CACHE)))
        _ENTITY_CACHE[key] = detect(pdf, replace(policy, ocr=False)).entities
    return _ENTITY_CACHE[key]


_ENTITY_CACHE: dict[tuple[object, ...], tuple[tuple[str, str], ...]] = {}
_ENTITY_CACHE_SIZE = 4096  # small tuples; a large submission fits


def _detected_marks(result: DetectionResult) -> list[MarkFields]:
    return [
        MarkFields(
            mark_key=f"m{index + 1}",
            group=mark.group,
            page=mark.page,
            x0=round(mark.box.x0, 6),
            y0=round(mark.box.y0, 6),
            x1=round(mark.box.x1, 6),
            y1=round(mark.box.y1, 6),
            category=mark.category,
            legal_reason=mark.legal_reason,
            detector=mark.detector,
            detector_version=mark.detector_version,
            confidence=round(mark.confidence, 4),
            # Hidden content is removed from every release: it starts (and stays) accepted.
            decision=Mark.Decision.ACCEPTED
            if mark.category == HIDDEN_CONTENT
            else Mark.Decision.PENDING,
            text_hash=mark.text_hash,
            needs_manual_review=mark.needs_manual_review or "",
        )
        for index, mark in enumerate(result.marks)
    ]


def proposal_detect(*, item_id: int, actor: Actor) -> Proposal | None:
    """Write proposal version 1 for an accepted item and move it to `proposed`.

    Safe to deliver twice: a second delivery finds version 1 and changes nothing
    (and the unique (document, version) constraint backs that up under a race).
    """
    item = ReviewItem.objects.select_related("document__submission__jurisdiction").get(pk=item_id)
    document = item.document
    existing = Proposal.objects.filter(document=document, version=1).first()
    if existing is not None:
        metrics.observe_duplicate_delivery("detect_document")
        return existing  # done before: a redelivery
    if item.state != ItemState.ACCEPTED:
        return None  # the item moved on (closed as failed)
    try:
        result = detect(original_bytes(document), detection_policy_for(document))
    except DetectionError:
        metrics.observe_parse_failure()
        raise
    marks = _detected_marks(result)
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        existing = Proposal.objects.filter(document=document, version=1).first()
        if existing is not None:
            metrics.observe_duplicate_delivery("detect_document")  # a concurrent delivery
            return existing
        proposal = proposal_create(
            document=document,
            version=1,
            marks=marks,
            created_by=actor_label(actor),
            policy_version=document.policy_version,
        )
        if item.priority_bumped_at is None:  # a bump near the deadline is never undone
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
            output_hash=proposal.proposal_sha256,
            extra={
                "proposal_version": 1,
                "marks": len(marks),
                "by_category": dict(Counter(m.category for m in marks)),
                "pages_ocred": len(result.pages_ocred),
                "pages_without_text": len(result.pages_without_text),
            },
        )
        return proposal
