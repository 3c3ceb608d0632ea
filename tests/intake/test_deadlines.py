import datetime as dt

import pytest

from intake.deadlines import statutory_deadline
from intake.models import Jurisdiction
from tests.intake.conftest import submit


def _received(day: str) -> dt.datetime:
    return dt.datetime.fromisoformat(f"{day}T15:30:00+00:00")


def _end_of(day: str) -> dt.datetime:
    return dt.datetime.combine(dt.date.fromisoformat(day), dt.time.max, tzinfo=dt.UTC)


@pytest.mark.django_db
def test_us_federal_foia_window_skips_thanksgiving():
    # Received Fri 2026-11-20; counting starts Mon 23; Thanksgiving (Thu 26) is skipped,
    # so the 20th business day is Mon 2026-12-21 instead of Fri 2026-12-18.
    jurisdiction = Jurisdiction.objects.get(code="US-FED")
    assert statutory_deadline(jurisdiction, _received("2026-11-20")) == _end_of("2026-12-21")


@pytest.mark.django_db
def test_uk_foia_window_skips_christmas_boxing_day_substitute_and_new_year():
    # Received Fri 2026-12-18. Skipped: Fri 25 Dec, Mon 28 Dec (Boxing Day falls on a
    # Saturday, substitute Monday), Fri 1 Jan 2027. The 20th working day is Wed 2027-01-20.
    jurisdiction = Jurisdiction.objects.get(code="UK")
    assert statutory_deadline(jurisdiction, _received("2026-12-18")) == _end_of("2027-01-20")


@pytest.mark.django_db
def test_receipt_day_is_not_counted_even_when_it_is_a_business_day():
    jurisdiction = Jurisdiction.objects.get(code="US-FED")
    jurisdiction.window_length = 1
    # Received Mon 2026-03-02: the first business day counted is Tue 2026-03-03.
    assert statutory_deadline(jurisdiction, _received("2026-03-02")) == _end_of("2026-03-03")


@pytest.mark.django_db
def test_gdpr_one_month_ends_on_the_last_day_of_a_shorter_month():
    jurisdiction = Jurisdiction.objects.get(code="EU-GDPR")
    assert statutory_deadline(jurisdiction, _received("2026-01-31")) == _end_of("2026-02-28")
    assert statutory_deadline(jurisdiction, _received("2026-03-15")) == _end_of("2026-04-15")


@pytest.mark.django_db
def test_item_deadline_is_the_earlier_of_sla_and_statutory(api):
    body = submit(api, sla_class="urgent").json()
    received = dt.datetime.fromisoformat(body["received_at"])
    deadline = dt.datetime.fromisoformat(body["documents"][0]["deadline"])
    assert deadline == received + dt.timedelta(hours=4)
    assert deadline < dt.datetime.fromisoformat(body["statutory_deadline"])
