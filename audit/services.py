"""Appending to the ledger, and checking it."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection, transaction
from django.db.models import OuterRef, Subquery

from audit.clock import db_now
from audit.models import GENESIS_HASH, AuditEvent, row_hash_of
from common.batch import WriteBatch

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
    chain: str = ""  # set only for a chain of its own (checkpoints); else from the ids


SYSTEM_CHAIN = "system"


def chain_of(event: Event) -> str:
    """The chain an event extends: its document's, else its submission's, else the
    system chain."""
    if event.chain:
        return event.chain
    if event.document_id:
        return f"document:{event.document_id}"
    if event.submission_id:
        return f"submission:{event.submission_id}"
    return SYSTEM_CHAIN


def _lock_chain_heads(
    chains: list[str], events: int
) -> tuple[dict[str, tuple[int, str]], list[int], dt.datetime]:
    """Serialize the appenders of these chains; read their heads, `events` ledger-wide
    order numbers and the time.

    Caller must be inside a transaction; the locks are held until it commits. On
    PostgreSQL one call of `audit_lock_chain_heads` (migrations 0004, 0006) takes one
    transaction-level advisory lock per chain in the order given (sorted, so two writers
    never wait on each other in a ring), then reads every head after the locks, and the
    order numbers from a sequence (no lock, may leave gaps): one round trip however many
    chains. On SQLite every write transaction holds the database write lock from BEGIN
    (transaction_mode IMMEDIATE), so appenders are already serialized and the order
    numbers are simply the next ones.
    """
    heads: dict[str, tuple[int, str]] = {chain: (0, GENESIS_HASH) for chain in chains}
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM audit_lock_chain_heads(%s::text[], %s)", [chains, events])
            positions, hashes, sequences, locked_at = cursor.fetchone()
        for chain, position, row_hash in zip(chains, positions, hashes, strict=True):
            if position is not None:
                heads[chain] = (position, row_hash)
        return heads, sequences, locked_at.astimezone(dt.UTC)
    newest = AuditEvent.objects.filter(chain=OuterRef("chain"), position__isnull=False)
    for chain, position, row_hash in AuditEvent.objects.filter(
        chain__in=chains,
        position=Subquery(newest.order_by("-position").values("position")[:1]),
    ).values_list("chain", "position", "row_hash"):
        heads[chain] = (position or 0, row_hash)
    last = AuditEvent.objects.order_by("-sequence").values_list("sequence", flat=True).first()
    sequences = list(range((last or 0) + 1, (last or 0) + 1 + events))
    return heads, sequences, db_now()


def emit_many(events: Iterable[Event]) -> None:
    """Append events in order, each as the next link of its chain."""
    events = list(events)
    if not events:
        return
    chains = [chain_of(event) for event in events]
    # No savepoint of its own: the caller's transaction is the unit.
    with transaction.atomic(savepoint=False):
        heads, sequences, occurred_at = _lock_chain_heads(sorted(set(chains)), len(events))
        rows = []
        for event, chain, sequence in zip(events, chains, sequences, strict=True):
            extra = event.extra or {}
            position, prev_hash = heads[chain]
            row = {
                "sequence": sequence,
                "occurred_at": occurred_at,
                "event_type": event.event_type,
                "actor": actor_label(event.actor),
                # As the database hands them back, so the hash recomputes.
                "submission_id": _as_uuid(event.submission_id),
                "document_id": _as_uuid(event.document_id),
                "item_id": event.item_id,
                "correlation_id": event.correlation_id,
                "attempt": event.attempt,
                "input_hash": event.input_hash,
                "policy_version": event.policy_version,
                "output_hash": event.output_hash,
                "extra": extra,
                "chain": chain,
                "position": position + 1,
                "prev_hash": prev_hash,
            }
            row["row_hash"] = row_hash = row_hash_of(row)
            heads[chain] = (position + 1, row_hash)
            rows.append(row)
        _insert(rows)


# Every column but the id, in the order COPY writes them.
_COPY_FIELDS = [f for f in AuditEvent._meta.concrete_fields if not f.primary_key]


def _insert(rows: list[dict[str, Any]]) -> None:
    """Write the rows, refusing an oversized extra. On PostgreSQL with COPY: a sweep batch
    appends hundreds of events, and compiling one INSERT of them costs more than the
    database spends storing them. Every value is a str, int, UUID, datetime or None,
    which COPY writes as is; the extra goes as its JSON text."""
    extras = [_extra_json(row["event_type"], row["extra"]) for row in rows]
    if connection.vendor != "postgresql":
        AuditEvent.objects.bulk_create(AuditEvent(**row) for row in rows)
        return
    table = connection.ops.quote_name(AuditEvent._meta.db_table)
    columns = ", ".join(str(f.column) for f in _COPY_FIELDS)
    with (
        connection.cursor() as cursor,
        cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy,
    ):
        for row, extra in zip(rows, extras, strict=True):
            copy.write_row([extra if f.name == "extra" else row[f.attname] for f in _COPY_FIELDS])


def _extra_json(event_type: str, extra: dict[str, Any]) -> str:
    text = json.dumps(extra)
    if len(text) > MAX_EXTRA_BYTES:
        raise ValueError(f"audit extra for {event_type} is too large")
    return text


def emit_many_in(batch: WriteBatch, events: Iterable[Event]) -> None:
    """`emit_many` as part of a write batch (`common.batch`). On PostgreSQL each event is
    appended inside the database by `audit_append` (migration 0005), in the batch's one
    round trip, under the same chain lock and hashed the same way; elsewhere the events
    are appended now, in the transaction the batch will write in."""
    events = list(events)
    if connection.vendor != "postgresql":
        emit_many(events)
        return
    for event in events:
        if event.chain:
            raise ValueError("audit_append derives the chain from the ids: no chain of its own")
        extra = _extra_json(event.event_type, event.extra or {})
        batch.execute(
            "SELECT audit_append(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb)",
            [
                event.event_type,
                actor_label(event.actor),
                _as_uuid(event.submission_id),
                _as_uuid(event.document_id),
                event.item_id,
                event.correlation_id,
                event.attempt,
                event.input_hash,
                event.policy_version,
                event.output_hash,
                extra,
            ],
        )


def emit(event_type: str, *, actor: Actor, **fields: Any) -> None:
    """Append one event. Call it inside the transaction that makes the change it records."""
    emit_many([Event(event_type=event_type, actor=actor, **fields)])


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
    chain: str = ""
    position: int | None = None

    def describe(self) -> str:
        if self.ok:
            return f"audit chain OK: {self.count} events"
        where = f"sequence {self.first_bad_sequence}"
        if self.chain:
            where += f" (chain {self.chain}, position {self.position})"
        return (
            f"audit chain broken at {where}: {self.reason} ({self.count} events verified before it)"
        )


def verify_chain(rows: Iterable[AuditEvent] | None = None) -> ChainReport:
    """Recompute every chain from its genesis hash; name the first row that breaks one.

    Rows come chain by chain, each in position order (the whole ledger when `rows` is
    None). The legacy chain (rows without a chain) must run 1, 2, 3... in sequence; every
    other chain must run 1, 2, 3... in position, each row naming its predecessor's hash.
    """
    legacy_sequence, legacy_prev, count = 1, GENESIS_HASH, 0
    heads: dict[str, tuple[int, str]] = {}
    source = AuditEvent.objects.order_by("chain", "position", "sequence").iterator(chunk_size=2000)
    for row in source if rows is None else rows:
        if not row.chain:
            if row.sequence != legacy_sequence:
                return ChainReport(
                    False, count, legacy_sequence, "sequence missing or out of order"
                )
            expected_prev = legacy_prev
            legacy_sequence += 1
        else:
            position, expected_prev = heads.get(row.chain, (0, GENESIS_HASH))
            if row.position != position + 1:
                return ChainReport(
                    False,
                    count,
                    row.sequence,
                    "position missing or out of order",
                    row.chain,
                    position + 1,
                )
        if row.prev_hash != expected_prev:
            return ChainReport(
                False, count, row.sequence, "previous hash does not match", row.chain, row.position
            )
        if row.compute_hash() != row.row_hash:
            return ChainReport(
                False,
                count,
                row.sequence,
                "row content does not match its hash",
                row.chain,
                row.position,
            )
        if row.chain:
            heads[row.chain] = (row.position or 0, row.row_hash)
        else:
            legacy_prev = row.row_hash
        count += 1
    return ChainReport(True, count)
