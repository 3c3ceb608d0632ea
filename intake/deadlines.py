"""Statutory deadlines from the jurisdiction registry.

Business days come from the `holidays` calendar of the jurisdiction, counted in UTC dates
starting the day after receipt; the deadline is the end of the last counted day (UTC).
Calendar-month windows (GDPR Art. 12(3)) end at the end of the same day of the month
`window_length` months later (or that month's last day when it is shorter).
"""

from __future__ import annotations

import datetime as dt
import functools

import holidays
from dateutil.relativedelta import relativedelta

from intake.models import Jurisdiction


def _end_of_day(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time.max, tzinfo=dt.UTC)


@functools.lru_cache(maxsize=256)
def _holidays(
    country: str, subdivision: str, categories: tuple[str, ...], years: range
) -> frozenset[dt.date]:
    """Building a calendar costs more than the rest of an admission's Python: one per
    calendar and years, kept for the life of the process (the rules are the library's)."""
    calendar = holidays.country_holidays(
        country, subdiv=subdivision or None, years=years, categories=categories or None
    )
    return frozenset(calendar)


def _calendar(jurisdiction: Jurisdiction, years: range) -> frozenset[dt.date]:
    categories = tuple(c.strip() for c in jurisdiction.holiday_categories.split(",") if c.strip())
    return _holidays(
        jurisdiction.holiday_country, jurisdiction.holiday_subdivision, categories, years
    )


def add_business_days(jurisdiction: Jurisdiction, start: dt.date, count: int) -> dt.date:
    """The date `count` business days after `start` (the day of `start` not counted)."""
    # The years cover the whole window: 200 business days never span more than a year.
    calendar = (
        _calendar(jurisdiction, range(start.year, start.year + 2 + count // 200))
        if jurisdiction.holiday_country
        else frozenset()
    )
    day, counted = start, 0
    while counted < count:
        day += dt.timedelta(days=1)
        if day.weekday() < 5 and day not in calendar:
            counted += 1
    return day


def statutory_deadline(jurisdiction: Jurisdiction, received_at: dt.datetime) -> dt.datetime:
    received_day = received_at.astimezone(dt.UTC).date()
    if jurisdiction.window_unit == Jurisdiction.WindowUnit.CALENDAR_MONTHS:
        return _end_of_day(received_day + relativedelta(months=jurisdiction.window_length))
    return _end_of_day(add_business_days(jurisdiction, received_day, jurisdiction.window_length))
