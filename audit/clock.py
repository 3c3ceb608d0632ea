"""The one clock (DESIGN rule 7): the database's.

Queries compare against `django.db.models.functions.Now()` directly. Where Python needs the
value itself (to stamp an audit row before its hash is computed), `db_now()` asks the
database, so every process and machine agrees on the time.
"""

import datetime as dt

from django.db import connection
from django.utils.dateparse import parse_datetime


def db_now() -> dt.datetime:
    """The database's current time as an aware UTC datetime."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # statement_timestamp(), not now(): now() is frozen at transaction start,
            # which would stamp every event of a long transaction with the same instant.
            cursor.execute("SELECT statement_timestamp()")
            value = cursor.fetchone()[0]
        else:
            cursor.execute("SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')")
            value = parse_datetime(cursor.fetchone()[0])
    if value is None:
        raise RuntimeError("the database returned no time")
    if value.tzinfo is None:
        value = value.replace(tzinfo=dt.UTC)
    return value.astimezone(dt.UTC)
