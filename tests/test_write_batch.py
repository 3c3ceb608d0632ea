"""`common.batch`: rows written together, all or none, as the ORM would write them."""

import datetime as dt

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from common.batch import WriteBatch, allocate_ids, batch_transaction
from intake.models import RejectedSubmission, ThrottleWindow
from testkit.builders import user_create


@pytest.mark.django_db(transaction=True)
def test_a_batch_whose_last_statement_fails_writes_none_of_its_rows():
    client = user_create("batch-client")
    batch = WriteBatch()
    batch.insert([ThrottleWindow(client=client, window_start=60, hits=1)])
    batch.insert([ThrottleWindow(client=client, window_start=120, hits=1)])
    batch.insert([ThrottleWindow(client=client, window_start=60, hits=2)])  # the same window
    with pytest.raises(IntegrityError), batch_transaction():
        batch.write()
    assert not ThrottleWindow.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_rows_a_batch_writes_read_back_as_the_orm_writes_them():
    client = user_create("batch-reader")
    fields = {
        "client": client,
        "channel": "api",
        "received_at": dt.datetime(2026, 12, 3, 6, 30, 1, 123456, tzinfo=dt.UTC),
        "external_ref": 'O\'Brien 100% "quoted"',
        "reason_codes": ["not_pdf", "too_large"],
        "errors": [{"field": "files[0]", "code": "not_pdf", "message": "ünïcode ✓"}],
        "files": [{"index": 0, "sha256": "ab" * 32, "size": 12}],
    }
    by_orm = RejectedSubmission.objects.create(**fields)
    batch = WriteBatch()
    written = RejectedSubmission(**fields)
    batch.insert([written])
    with batch_transaction():
        batch.write()

    orm_row, batch_row = RejectedSubmission.objects.order_by("pk")
    assert orm_row.pk == by_orm.pk
    for name in [
        "client_id",
        "channel",
        "received_at",
        "external_ref",
        "reason_codes",
        "errors",
        "files",
    ]:
        assert getattr(batch_row, name) == getattr(orm_row, name), name


@pytest.mark.django_db(transaction=True)
def test_allocated_ids_follow_every_id_ever_used_even_after_the_newest_row_is_deleted():
    client = user_create("batch-ids")
    rows = [ThrottleWindow.objects.create(client=client, window_start=n, hits=1) for n in (1, 2)]
    newest = rows[-1].pk
    rows[-1].delete()
    with batch_transaction():
        ids = allocate_ids(ThrottleWindow, 3)
        batch = WriteBatch()
        batch.insert(
            [ThrottleWindow(id=i, client=client, window_start=10 + i, hits=1) for i in ids]
        )
        batch.write()
    assert len(set(ids)) == 3 and min(ids) > newest
    assert sorted(ThrottleWindow.objects.values_list("pk", flat=True)) == [rows[0].pk, *ids]
    with batch_transaction():
        assert min(allocate_ids(ThrottleWindow, 1)) > max(ids)
    created = ThrottleWindow.objects.create(client=client, window_start=99, hits=1)
    assert created.pk > max(ids)  # the table's own numbering carries on after them


@pytest.mark.django_db(transaction=True)
def test_after_write_callbacks_run_once_the_rows_are_committed():
    client = user_create("batch-callback")
    seen: list[int] = []
    batch = WriteBatch()
    batch.insert([ThrottleWindow(client=client, window_start=60, hits=1)])

    def count() -> None:
        seen.append(ThrottleWindow.objects.count())

    batch.after_write(count)
    batch.after_write(count)  # once however often it is asked for
    with batch_transaction():
        batch.write()
        if connection.vendor != "postgresql":
            assert seen == []  # SQLite's batch commits with the block around it
    assert seen == [1]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_batch_is_one_statement_and_its_own_transaction():
    client = user_create("batch-one-trip")
    batch = WriteBatch()
    batch.insert([ThrottleWindow(client=client, window_start=n, hits=1) for n in (60, 120)])
    refused = RejectedSubmission(client=client, channel="api", received_at=dt.datetime.now(dt.UTC))
    batch.insert([refused])
    with CaptureQueriesContext(connection) as captured:
        batch.write()
    assert len(captured.captured_queries) == 1
    assert connection.get_autocommit()
    assert ThrottleWindow.objects.count() == 2 and RejectedSubmission.objects.count() == 1
