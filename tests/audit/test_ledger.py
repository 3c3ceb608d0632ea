import threading

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, connections, transaction

from audit.models import GENESIS_HASH, AppendOnlyError, AuditEvent
from audit.services import emit, verify_chain


def _emit_some(count: int) -> list[AuditEvent]:
    """Append `count` events; the rows as stored, oldest first."""
    for n in range(count):
        emit("TEST_EVENT", actor="system:test", extra={"n": n})
    return list(AuditEvent.objects.order_by("-sequence")[:count])[::-1]


def _raw(sql: str, params=()) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _tamper(sql: str, params=()) -> None:
    """Change ledger rows behind the application's back (triggers off on PostgreSQL)."""
    if connection.vendor == "postgresql":
        _raw("ALTER TABLE audit_auditevent DISABLE TRIGGER USER")
    _raw(sql, params)
    if connection.vendor == "postgresql":
        _raw("ALTER TABLE audit_auditevent ENABLE TRIGGER USER")


@pytest.mark.django_db
def test_events_form_a_hash_chain_from_genesis():
    events = _emit_some(3)
    assert [e.sequence for e in events] == [1, 2, 3]
    assert events[0].prev_hash == GENESIS_HASH
    assert events[1].prev_hash == events[0].row_hash
    assert events[2].prev_hash == events[1].row_hash
    assert verify_chain().ok


@pytest.mark.django_db
def test_stored_rows_recompute_to_their_hash_after_a_database_round_trip():
    _emit_some(2)
    for row in AuditEvent.objects.all():
        assert row.compute_hash() == row.row_hash


@pytest.mark.django_db
def test_model_refuses_to_update_or_delete_a_stored_event():
    event = _emit_some(1)[0]
    event.event_type = "CHANGED"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.filter(pk=event.pk).update(event_type="CHANGED")
    with pytest.raises(AppendOnlyError):
        AuditEvent.objects.all().delete()


@pytest.mark.django_db
def test_verify_audit_command_reports_the_count_when_intact(capsys):
    _emit_some(4)
    call_command("verify_audit")
    assert "4 events" in capsys.readouterr().out


@pytest.mark.django_db
def test_verify_audit_names_the_first_edited_row():
    _emit_some(5)
    _tamper("UPDATE audit_auditevent SET actor = 'user:mallory' WHERE sequence = 3")
    with pytest.raises(CommandError, match="sequence 3"):
        call_command("verify_audit")


@pytest.mark.django_db
def test_verify_audit_names_a_deleted_middle_row():
    _emit_some(5)
    _tamper("DELETE FROM audit_auditevent WHERE sequence = 2")
    with pytest.raises(CommandError, match=r"chain system, position 2\): position missing"):
        call_command("verify_audit")


@pytest.mark.django_db
def test_verify_audit_names_the_first_of_two_swapped_rows():
    _emit_some(5)
    _tamper("UPDATE audit_auditevent SET sequence = 1000 WHERE sequence = 3")
    _tamper("UPDATE audit_auditevent SET sequence = 3 WHERE sequence = 4")
    _tamper("UPDATE audit_auditevent SET sequence = 4 WHERE sequence = 1000")
    with pytest.raises(CommandError, match=r"chain system, position 3\): row content"):
        call_command("verify_audit")


@pytest.mark.django_db
def test_emit_refuses_a_large_extra_that_could_carry_content():
    with pytest.raises(ValueError, match="too large"):
        emit("TEST_EVENT", actor="system:test", extra={"blob": "x" * 10_000})


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE audit_auditevent SET actor = 'user:mallory'",
        "DELETE FROM audit_auditevent",
        "TRUNCATE audit_auditevent",
    ],
)
def test_database_rejects_raw_changes_to_the_ledger(statement):
    _emit_some(2)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        _raw(statement)
    assert AuditEvent.objects.count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_writers_leave_one_valid_chain():
    per_thread, threads = 10, 20
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def writer(n: int) -> None:
        try:
            start.wait()
            for i in range(per_thread):
                with transaction.atomic():
                    emit("CONCURRENT", actor=f"system:writer-{n}", extra={"i": i})
        except BaseException as exc:  # noqa: BLE001 - surfaced by the assertion below
            errors.append(exc)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=writer, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()

    assert errors == []
    report = verify_chain()
    assert report.ok, report
    assert report.count == per_thread * threads
