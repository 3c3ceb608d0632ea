"""Claims and leases: claim the most urgent item, keep the lease alive, hand it back.

A claim is ended by a compare-and-set on the open, unexpired row; the sweeper's reclaim
(`review.sweeps`) is the same kind of conditional update, so at the lease boundary
exactly one of them wins.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Subquery
from django.db.models.functions import Now

from audit.clock import StatementTime, db_now
from audit.services import actor_label
from common.errors import DomainError
from review import metrics
from review.errors import ClaimLost, NotAllowed
from review.models import Claim, Hold, ItemState, Policy, ReviewItem
from review.selectors import (
    active_legal_hold,
    open_legal_hold_exists,
    policy_current,
    policy_version,
    reviewer_queues,
)
from review.services.transitions import item_lock, item_transition, item_transition_locked


def claim_next(*, reviewer: User) -> Claim | None:
    """Claim the most urgent unclaimed item `reviewer` may take, or return None.

    PostgreSQL: `FOR UPDATE SKIP LOCKED` lets concurrent claimers pass each other's rows.
    SQLite: the transaction holds the database write lock (IMMEDIATE), so the select and
    the guarded transition cannot interleave with another claimer. Either way the
    transition re-checks the state under lock and the partial unique constraint allows
    one open claim per item.
    """
    queues = reviewer_queues(reviewer)
    if not queues:
        raise NotAllowed("you are not a reviewer")
    if connection.vendor == "postgresql":
        return _claim_next_in_database(reviewer, queues)
    with transaction.atomic(durable=True):
        # Lock the reviewer first: two tabs claiming at once must not both pass the limit
        # check below (lock order: reviewer, then item, then claim). The same statement
        # reads the policy in force and the time; the open claims need a statement of
        # their own, whose snapshot is taken after the lock (it sees the other tab's).
        policy_id, now = (
            get_user_model()
            .objects.select_for_update()
            .filter(pk=reviewer.pk)
            .annotate(
                policy_id=Subquery(Policy.objects.order_by("-version").values("pk")[:1]),
                now=StatementTime(),
            )
            .values_list("policy_id", "now")
            .get()
        )
        policy = policy_version(policy_id)
        _claim_limit_require(reviewer, policy)
        pool = (
            ReviewItem.objects.filter(state=ItemState.PROPOSED, hold=Hold.NONE, queue__in=queues)
            .exclude(open_legal_hold_exists())
            # Separation of duties: never an item of a document this user submitted.
            .exclude(document__submission__client=reviewer)
            .order_by("priority", "deadline", "id")
            .select_related("document__submission")
            .select_for_update(skip_locked=True, of=("self",))
        )
        # An item this reviewer released goes to someone else first: it comes back to
        # them only when no other work is waiting.
        released_by_me = Claim.objects.filter(
            item=OuterRef("pk"), reviewer=reviewer, outcome=Claim.Outcome.RELEASED
        )
        item = pool.exclude(Exists(released_by_me)).first() or pool.first()
        if item is None:
            return None
        # The pick above holds the item's lock: the transition needs no second one.
        return _claim_locked(item, reviewer, policy, now)


def _claim_next_in_database(reviewer: User, queues: Sequence[str]) -> Claim | None:
    """`claim_next` on PostgreSQL: the same steps in one call of `review_claim_next`
    (migration review 0018), which appends the CLAIMED event with `audit_append`. Called
    outside a transaction, as the views do, the one statement commits by itself."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT * FROM review_claim_next(%s, %s, %s::text[])",
            [reviewer.pk, actor_label(reviewer), list(queues)],
        )
        outcome, held, claim_id, item_id, claimed_at, expires_at, since = cursor.fetchone()
    if outcome == "limit":
        raise _claim_limit_error(held)
    if outcome == "empty":
        return None
    metrics.observe_transition_on_commit(
        ItemState.PROPOSED, ItemState.IN_REVIEW, (claimed_at - since).total_seconds()
    )
    return Claim.from_db(
        connection.alias,
        ["id", "item_id", "reviewer_id", "claimed_at", "expires_at", "ended_at", "outcome"],
        [claim_id, item_id, reviewer.pk, claimed_at, expires_at, None, ""],
    )


def _claim_limit_require(reviewer: User, policy: Policy) -> None:
    """Refuse a claim past the policy's limit. Caller holds the reviewer's row lock, so
    this count sees every claim the reviewer's other tabs committed."""
    held = Claim.objects.filter(
        reviewer=reviewer, ended_at__isnull=True, expires_at__gt=Now()
    ).count()
    if held >= policy.max_open_claims_per_reviewer:
        raise _claim_limit_error(held)


def _claim_limit_error(held: int) -> DomainError:
    return DomainError(
        f"you already hold {held} open claim(s); finish or release it first",
        code="claim_limit",
    )


def _claim_locked(item: ReviewItem, reviewer: User, policy: Policy, now: dt.datetime) -> Claim:
    """Open a claim on `item` (whose row lock the caller holds) with the policy's lease,
    and record the move to in review."""
    claim = Claim.objects.create(
        item=item,
        reviewer=reviewer,
        claimed_at=now,
        expires_at=now + dt.timedelta(minutes=policy.lease_minutes),
    )
    item_transition_locked(
        item,
        to_state=ItemState.IN_REVIEW,
        actor=reviewer,
        event_type="CLAIMED",
        extra={"claim": claim.pk, "lease_seconds": policy.lease_minutes * 60},
        now=now,
    )
    return claim


def claim_item(*, item_id: int, reviewer: User) -> Claim:
    """Claim one given item for `reviewer`: the page whose lease ran out claims its item
    again, keeping the reviewer's unsaved decisions in the browser.

    The item must be free: waiting for review, or still in review under a claim whose
    lease has run out and the sweeper has not reclaimed yet (that claim is ended here as
    the sweeper would end it, with the same event). Refused when another reviewer holds
    an open lease, when a hold or legal hold is on the item, outside the reviewer's
    queues, or past the policy's claim limit. A reviewer who still holds an open claim on
    the item gets that claim back. Lock order as in `claim_next`: reviewer, item, claim.
    """
    queues = reviewer_queues(reviewer)
    if not queues:
        raise NotAllowed("you are not a reviewer")
    policy = policy_current()
    with transaction.atomic(durable=True):
        get_user_model().objects.select_for_update().filter(pk=reviewer.pk).first()
        item = item_lock(item_id=item_id)
        if item.queue not in queues:
            raise NotAllowed(f"item {item.pk} is in the {item.queue} queue, not one of yours")
        if item.document.submission.client_id == reviewer.pk:
            # Separation of duties, as in claim next: nobody reviews what they submitted.
            raise NotAllowed(f"item {item.pk} is of a submission you made")
        if item.hold != Hold.NONE or active_legal_hold(item.document) is not None:
            raise DomainError(f"item {item.pk} is on hold", code="on_hold")
        now = db_now()
        current = Claim.objects.filter(item=item, ended_at__isnull=True).first()
        if current is not None and current.expires_at > now:
            if current.reviewer_id == reviewer.pk:
                return current
            raise DomainError(
                f"item {item.pk} has been claimed by another reviewer", code="claimed"
            )
        if item.state not in (ItemState.PROPOSED, ItemState.IN_REVIEW):
            raise DomainError(
                f"item {item.pk} is {item.state}, no longer waiting for review",
                code="not_claimable",
            )
        _claim_limit_require(reviewer, policy)
        if current is not None:
            # The lease ran out and the sweeper has not been by: end the claim as it would
            # (the item lock keeps the sweeper out until this commits).
            Claim.objects.filter(pk=current.pk, ended_at__isnull=True).update(
                ended_at=now, outcome=Claim.Outcome.EXPIRED
            )
            item_transition_locked(
                item,
                to_state=ItemState.PROPOSED,
                actor=reviewer,
                event_type="CLAIM_RECLAIMED",
                extra={"claim": current.pk, "previous_owner": current.reviewer.get_username()},
                now=now,
            )
        return _claim_locked(item, reviewer, policy, now)


def claim_end(*, claim_id: int, item: ReviewItem, reviewer: User, outcome: str) -> None:
    """Compare-and-set: end the claim only if it is still this user's open, unexpired
    claim on this item, else raise ClaimLost. Caller holds the item lock."""
    ended = Claim.objects.filter(
        pk=claim_id,
        item=item,
        reviewer=reviewer,
        ended_at__isnull=True,
        expires_at__gt=Now(),
    ).update(ended_at=Now(), outcome=outcome)
    if ended != 1:
        raise ClaimLost()


def claim_require(*, claim_id: int, item: ReviewItem, reviewer: User) -> Claim:
    """The open, unexpired claim a write acts under, else ClaimLost. Caller holds the
    item lock, so the claim cannot be reclaimed before the write commits."""
    claim = Claim.objects.filter(
        pk=claim_id, item=item, reviewer=reviewer, ended_at__isnull=True, expires_at__gt=Now()
    ).first()
    if claim is None:
        raise ClaimLost()
    return claim


def claim_release(*, item_id: int, claim_id: int, reviewer: User) -> ReviewItem:
    with transaction.atomic(durable=True):
        item = item_lock(item_id=item_id)
        claim_end(claim_id=claim_id, item=item, reviewer=reviewer, outcome=Claim.Outcome.RELEASED)
        return item_transition(
            item_id=item.pk,
            to_state=ItemState.PROPOSED,
            actor=reviewer,
            event_type="RELEASED",
            extra={"claim": claim_id},
        )


def claim_heartbeat(*, item_id: int, claim_id: int, reviewer: User) -> dt.datetime:
    """Extend an open claim by the lease length, never past the policy's maximum from the
    claim's start. Not audited: it changes no item state, and an event every half
    minute per open tab would drown the ledger; the claim row keeps the expiry.
    Two conditional updates, no transaction: each re-checks that the claim is open."""
    policy = policy_current()
    claim = (
        Claim.objects.filter(
            pk=claim_id,
            item_id=item_id,
            reviewer=reviewer,
            ended_at__isnull=True,
            expires_at__gt=Now(),
        )
        .only("claimed_at")
        .first()
    )
    if claim is None:
        raise ClaimLost()
    expires_at = min(
        db_now() + dt.timedelta(minutes=policy.lease_minutes),
        claim.claimed_at + dt.timedelta(minutes=policy.lease_max_minutes),
    )
    extended = Claim.objects.filter(
        pk=claim_id, ended_at__isnull=True, expires_at__gt=Now()
    ).update(expires_at=expires_at)
    if extended != 1:
        raise ClaimLost()
    return expires_at
