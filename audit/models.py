"""The append-only, hash-chained audit ledger.

Rows are only ever appended through `audit.services.emit`. The model, its queryset and
the admin refuse changes; on PostgreSQL, triggers reject UPDATE, DELETE and TRUNCATE too.

The ledger is many chains: each document's events form one (`document:<id>`), a
submission's events without a document another (`submission:<id>`), and everything
else the `system` chain. A row stores its chain, its position in it and the previous
row's hash in that chain, so an edited, deleted, reordered or inserted row breaks its
chain at a position that `verify_audit` names; writes to different chains never wait for
each other. `sequence` orders the whole ledger (a database sequence, so it may have gaps
and need not follow commit order). Signed checkpoints (`Checkpoint`) record the chains'
heads, so a cut tail or a removed chain is found too. Rows written before chains
existed keep `chain` empty: one legacy chain in sequence order, sealed by the first
checkpoint.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from django.db import models

GENESIS_HASH = "0" * 64


class AppendOnlyError(Exception):
    """Raised on any attempt to change or remove a ledger row."""


class AuditEventQuerySet(models.QuerySet):
    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError("audit events cannot be updated")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("audit events cannot be deleted")


class AuditEvent(models.Model):
    sequence = models.PositiveBigIntegerField(unique=True)
    occurred_at = models.DateTimeField(help_text="Database clock at append time (UTC).")
    event_type = models.CharField(max_length=64)
    actor = models.CharField(max_length=150, db_index=True)
    submission_id = models.UUIDField(null=True, blank=True, db_index=True)
    document_id = models.UUIDField(null=True, blank=True, db_index=True)
    item_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    correlation_id = models.CharField(max_length=64, blank=True)
    attempt = models.PositiveIntegerField(null=True, blank=True)
    input_hash = models.CharField(max_length=64, blank=True)
    policy_version = models.PositiveIntegerField(null=True, blank=True)
    output_hash = models.CharField(max_length=64, blank=True)
    extra = models.JSONField(default=dict, blank=True)
    chain = models.CharField(max_length=80, blank=True, default="")
    position = models.PositiveBigIntegerField(null=True, blank=True)
    prev_hash = models.CharField(max_length=64)
    row_hash = models.CharField(max_length=64)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["sequence"]
        # Declared here rather than with db_index/unique on the fields: on PostgreSQL
        # those add a second, pattern-matching index per text column, which nothing
        # searches by prefix and every append would pay for. (`actor` keeps its pair:
        # the admin filters actors by kind, a prefix.)
        indexes = [
            models.Index(fields=["event_type"], name="audit_event_type_idx"),
            models.Index(fields=["correlation_id"], name="audit_correlation_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["chain", "position"],
                condition=models.Q(position__isnull=False),
                name="audit_chain_position_unique",
            ),
            models.UniqueConstraint(fields=["row_hash"], name="audit_row_hash_unique"),
        ]

    def __str__(self) -> str:
        return f"#{self.sequence} {self.event_type} by {self.actor}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("audit events cannot be updated")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("audit events cannot be deleted")

    def canonical(self) -> bytes:
        """The hashed content: every field but the row's own hash, in a fixed form."""
        return canonical_content(vars(self))

    def compute_hash(self) -> str:
        return row_hash_of(vars(self))


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def canonical_content(row: Mapping[str, Any]) -> bytes:
    """`AuditEvent.canonical()` of a row given as its field values by attribute name;
    appends hash their rows this way before any model instance exists."""
    fields = {
        "sequence": row["sequence"],
        "occurred_at": row["occurred_at"].isoformat(timespec="microseconds"),
        "event_type": row["event_type"],
        "actor": row["actor"],
        "submission_id": _text(row["submission_id"]),
        "document_id": _text(row["document_id"]),
        "item_id": row["item_id"],
        "correlation_id": row["correlation_id"],
        "attempt": row["attempt"],
        "input_hash": row["input_hash"],
        "policy_version": row["policy_version"],
        "output_hash": row["output_hash"],
        "extra": row["extra"],
        "prev_hash": row["prev_hash"],
    }
    if row["chain"]:  # rows of the legacy single chain were hashed without these
        fields["chain"] = row["chain"]
        fields["position"] = row["position"]
    return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()


def row_hash_of(row: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical_content(row)).hexdigest()


class Checkpoint(models.Model):
    """A signed statement of the ledger's chain heads at one moment (a "signed tree head").

    `heads` holds, for every chain that moved since the previous checkpoint, its last
    position and row hash; `merkle_root` is the root of those heads as leaves (sorted by
    chain). Each checkpoint names the previous one's hash and is signed with the
    service's signing key, so a chain cut back or removed after a checkpoint covered it
    is found, and one document's history can be checked offline against one checkpoint.
    """

    number = models.PositiveBigIntegerField(unique=True)
    created_at = models.DateTimeField()
    heads = models.JSONField(help_text="chain -> [position, row_hash] of the chains that moved")
    merkle_root = models.CharField(max_length=64)
    prev_hash = models.CharField(max_length=64)
    checkpoint_hash = models.CharField(max_length=64, unique=True)
    signature = models.TextField(help_text="ECDSA or RSA signature of checkpoint_hash, base64")
    certificate = models.TextField(help_text="The signer's certificate, PEM")

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"checkpoint {self.number}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError("checkpoints cannot be updated")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError("checkpoints cannot be deleted")
