"""claim_next under real contention: many reviewers, one PostgreSQL, SKIP LOCKED."""

import threading
from collections import Counter

import pytest
from django.db import connections
from django.db.models import Count

from audit.models import AuditEvent
from audit.services import verify_chain
from review.models import Claim, ItemState, ReviewItem
from review.roles import REVIEWER
from review.selectors import policy_current
from review.services.claims import claim_next
from review.services.policies import policy_publish
from testkit.builders import bulk_proposed_items, user_create

ITEMS = 2000
WORKERS = 16


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sixteen_threads_claim_two_thousand_items_each_exactly_once():
    # Given 2,000 proposed items and 16 reviewers.
    item_ids = bulk_proposed_items(ITEMS)
    reviewers = [user_create(f"claimer{n}", role=REVIEWER) for n in range(WORKERS)]
    # Each reviewer keeps every claim open. Releasing would put the item back in the pool
    # (so "claimed once" would mean nothing) and approving would measure detection and
    # proposal work instead of claiming. So the limit is raised the way a compliance
    # officer would: a new policy version, published through the service and audited.
    draft = policy_current()
    # ITEMS + 1: even a reviewer who took every item may ask once more and get None.
    draft.max_open_claims_per_reviewer = ITEMS + 1
    policy_publish(draft=draft, actor="system:test-setup")

    claimed: list[list[int]] = [[] for _ in range(WORKERS)]
    errors: list[BaseException] = []
    start = threading.Barrier(WORKERS)

    def worker(n: int) -> None:
        try:
            start.wait()
            # Bounded, so a claim_next that kept returning items cannot hang the suite.
            for _ in range(ITEMS + 1):
                claim = claim_next(reviewer=reviewers[n])
                if claim is None:
                    return
                claimed[n].append(claim.item_id)
        except BaseException as exc:  # noqa: BLE001 - surfaced by the assertion below
            errors.append(exc)
        finally:
            connections.close_all()

    # When they all claim until the pool is empty.
    threads = [threading.Thread(target=worker, args=(n,)) for n in range(WORKERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # Then every item was claimed by exactly one reviewer, exactly once.
    assert errors == []
    all_claimed = [item_id for per_worker in claimed for item_id in per_worker]
    assert len(all_claimed) == ITEMS
    assert set(all_claimed) == item_ids
    assert Claim.objects.count() == ITEMS
    per_item = Counter(
        dict(Claim.objects.values_list("item_id").annotate(n=Count("id")).order_by())
    )
    assert set(per_item.values()) == {1}
    assert not ReviewItem.objects.filter(state=ItemState.PROPOSED).exists()
    assert ReviewItem.objects.filter(state=ItemState.IN_REVIEW).count() == ITEMS
    # And every claim wrote its audit event into one unbroken chain.
    assert AuditEvent.objects.filter(event_type="CLAIMED").count() == ITEMS
    report = verify_chain()
    assert report.ok, report


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_reviewer_claiming_from_two_tabs_at_once_holds_one_claim():
    from common.errors import DomainError
    from review.services.claims import claim_release

    bulk_proposed_items(40)
    reviewer = user_create("two-tabs", role=REVIEWER)
    for _ in range(15):
        results: list[object] = []
        barrier = threading.Barrier(2)

        def claim(barrier: threading.Barrier = barrier, results: list = results) -> None:
            try:
                barrier.wait()
                results.append(claim_next(reviewer=reviewer))
            except DomainError as error:
                results.append(error.code)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=claim) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        claims = [r for r in results if isinstance(r, Claim)]
        assert len(claims) == 1, results
        assert "claim_limit" in results
        claim_release(item_id=claims[0].item_id, claim_id=claims[0].pk, reviewer=reviewer)
    assert Claim.objects.filter(reviewer=reviewer, ended_at__isnull=True).count() == 0
