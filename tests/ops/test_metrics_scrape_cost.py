"""A scrape of /metrics reads the open work and the few rows it counts, not every item
and claim ever finished. Prometheus scrapes every few seconds for as long as the service
runs: a whole-table pass per series grows with years of signed items and their claims.
PostgreSQL's own per-transaction counters show what a scrape read."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client

from review.models import ItemState
from review.roles import REVIEWER
from testkit.builders import bulk_proposed_items, bulk_worked_items, user_create

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

FINISHED = 2000
OPEN = 5


def _rows_read() -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, coalesce(idx_tup_fetch, 0) + coalesce(seq_tup_read, 0)"
            " FROM pg_stat_xact_user_tables"
        )
        return dict(cursor.fetchall())


def test_a_scrape_reads_the_open_work_not_the_finished_history():
    reviewer = user_create("veteran", role=REVIEWER)
    bulk_worked_items(FINISHED, reviewer=reviewer, state=ItemState.SIGNED, seed="done")
    bulk_proposed_items(OPEN, seed="open")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE review_reviewitem")
        cursor.execute("ANALYZE review_claim")
    staff = user_create("ops")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    client = Client()
    client.force_login(staff)
    before = _rows_read()

    assert client.get("/metrics").status_code == 200

    after = _rows_read()
    read = {table: after[table] - before.get(table, 0) for table in after}
    # None of the finished claims; each item once, for the gauge of items by state (it
    # counts the signed ones too), and the open ones a few times more.
    assert read.get("review_claim", 0) <= 10
    assert read.get("review_reviewitem", 0) <= FINISHED + 10 * OPEN
