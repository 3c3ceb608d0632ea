"""Items made the way the service makes them (admission, detection, claims, decisions),
and items moved along the legal path; plain rows come from `testkit.builders`."""

from __future__ import annotations

import datetime as dt
import itertools
import uuid

from audit.clock import db_now
from intake.models import Document
from review.models import ItemState, ReviewItem
from review.services.transitions import item_transition
from testkit.builders import document_create, user_create

_counter = itertools.count(1)

# The shortest legal path from `accepted` to each state.
PATH_TO = {
    ItemState.ACCEPTED: [],
    ItemState.PROPOSED: [ItemState.PROPOSED],
    ItemState.IN_REVIEW: [ItemState.PROPOSED, ItemState.IN_REVIEW],
    ItemState.APPROVED: [ItemState.PROPOSED, ItemState.IN_REVIEW, ItemState.APPROVED],
    ItemState.SIGNED: [
        ItemState.PROPOSED,
        ItemState.IN_REVIEW,
        ItemState.APPROVED,
        ItemState.SIGNED,
    ],
    ItemState.FAILED: [ItemState.FAILED],
}


def item_create(*, state: str = ItemState.ACCEPTED, document: Document | None = None) -> ReviewItem:
    document = document or document_create()
    now = db_now()
    item = ReviewItem.objects.create(
        document=document,
        sla_class="standard",
        deadline=now + dt.timedelta(hours=24),
        state_changed_at=now,
    )
    for step in PATH_TO[ItemState(state)]:
        item = item_transition(item_id=item.pk, to_state=step, actor="system:test-setup")
    return item


def admitted_items(
    pdfs: dict[str, bytes], *, search_terms=(), priority_score: int = 50, detect: bool = True
) -> list[ReviewItem]:
    """Items made as in production: admission through the service, then the detection task."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from intake.roles import INTAKE_CLIENT
    from intake.services.admission import submission_admit
    from intake.services.checks import IncomingFile
    from review.tasks import detect_document

    admission = submission_admit(
        client=user_create(role=INTAKE_CLIENT),
        files=[IncomingFile(object_id=k, upload=SimpleUploadedFile(k, v)) for k, v in pdfs.items()],
        external_ref=f"FOIA-{next(_counter)}",
        jurisdiction_code="US-FED",
        search_terms=search_terms,
        priority_score=priority_score,
        correlation_id=uuid.uuid4().hex,
        actor="client:test",
    )
    items = list(
        ReviewItem.objects.filter(document__submission=admission.submission).order_by("id")
    )
    if detect:
        for item in items:
            detect_document(item.pk)
    return [ReviewItem.objects.select_related("document__submission").get(pk=i.pk) for i in items]


def decide_all(item: ReviewItem, claim, reviewer, decision: str = "accepted"):
    """Save one decision for every mark of the latest proposal (a new version)."""
    from review.selectors import latest_proposal
    from review.services.decisions import MarkChange, proposal_revise

    proposal = latest_proposal(item.document)
    return proposal_revise(
        item_id=item.pk,
        claim_id=claim.pk,
        reviewer=reviewer,
        base_version=proposal.version,
        changes={m.mark_key: MarkChange(decision=decision) for m in proposal.marks.all()},
    )


def view_every_page(item: ReviewItem, reviewer) -> None:
    """Draw every page for `reviewer` under their claim, as the item page's images do
    (approval needs every page seen)."""
    from review.services.rendering import page_image_render

    for page in range(item.document.page_count):
        page_image_render(item=item, page=page, preview=False, viewer=reviewer)


def approve(item: ReviewItem, claim, reviewer, proposal):
    """Approve `proposal` exactly as the reviewer's page does (with its preview hash),
    after viewing every page."""
    from review.selectors import proposal_preview
    from review.services.release import item_approve

    view_every_page(item, reviewer)
    return item_approve(
        item_id=item.pk,
        claim_id=claim.pk,
        reviewer=reviewer,
        proposal_version=proposal.version,
        preview_sha256=proposal_preview(proposal).sha256,
    )


def approved_item(pdf: bytes) -> ReviewItem:
    """Admitted, detected, claimed, every mark accepted, approved (rendering not run
    unless the caller executes on-commit callbacks)."""
    from review.roles import REVIEWER
    from review.services.claims import claim_next

    (item,) = admitted_items({"letter.pdf": pdf})
    reviewer = user_create(role=REVIEWER)
    claim = claim_next(reviewer=reviewer)
    approve(item, claim, reviewer, decide_all(item, claim, reviewer))
    return ReviewItem.objects.select_related("document").get(pk=item.pk)
