import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from review.models import Claim, ReviewItem
from testkit.builders import user_create
from tests.factories import item_create

pytestmark = pytest.mark.django_db


def test_any_of_selects_exactly_the_rows_in_the_list():
    items = [item_create() for _ in range(4)]
    wanted = [items[0].pk, items[2].pk, 10**9]
    assert set(ReviewItem.objects.filter(pk__any_of=wanted).values_list("pk", flat=True)) == {
        items[0].pk,
        items[2].pk,
    }
    assert not ReviewItem.objects.filter(pk__any_of=[]).exists()
    # Any iterable, as sweeps pass dict views.
    assert ReviewItem.objects.filter(pk__any_of={1: items[1].pk}.values()).get() == items[1]


def test_any_of_works_on_a_foreign_key_column():
    item, other = item_create(), item_create()
    reviewer = user_create("any-of-reviewer")
    start, end = item.deadline - dt.timedelta(hours=1), item.deadline
    claim = Claim.objects.create(item=item, reviewer=reviewer, claimed_at=start, expires_at=end)
    Claim.objects.create(item=other, reviewer=reviewer, claimed_at=start, expires_at=end)
    assert list(Claim.objects.filter(item_id__any_of=[item.pk])) == [claim]


def test_on_postgresql_any_of_sends_the_list_as_one_parameter():
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL)")
    ids = list(range(1, 501))
    with CaptureQueriesContext(connection) as queries:
        list(ReviewItem.objects.filter(pk__any_of=ids))
    (query,) = queries.captured_queries
    assert "= ANY(" in query["sql"] and " IN (" not in query["sql"]
