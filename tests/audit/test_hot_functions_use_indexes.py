"""The database functions on the hot paths (claim next, appends) find rows through their
indexes even when the planner believes the tables are empty.

PL/pgSQL caches a plan per statement for the session. One made while the ledger or the
claims were small (a new deployment, a table just analysed) would read the whole table on
every later call: each claim would scan every claim and every event ever written.
PostgreSQL's own per-transaction counters show whether a call scanned a table whole.
"""

from __future__ import annotations

import pytest
from django.db import connection

from audit.services import Event, emit_many
from review.models import ItemState
from review.roles import REVIEWER
from review.selectors import policy_current
from review.services.claims import claim_next
from review.services.policies import policy_publish
from testkit.builders import bulk_proposed_items, bulk_worked_items, user_create

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

TABLES = ("audit_auditevent", "review_claim")


def _as_if_empty_and_generic() -> None:
    """Statistics that say 'tiny table', and plans that are cached from the first call:
    the state in which a plan that scans the table looks cheapest."""
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"ANALYZE {table}")
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")


def _allow_many_open_claims() -> None:
    """One reviewer claims several items in a row without finishing any."""
    draft = policy_current()
    draft.max_open_claims_per_reviewer = 100
    policy_publish(draft=draft, actor="system:test-setup")


def _rows_read(table: str) -> int:
    """Rows this transaction has read from `table`, through an index or a scan."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0)"
            " FROM pg_stat_xact_user_tables WHERE relname = %s",
            [table],
        )
        return cursor.fetchone()[0]


def _whole_table_scans() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, seq_scan FROM pg_stat_xact_user_tables WHERE relname = ANY(%s)",
            [list(TABLES)],
        )
        return dict(cursor.fetchall())


def test_claim_next_counts_claims_and_finds_chain_heads_without_scanning_tables():
    bulk_proposed_items(8)
    reviewer = user_create("scanless", role=REVIEWER)
    _allow_many_open_claims()
    _as_if_empty_and_generic()
    before = _whole_table_scans()

    claims = [claim_next(reviewer=reviewer) for _ in range(8)]

    assert all(claims)
    assert _whole_table_scans() == before


def test_appends_from_python_lock_chain_heads_without_scanning_the_ledger():
    _as_if_empty_and_generic()
    before = _whole_table_scans()

    for n in range(6):
        emit_many(
            Event(event_type="TEST_EVENT", actor="system:test", correlation_id=f"c{n}")
            for _ in range(3)
        )

    assert _whole_table_scans() == before


def test_claim_next_reads_the_picked_items_document_not_every_document():
    """With statistics on the documents table (autovacuum analyses it after a bulk
    admission), a pick joined to the documents could be planned from the documents side:
    every document read and sorted on each claim."""
    bulk_proposed_items(300)
    reviewer = user_create("poolwalker", role=REVIEWER)
    _allow_many_open_claims()
    with connection.cursor() as cursor:
        for table in ("intake_document", "intake_submission", "review_reviewitem"):
            cursor.execute(f"ANALYZE {table}")
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
    before = _rows_read("intake_document")

    claims = [claim_next(reviewer=reviewer) for _ in range(6)]

    assert all(claims)
    # Per claim: the picked item's document for the separation-of-duties check, and once
    # more for the event's fields.
    assert _rows_read("intake_document") - before <= 6 * 2


def test_claim_next_does_not_read_the_reviewers_past_claims():
    """An item the reviewer released goes to others first; finding those must not read
    every claim the reviewer ever made (months of work: thousands of rows per claim).
    The statistics are taken before the history exists, as in a deployment that grew
    since autovacuum last came by."""
    reviewer = user_create("veteran", role=REVIEWER)
    _as_if_empty_and_generic()
    _allow_many_open_claims()
    bulk_worked_items(400, reviewer=reviewer, state=ItemState.APPROVED, seed="done")
    bulk_proposed_items(3, seed="fresh")
    before = _rows_read("review_claim")

    claims = [claim_next(reviewer=reviewer) for _ in range(3)]

    assert all(claims)
    assert _rows_read("review_claim") - before <= 3 * 4
