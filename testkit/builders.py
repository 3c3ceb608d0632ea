"""Database rows for unit and volume set-ups, made directly (admission and detection
would take minutes for thousands of items and are not what those measure). Documents
come from `Document.build`, as in admission. For items made the way the service makes
them, see `tests.factories.admitted_items`."""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import random
import uuid

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User

from audit.clock import db_now
from intake.models import Document, Jurisdiction, Submission
from review.models import Claim, ItemState, ReviewItem

_counter = itertools.count(1)


def user_create(username: str | None = None, *, role: str | None = None) -> User:
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


def document_build(submission: Submission, *, object_id: str) -> Document:
    """An unsaved one-page document whose content hash is derived from its object id."""
    sha = hashlib.sha256(object_id.encode()).hexdigest()
    return Document.build(
        submission=submission,
        object_id=object_id,
        source_sha256=sha,
        size=1,
        page_count=1,
        original_path=f"sha256/{sha}.pdf",
    )


def document_create(*, submission: Submission | None = None, object_id: str = "") -> Document:
    document = document_build(
        submission or submission_create(), object_id=object_id or f"doc-{next(_counter)}.pdf"
    )
    document.save(force_insert=True)
    return document


def bulk_proposed_items(
    count: int, *, submission: Submission | None = None, seed: int | str = 7
) -> set[int]:
    """`count` items straight in `proposed` in the review queue, with few distinct
    priorities and deadlines (so ties fall through to the id).

    Volume setup only (concurrency tests, benchmarks): building thousands of items through
    admission and detection would take minutes and is not what those measure.
    """
    submission = submission or submission_create()
    now = db_now()
    rng = random.Random(seed)
    documents = [
        document_build(submission, object_id=f"bulk/{seed}/doc-{n}.pdf") for n in range(count)
    ]
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


def bulk_worked_items(count: int, *, reviewer: User, state: str, seed: int | str = 7) -> None:
    """`count` items `reviewer` finished an hour ago, each under one submitted claim, now
    in `state`: the history a reviewer's months of work leave behind (volume setup only)."""
    worked = ReviewItem.objects.filter(pk__in=bulk_proposed_items(count, seed=seed))
    ended = db_now() - dt.timedelta(hours=1)
    Claim.objects.bulk_create(
        Claim(
            item=item,
            reviewer=reviewer,
            claimed_at=ended - dt.timedelta(hours=1),
            expires_at=ended,
            ended_at=ended,
            outcome=Claim.Outcome.SUBMITTED,
        )
        for item in worked
    )
    worked.update(state=state)
