"""Reads for pages and APIs. Ids, states, counts, hashes and geometry: never content."""

from __future__ import annotations

import csv
import functools
import hashlib
import hmac
import io
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.storage import storages
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Now

from audit.models import AuditEvent
from intake.models import Document, Submission
from intake.selectors import exemption_titles
from review.models import (
    Approval,
    Artifact,
    Claim,
    Hold,
    ItemState,
    LegalHold,
    Mark,
    Policy,
    Proposal,
    Queue,
    ReviewItem,
)
from review.pdf.detect import HIDDEN_CONTENT, hidden_content_hash
from review.pdf.geometry import Box, shown_layout
from review.pdf.hidden import find_hidden
from review.pdf.redact import RedactionMark, burn_in, removed_areas, render_page_png
from review.pdf.render import CAUSE_WORDS, UNRENDERABLE_PAGE

QUEUE_PAGE_LIMIT = 200
PREVIEW_CACHE_SECONDS = 600
QUEUE_PERMISSION = {
    Queue.REVIEW: "review.review_queue",
    Queue.SENIOR_REVIEW: "review.review_senior_queue",
    Queue.COMPLIANCE_REVIEW: "review.review_compliance_queue",
}


def mark_salt(submission: Submission) -> bytes:
    """Per-submission key for mark text hashes: equal values within one submission hash
    alike (for the cross-document consistency check), nothing is comparable across them."""
    return hmac.new(settings.SECRET_KEY.encode(), str(submission.id).encode(), "sha256").digest()


def policy_current() -> Policy:
    """The policy in force: the highest version."""
    return Policy.objects.order_by("-version").first() or Policy.objects.get(version=1)


@functools.lru_cache(maxsize=64)
def policy_version(pk: int) -> Policy:
    """One policy row, read once per process: rows are never edited (a change is a new
    version), so a hot path that learnt the current pk elsewhere need not read it again.
    Callers must not modify the returned object."""
    return Policy.objects.get(pk=pk)


def reviewer_queues(user: User) -> list[str]:
    """The queues `user` may claim from, most junior first."""
    return [queue for queue, perm in QUEUE_PERMISSION.items() if user.has_perm(perm)]


def latest_proposal(document: Document) -> Proposal | None:
    return Proposal.objects.filter(document=document).order_by("-version").first()


def active_legal_hold(document: Document) -> LegalHold | None:
    return (
        LegalHold.objects.filter(lifted_at__isnull=True)
        .filter(Q(document=document) | Q(submission_id=document.submission_id))
        .first()
    )


def open_legal_hold_exists() -> Exists:
    """For a ReviewItem queryset: whether a legal hold is on the item's document or
    submission."""
    return Exists(
        LegalHold.objects.filter(lifted_at__isnull=True).filter(
            Q(document=OuterRef("document")) | Q(submission=OuterRef("document__submission"))
        )
    )


def signed_artifact(document: Document) -> Artifact | None:
    return (
        Artifact.objects.filter(document=document, signed_at__isnull=False)
        .select_related("approval")
        .order_by("-signed_at")
        .first()
    )


def drawable_categories() -> list[str]:
    """Categories a reviewer may give a box they draw: the policy's, plus free ones."""
    return sorted({*policy_current().categories, "name", "address", "other"} - {"search_term"})


def sees_holds(user: User) -> bool:
    return user.has_perm(QUEUE_PERMISSION[Queue.COMPLIANCE_REVIEW])


def queue_items(*, user: User) -> QuerySet[ReviewItem]:
    """The live items of the user's queues (and every held item for compliance officers),
    urgent first, with the claimant's name: a fixed number of queries for any length."""
    visible = Q(
        queue__in=reviewer_queues(user), state__in=[ItemState.PROPOSED, ItemState.IN_REVIEW]
    )
    live = ~Q(state__in=[ItemState.SIGNED, ItemState.FAILED])
    if sees_holds(user):
        visible |= (~Q(hold=Hold.NONE) | Q(legal_hold=True)) & live
    open_claim = Claim.objects.filter(item=OuterRef("pk"), ended_at__isnull=True)
    return (
        ReviewItem.objects.annotate(legal_hold=open_legal_hold_exists())
        .filter(visible)
        .select_related("document__submission")
        .annotate(
            claimant=Subquery(open_claim.values("reviewer__username")[:1]),
            claim_expires_at=Subquery(open_claim.values("expires_at")[:1]),
        )
        .order_by("priority", "deadline", "id")[:QUEUE_PAGE_LIMIT]
    )


def held_in_queues(user: User) -> int:
    """Items of the user's queues that wait for review but are on hold (claim next
    passes over them)."""
    return (
        ReviewItem.objects.filter(queue__in=reviewer_queues(user), state=ItemState.PROPOSED)
        .filter(~Q(hold=Hold.NONE) | open_legal_hold_exists())
        .count()
    )


def hold_shown(item: ReviewItem, legal_hold: bool) -> str:
    """The hold an item is under, as people are told it: a legal hold on its document or
    submission first (the item row does not carry it), else the item's own hold."""
    return "legal_hold" if legal_hold else str(item.hold)


def queue_counts(*, user: User) -> dict[str, int]:
    queues = reviewer_queues(user)
    counts = {queue: 0 for queue in queues}
    rows = (
        ReviewItem.objects.filter(queue__in=queues, state=ItemState.PROPOSED, hold=Hold.NONE)
        .values("queue")
        .annotate(n=Count("id"))
    )
    for row in rows:
        counts[row["queue"]] = row["n"]
    return counts


def open_claim_for(*, item: ReviewItem, user: User) -> Claim | None:
    return Claim.objects.filter(
        item=item, reviewer=user, ended_at__isnull=True, expires_at__gt=Now()
    ).first()


def item_free_to_claim(*, item: ReviewItem, user: User) -> bool:
    """Whether `user` could claim `item` again now (the item page offers "Claim again"
    after its lease ran out): waiting for review or in review under a lapsed lease, no
    hold, in one of the user's queues. `claim_item` decides for real, under lock."""
    return (
        item.state in (ItemState.PROPOSED, ItemState.IN_REVIEW)
        and item.hold == Hold.NONE
        and item.queue in reviewer_queues(user)
        and active_legal_hold(item.document) is None
        and not Claim.objects.filter(
            item=item, ended_at__isnull=True, expires_at__gt=Now()
        ).exists()
    )


def can_view_item(*, item: ReviewItem, user: User) -> bool:
    """Page images and previews: the claimant, and compliance officers."""
    return sees_holds(user) or open_claim_for(item=item, user=user) is not None


def original_bytes(document: Document) -> bytes:
    with storages["originals"].open(document.original_path, "rb") as handle:
        return handle.read()


@dataclass(frozen=True)
class Preview:
    pdf: bytes
    sha256: str


def redaction_marks(proposal: Proposal) -> list[RedactionMark]:
    """What burns: the accepted marks of a proposal. Hidden content is not burned as a
    box (nobody sees it to black it out): sanitize removes it from every release."""
    return [
        RedactionMark(page=m.page, box=Box(m.x0, m.y0, m.x1, m.y1), legal_reason=m.legal_reason)
        for m in proposal.marks.filter(decision=Mark.Decision.ACCEPTED)
        .exclude(category=HIDDEN_CONTENT)
        .order_by("page", "id")
    ]


def proposal_preview(proposal: Proposal) -> Preview:
    """The redacted preview of a proposal: the same burn-in the release uses, so the
    reviewer sees exactly what ships. Deterministic, so its hash is stable. Kept in memory
    only (never on disk unencrypted)."""
    key = f"preview:{proposal.document.source_sha256}:{proposal.proposal_sha256}"
    pdf = cache.get(key)
    if pdf is None:
        pdf = burn_in(original_bytes(proposal.document), redaction_marks(proposal))
        cache.set(key, pdf, PREVIEW_CACHE_SECONDS)
    return Preview(pdf=pdf, sha256=hashlib.sha256(pdf).hexdigest())


def preview_removed(proposal: Proposal) -> list[dict[str, float]]:
    """Where the proposal's burn-in takes text or line art away, as boxes on the pages
    as shown (fractions of the shown page): the preview marks them, so a box that clips
    a line shows the whole line it removes. Cached with the preview."""
    key = f"preview-removed:{proposal.document.source_sha256}:{proposal.proposal_sha256}"
    shown = cache.get(key)
    if shown is None:
        original = original_bytes(proposal.document)
        areas = removed_areas(original, redaction_marks(proposal))
        _, boxes = shown_layout(original, areas)
        shown = [
            {"page": page, "left": b.left, "top": b.top, "width": b.width, "height": b.height}
            for (page, _), b in zip(areas, boxes, strict=True)
        ]
        cache.set(key, shown, PREVIEW_CACHE_SECONDS)
    return shown


def _latest_proposal_of(document: Document) -> Proposal:
    """For pages of a claimed or held item: detection has run, so version 1 exists."""
    proposal = latest_proposal(document)
    if proposal is None:
        raise Proposal.DoesNotExist(f"document {document.pk} has no proposal yet")
    return proposal


def page_png(*, item: ReviewItem, page: int, preview: bool, dpi: int = 100) -> bytes:
    document = item.document
    pdf = (
        proposal_preview(_latest_proposal_of(document)).pdf if preview else original_bytes(document)
    )
    return render_page_png(pdf, page, dpi=dpi)


def review_view_model(*, item: ReviewItem) -> dict[str, Any]:
    """Everything the item page shows: page sizes, marks with their boxes on the page as
    displayed (rotation applied, as fractions of the shown page), hashes and versions."""
    proposal = _latest_proposal_of(item.document)
    marks = list(proposal.marks.all().order_by("page", "y0", "x0", "id"))
    original = original_bytes(item.document)
    pages, shown = shown_layout(
        original, [(mark.page, Box(mark.x0, mark.y0, mark.x1, mark.y1)) for mark in marks]
    )
    hidden_pages = {mark.page for mark in marks if mark.category == HIDDEN_CONTENT}
    hidden_text = _hidden_text(item.document, original, hidden_pages) if hidden_pages else {}
    return {
        "proposal": proposal,
        "preview_sha256": proposal_preview(proposal).sha256,
        "pages": pages,
        "marks": [
            {
                "key": mark.mark_key,
                "group": mark.group,
                "page": mark.page,
                "left": box.left,
                "top": box.top,
                "width": box.width,
                "height": box.height,
                "category": mark.category,
                "reason": mark.legal_reason,
                "decision": mark.decision,
                "confidence": mark.confidence,
                "detector": mark.detector,
                "manual": mark.needs_manual_review,
                "hidden_text": hidden_text.get(mark.text_hash, "")
                if mark.category == HIDDEN_CONTENT
                else "",
            }
            for mark, box in zip(marks, shown, strict=True)
        ],
    }


def _hidden_text(document: Document, original: bytes, pages: set[int]) -> dict[str, str]:
    """The hidden content itself, by mark hash, recomputed from the original on the
    pages that have some: the reviewer may read it (the page image cannot show it); it
    is never stored."""
    salt = mark_salt(document.submission)
    return {
        hidden_content_hash(salt, finding): finding.text or "(an image)"
        for finding in find_hidden(original, pages=pages)
    }


REDACTION_LOG_COLUMNS = ("page", "legal_reason", "exemption_title", "category", "count")
# The redaction log's words for the detectors' categories (what a requester reads).
CATEGORY_WORDS = {
    "ssn": "social security number",
    "itin": "taxpayer identification number",
    "ein": "employer identification number",
    "email": "email address",
    "phone": "phone number",
    "card": "payment card number",
    "iban": "bank account number (IBAN)",
    "ip_address": "IP address",
    "uk_nino": "national insurance number",
    "uk_nhs": "NHS number",
    "dob": "date of birth",
    "account_number": "account number",
    "policy_number": "policy number",
    "medical_record": "medical record number",
    "passport_number": "passport number",
    "driver_license": "driver's licence number",
    "a_number": "alien registration number (A-Number)",
    "license_plate": "vehicle licence plate",
    "vin": "vehicle identification number",
    "medicare_number": "Medicare number",
    "address": "address",
    "person": "name",
    "name": "name",
    "location": "place",
    "organization": "organisation",
    "search_term": "requested term",
    "hidden_content": "hidden content",
    "needs_manual_review": "page reviewed by hand",
    "other": "other",
}


def redaction_log(document: Document) -> list[dict[str, Any]] | None:
    """What was withheld and why (the FOIA practice), from the approved proposal of the
    signed output: page, legal reason, category and count. Never the withheld content.
    None while the document has no approved proposal."""
    approval = (
        Approval.objects.filter(item__document=document, superseded_at__isnull=True)
        .order_by("-approved_at")
        .first()
    )
    if approval is None:
        return None
    rows = (
        approval.proposal.marks.filter(decision=Mark.Decision.ACCEPTED)
        .values("page", "legal_reason", "category")
        .annotate(count=Count("id"))
        .order_by("page", "legal_reason", "category")
    )
    titles = exemption_titles(document.submission.jurisdiction)
    return [
        {
            "page": row["page"] + 1,
            "legal_reason": row["legal_reason"],
            # Hidden content is sanitisation, not an exemption: it has no title.
            "exemption_title": titles.get(row["legal_reason"], ""),
            "category": CATEGORY_WORDS.get(row["category"], row["category"].replace("_", " ")),
            "count": row["count"],
        }
        for row in rows
    ]


def redaction_log_csv(rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=REDACTION_LOG_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def failure_explained(reason: str) -> str:
    """A stored failure reason in words: for a failed release gate, each check and the
    pages it failed on (`verification_failed:unseen_content@p2,5;text_under_box@p1`);
    for a document that cannot be drawn, the pages and why
    (`unrenderable_page@p2,5:content`)."""
    unrenderable = UNRENDERABLE_PAGE + "@p"
    if reason.startswith(unrenderable):
        pages, _, cause = reason[len(unrenderable) :].partition(":")
        why = CAUSE_WORDS.get(cause, cause)
        return f"Page {pages.replace(',', ', ')} cannot be drawn for review: {why}"
    prefix = "verification_failed:"
    if not reason.startswith(prefix):
        return reason
    checks = []
    for check in reason[len(prefix) :].split(";"):
        code, _, pages = check.partition("@p")
        checks.append(f"{code} on page {pages.replace(',', ', ')}" if pages else code)
    return "Release gate failed: " + "; ".join(checks)


def reopen_note(item: ReviewItem) -> str:
    """Why the item came back to review, when it did: the reopening's reason."""
    event = (
        AuditEvent.objects.filter(item_id=item.pk, event_type="REOPENED")
        .order_by("-sequence")
        .first()
    )
    return str(event.extra.get("reason", "")) if event else ""
