"""Exporting the ledger (JSON Lines or CSV) and checking an export against the database.

An export row carries every hashed field of an event plus its `row_hash`, so anyone can
recompute each row's hash from the file alone. `verify_export` checks a file in three ways
and names the first sequence that fails, with a reason (never the row's content):

1. Within the file: each row recomputes to its `row_hash`; sequences strictly increase;
   where two rows are consecutive in the ledger (sequence n, n+1) the second names the
   first as its previous hash (and sequence 1 names the genesis hash). An export filtered
   by correlation id, document, ... is not a contiguous chain: across a gap there is no
   link to check inside the file, so the database check below carries the weight.
2. Against the database: the row with the same sequence exists, recomputes to its own
   stored hash, and has exactly the exported content and hash.
3. Completeness between the file's first and last sequence: every database row in that
   range that agrees with the file on each filter field the file is unanimous about
   (event type, actor, submission, document, item, correlation id) must be in the file.
   For an equality filter (what the API, `export_audit` and the admin filters produce)
   that never flags a row the filter excluded, and it catches a line dropped from the
   middle of a full or a filtered export. A file cut at either end looks like a narrower
   export (a sequence or date range) and cannot be told apart from one. An export of
   hand-picked rows (the admin action) or of a substring or prefix filter (the admin's
   actor search, the actor-kind filter) is not complete in this sense: verify it with
   `partial=True` (`verify_audit --partial`), which runs checks 1 and 2 only.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import uuid
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from django.db.models import QuerySet

from audit.models import GENESIS_HASH, AuditEvent

Format = Literal["jsonl", "csv"]
FORMATS: tuple[Format, ...] = ("jsonl", "csv")
CONTENT_TYPES: dict[str, str] = {"jsonl": "application/jsonl", "csv": "text/csv"}

# The export columns, in order: the hashed fields (see AuditEvent.canonical) and the hash.
COLUMNS = [
    "sequence",
    "occurred_at",
    "event_type",
    "actor",
    "submission_id",
    "document_id",
    "item_id",
    "correlation_id",
    "attempt",
    "input_hash",
    "policy_version",
    "output_hash",
    "extra",
    "chain",
    "position",
    "prev_hash",
    "row_hash",
]
_INT_FIELDS = {"sequence", "item_id", "attempt", "policy_version", "position"}
_NULLABLE = {"submission_id", "document_id", "item_id", "attempt", "policy_version", "position"}
_UUID_FIELDS = {"submission_id", "document_id"}
# The fields an export can be filtered on by equality (see module docstring, check 3).
FILTER_FIELDS = [
    "event_type",
    "actor",
    "submission_id",
    "document_id",
    "item_id",
    "correlation_id",
]

# Rows read per database round trip when streaming or checking an export: large enough to
# keep round trips few, small enough to keep a chunk of rows (~1 MB) in memory.
CHUNK_SIZE = 2000


def events_filter(
    *,
    correlation_id: str | None = None,
    submission_id: uuid.UUID | str | None = None,
    document_id: uuid.UUID | str | None = None,
    actor: str | None = None,
    queryset: QuerySet[AuditEvent] | None = None,
) -> QuerySet[AuditEvent]:
    """Events matching every given filter (exact match each), in sequence order."""
    events = AuditEvent.objects.all() if queryset is None else queryset
    if correlation_id:
        events = events.filter(correlation_id=correlation_id)
    if submission_id:
        events = events.filter(submission_id=submission_id)
    if document_id:
        events = events.filter(document_id=document_id)
    if actor:
        events = events.filter(actor=actor)
    return events.order_by("sequence")


def event_record(event: AuditEvent) -> dict[str, Any]:
    """One event as plain JSON values: UUIDs as strings, time in ISO-8601 with microseconds."""
    return {
        "sequence": event.sequence,
        "occurred_at": event.occurred_at.isoformat(timespec="microseconds"),
        "event_type": event.event_type,
        "actor": event.actor,
        "submission_id": None if event.submission_id is None else str(event.submission_id),
        "document_id": None if event.document_id is None else str(event.document_id),
        "item_id": event.item_id,
        "correlation_id": event.correlation_id,
        "attempt": event.attempt,
        "input_hash": event.input_hash,
        "policy_version": event.policy_version,
        "output_hash": event.output_hash,
        "extra": event.extra,
        "chain": event.chain,
        "position": event.position,
        "prev_hash": event.prev_hash,
        "row_hash": event.row_hash,
    }


def _compact(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def export_rows(queryset: QuerySet[AuditEvent], fmt: str) -> Iterator[str]:
    """Stream the events of `queryset` in sequence order, one line per event.

    JSON Lines: one object per line. CSV: a header line, then one row per event; a null
    is an empty cell (only id and number columns can be null) and `extra` is compact JSON.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}")
    events = queryset.order_by("sequence").iterator(chunk_size=CHUNK_SIZE)
    if fmt == "jsonl":
        for event in events:
            # Columns in export order; the hash covers the parsed values, not this text.
            yield json.dumps(event_record(event), separators=(",", ":")) + "\n"
        return
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")

    def line(values: list[object]) -> str:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow(values)
        return buffer.getvalue()

    yield line(list(COLUMNS))
    for event in events:
        record = event_record(event)
        record["extra"] = _compact(record["extra"])
        yield line(["" if record[c] is None else record[c] for c in COLUMNS])


@dataclass(frozen=True)
class ExportReport:
    ok: bool
    count: int
    first_bad_sequence: int | None = None
    reason: str = ""
    line: int | None = None

    def describe(self) -> str:
        if self.ok:
            return f"export OK: {self.count} events match the database"
        where = (
            f"sequence {self.first_bad_sequence}"
            if self.first_bad_sequence is not None
            else f"line {self.line}"
        )
        return f"export does not verify at {where}: {self.reason} ({self.count} events verified before it)"


class _BadRow(Exception):
    def __init__(self, reason: str, sequence: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.sequence = sequence


def _records(source: Iterable[str], fmt: str) -> Iterator[tuple[int, dict[str, Any] | None]]:
    """(line number, raw record) per data line; a record of None means it did not parse."""
    if fmt == "jsonl":
        for number, text in enumerate(source, start=1):
            if not text.strip():
                continue
            try:
                value = json.loads(text)
            except ValueError:
                value = None
            yield number, value if isinstance(value, dict) else None
        return
    reader = csv.reader(source)
    header = next(reader, None)
    if header != COLUMNS:
        yield 1, None
        return
    for values in reader:
        if len(values) != len(COLUMNS):
            yield reader.line_num, None
            continue
        record: dict[str, Any] = {
            column: (None if value == "" and column in _NULLABLE else value)
            for column, value in zip(COLUMNS, values, strict=True)
        }
        try:
            record["extra"] = json.loads(record["extra"])
            for column in _INT_FIELDS:
                if record[column] is not None:
                    record[column] = int(record[column])
        except ValueError:
            yield reader.line_num, None
            continue
        yield reader.line_num, record


def _event(record: dict[str, Any]) -> AuditEvent:
    """An unsaved AuditEvent from a parsed record; raises _BadRow naming what is wrong."""
    sequence = record.get("sequence")
    sequence = sequence if isinstance(sequence, int) and not isinstance(sequence, bool) else None
    if set(record) != set(COLUMNS):
        raise _BadRow("the row does not have exactly the export columns", sequence)
    if sequence is None or sequence < 1:
        raise _BadRow("the sequence is not a positive integer")
    for column in ("event_type", "actor", "correlation_id", "input_hash", "output_hash", "chain"):
        if not isinstance(record[column], str):
            raise _BadRow(f"{column} is not text", sequence)
    for column in ("prev_hash", "row_hash"):
        if not isinstance(record[column], str) or len(record[column]) != 64:
            raise _BadRow(f"{column} is not a SHA-256 hex digest", sequence)
    for column in _INT_FIELDS - {"sequence"}:
        value = record[column]
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise _BadRow(f"{column} is not an integer", sequence)
    if not isinstance(record["extra"], dict):
        raise _BadRow("extra is not an object", sequence)
    try:
        occurred_at = dt.datetime.fromisoformat(record["occurred_at"])
        ids = {
            column: None if record[column] is None else uuid.UUID(record[column])
            for column in _UUID_FIELDS
        }
    except (TypeError, ValueError, AttributeError) as exc:
        raise _BadRow("a time or id does not parse", sequence) from exc
    if occurred_at.tzinfo is None:
        raise _BadRow("occurred_at has no time zone", sequence)
    fields = {column: record[column] for column in COLUMNS} | ids
    fields["occurred_at"] = occurred_at
    return AuditEvent(**fields)


def _open_lines(path_or_lines: str | Path | Iterable[str]) -> tuple[Iterable[str], Any]:
    if isinstance(path_or_lines, str | Path):
        handle = open(path_or_lines, encoding="utf-8", newline="")  # noqa: SIM115 - closed by caller
        return handle, handle
    return path_or_lines, None


def _database_rows(sequences: list[int]) -> dict[int, AuditEvent]:
    return {row.sequence: row for row in AuditEvent.objects.filter(sequence__in=sequences)}


def verify_export(
    path_or_lines: str | Path | Iterable[str], fmt: str, *, partial: bool = False
) -> ExportReport:
    """Check an export file (a path, or its lines) within itself and against the database.

    See the module docstring for what is checked; `partial` skips the completeness check. Reads the file once, in chunks, and the
    database one chunk of sequences at a time.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}")
    lines, handle = _open_lines(path_or_lines)
    try:
        return _verify(_records(lines, fmt), partial=partial)
    except UnicodeDecodeError:
        return ExportReport(False, 0, None, "the file is not UTF-8 text", 1)
    finally:
        if handle is not None:
            handle.close()


def _verify(records: Iterator[tuple[int, dict[str, Any] | None]], *, partial: bool) -> ExportReport:
    count = 0
    previous: AuditEvent | None = None
    # The last exported row of each chain, for the link check.
    chain_last: dict[str, AuditEvent] = {}
    first: int | None = None
    # For check 3: the value each filter field has in every row so far (None once mixed;
    # a field present with value None means "always null").
    unanimous: dict[str, Any] | None = None
    chunk: list[tuple[int, AuditEvent]] = []
    # The verified sequences, 8 bytes each, for naming a dropped row in check 3.
    seen: array[int] = array("q")

    def check_chunk() -> ExportReport | None:
        nonlocal count, previous
        stored = _database_rows([event.sequence for _, event in chunk])
        for number, event in chunk:
            problem = _check_row(
                event, previous, chain_last.get(event.chain), stored.get(event.sequence)
            )
            if problem:
                return ExportReport(False, count, event.sequence, problem, number)
            previous, count = event, count + 1
            chain_last[event.chain] = event
            seen.append(event.sequence)
        chunk.clear()
        return None

    for number, record in records:
        if record is None:
            return ExportReport(False, count, None, "the line does not parse", number)
        try:
            event = _event(record)
        except _BadRow as bad:
            return ExportReport(False, count, bad.sequence, bad.reason, number)
        first = event.sequence if first is None else first
        if unanimous is None:
            unanimous = {name: getattr(event, name) for name in FILTER_FIELDS}
        else:
            for name in [n for n, v in unanimous.items() if v != getattr(event, n)]:
                del unanimous[name]
        chunk.append((number, event))
        if len(chunk) >= CHUNK_SIZE and (report := check_chunk()):
            return report
    if chunk and (report := check_chunk()):
        return report
    if previous is None or first is None or unanimous is None or partial:
        return ExportReport(True, count)
    missing = _first_missing(first, previous.sequence, seen, unanimous)
    if missing is not None:
        return ExportReport(
            False,
            count,
            missing,
            "a database row in the exported range that matches the export's common fields "
            "is missing from it",
        )
    return ExportReport(True, count)


def _check_row(
    event: AuditEvent,
    previous: AuditEvent | None,
    chain_previous: AuditEvent | None,
    stored: AuditEvent | None,
) -> str:
    """Why this exported row fails (empty when it passes checks 1 and 2). Links are
    checked where the file holds two neighbours of one chain: positions p and p + 1 of a
    chain, or sequences n and n + 1 of the legacy chain (rows without a chain)."""
    if event.compute_hash() != event.row_hash:
        return "row content does not match its hash"
    if previous is not None and event.sequence <= previous.sequence:
        return "sequence out of order or repeated"
    first_link = event.position == 1 if event.chain else event.sequence == 1
    if first_link and event.prev_hash != GENESIS_HASH:
        return "previous hash does not match"
    neighbour = chain_previous is not None and (
        chain_previous.position == (event.position or 0) - 1
        if event.chain
        else chain_previous.sequence == event.sequence - 1
    )
    if neighbour and chain_previous is not None and event.prev_hash != chain_previous.row_hash:
        return "previous hash does not match"
    if stored is None:
        return "no database row has this sequence"
    if stored.compute_hash() != stored.row_hash:
        return "the database row does not match its own hash"
    if stored.row_hash != event.row_hash or stored.canonical() != event.canonical():
        return "the database row differs from the exported row"
    return ""


def _first_missing(
    first: int, last: int, seen: array[int], unanimous: dict[str, Any]
) -> int | None:
    """Check 3: the first database row in [first, last] the file should hold but does not.

    Precondition: every exported row exists in the database (check 2 passed) and `seen`
    holds their sequences in increasing order, so the file is complete exactly when the
    database holds `len(seen)` such rows.
    """
    expected = AuditEvent.objects.filter(sequence__gte=first, sequence__lte=last, **unanimous)
    if expected.count() == len(seen):
        return None
    # Rare (the check failed): walk both increasing sequences to name the first absent one.
    exported = iter(seen)
    current = next(exported, None)
    for sequence in (
        expected.order_by("sequence")
        .values_list("sequence", flat=True)
        .iterator(chunk_size=CHUNK_SIZE)
    ):
        while current is not None and current < sequence:
            current = next(exported, None)
        if current != sequence:
            return sequence
    return None
