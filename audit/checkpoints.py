"""Signed checkpoints of the ledger's chain heads, and checking them.

At least every minute (the sweeper) and on demand, `checkpoint_create` records the head
(position and row hash) of every chain that moved since the last checkpoint, as the
leaves of a Merkle tree (`audit.merkle`), chains the checkpoint to the previous one and
signs it with the service's signing key (the PAdES key, settings.SIGNING_KEY_FILE). The
rows written before chains existed are one legacy chain (`LEGACY`), sealed by the first
checkpoint. Checkpoints record themselves in their own chain (`CHECKPOINT_CHAIN`), which
they never cover: the checkpoint rows are chained and signed already.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Max

from audit import merkle
from audit.clock import db_now
from audit.models import GENESIS_HASH, AuditEvent, Checkpoint
from audit.services import Event, emit_many

LEGACY = "legacy"  # the heads key of the rows without a chain
CHECKPOINT_CHAIN = "checkpoints"
# Any stable 64-bit number: serializes checkpoint writers (never event writers).
CHECKPOINT_LOCK_KEY = 0x5252_5143_4B50_5431


def chain_heads() -> dict[str, tuple[int, str]]:
    """The current head of every chain: chain -> (position, row hash)."""
    heads: dict[str, tuple[int, str]] = {}
    last_positions = (
        AuditEvent.objects.filter(position__isnull=False)
        .exclude(chain=CHECKPOINT_CHAIN)
        .values("chain")
        .annotate(last=Max("position"))
    )
    wanted = {row["chain"]: row["last"] for row in last_positions}
    for chain, position, row_hash in AuditEvent.objects.filter(
        chain__in=list(wanted), position__in=set(wanted.values())
    ).values_list("chain", "position", "row_hash"):
        if position is not None and wanted[chain] == position:
            heads[chain] = (position, row_hash)
    legacy = (
        AuditEvent.objects.filter(chain="")
        .order_by("-sequence")
        .values_list("sequence", "row_hash")
        .first()
    )
    if legacy is not None:
        heads[LEGACY] = legacy
    return heads


def covered_heads() -> dict[str, int]:
    """chain -> the last position some checkpoint recorded for it."""
    covered: dict[str, int] = {}
    for heads in Checkpoint.objects.order_by("number").values_list("heads", flat=True):
        for chain, (position, _) in heads.items():
            covered[chain] = max(position, covered.get(chain, 0))
    return covered


def leaves_of(heads: Mapping[str, Sequence[object]]) -> tuple[list[str], list[bytes]]:
    chains = sorted(heads)
    return chains, [merkle.head_leaf(c, int(str(heads[c][0])), str(heads[c][1])) for c in chains]


def _signing_key() -> tuple[object, str]:
    key = serialization.load_pem_private_key(settings.SIGNING_KEY_FILE.read_bytes(), None)
    certificate = settings.SIGNING_CERT_FILE.read_text()
    return key, certificate


def _sign(key: object, message: bytes) -> bytes:
    if isinstance(key, ec.EllipticCurvePrivateKey):
        return key.sign(message, ec.ECDSA(hashes.SHA256()))
    if isinstance(key, rsa.RSAPrivateKey):
        return key.sign(message, padding.PKCS1v15(), hashes.SHA256())
    raise ValueError("the signing key is neither EC nor RSA")


def checkpoint_create(*, actor: str = "system:checkpoint") -> Checkpoint | None:
    """Record and sign the heads of the chains that moved; None when none did."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_advisory_xact_lock(%s)", [CHECKPOINT_LOCK_KEY - (1 << 63)]
                )
        covered = covered_heads()
        moved = {
            chain: [position, row_hash]
            for chain, (position, row_hash) in chain_heads().items()
            if covered.get(chain) != position
        }
        if not moved:
            return None
        last = Checkpoint.objects.order_by("-number").first()
        number = 1 if last is None else last.number + 1
        created_at = db_now()
        _, leaves = leaves_of(moved)
        root = merkle.root(leaves).hex()
        prev_hash = GENESIS_HASH if last is None else last.checkpoint_hash
        digest = merkle.checkpoint_hash(
            number, created_at.isoformat(timespec="microseconds"), root, prev_hash
        )
        key, certificate = _signing_key()
        checkpoint = Checkpoint.objects.create(
            number=number,
            created_at=created_at,
            heads=moved,
            merkle_root=root,
            prev_hash=prev_hash,
            checkpoint_hash=digest,
            signature=base64.b64encode(_sign(key, bytes.fromhex(digest))).decode(),
            certificate=certificate,
        )
        emit_many(
            [
                Event(
                    event_type="AUDIT_CHECKPOINT",
                    actor=actor,
                    output_hash=digest,
                    extra={"checkpoint": number, "chains": len(moved), "merkle_root": root},
                    chain=CHECKPOINT_CHAIN,
                )
            ]
        )
        return checkpoint


@dataclass(frozen=True)
class CheckpointReport:
    ok: bool
    count: int
    reason: str = ""

    def describe(self) -> str:
        return f"checkpoints OK: {self.count}" if self.ok else f"checkpoints broken: {self.reason}"


def verify_signature(certificate_pem: str, digest_hex: str, signature_b64: str) -> bool:
    public_key = x509.load_pem_x509_certificate(certificate_pem.encode()).public_key()
    signature, message = base64.b64decode(signature_b64), bytes.fromhex(digest_hex)
    try:
        if isinstance(public_key, ec.EllipticCurvePublicKey):
            public_key.verify(signature, message, ec.ECDSA(hashes.SHA256()))
        elif isinstance(public_key, rsa.RSAPublicKey):
            public_key.verify(signature, message, padding.PKCS1v15(), hashes.SHA256())
        else:
            return False
    except InvalidSignature:
        return False
    return True


def verify_checkpoints() -> CheckpointReport:
    """Each checkpoint: numbered in turn, linked to the one before, its hash and signature
    and Merkle root recompute, and every head it recorded is still in the ledger (a chain
    cut back or removed after a checkpoint covered it is named here)."""
    prev_hash, count = GENESIS_HASH, 0
    for checkpoint in Checkpoint.objects.order_by("number").iterator(chunk_size=500):
        where = f"checkpoint {checkpoint.number}"
        if checkpoint.number != count + 1:
            return CheckpointReport(False, count, f"{where}: checkpoint {count + 1} is missing")
        if checkpoint.prev_hash != prev_hash:
            return CheckpointReport(
                False, count, f"{where}: previous checkpoint hash does not match"
            )
        _, leaves = leaves_of(checkpoint.heads)
        if merkle.root(leaves).hex() != checkpoint.merkle_root:
            return CheckpointReport(False, count, f"{where}: Merkle root does not match its heads")
        digest = merkle.checkpoint_hash(
            checkpoint.number,
            checkpoint.created_at.isoformat(timespec="microseconds"),
            checkpoint.merkle_root,
            checkpoint.prev_hash,
        )
        if digest != checkpoint.checkpoint_hash:
            return CheckpointReport(False, count, f"{where}: content does not match its hash")
        if not verify_signature(checkpoint.certificate, digest, checkpoint.signature):
            return CheckpointReport(False, count, f"{where}: signature does not verify")
        for chain, (position, row_hash) in sorted(checkpoint.heads.items()):
            rows = (
                AuditEvent.objects.filter(chain="", sequence=position)
                if chain == LEGACY
                else AuditEvent.objects.filter(chain=chain, position=position)
            )
            if not rows.filter(row_hash=row_hash).exists():
                return CheckpointReport(
                    False,
                    count,
                    f"{where}: chain {chain} no longer holds position {position} as recorded "
                    "(cut back, removed or rewritten)",
                )
        prev_hash, count = checkpoint.checkpoint_hash, count + 1
    return CheckpointReport(True, count)
