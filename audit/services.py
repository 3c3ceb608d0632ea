"""Appending to the ledger, and checking it."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, transaction

from audit.clock import db_now
from audit.models import GENESIS_HASH, AuditEvent

# Any stable 64-bit number: the transaction-level advisory lock that serializes appends.
CHAIN_LOCK_KEY = 0x5252_5141_5544_4954

# Events carry ids, states, counts, hashes and reasons (DESIGN rule 6); a large extra is
# a sign that content is leaking into the ledger.
MAX_EXTRA_BYTES = 4096

Actor = AbstractBaseUser | AnonymousUser | str


def actor_label(actor: Actor) -> str:
    """`user:<name>` for people, the given `service:...` / `system:...` name otherwise."""
    if isinstance(actor, str):
        if not actor:
            raise ValueError("an actor is required")
        return actor
    if not actor.is_authenticated:
        raise ValueError("an anonymous user cannot act")
    return f"user:{actor.get_username()}"


@dataclass(frozen=True)
class Event:
    """One event to append; see `emit` for the meaning of each field."""

    event_type: str
    actor: Actor
    submission_id: uuid.UUID | str | None = None
    document_id: uuid.UUID | str | None = None
    item_id: int | None = None
    correlation_id: str = ""
    attempt: int | None = None
    input_hash: str = ""
    policy_version: int | None = None
    output_hash: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def _lock_chain_head() -> tuple[int, str, dt.datetime]:
    """Serialize appenders, then read the head and the database time.

    Caller must be inside a transaction; the lock is held until it commits, so callers
    append as their last step. On PostgreSQL: the transaction-level advisory lock, then
    head and time in one statement; on SQLite every write transaction holds the
    database write lock from BEGIN (transaction_mode IMMEDIATE), so appenders are
    already serialized.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CHAIN_LOCK_KEY - (1 << 63)])
            # A new statement, so its snapshot sees every append committed before the lock.
            cursor.execute(
                "SELECT head.sequence, head.row_hash, statement_timestamp() FROM (SELECT 1) AS one "
                "LEFT JOIN (SELECT sequence, row_hash FROM audit_auditevent "
                "ORDER BY sequence DESC LIMIT 1) AS head ON true"
            )
            sequence, row_hash, now = cursor.fetchone()
        return (sequence or 0), (row_hash or GENESIS_HASH), now.astimezone(dt.UTC)
    head = AuditEvent.objects.order_by("-sequence").values_list("sequence", "row_hash").first()
    sequence, row_hash = head if head else (0, GENESIS_HASH)
    return sequence, row_hash, db_now()


def emit_many(events: Iterable[Event]) -> list[AuditEvent]:
    """Append events in order, as one link of the chain each; returns the rows."""
    events = list(events)
    if not events:
        return []
    # No savepoint of its own: the caller's transaction is the unit (and a savepoint
    # would add two round trips while the chain lock is held).
    with transaction.atomic(savepoint=False):
        sequence, prev_hash, occurred_at = _lock_chain_head()
        rows = []
        for event in events:
            extra = event.extra or {}
            if len(json.dumps(extra)) > MAX_EXTRA_BYTES:
                raise ValueError(f"audit extra for {event.event_type} is too large")
            sequence += 1
            row = AuditEvent(
                sequence=sequence,
                occurred_at=occurred_at,
                event_type=event.event_type,
                actor=actor_label(event.actor),
                submission_id=event.submission_id,
                document_id=event.document_id,
                item_id=event.item_id,
                correlation_id=event.correlation_id,
                attempt=event.attempt,
                input_hash=event.input_hash,
                policy_version=event.policy_version,
                output_hash=event.output_hash,
                extra=extra,
                prev_hash=prev_hash,
            )
            # Normalize what the database will hand back, so the hash recomputes.
            row.submission_id = _as_uuid(row.submission_id)
            row.document_id = _as_uuid(row.document_id)
            row.row_hash = row.compute_hash()
            prev_hash = row.row_hash
            rows.append(row)
        return AuditEvent.objects.bulk_create(rows)


def emit(event_type: str, *, actor: Actor, **fields: Any) -> AuditEvent:
    """Append one event. Call it inside the transaction that makes the change it records."""
    return emit_many([Event(event_type=event_type, actor=actor, **fields)])[0]


def _as_uuid(value: uuid.UUID | str | None) -> uuid.UUID | None:
    if value is None or isinstance(value, uuid.UUID):
        return value
    return uuid.UUID(str(value))


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    count: int
    first_bad_sequence: int | None = None
    reason: str = ""


def _rows() -> Iterator[AuditEvent]:
    return AuditEvent.objects.order_by("sequence").iterator(chunk_size=2000)


def verify_chain(rows: Iterable[AuditEvent] | None = None) -> ChainReport:
    """Recompute the chain from the genesis hash; name the first sequence that breaks it."""
    expected_sequence, prev_hash, count = 1, GENESIS_HASH, 0
    for row in _rows() if rows is None else rows:
        if row.sequence != expected_sequence:
            return ChainReport(False, count, expected_sequence, "sequence missing or out of order")
        if row.prev_hash != prev_hash:
            return ChainReport(False, count, row.sequence, "previous hash does not match")
        if row.compute_hash() != row.row_hash:
            return ChainReport(False, count, row.sequence, "row content does not match its hash")
        prev_hash, expected_sequence, count = row.row_hash, expected_sequence + 1, count + 1
    return ChainReport(True, count)
