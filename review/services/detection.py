"""Detection results: run the detectors on an accepted document and write proposal
version 1 with the item's first real priority."""

from __future__ import annotations

import datetime as dt
import time
from collections import Counter
from dataclasses import dataclass, replace

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.db import transaction

from audit.clock import db_now
from audit.services import Actor, actor_label
from intake.models import Document
from review import metrics
from review.errors import PermanentFailure
from review.models import ItemState, Mark, Outbox, Policy, Proposal, ReviewItem
from review.pdf.detect import (
    HIDDEN_CONTENT,
    DetectionError,
    DetectionPolicy,
    DetectionResult,
    OcrUnfinished,
    detect,
)
from review.pdf.opencheck import pages_check
from review.pdf.patterns import NER_CATEGORIES, Hit
from review.pdf.render import PdfUnrenderable, unrenderable_reason
from review.priority import item_priority
from review.selectors import mark_salt, original_bytes
from review.services.decisions import MarkFields, proposal_create
from review.services.outbox import outbox_add
from review.services.transitions import item_event_emit, item_lock, item_transition


def detection_policy_for(document: Document) -> DetectionPolicy:
    """The document's detection settings: its policy version's, narrowed by what that
    version sets for the submission's jurisdiction, with the jurisdiction's exemption
    codes, and what the submission's other documents name: their named entities and
    the numbers they label."""
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
    entities: set[tuple[str, str]] = set()
    numbers: set[Hit] = set()
    for other in submission.documents.exclude(pk=document.pk).order_by("pk"):
        pdf = original_bytes(other)
        try:
            # A sibling that cannot be drawn or read (it goes to the dead-letter queue on
            # its own) lends nothing: reading it in this process could take hours or
            # fail, and it must not hold up the readable documents of its submission.
            if not _unrenderable_pages(other.source_sha256, pdf):
                found = _named_in(other.source_sha256, pdf, base)
                entities.update(found.entities)
                numbers.update(found.numbers)
        except DetectionError:
            continue
    return replace(
        base,
        known_entities=tuple(sorted(entities)),
        known_numbers=tuple(sorted(numbers, key=lambda h: (h.category, h.normalized))),
    )


@dataclass(frozen=True)
class _Named:
    entities: tuple[tuple[str, str], ...]
    numbers: tuple[Hit, ...]


def _named_in(sha256: str, pdf: bytes, policy: DetectionPolicy) -> _Named:
    """What detection finds named in one document (its entities, the numbers it labels),
    kept in this process's memory (never stored): every document of a submission asks
    for its siblings'."""
    key = (sha256, policy.salt, policy.categories, policy.nlp_pipeline)
    if key not in _NAMED_CACHE:
        if len(_NAMED_CACHE) >= _NAMED_CACHE_SIZE:
            _NAMED_CACHE.pop(next(iter(_NAMED_CACHE)))
        result = detect(pdf, replace(policy, ocr=False))
        _NAMED_CACHE[key] = _Named(result.entities, result.numbers)
    return _NAMED_CACHE[key]


_NAMED_CACHE: dict[tuple[object, ...], _Named] = {}
_NAMED_CACHE_SIZE = 4096  # small tuples; a large submission fits


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


def pages_drawable_require(sha256: str, pdf: bytes) -> None:
    """Detection's open check: every page must draw for a reviewer, under the limits, in
    the sandboxed child (`review.pdf.opencheck.pages_check`). A page that cannot is
    known now, before any reviewer claims the document: PermanentFailure with
    `unrenderable_page@p…`, which the failure policy sends to the dead-letter queue."""
    failures = _unrenderable_pages(sha256, pdf)
    if failures:
        raise PermanentFailure(unrenderable_reason(list(failures)))


def _unrenderable_pages(sha256: str, pdf: bytes) -> tuple[PdfUnrenderable, ...]:
    """The page check's findings for one original, kept in this process's memory: the
    siblings of a submission ask for each other's (a child process each time
    otherwise)."""
    if sha256 not in _CHECK_CACHE:
        if len(_CHECK_CACHE) >= _NAMED_CACHE_SIZE:
            _CHECK_CACHE.pop(next(iter(_CHECK_CACHE)))
        _CHECK_CACHE[sha256] = tuple(pages_check(pdf))
    return _CHECK_CACHE[sha256]


_CHECK_CACHE: dict[str, tuple[PdfUnrenderable, ...]] = {}


class StoredOcr:
    """The text layers of a document's OCR'd pages (`review.pdf.ocr.OcrCache`), kept
    beside the originals (they hold the document's text) until its proposal is written:
    a long scan is read over several deliveries. Disposing of the original deletes
    them too (`ocr_pages_delete`)."""

    def __init__(self, sha256: str, policy: DetectionPolicy) -> None:
        self.folder = f"{_ocr_root(sha256)}/{policy.ocr_dpi}-{policy.ocr_language}"
        self.storage = storages["originals"]

    def get(self, page: int) -> bytes | None:
        try:
            with self.storage.open(f"{self.folder}/{page}.pdf", "rb") as handle:
                return handle.read()
        except FileNotFoundError:
            return None

    def put(self, page: int, text_layer: bytes) -> None:
        name = f"{self.folder}/{page}.pdf"
        self.storage.delete(name)  # a concurrent delivery read it too: the same text
        self.storage.save(name, ContentFile(text_layer))


def _ocr_root(sha256: str) -> str:
    return f"ocr/{sha256[:2]}/{sha256}"


def ocr_pages_delete(sha256: str) -> None:
    """Delete every text layer kept for the original with this hash."""
    storage, pending = storages["originals"], [_ocr_root(sha256)]
    while pending:
        folder = pending.pop()
        try:
            folders, files = storage.listdir(folder)
        except FileNotFoundError:
            continue
        pending.extend(f"{folder}/{name}" for name in folders)
        for name in files:
            storage.delete(f"{folder}/{name}")


def _detection_continues(*, item_id: int, actor: Actor, read: int, to_read: int) -> None:
    """Part of a long scan is read: the rest in a new delivery of the detection. Due a
    moment from now, so that the scheduled relay sends it once this delivery has ended
    (the task wrapper finishes this delivery's outbox row after the work returns)."""
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        outbox_add(
            item=item,
            task=Outbox.Task.DETECT,
            reason="ocr_continues",
            due_at=db_now() + dt.timedelta(seconds=1),
        )
        item_event_emit(
            item,
            "DETECTION_CONTINUES",
            actor=actor,
            extra={"pages_read": read, "pages_to_read": to_read},
        )


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
    pdf = original_bytes(document)
    try:
        pages_drawable_require(document.source_sha256, pdf)
        policy = detection_policy_for(document)
        result = detect(
            pdf,
            policy,
            ocr_cache=StoredOcr(document.source_sha256, policy),
            ocr_until=time.monotonic() + settings.DETECTION_OCR_SECONDS,
        )
    except OcrUnfinished as unfinished:
        _detection_continues(
            item_id=item_id, actor=actor, read=unfinished.read, to_read=unfinished.to_read
        )
        return None
    except (DetectionError, PermanentFailure):
        # Both are the document's bytes failing to open, parse or draw: the same bytes
        # fail again (a transient storage error is neither, and is not counted).
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
    if result.pages_ocred:
        ocr_pages_delete(document.source_sha256)  # read into the proposal: no longer needed
    return proposal
