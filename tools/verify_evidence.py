#!/usr/bin/env python3
"""Check a Redaction Review Queue evidence bundle offline.

    python3 verify_evidence.py bundle.json

Needs Python 3.11 and the `cryptography` package, nothing else: no database, no
access to the service. It checks that
1. every event's hash recomputes from its fields (SHA-256 of the fields as sorted,
   compact JSON), and the events form one chain: positions 1, 2, 3..., each naming the
   previous event's hash (the first the genesis hash);
2. the last event is the head the checkpoint records;
3. the head's Merkle path (RFC 6962 hashing) leads to the checkpoint's Merkle root;
4. the checkpoint's hash recomputes, and its signature verifies with the public key of
   the certificate in the bundle (ECDSA or RSA with SHA-256).
Whether that certificate is the service's own is for the reader to confirm (its
fingerprint is printed). Exit status 0 when every check passes; otherwise 1 and the
first thing that broke, by event position or checkpoint field.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
from typing import Any

GENESIS = "0" * 64
HASHED_FIELDS = (
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
    "prev_hash",
    "chain",
    "position",
)


class Broken(Exception):
    """What failed, for the person checking."""


def _compact(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def event_hash(event: dict[str, Any]) -> str:
    return hashlib.sha256(_compact({name: event[name] for name in HASHED_FIELDS})).hexdigest()


def leaf(chain: str, position: int, row_hash: str) -> bytes:
    data = json.dumps([chain, position, row_hash], separators=(",", ":")).encode()
    return hashlib.sha256(b"\x00" + data).digest()


def node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def root_from_path(leaf_hash: bytes, index: int, size: int, path: list[str]) -> bytes:
    """RFC 9162, 2.1.3.2: the root an inclusion proof leads to."""
    if not 0 <= index < size:
        raise Broken("checkpoint: leaf index outside the tree")
    fn, sn, result = index, size - 1, leaf_hash
    for sibling_hex in path:
        sibling = bytes.fromhex(sibling_hex)
        if sn == 0:
            raise Broken("checkpoint: Merkle path longer than the tree")
        if fn & 1 or fn == sn:
            result = node(sibling, result)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            result = node(result, sibling)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise Broken("checkpoint: Merkle path shorter than the tree")
    return result


def checkpoint_hash(checkpoint: dict[str, Any]) -> str:
    return hashlib.sha256(
        _compact(
            {
                "number": checkpoint["number"],
                "created_at": checkpoint["created_at"],
                "merkle_root": checkpoint["merkle_root"],
                "prev": checkpoint["prev_hash"],
            }
        )
    ).hexdigest()


def verify_signature(certificate_pem: str, digest_hex: str, signature_b64: str) -> str:
    """Checks the signature; returns the certificate's SHA-256 fingerprint."""
    from cryptography import x509
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa

    try:
        certificate = x509.load_pem_x509_certificate(certificate_pem.encode())
        signature = base64.b64decode(signature_b64, validate=True)
    except ValueError as exc:
        raise Broken("checkpoint: the certificate or the signature does not parse") from exc
    key, message = certificate.public_key(), bytes.fromhex(digest_hex)
    try:
        if isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signature, message, ec.ECDSA(hashes.SHA256()))
        elif isinstance(key, rsa.RSAPublicKey):
            key.verify(signature, message, padding.PKCS1v15(), hashes.SHA256())
        else:
            raise Broken("checkpoint: the certificate's key is neither EC nor RSA")
    except InvalidSignature as exc:
        raise Broken("checkpoint: the signature does not verify with the certificate") from exc
    return certificate.fingerprint(hashes.SHA256()).hex()


def verify(bundle: dict[str, Any]) -> str:
    """Every check; returns a one-line summary, raises Broken naming the first failure."""
    if bundle.get("format") != "rrq-evidence/1":
        raise Broken("bundle: not an rrq-evidence/1 bundle")
    chain, events, checkpoint = bundle["chain"], bundle["events"], bundle["checkpoint"]
    previous = GENESIS
    for expected, event in enumerate(events, start=1):
        where = f"event at position {event.get('position')}"
        if event.get("chain") != chain:
            raise Broken(f"{where}: belongs to another chain")
        if event.get("position") != expected:
            raise Broken(f"{where}: position {expected} expected (missing or out of order)")
        if event.get("prev_hash") != previous:
            raise Broken(f"{where}: previous hash does not match")
        if event_hash(event) != event.get("row_hash"):
            raise Broken(f"{where}: content does not match its hash")
        previous = event["row_hash"]
    if not events:
        raise Broken("bundle: no events")
    head = [events[-1]["position"], events[-1]["row_hash"]]
    if list(checkpoint["head"]) != head:
        raise Broken("checkpoint: the recorded head is not the chain's last event")
    computed = root_from_path(
        leaf(chain, head[0], head[1]),
        int(checkpoint["leaf_index"]),
        int(checkpoint["leaf_count"]),
        list(checkpoint["path"]),
    )
    if computed.hex() != checkpoint["merkle_root"]:
        raise Broken("checkpoint: the head's Merkle path does not lead to the root")
    digest = checkpoint_hash(checkpoint)
    if digest != checkpoint["checkpoint_hash"]:
        raise Broken("checkpoint: content does not match its hash")
    fingerprint = verify_signature(checkpoint["certificate"], digest, checkpoint["signature"])
    return (
        f"OK: {len(events)} events of {chain}, covered by checkpoint {checkpoint['number']} "
        f"signed by certificate sha256:{fingerprint}"
    )


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as handle:
            bundle = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"FAILED: bundle: cannot read it as JSON ({exc.__class__.__name__})")
        return 1
    try:
        print(verify(bundle))
    except Broken as broken:
        print(f"FAILED: {broken}")
        return 1
    except (KeyError, TypeError, ValueError) as exc:
        print(f"FAILED: bundle: a field is missing or malformed ({exc.__class__.__name__}: {exc})")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
