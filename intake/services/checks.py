"""Admission's checks of what arrives: the metadata, each file's hash and PDF open-check,
the safe object path. Problems name the field and a stable code, never the content."""

from __future__ import annotations

import hashlib
import posixpath
import re
import unicodedata
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.core.exceptions import TooManyFieldsSent, TooManyFilesSent

from intake.models import Jurisdiction, SlaClass
from review.pdf.opencheck import MAGIC_WINDOW, PdfRejected, has_pdf_magic, open_check

CHUNK = 1024 * 1024
CORRELATION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")
IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
MAX_SEARCH_TERMS = 100


class Upload(Protocol):
    """What admission needs of a file: Django's UploadedFile and File both fit."""

    @property
    def size(self) -> int | None: ...

    def chunks(self, chunk_size: int | None = ...) -> Any: ...

    def seek(self, offset: int) -> Any: ...


@dataclass(frozen=True)
class IncomingFile:
    object_id: str
    upload: Upload
    local_path: Path | None = None  # where the bytes already sit on disk, if they do


@dataclass(frozen=True)
class Problem:
    field: str
    code: str
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "code": self.code, "message": self.message}


@dataclass
class Checked:
    incoming: IncomingFile
    sha256: str
    size: int
    page_count: int = 0
    repaired: bool = False
    permission_flags: bool = False
    problems: list[Problem] = field(default_factory=list)


def correlation_id_or_new(value: str | None) -> str:
    """A caller's well-formed correlation id, else a fresh one."""
    if value and CORRELATION_ID.match(value):
        return value
    return uuid.uuid4().hex


def normalize_object_id(raw: str) -> str | None:
    """A safe relative POSIX path, or None when the path is unusable."""
    path = raw.replace("\\", "/").strip()
    if not path or path.startswith("/") or "\x00" in path:
        return None
    normalized = posixpath.normpath(path)
    if normalized in {".", ""} or normalized.startswith("../") or normalized == "..":
        return None
    return normalized


# Bidirectional controls (the overrides U+202A-U+202E and the isolates U+2066-U+2069 among
# them) make a path read differently from what it is; control characters break logs and
# listings. Unicode's "Other" categories hold both, with the line and paragraph separators.
UNSAFE_PATH_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def unsafe_path_characters(path: str) -> list[str]:
    """The code points of `path` no object path may hold, as U+XXXX (never the path)."""
    return sorted(
        {f"U+{ord(ch):04X}" for ch in path if unicodedata.category(ch) in UNSAFE_PATH_CATEGORIES}
    )


def oversize_problem(error: Exception) -> Problem:
    """Django's upload limits, as the problem a rejected submission records."""
    if isinstance(error, TooManyFilesSent):
        return Problem(
            "files",
            "too_many_files",
            f"at most {settings.DATA_UPLOAD_MAX_NUMBER_FILES} files in one submission",
        )
    if isinstance(error, TooManyFieldsSent):
        return Problem(
            "body",
            "too_many_fields",
            f"at most {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} form fields in one submission",
        )
    return Problem(
        "body",
        "field_too_large",
        f"the form fields other than files exceed {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes",
    )


def check_file(incoming: IncomingFile, index: int) -> Checked:
    """Stream the SHA-256 (reading the file once), then the PDF checks on the same bytes."""
    label = f"files[{index}]"
    digest, head, size = hashlib.sha256(), b"", 0
    incoming.upload.seek(0)
    for chunk in incoming.upload.chunks(CHUNK):
        digest.update(chunk)
        size += len(chunk)
        if len(head) < MAGIC_WINDOW:
            head += chunk[: MAGIC_WINDOW - len(head)]
    checked = Checked(incoming=incoming, sha256=digest.hexdigest(), size=size)

    def refuse(code: str, message: str) -> Checked:
        checked.problems.append(Problem(label, code, message))
        return checked

    if size == 0:
        return refuse("empty_file", "the file is empty")
    if size > settings.INTAKE_MAX_FILE_BYTES:
        return refuse(
            "too_large", f"the file has {size} bytes; the limit is {settings.INTAKE_MAX_FILE_BYTES}"
        )
    if not has_pdf_magic(head):
        return refuse("not_pdf", "the file is not a PDF (no %PDF- header)")
    try:
        if incoming.local_path is not None:
            result = open_check(incoming.local_path, max_pages=settings.INTAKE_MAX_PAGES)
        else:
            incoming.upload.seek(0)
            data = b"".join(incoming.upload.chunks(CHUNK))  # small in-memory upload
            result = open_check(data, max_pages=settings.INTAKE_MAX_PAGES)
    except PdfRejected as rejected:
        return refuse(rejected.code, rejected.message)
    checked.page_count, checked.repaired = result.page_count, result.repaired
    checked.permission_flags = result.permission_flags
    return checked


def check_metadata(
    *,
    external_ref: str,
    jurisdiction_code: str,
    sla_class: str,
    priority_score: int,
    files: Sequence[IncomingFile],
    search_terms: Sequence[str],
    idempotency_key: str | None,
) -> tuple[Jurisdiction | None, list[Problem]]:
    problems: list[Problem] = []
    jurisdiction = Jurisdiction.objects.filter(code=jurisdiction_code, active=True).first()
    if jurisdiction is None:
        problems.append(
            Problem("jurisdiction", "unknown_jurisdiction", "no active jurisdiction has this code")
        )
    if not external_ref.strip():
        problems.append(Problem("external_ref", "required", "external_ref is required"))
    if sla_class not in SlaClass.values:
        problems.append(
            Problem("sla_class", "invalid_choice", "sla_class must be urgent or standard")
        )
    if not 0 <= priority_score <= 100:
        problems.append(Problem("priority_score", "out_of_range", "priority_score must be 0-100"))
    if not files:
        problems.append(Problem("files", "required", "at least one PDF is required"))
    if len(files) > settings.INTAKE_MAX_FILES:
        problems.append(
            Problem("files", "too_many_files", f"at most {settings.INTAKE_MAX_FILES} files")
        )
    if len(search_terms) > MAX_SEARCH_TERMS:
        problems.append(
            Problem("search_terms", "too_many", f"at most {MAX_SEARCH_TERMS} search terms")
        )
    if idempotency_key is not None and not IDEMPOTENCY_KEY.match(idempotency_key):
        problems.append(
            Problem("Idempotency-Key", "invalid", "1-200 printable ASCII characters, no spaces")
        )
    seen: set[str] = set()
    for index, incoming in enumerate(files):
        unsafe = unsafe_path_characters(incoming.object_id)
        object_id = None if unsafe else normalize_object_id(incoming.object_id)
        if unsafe:
            problems.append(
                Problem(
                    f"paths[{index}]",
                    "invalid_path_characters",
                    "control and bidirectional-override characters are not allowed in a "
                    "path: " + ", ".join(unsafe),
                )
            )
        elif object_id is None:
            problems.append(
                Problem(
                    f"paths[{index}]", "invalid_path", "a relative path without '..' is required"
                )
            )
        elif object_id in seen:
            problems.append(
                Problem(f"paths[{index}]", "duplicate_path", "another file has the same path")
            )
        else:
            seen.add(object_id)
    return jurisdiction, problems
