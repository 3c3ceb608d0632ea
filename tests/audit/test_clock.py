"""The one clock, read by the database: its time sorts with the times Django stores. On
SQLite both are text, and SQLite's clock read three digits of the second's fraction
where Django writes six, so a row stamped "due now" was not yet due at that instant,
and an approval's render waited for the next relay (two tests failed so, once each, on
a fast machine)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection

from audit.clock import _SQLITE_NOW, db_now

INSTANT = dt.datetime(2026, 12, 7, 7, 26, 32, 371000, tzinfo=dt.UTC)


@pytest.mark.django_db
def test_a_time_stored_at_the_clocks_instant_is_neither_before_nor_after_it() -> None:
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL compares timestamps, not text")
    stored = connection.ops.adapt_datetimefield_value(INSTANT)  # as Django writes it
    at_that_instant = _SQLITE_NOW.replace("'now'", "'2026-12-07 07:26:32.371'")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT %s <= {at_that_instant}, %s >= {at_that_instant}", [stored] * 2)
        assert cursor.fetchone() == (1, 1)


@pytest.mark.django_db
def test_the_clock_reads_as_an_aware_utc_time() -> None:
    now = db_now()
    assert now.tzinfo == dt.UTC
    assert abs(now - dt.datetime.now(dt.UTC)) < dt.timedelta(minutes=1)
