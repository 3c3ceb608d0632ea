"""Claiming one given item again (the item page after its lease ran out): only while the
item is free, with the same CLAIMED event as claim next."""

import datetime as dt

import pytest
from django.db.models.functions import Now

from audit.models import AuditEvent
from common.errors import DomainError
from review.errors import NotAllowed
from review.models import Claim, Hold, ItemState, Queue, ReviewItem
from review.roles import REVIEWER
from review.services.claims import claim_item, claim_next
from review.services.holds import legal_hold_place
from review.sweeps import sweep_pass
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items

LETTER = simple_pdf(["Requester SSN 123-45-6789"])


@pytest.fixture
def reviewer(db):
    return user_create("rita", role=REVIEWER)


def _lapse(claim: Claim) -> None:
    Claim.objects.filter(pk=claim.pk).update(
        expires_at=Now() - dt.timedelta(seconds=1), claimed_at=Now() - dt.timedelta(minutes=20)
    )


def test_a_lapsed_lease_not_yet_swept_is_ended_and_the_item_claimed_again(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    first = claim_next(reviewer=reviewer)
    _lapse(first)

    again = claim_item(item_id=item.pk, reviewer=reviewer)

    first.refresh_from_db()
    assert first.outcome == Claim.Outcome.EXPIRED and again.pk != first.pk
    assert again.ended_at is None and again.expires_at > again.claimed_at
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.IN_REVIEW
    events = list(
        AuditEvent.objects.filter(item_id=item.pk).order_by("id").values_list("event_type", "extra")
    )
    assert [t for t, _ in events[-3:]] == ["CLAIMED", "CLAIM_RECLAIMED", "CLAIMED"]
    assert events[-1][1]["claim"] == again.pk and events[-2][1]["previous_owner"] == "rita"


def test_an_item_the_sweeper_put_back_is_claimed_again_with_one_event(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    _lapse(claim_next(reviewer=reviewer))
    sweep_pass()
    before = AuditEvent.objects.count()

    again = claim_item(item_id=item.pk, reviewer=reviewer)

    assert list(
        AuditEvent.objects.order_by("id")[before:].values_list("event_type", flat=True)
    ) == ["CLAIMED"]
    assert again.item_id == item.pk


def test_a_claim_still_open_is_handed_back_unchanged(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    first = claim_next(reviewer=reviewer)

    assert claim_item(item_id=item.pk, reviewer=reviewer) == first
    assert AuditEvent.objects.filter(event_type="CLAIMED").count() == 1


def test_an_item_another_reviewer_holds_is_refused(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    _lapse(claim_next(reviewer=reviewer))
    sweep_pass()
    claim_next(reviewer=user_create("otto", role=REVIEWER))

    with pytest.raises(DomainError, match="another reviewer") as refused:
        claim_item(item_id=item.pk, reviewer=reviewer)
    assert refused.value.code == "claimed"


@pytest.mark.parametrize("hold", ["legal", "item"])
def test_an_item_on_hold_is_refused(reviewer, hold):
    (item,) = admitted_items({"a.pdf": LETTER})
    _lapse(claim_next(reviewer=reviewer))
    if hold == "legal":
        legal_hold_place(reason="litigation", actor="user:olga", document=item.document)
    else:
        ReviewItem.objects.filter(pk=item.pk).update(hold=Hold.LITIGATION)

    with pytest.raises(DomainError, match="on hold"):
        claim_item(item_id=item.pk, reviewer=reviewer)
    assert not Claim.objects.filter(item=item, ended_at__isnull=True, expires_at__gt=Now()).exists()


def test_an_item_outside_the_reviewers_queues_is_refused(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    ReviewItem.objects.filter(pk=item.pk).update(queue=Queue.SENIOR_REVIEW)

    with pytest.raises(NotAllowed):
        claim_item(item_id=item.pk, reviewer=reviewer)


def test_an_approved_item_is_refused(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    ReviewItem.objects.filter(pk=item.pk).update(state=ItemState.APPROVED)

    with pytest.raises(DomainError, match="no longer waiting") as refused:
        claim_item(item_id=item.pk, reviewer=reviewer)
    assert refused.value.code == "not_claimable"


def test_the_claim_limit_holds(reviewer):
    first, second = admitted_items({"a.pdf": LETTER, "b.pdf": simple_pdf(["jo@example.com"])})
    held = claim_next(reviewer=reviewer)
    other = second if held.item_id == first.pk else first

    with pytest.raises(DomainError, match="open claim"):
        claim_item(item_id=other.pk, reviewer=reviewer)


def test_the_heartbeat_of_a_lapsed_claim_says_whether_it_may_be_claimed_again(reviewer, client):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    _lapse(claim)
    client.force_login(reviewer)

    answer = client.post(f"/items/{item.pk}/heartbeat/", {"claim_id": claim.pk})
    assert answer.status_code == 409
    assert answer.json()["claim_again"] is True

    again = client.post(f"/items/{item.pk}/claim-again/")
    assert again.status_code == 200
    assert again.json()["claim_id"] == Claim.objects.get(item=item, ended_at__isnull=True).pk
    assert again.json()["version"] == 1

    _lapse(Claim.objects.get(pk=again.json()["claim_id"]))
    legal_hold_place(reason="litigation", actor="user:olga", document=item.document)
    answer = client.post(f"/items/{item.pk}/heartbeat/", {"claim_id": again.json()["claim_id"]})
    assert answer.json()["claim_again"] is False
    assert client.post(f"/items/{item.pk}/claim-again/").status_code == 409
