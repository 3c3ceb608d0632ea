"""Content-addressed storage for originals and derivatives alike, written so that a crash
never leaves a name holding part of a file."""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from pathlib import Path
from typing import Any

from django.core.files.storage import FileSystemStorage, storages
from django.utils import timezone

CHUNK = 1024 * 1024
PARTIAL_PREFIX = ".partial-"


class DurableFileSystemStorage(FileSystemStorage):
    """FileSystemStorage whose saves survive a crash or a power cut: the bytes go to a
    temporary file beside the target, are flushed to the disk (fsync), and only then
    renamed to the name, and the folder is flushed too. A name therefore either does
    not exist or holds the whole file, on disk, before admission answers or a release
    is recorded. (Django's own save writes the name in place and leaves the flushing to
    the operating system: after a crash the database could name a file that is empty
    or cut short, and the next admission of the same bytes would find it "stored".)"""

    def _save(self, name: str, content: Any) -> str:
        full_path = self.path(name)
        directory = os.path.dirname(full_path)
        created = _missing_folders(directory)
        os.makedirs(directory, exist_ok=True)
        descriptor, partial = tempfile.mkstemp(dir=directory, prefix=PARTIAL_PREFIX)
        try:
            with os.fdopen(descriptor, "wb") as out:
                if hasattr(content, "seek"):
                    content.seek(0)
                for chunk in content.chunks(CHUNK):
                    out.write(chunk if isinstance(chunk, bytes) else chunk.encode())
                out.flush()
                os.fsync(out.fileno())
            os.chmod(partial, self.file_permissions_mode or 0o644)
            # The same name always holds the same bytes (or the same text layer): a
            # concurrent writer that got here first wrote what this one would.
            os.replace(partial, full_path)
        except BaseException:
            if os.path.exists(partial):
                os.unlink(partial)
            raise
        # The new name, and the entry of every folder made for it, reach the disk too.
        for folder in [directory, *(os.path.dirname(f) for f in created)]:
            _flush_folder(folder)
        return os.path.relpath(full_path, self.location).replace("\\", "/")


def _missing_folders(directory: str) -> list[str]:
    missing = []
    while directory and not os.path.isdir(directory):
        missing.append(directory)
        directory = os.path.dirname(directory)
    return missing


def _flush_folder(path: str) -> None:
    folder = os.open(path, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def store_content_addressed(storage_alias: str, *, content: Any, sha256: str) -> str:
    """Save `content` (a Django File, or anything with `seek`, `size` and `chunks`)
    under a name made of its SHA-256, never a client's file name, and return that name.
    The same bytes always land at the same name, so a re-run after a crash, or a second
    delivery, writes nothing new; a file of the wrong size there (a crash's remnant from
    before saves were durable) is written again."""
    storage = storages[storage_alias]
    name = f"sha256/{sha256[:2]}/{sha256}.pdf"
    if storage.exists(name):
        if storage.size(name) == content.size:
            return name
        storage.delete(name)
    content.seek(0)
    return storage.save(name, content)


def crash_remnants_remove(
    folder: Path, *, older_than: dt.timedelta, prefix: str = "", dry_run: bool = False
) -> int:
    """Delete the files under `folder` whose name starts with `prefix` and that nobody
    has written to for `older_than`, and return how many there were (with `dry_run`,
    only count them). For what a killed process leaves behind: a `.partial-` file of a
    save cut short, an upload's temporary file. No record names them, but they hold a
    document's bytes, and the retention schedule only ever disposes of named files."""
    cutoff = (timezone.now() - older_than).timestamp()  # file times are the OS's clock
    found = 0
    for directory, _, names in os.walk(folder):
        for name in names:
            if not name.startswith(prefix):
                continue
            path = os.path.join(directory, name)
            try:
                if os.lstat(path).st_mtime >= cutoff:
                    continue
                if not dry_run:
                    os.unlink(path)
            except FileNotFoundError:
                continue  # removed meanwhile (an upload that finished, another pass)
            found += 1
    return found
