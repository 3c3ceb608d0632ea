"""Exports carry the chain hashes; verify_export re-parses them and checks each row within
the file and against the database, naming the first bad sequence (never its content)."""

import csv
import io
import json
import uuid

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from audit.exports import COLUMNS, events_filter, export_rows, verify_export
from audit.models import AuditEvent
from audit.services import emit

FORMATS = ["jsonl", "csv"]
DOC_A = uuid.uuid4()
DOC_B = uuid.uuid4()


def _ledger() -> None:
    """Eight events, two documents interleaved (so a per-document export has gaps)."""
    for n in range(8):
        document = DOC_A if n % 2 == 0 else DOC_B
        emit(
            "TEST_EVENT",
            actor="user:olga" if n % 3 else "system:sweeper",
            document_id=document,
            submission_id=uuid.UUID(int=1),
            correlation_id=f"corr-{document.hex[:8]}",
            item_id=n,
            attempt=1 if n == 4 else None,
            input_hash="a" * 64,
            extra={"n": n, "state": "signed"},
        )


def _export(fmt: str, queryset=None) -> list[str]:
    return list(export_rows(queryset or AuditEvent.objects.all(), fmt))


def _data_lines(lines: list[str], fmt: str) -> tuple[list[str], list[str]]:
    """(header lines, one line per event)."""
    return (lines[:1], lines[1:]) if fmt == "csv" else ([], lines)


def _edit(line: str, fmt: str, **changes) -> str:
    if fmt == "jsonl":
        return json.dumps(json.loads(line) | changes) + "\n"
    row = dict(zip(COLUMNS, next(csv.reader([line])), strict=True)) | changes
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([row[c] for c in COLUMNS])
    return out.getvalue()


def _tamper_database(sql: str) -> None:
    """Change a ledger row behind the application's back (triggers off on PostgreSQL)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER USER")
        cursor.execute(sql)
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER USER")


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_full_export_round_trip_verifies(fmt):
    _ledger()
    lines = _export(fmt)
    report = verify_export(lines, fmt)
    assert report.ok, report
    assert report.count == 8


@pytest.mark.django_db
def test_jsonl_rows_carry_every_field_as_plain_json():
    _ledger()
    first = json.loads(_export("jsonl")[0])
    assert list(first) == COLUMNS
    event = AuditEvent.objects.get(sequence=1)
    assert first["occurred_at"] == event.occurred_at.isoformat(timespec="microseconds")
    assert first["document_id"] == str(DOC_A)
    assert first["extra"] == {"n": 0, "state": "signed"}
    assert first["prev_hash"] == "0" * 64
    assert first["row_hash"] == event.row_hash


@pytest.mark.django_db
def test_csv_has_the_same_columns_with_extra_as_compact_json_and_nulls_empty():
    _ledger()
    rows = list(csv.DictReader(io.StringIO("".join(_export("csv")))))
    assert list(rows[0]) == COLUMNS
    assert rows[0]["extra"] == '{"n":0,"state":"signed"}'
    assert rows[0]["attempt"] == ""
    assert rows[4]["attempt"] == "1"


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_export_filtered_by_document_is_not_contiguous_but_verifies(fmt):
    _ledger()
    lines = _export(fmt, events_filter(document_id=DOC_B))
    assert len(_data_lines(lines, fmt)[1]) == 4  # sequences 2, 4, 6, 8
    report = verify_export(lines, fmt)
    assert report.ok, report
    assert report.count == 4


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_an_edited_field_names_its_sequence_and_never_the_content(fmt):
    _ledger()
    header, rows = _data_lines(_export(fmt), fmt)
    rows[2] = _edit(rows[2], fmt, actor="user:mallory")
    report = verify_export(header + rows, fmt)
    assert not report.ok
    assert (report.first_bad_sequence, report.reason) == (3, "row content does not match its hash")
    assert report.count == 2
    assert "mallory" not in report.describe()


@pytest.mark.django_db
def test_an_edited_row_with_a_recomputed_hash_no_longer_matches_the_database():
    _ledger()
    rows = _export("jsonl")
    forged = AuditEvent(**(json.loads(rows[2]) | {"actor": "user:mallory", "row_hash": ""}))
    forged.occurred_at = AuditEvent.objects.get(sequence=3).occurred_at
    rows[2] = _edit(rows[2], "jsonl", actor="user:mallory", row_hash=forged.compute_hash())
    report = verify_export(rows, "jsonl")
    assert (report.first_bad_sequence, report.reason) == (
        3,
        "the database row differs from the exported row",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_dropped_middle_line_names_the_missing_sequence(fmt):
    _ledger()
    header, rows = _data_lines(_export(fmt), fmt)
    del rows[4]  # sequence 5
    report = verify_export(header + rows, fmt)
    assert not report.ok
    assert report.first_bad_sequence == 5
    assert "missing" in report.reason


@pytest.mark.django_db
def test_a_line_dropped_from_a_filtered_export_is_found_too():
    _ledger()
    rows = _export("jsonl", events_filter(document_id=DOC_A))  # sequences 1, 3, 5, 7
    del rows[1]
    report = verify_export(rows, "jsonl")
    assert (report.ok, report.first_bad_sequence) == (False, 3)


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_two_swapped_lines_name_the_first_of_them(fmt):
    _ledger()
    header, rows = _data_lines(_export(fmt), fmt)
    rows[2], rows[3] = rows[3], rows[2]  # sequences 3 and 4
    report = verify_export(header + rows, fmt)
    assert not report.ok
    assert (report.first_bad_sequence, report.reason) == (3, "sequence out of order or repeated")


@pytest.mark.django_db
def test_a_line_that_does_not_parse_is_named_by_its_line_number():
    _ledger()
    rows = _export("jsonl")
    rows[1] = "SSN 123-45-6789\n"
    report = verify_export(rows, "jsonl")
    assert (report.ok, report.line, report.first_bad_sequence) == (False, 2, None)
    assert "123-45" not in report.describe()


@pytest.mark.django_db
def test_an_export_does_not_verify_against_a_database_changed_behind_the_ledger():
    _ledger()
    rows = _export("jsonl")
    # PostgreSQL: only with the append-only triggers disabled; SQLite: a raw UPDATE.
    _tamper_database("UPDATE audit_auditevent SET actor = 'user:mallory' WHERE sequence = 6")
    report = verify_export(rows, "jsonl")
    assert not report.ok
    assert (report.first_bad_sequence, report.reason) == (
        6,
        "the database row does not match its own hash",
    )


@pytest.mark.django_db
def test_an_exported_row_the_database_lacks_is_named():
    _ledger()
    rows = _export("jsonl")
    _tamper_database("DELETE FROM audit_auditevent WHERE sequence = 8")
    report = verify_export(rows, "jsonl")
    assert (report.first_bad_sequence, report.reason) == (8, "no database row has this sequence")


@pytest.mark.django_db
@pytest.mark.parametrize("fmt", FORMATS)
def test_export_command_writes_a_file_that_verify_audit_accepts(fmt, tmp_path, capsys):
    _ledger()
    path = tmp_path / f"ledger.{fmt}"
    call_command("export_audit", "--format", fmt, "--output", str(path))
    call_command("verify_audit", "--export", str(path))
    out = capsys.readouterr().out
    assert "audit chain OK: 8 events" in out
    assert "export OK: 8 events" in out


@pytest.mark.django_db
def test_export_command_filters_and_writes_to_stdout():
    _ledger()
    out = io.StringIO()
    call_command("export_audit", "--document", str(DOC_A), "--actor", "user:olga", stdout=out)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["sequence"] for r in rows] == [3, 5]  # DOC_A is 1, 3, 5, 7; olga not 1, 7
    assert verify_export(out.getvalue().splitlines(keepends=True), "jsonl").ok

    by_correlation = io.StringIO()
    call_command("export_audit", "--correlation-id", f"corr-{DOC_B.hex[:8]}", stdout=by_correlation)
    assert len(by_correlation.getvalue().splitlines()) == 4


@pytest.mark.django_db
def test_export_command_refuses_a_malformed_id():
    with pytest.raises(CommandError, match="--document is not a UUID"):
        call_command("export_audit", "--document", "not-a-uuid", stdout=io.StringIO())


@pytest.mark.django_db
def test_verify_audit_fails_naming_the_first_bad_sequence_of_a_tampered_export(tmp_path):
    _ledger()
    path = tmp_path / "ledger.csv"
    call_command("export_audit", "--format", "csv", "--output", str(path))
    lines = path.read_text().splitlines(keepends=True)
    lines[5] = _edit(lines[5], "csv", event_type="NOTHING_HAPPENED")  # sequence 5
    path.write_text("".join(lines))
    with pytest.raises(CommandError, match="sequence 5: row content does not match its hash"):
        call_command("verify_audit", "--export", str(path), "--format", "csv")


@pytest.mark.django_db
def test_verify_audit_partial_accepts_a_selection_but_still_checks_each_row(tmp_path, capsys):
    _ledger()
    path = tmp_path / "picked.jsonl"
    rows = _export("jsonl")
    # Sequences 2, 3 and 8 share only their actor; 5 and 6 have it too but were not picked.
    path.write_text(rows[1] + rows[2] + rows[7])
    with pytest.raises(CommandError, match="sequence 5: .* missing"):
        call_command("verify_audit", "--export", str(path))
    call_command("verify_audit", "--export", str(path), "--partial")
    assert "export OK: 3 events" in capsys.readouterr().out
    path.write_text(rows[1] + rows[2] + _edit(rows[7], "jsonl", extra={"n": 99}))
    with pytest.raises(CommandError, match="sequence 8: row content"):
        call_command("verify_audit", "--export", str(path), "--partial")


@pytest.mark.django_db
def test_verify_audit_refuses_a_missing_export_file(tmp_path):
    with pytest.raises(CommandError, match="no such export file"):
        call_command("verify_audit", "--export", str(tmp_path / "absent.jsonl"))


@pytest.fixture
def admin_client_officer(client):
    from review.roles import COMPLIANCE_OFFICER
    from testkit.builders import user_create

    officer = user_create("olga", role=COMPLIANCE_OFFICER)
    officer.is_staff = True
    officer.save()
    client.force_login(officer)
    return client


ADMIN = "/admin/audit/auditevent/"


@pytest.mark.django_db
def test_admin_exports_the_filtered_list_whole_and_in_sequence_order(admin_client_officer):
    _ledger()
    page = admin_client_officer.get(ADMIN, {"document_id": str(DOC_B), "o": "-1"})
    assert page.status_code == 200
    assert "Export this list as JSON Lines" in page.content.decode()
    response = admin_client_officer.get(
        f"{ADMIN}export.jsonl", {"document_id": str(DOC_B), "o": "-1"}
    )
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="audit-events.jsonl"'
    lines = b"".join(response.streaming_content).decode().splitlines(keepends=True)
    assert [json.loads(line)["sequence"] for line in lines] == [2, 4, 6, 8]
    assert verify_export(lines, "jsonl").ok


@pytest.mark.django_db
def test_admin_search_and_actor_kind_filter_apply_to_the_csv_export(admin_client_officer):
    _ledger()
    response = admin_client_officer.get(
        f"{ADMIN}export.csv", {"q": str(DOC_A), "actor_kind": "system"}
    )
    lines = b"".join(response.streaming_content).decode().splitlines(keepends=True)
    assert [row["sequence"] for row in csv.DictReader(lines)] == ["1", "7"]
    assert verify_export(lines, "csv").ok


@pytest.mark.django_db
def test_admin_action_exports_the_selected_rows(admin_client_officer):
    _ledger()
    chosen = AuditEvent.objects.filter(sequence__in=[2, 3, 7]).values_list("pk", flat=True)
    response = admin_client_officer.post(
        ADMIN, {"action": "export_selected_csv", "_selected_action": [str(pk) for pk in chosen]}
    )
    assert response.status_code == 200
    lines = b"".join(response.streaming_content).decode().splitlines(keepends=True)
    assert [row["sequence"] for row in csv.DictReader(lines)] == ["2", "3", "7"]
    # A hand-picked selection: every row is genuine, but it is no complete trace of anything.
    assert verify_export(lines, "csv", partial=True).ok
    report = verify_export(lines, "csv")
    assert (report.ok, report.first_bad_sequence) == (False, 4)


@pytest.mark.django_db
def test_admin_stays_read_only_and_refuses_unknown_filters(admin_client_officer):
    _ledger()
    event = AuditEvent.objects.get(sequence=1)
    assert admin_client_officer.get(f"{ADMIN}add/").status_code == 403
    assert admin_client_officer.post(f"{ADMIN}{event.pk}/delete/").status_code == 403
    detail = admin_client_officer.get(f"{ADMIN}{event.pk}/change/")
    assert detail.status_code == 200
    assert 'name="_save"' not in detail.content.decode()
    refused = admin_client_officer.get(f"{ADMIN}export.jsonl", {"no_such_field": "1"})
    assert refused.status_code == 302
    assert admin_client_officer.get(f"{ADMIN}export.xml").status_code == 302


@pytest.mark.django_db
def test_admin_export_needs_the_view_permission(client):
    from testkit.builders import user_create

    staff = user_create("sam")
    staff.is_staff = True
    staff.save()
    client.force_login(staff)
    assert client.get(f"{ADMIN}export.jsonl").status_code == 403
