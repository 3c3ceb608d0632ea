"""The one clock (DESIGN rule 7): the database's.

Queries compare against `django.db.models.functions.Now()` directly. Where Python needs the
value itself (to stamp an audit row before its hash is computed), `db_now()` asks the
database, so every process and machine agrees on the time.
"""

import datetime as dt
from typing import Any

from django.db import connection
from django.db.models import DateTimeField, Func
from django.utils.dateparse import parse_datetime

# statement_timestamp(), not now(): now() is frozen at transaction start, which would
# stamp every event of a long transaction with the same instant.
_POSTGRESQL_NOW = "statement_timestamp()"
# SQLite keeps datetimes as text, which Django writes with six digits of the second's
# fraction and SQLite's clock reads to three: "32.371000" sorts after "32.371", so a row
# stamped with this clock was not yet due at the same instant, and an outbox row made due
# "now" waited for the next relay (two tests failed so on a fast machine). Six digits.
_SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now') || '000'"


class StatementTime(Func):
    """`db_now()` as an expression, to read the time in a statement that reads other
    values anyway (one round trip fewer on a hot path)."""

    template = _POSTGRESQL_NOW
    output_field = DateTimeField()

    def as_sqlite(
        self, compiler: Any, connection: Any, **extra: Any
    ) -> tuple[str, tuple[str | int, ...]]:
        return _SQLITE_NOW, ()


def db_now() -> dt.datetime:
    """The database's current time as an aware UTC datetime."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT " + _POSTGRESQL_NOW)
            value = cursor.fetchone()[0]
        else:
            cursor.execute("SELECT " + _SQLITE_NOW)
            value = parse_datetime(cursor.fetchone()[0])
    if value is None:
        raise RuntimeError("the database returned no time")
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC)
