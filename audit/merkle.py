"""The hashes of checkpoints: Merkle trees over chain heads (standard library only).

RFC 6962's tree: a leaf is SHA-256(0x00 || data), a node SHA-256(0x01 || left || right),
and a list of n leaves splits at the largest power of two below n. `tools/
verify_evidence.py` carries its own copy of these few lines, so a bundle can be checked
with nothing of this project installed; tests hold the two to the same answers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence


def head_leaf(chain: str, position: int, row_hash: str) -> bytes:
    data = json.dumps([chain, position, row_hash], separators=(",", ":")).encode()
    return hashlib.sha256(b"\x00" + data).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def root(leaves: Sequence[bytes]) -> bytes:
    if not leaves:
        return hashlib.sha256(b"").digest()
    if len(leaves) == 1:
        return leaves[0]
    k = _split(len(leaves))
    return _node(root(leaves[:k]), root(leaves[k:]))


def path(leaves: Sequence[bytes], index: int) -> list[str]:
    """The audit path of leaf `index`: sibling hashes from the leaf up, hex."""
    if len(leaves) <= 1:
        return []
    k = _split(len(leaves))
    if index < k:
        return [*path(leaves[:k], index), root(leaves[k:]).hex()]
    return [*path(leaves[k:], index - k), root(leaves[:k]).hex()]


def checkpoint_hash(number: int, created_at: str, merkle_root: str, prev_hash: str) -> str:
    data = json.dumps(
        {"number": number, "created_at": created_at, "merkle_root": merkle_root, "prev": prev_hash},
        sort_keys=True,
        separators=(",", ":"),
    ).encode()
    return hashlib.sha256(data).hexdigest()
