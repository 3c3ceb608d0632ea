"""The append-only, hash-chained audit ledger.

Rows are only ever appended through `audit.services.emit`. The model, its queryset and
the admin refuse changes; on PostgreSQL, triggers reject UPDATE, DELETE and TRUNCATE too.
Each row stores the previous row's hash, so an edited, deleted or reordered row breaks the
chain at a sequence number that `verify_audit` names.
"""

from __future__ import annotations

import hashlib
import json
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
    event_type = models.CharField(max_length=64, db_index=True)
    actor = models.CharField(max_length=150, db_index=True)
    submission_id = models.UUIDField(null=True, blank=True, db_index=True)
    document_id = models.UUIDField(null=True, blank=True, db_index=True)
    item_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    correlation_id = models.CharField(max_length=64, blank=True, db_index=True)
    attempt = models.PositiveIntegerField(null=True, blank=True)
    input_hash = models.CharField(max_length=64, blank=True)
    policy_version = models.PositiveIntegerField(null=True, blank=True)
    output_hash = models.CharField(max_length=64, blank=True)
    extra = models.JSONField(default=dict, blank=True)
    prev_hash = models.CharField(max_length=64)
    row_hash = models.CharField(max_length=64, unique=True)

    objects = AuditEventQuerySet.as_manager()

    class Meta:
        ordering = ["sequence"]

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

        def text(value: object) -> str | None:
            return None if value is None else str(value)

        fields = {
            "sequence": self.sequence,
            "occurred_at": self.occurred_at.isoformat(timespec="microseconds"),
            "event_type": self.event_type,
            "actor": self.actor,
            "submission_id": text(self.submission_id),
            "document_id": text(self.document_id),
            "item_id": self.item_id,
            "correlation_id": self.correlation_id,
            "attempt": self.attempt,
            "input_hash": self.input_hash,
            "policy_version": self.policy_version,
            "output_hash": self.output_hash,
            "extra": self.extra,
            "prev_hash": self.prev_hash,
        }
        return json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()

    def compute_hash(self) -> str:
        return hashlib.sha256(self.canonical()).hexdigest()
