"""At the lease boundary, two sweepers and the reviewer's submit race: one wins, always."""

import datetime as dt
import random
import threading
import time

import pytest
from django.db import connections

from audit.clock import db_now
from audit.models import AuditEvent
from audit.services import verify_chain
from review.errors import ClaimLost
from review.models import Claim
from review.roles import REVIEWER
from review.selectors import latest_proposal, proposal_preview
from review.services.claims import claim_next
from review.services.release import item_approve
from review.sweeps import _reclaim_expired_claims
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items, view_every_page

ROUNDS = 200
LEASE_LEFT = dt.timedelta(milliseconds=120)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_sweepers_and_a_last_second_submit_produce_exactly_one_outcome(monkeypatch):
    # Rendering after approval is not part of this race; keep it out of the timing.
    monkeypatch.setattr("review.services.outbox.async_task", lambda *args, **kwargs: None)
    # One content for every file: the race does not depend on it, and detection's page
    # check then runs once instead of once per file.
    minutes = simple_pdf(["Parks minutes"])
    items = admitted_items({f"note-{n}.pdf": minutes for n in range(ROUNDS)})
    reviewer = user_create("boundary", role=REVIEWER)
    outcomes = {"submitted": 0, "expired": 0}

    for _ in items:
        claim = claim_next(reviewer=reviewer)
        assert claim is not None  # a reclaimed item may be offered again: fine
        preview = proposal_preview(latest_proposal(claim.item.document)).sha256
        view_every_page(claim.item, reviewer)  # approval needs every page seen
        expires = db_now() + LEASE_LEFT
        Claim.objects.filter(pk=claim.pk).update(expires_at=expires)
        barrier = threading.Barrier(3)
        errors: list[BaseException] = []

        def sweeper(barrier=barrier, errors=errors, expires=expires) -> None:
            try:
                barrier.wait()
                deadline = time.monotonic() + LEASE_LEFT.total_seconds() * 1.6
                while time.monotonic() < deadline:
                    _reclaim_expired_claims()
            except BaseException as exc:  # noqa: BLE001 - surfaced by the assertion below
                errors.append(exc)
            finally:
                connections.close_all()

        def reviewer_submit(barrier=barrier, errors=errors, claim=claim, preview=preview) -> None:
            try:
                barrier.wait()
                # Submit somewhere around the end of the lease: early, last-second or late.
                time.sleep(LEASE_LEFT.total_seconds() * random.uniform(0.3, 1.3))
                item_approve(
                    item_id=claim.item_id,
                    claim_id=claim.pk,
                    reviewer=reviewer,
                    proposal_version=1,
                    preview_sha256=preview,
                )
            except ClaimLost:
                pass  # lost the race: the sweeper's reclaim stands
            except BaseException as exc:  # noqa: BLE001
                errors.append(exc)
            finally:
                connections.close_all()

        threads = [
            threading.Thread(target=sweeper),
            threading.Thread(target=sweeper),
            threading.Thread(target=reviewer_submit),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

        assert errors == []
        # The next scheduled pass, once the lease has surely run out (on a loaded machine
        # the racing sweepers may stop looking before it does): a no-op if the submit won.
        time.sleep(max(0.0, (expires - db_now()).total_seconds()) + 0.01)
        _reclaim_expired_claims()
        claim.refresh_from_db()
        # Per claim: a reclaimed item goes back to the pool and may be claimed again.
        approved = AuditEvent.objects.filter(event_type="APPROVED", extra__claim=claim.pk).count()
        reclaimed = AuditEvent.objects.filter(
            event_type="CLAIM_RECLAIMED", extra__claim=claim.pk
        ).count()
        assert claim.outcome in outcomes
        assert (approved, reclaimed) == ((1, 0) if claim.outcome == "submitted" else (0, 1))
        outcomes[claim.outcome] += 1

    print(f"lease boundary outcomes over {ROUNDS} rounds: {outcomes}")
    assert sum(outcomes.values()) == ROUNDS
    assert outcomes["submitted"] > 0 and outcomes["expired"] > 0  # both sides did win races
    assert verify_chain().ok
