import itertools

import pytest
from django.db import IntegrityError, transaction

from audit.clock import db_now
from audit.models import AuditEvent
from review.errors import IllegalTransition
from review.models import Claim, ItemState, ReviewItem
from review.services.transitions import ALLOWED_TRANSITIONS, item_transition
from testkit.builders import document_create, user_create
from tests.factories import item_create

ALL_PAIRS = list(itertools.product(ItemState.values, ItemState.values))
ALLOWED_PAIRS = [(a, b) for a, b in ALL_PAIRS if b in ALLOWED_TRANSITIONS[a]]
ILLEGAL_PAIRS = [(a, b) for a, b in ALL_PAIRS if b not in ALLOWED_TRANSITIONS[a]]


def test_transition_table_is_the_documented_lifecycle():
    assert sorted(ALLOWED_PAIRS) == sorted(
        [
            ("accepted", "proposed"),
            ("proposed", "in_review"),
            ("in_review", "approved"),
            ("approved", "signed"),
            ("in_review", "proposed"),
            ("approved", "proposed"),
            ("accepted", "failed"),
            ("proposed", "failed"),
            ("in_review", "failed"),
            ("approved", "failed"),
        ]
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("from_state", "to_state"), ALLOWED_PAIRS)
def test_allowed_transition_changes_state_and_writes_exactly_one_event(from_state, to_state):
    item = item_create(state=from_state)
    before = AuditEvent.objects.count()

    item_transition(item_id=item.pk, to_state=to_state, actor="system:test")

    item.refresh_from_db()
    assert item.state == to_state
    events = list(AuditEvent.objects.filter(sequence__gt=before))
    assert len(events) == 1
    event = events[0]
    assert event.item_id == item.pk
    assert event.document_id == item.document_id
    assert event.extra == {"from": from_state, "to": to_state}


@pytest.mark.django_db
@pytest.mark.parametrize(("from_state", "to_state"), ILLEGAL_PAIRS)
def test_illegal_transition_raises_naming_both_states_and_writes_nothing(from_state, to_state):
    item = item_create(state=from_state)
    before = AuditEvent.objects.count()

    with pytest.raises(IllegalTransition) as raised:
        item_transition(item_id=item.pk, to_state=to_state, actor="system:test")

    assert f"{from_state} -> {to_state}" in str(raised.value)
    item.refresh_from_db()
    assert item.state == from_state
    assert AuditEvent.objects.count() == before


@pytest.mark.django_db
def test_exception_after_transition_rolls_back_state_and_event_together():
    item = item_create(state=ItemState.ACCEPTED)
    before = AuditEvent.objects.count()

    with pytest.raises(RuntimeError), transaction.atomic():
        item_transition(item_id=item.pk, to_state=ItemState.PROPOSED, actor="system:test")
        raise RuntimeError("crash after the transition")

    item.refresh_from_db()
    assert item.state == ItemState.ACCEPTED
    assert AuditEvent.objects.count() == before


@pytest.mark.django_db
def test_transition_event_carries_the_submission_correlation_id():
    item = item_create(state=ItemState.ACCEPTED)
    item_transition(item_id=item.pk, to_state=ItemState.PROPOSED, actor="system:test")
    event = AuditEvent.objects.order_by("-sequence").first()
    assert event.correlation_id == item.document.submission.correlation_id
    assert event.submission_id == item.document.submission_id


@pytest.mark.django_db
def test_second_document_with_an_existing_job_key_is_refused_by_the_database():
    document = document_create()
    with pytest.raises(IntegrityError), transaction.atomic():
        type(document).objects.create(
            submission=document.submission,
            object_id="other/name.pdf",
            source_sha256=document.source_sha256,
            size=1,
            page_count=1,
            original_path=document.original_path,
            job_key=document.job_key,
            policy_version=1,
        )


@pytest.mark.django_db
def test_second_open_claim_for_the_same_item_is_refused_by_the_database():
    item = item_create(state=ItemState.IN_REVIEW)
    reviewer_a, reviewer_b = user_create(), user_create()
    now = db_now()
    lease = now.replace(year=now.year + 1)
    Claim.objects.create(item=item, reviewer=reviewer_a, claimed_at=now, expires_at=lease)
    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.create(item=item, reviewer=reviewer_b, claimed_at=now, expires_at=lease)
    # An ended claim does not block a new one: the constraint is on open claims only.
    Claim.objects.filter(item=item).update(ended_at=now, outcome=Claim.Outcome.RELEASED)
    Claim.objects.create(item=item, reviewer=reviewer_b, claimed_at=now, expires_at=lease)
    assert Claim.objects.filter(item=item).count() == 2


@pytest.mark.django_db
def test_item_priority_out_of_range_is_refused_by_the_database():
    item = item_create()
    with pytest.raises(IntegrityError), transaction.atomic():
        ReviewItem.objects.filter(pk=item.pk).update(priority=1001)
