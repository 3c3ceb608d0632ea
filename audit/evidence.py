"""One document's verifiable history: its chain, and the signed checkpoint over its head.

The bundle is plain JSON. `tools/verify_evidence.py` checks it offline with nothing of
this project installed: each event's hash recomputes from its fields, the events form
one unbroken chain from the genesis hash, the last one is the head the checkpoint
records, the head's Merkle path leads to the checkpoint's root, and the checkpoint's
hash is signed by its certificate's key.
"""

from __future__ import annotations

import uuid
from typing import Any

from audit import merkle
from audit.checkpoints import checkpoint_create, leaves_of
from audit.exports import event_record
from audit.models import AuditEvent, Checkpoint

FORMAT = "rrq-evidence/1"


def document_chain(document_id: uuid.UUID | str) -> str:
    return f"document:{document_id}"


def evidence_bundle(document_id: uuid.UUID | str) -> dict[str, Any]:
    """The document's events and the checkpoint covering its head; a checkpoint is made
    on the spot when the head moved since the last one."""
    chain = document_chain(document_id)
    events = list(AuditEvent.objects.filter(chain=chain).order_by("position"))
    if not events:
        raise LookupError(f"no audit events for document {document_id}")
    head = events[-1]
    checkpoint = _covering(chain, head)
    if checkpoint is None:
        checkpoint_create(actor="system:evidence")
        checkpoint = _covering(chain, head)
    if checkpoint is None:
        raise LookupError(f"no checkpoint covers document {document_id}")
    chains, leaves = leaves_of(checkpoint.heads)
    index = chains.index(chain)
    return {
        "format": FORMAT,
        "document_id": str(document_id),
        "chain": chain,
        "events": [event_record(event) for event in events],
        "checkpoint": {
            "number": checkpoint.number,
            "created_at": checkpoint.created_at.isoformat(timespec="microseconds"),
            "merkle_root": checkpoint.merkle_root,
            "prev_hash": checkpoint.prev_hash,
            "checkpoint_hash": checkpoint.checkpoint_hash,
            "signature": checkpoint.signature,
            "certificate": checkpoint.certificate,
            "head": [head.position, head.row_hash],
            "leaf_index": index,
            "leaf_count": len(leaves),
            "path": merkle.path(leaves, index),
        },
    }


def _covering(chain: str, head: AuditEvent) -> Checkpoint | None:
    """The first checkpoint that recorded exactly this head."""
    for checkpoint in Checkpoint.objects.filter(heads__has_key=chain).order_by("number"):
        if checkpoint.heads[chain][0] == head.position:
            return checkpoint
    return None
