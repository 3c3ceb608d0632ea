"""Test data built the way the service builds it (until intake exists, rows made directly)."""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import uuid

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from audit.clock import db_now
from intake.models import Document, Jurisdiction, Submission, job_key_for
from review.models import ItemState, ReviewItem
from review.services import item_transition

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


def user_create(username: str | None = None, *, role: str | None = None):
    user = get_user_model().objects.create_user(
        username=username or f"user{next(_counter)}", password="pw-for-tests-only"
    )
    if role:
        user.groups.add(Group.objects.get(name=role))
    return user


def submission_create(*, client=None, correlation_id: str = "") -> Submission:
    now = db_now()
    return Submission.objects.create(
        client=client or user_create(),
        external_ref=f"REF-{next(_counter)}",
        jurisdiction=Jurisdiction.objects.get(code="US-FED"),
        sla_class="standard",
        received_at=now,
        statutory_deadline=now + dt.timedelta(days=28),
        idempotency_key=str(uuid.uuid4()),
        request_sha256="0" * 64,
        correlation_id=correlation_id or uuid.uuid4().hex,
        policy_version=1,
    )


def document_create(*, submission: Submission | None = None, object_id: str = "") -> Document:
    submission = submission or submission_create()
    object_id = object_id or f"doc-{next(_counter)}.pdf"
    sha = hashlib.sha256(object_id.encode()).hexdigest()
    return Document.objects.create(
        submission=submission,
        object_id=object_id,
        source_sha256=sha,
        size=1,
        page_count=1,
        original_path=f"sha256/{sha}.pdf",
        job_key=job_key_for(
            submission_id=submission.id, object_id=object_id, source_sha256=sha, policy_version=1
        ),
        policy_version=1,
    )


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

    from intake.services import IncomingFile, submission_admit
    from review.tasks import detect_document

    admission = submission_admit(
        client=user_create(),
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
    from review.services import MarkChange, latest_proposal, proposal_revise

    proposal = latest_proposal(item.document)
    return proposal_revise(
        item_id=item.pk,
        claim_id=claim.pk,
        reviewer=reviewer,
        base_version=proposal.version,
        changes={m.mark_key: MarkChange(decision=decision) for m in proposal.marks.all()},
    )


def approve(item: ReviewItem, claim, reviewer, proposal):
    """Approve `proposal` exactly as the reviewer's page does (with its preview hash)."""
    from review.selectors import proposal_preview
    from review.services import item_approve

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
    from review.services import claim_next

    (item,) = admitted_items({"letter.pdf": pdf})
    reviewer = user_create(role=REVIEWER)
    claim = claim_next(reviewer=reviewer)
    approve(item, claim, reviewer, decide_all(item, claim, reviewer))
    return ReviewItem.objects.select_related("document").get(pk=item.pk)


def bulk_proposed_items(
    count: int, *, submission: Submission | None = None, seed: int | str = 7
) -> set[int]:
    """`count` items straight in `proposed` in the review queue, with few distinct
    priorities and deadlines (so ties fall through to the id).

    Volume setup only (concurrency tests, benchmarks): building thousands of items through
    admission and detection would take minutes and is not what those measure.
    """
    import random

    submission = submission or submission_create()
    now = db_now()
    rng = random.Random(seed)
    documents = []
    for n in range(count):
        object_id = f"bulk/{seed}/doc-{n}.pdf"
        sha = hashlib.sha256(object_id.encode()).hexdigest()
        documents.append(
            Document(
                submission=submission,
                object_id=object_id,
                source_sha256=sha,
                size=1,
                page_count=1,
                original_path=f"sha256/{sha}.pdf",
                job_key=job_key_for(
                    submission_id=submission.id,
                    object_id=object_id,
                    source_sha256=sha,
                    policy_version=1,
                ),
                policy_version=1,
            )
        )
    Document.objects.bulk_create(documents, batch_size=1000)
    items = ReviewItem.objects.bulk_create(
        [
            ReviewItem(
                document=document,
                state=ItemState.PROPOSED,
                sla_class="standard",
                priority=rng.randrange(0, 1001, 50),
                deadline=now + dt.timedelta(hours=rng.randrange(1, 48)),
                state_changed_at=now,
            )
            for document in documents
        ],
        batch_size=1000,
    )
    return {item.pk for item in items}
