"""Content-addressed storage for originals and derivatives alike."""

from __future__ import annotations

from typing import Any

from django.core.files.storage import storages


def store_content_addressed(storage_alias: str, *, content: Any, sha256: str) -> str:
    """Save `content` (a Django File, or anything with `seek` and `chunks`) under a name
    made of its SHA-256, never a client's file name, and return that name. The same bytes
    always land at the same name, so a re-run after a crash, or a second delivery, writes
    nothing new."""
    storage = storages[storage_alias]
    name = f"sha256/{sha256[:2]}/{sha256}.pdf"
    if not storage.exists(name):
        content.seek(0)
        name = storage.save(name, content)
    return name
