"""The intake rate limit: a fixed window per client, counted in the database so that
every process of the server, on every host, sees one count. (A count in each process's
memory would let a client send the full rate to each gunicorn worker.)"""

from __future__ import annotations

from django.db import connection

from intake.models import ThrottleWindow

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """DRF's rate format, "120/min": (requests, seconds of the window)."""
    number, period = rate.split("/")
    return int(number), PERIODS[period[0]]


def throttle_hit(*, client_id: int, rate: str, now: float) -> tuple[bool, float]:
    """Count one request of the client in the window of `rate` that holds `now` (epoch
    seconds): whether it is within the rate, and the seconds the window has left. One
    statement counts it, so concurrent requests of a client each get their own count."""
    allowed, period = parse_rate(rate)
    start = int(now // period) * period
    table = connection.ops.quote_name(ThrottleWindow._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (client_id, window_start, hits) VALUES (%s, %s, 1) "  # noqa: S608 - the model's table
            f"ON CONFLICT (client_id, window_start) DO UPDATE SET hits = {table}.hits + 1 "
            "RETURNING hits",
            [client_id, start],
        )
        hits = cursor.fetchone()[0]
        if hits == 1:  # the client's first request in a new window: the old ones are done
            cursor.execute(
                f"DELETE FROM {table} WHERE client_id = %s AND window_start < %s",  # noqa: S608
                [client_id, start],
            )
    return hits <= allowed, start + period - now
