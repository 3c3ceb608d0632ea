"""Admission: stamp, hash, validate, persist, enqueue after commit, return.

A duplicate never starts a second deadline clock (the unique idempotency key decides), and
a refused submission never vanishes (a RejectedSubmission row and a SCHEMA_REJECT event).
Search terms are protected content: hashed into the request fingerprint, stored for the
detector, and never logged, audited or echoed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import posixpath
import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from audit.clock import db_now
from audit.services import Actor, Event, emit, emit_many
from common.errors import DomainError
from common.storage import store_content_addressed
from intake.deadlines import statutory_deadline
from intake.handoff import OpenedItem, review_handoff
from intake.models import Document, Jurisdiction, RejectedSubmission, SlaClass, Submission
from intake.selectors import submission_body
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


class AdmissionRejected(DomainError):
    """The submission was refused (and recorded as rejected)."""

    code = "invalid_submission"
    status = 400

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("the submission was rejected: " + ", ".join(p.code for p in problems))
        self.problems = list(problems)


class IdempotencyKeyReused(DomainError):
    code = "idempotency_key_reused"
    status = 409


@dataclass(frozen=True)
class Admission:
    submission: Submission
    replayed: bool
    body: dict[str, Any]


@dataclass
class _Checked:
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


def _check_file(incoming: IncomingFile, index: int) -> _Checked:
    """Stream the SHA-256 (reading the file once), then the PDF checks on the same bytes."""
    label = f"files[{index}]"
    digest, head, size = hashlib.sha256(), b"", 0
    incoming.upload.seek(0)
    for chunk in incoming.upload.chunks(CHUNK):
        digest.update(chunk)
        size += len(chunk)
        if len(head) < MAGIC_WINDOW:
            head += chunk[: MAGIC_WINDOW - len(head)]
    checked = _Checked(incoming=incoming, sha256=digest.hexdigest(), size=size)

    def refuse(code: str, message: str) -> _Checked:
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


def _check_metadata(
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
        object_id = normalize_object_id(incoming.object_id)
        if object_id is None:
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


def _fingerprint(
    *,
    channel: str,
    external_ref: str,
    jurisdiction_code: str,
    sla_class: str,
    priority_score: int,
    search_terms: Sequence[str],
    checked: Sequence[_Checked],
) -> str:
    canonical = {
        "channel": channel,
        "external_ref": external_ref,
        "jurisdiction": jurisdiction_code,
        "sla_class": sla_class,
        "priority_score": priority_score,
        "search_terms": hashlib.sha256(json.dumps(sorted(search_terms)).encode()).hexdigest(),
        "files": sorted((normalize_object_id(c.incoming.object_id), c.sha256) for c in checked),
    }
    return hashlib.sha256(json.dumps(canonical, sort_keys=True).encode()).hexdigest()


def _store_original(checked: _Checked) -> str:
    return store_content_addressed(
        "originals", content=checked.incoming.upload, sha256=checked.sha256
    )


def submission_reject(
    *,
    client: User,
    channel: str,
    correlation_id: str,
    problems: Sequence[Problem],
    files: Sequence[dict[str, Any]] = (),
    external_ref: str = "",
    idempotency_key: str = "",
    actor: Actor,
) -> RejectedSubmission:
    """Record a refused admission with its reasons (never bytes or search terms)."""
    with transaction.atomic(durable=True):
        rejected = RejectedSubmission.objects.create(
            client=client if getattr(client, "pk", None) else None,
            channel=channel,
            received_at=db_now(),
            # What was refused may hold anything, even NUL bytes PostgreSQL cannot store.
            external_ref=_printable(external_ref)[:200],
            idempotency_key=_printable(idempotency_key)[:200],
            correlation_id=correlation_id,
            reason_codes=sorted({p.code for p in problems}),
            errors=[p.as_dict() for p in problems],
            files=list(files),
        )
        emit(
            "SCHEMA_REJECT",
            actor=actor,
            correlation_id=correlation_id,
            extra={
                "rejected_submission": rejected.pk,
                "reasons": rejected.reason_codes,
                "files": len(files),
            },
        )
        return rejected


def _printable(value: str | None) -> str:
    return "".join(ch for ch in value or "" if ch.isprintable())


def _find_existing(client: User, key: str) -> Submission | None:
    return Submission.objects.filter(client=client, idempotency_key=key).first()


def _replay(
    existing: Submission, *, request_sha256: str, actor: Actor, correlation_id: str
) -> Admission:
    if existing.request_sha256 != request_sha256:
        raise IdempotencyKeyReused(
            "this Idempotency-Key was used for a different submission; use a new key"
        )
    with transaction.atomic(durable=True):
        emit(
            "IDEMPOTENCY_BLOCK",
            actor=actor,
            submission_id=existing.id,
            correlation_id=existing.correlation_id,
            input_hash=request_sha256,
            policy_version=existing.policy_version,
            extra={"retry_correlation_id": correlation_id},
        )
    return Admission(submission=existing, replayed=True, body=existing.admission_response)


def submission_admit(
    *,
    client: User,
    files: Sequence[IncomingFile],
    external_ref: str,
    jurisdiction_code: str,
    sla_class: str = SlaClass.STANDARD,
    priority_score: int = 50,
    search_terms: Sequence[str] = (),
    idempotency_key: str | None = None,
    correlation_id: str,
    channel: str = Submission.Channel.API,
    actor: Actor,
    extra_problems: Sequence[Problem] = (),
) -> Admission:
    """Admit a whole submission or nothing of it. Raises AdmissionRejected (recorded) or
    IdempotencyKeyReused; a duplicate returns the original admission with replayed=True."""
    search_terms = [t.strip() for t in search_terms if t and t.strip()]
    jurisdiction, problems = _check_metadata(
        external_ref=external_ref,
        jurisdiction_code=jurisdiction_code,
        sla_class=sla_class,
        priority_score=priority_score,
        files=files,
        search_terms=search_terms,
        idempotency_key=idempotency_key,
    )
    problems = [*extra_problems, *problems]
    checked = [_check_file(incoming, index) for index, incoming in enumerate(files)]
    problems += [p for c in checked for p in c.problems]
    if problems or jurisdiction is None:
        submission_reject(
            client=client,
            channel=channel,
            correlation_id=correlation_id,
            problems=problems,
            files=[{"index": i, "sha256": c.sha256, "size": c.size} for i, c in enumerate(checked)],
            external_ref=external_ref,
            idempotency_key=idempotency_key or "",
            actor=actor,
        )
        raise AdmissionRejected(problems)

    request_sha256 = _fingerprint(
        channel=channel,
        external_ref=external_ref,
        jurisdiction_code=jurisdiction.code,
        sla_class=sla_class,
        priority_score=priority_score,
        search_terms=search_terms,
        checked=checked,
    )
    key = idempotency_key or f"auto:{request_sha256}"
    existing = _find_existing(client, key)
    if existing is not None:
        return _replay(
            existing, request_sha256=request_sha256, actor=actor, correlation_id=correlation_id
        )

    # Storage is not transactional; content addressing makes a crash here harmless.
    stored = [_store_original(c) for c in checked]
    try:
        submission = _persist(
            client=client,
            channel=channel,
            jurisdiction=jurisdiction,
            external_ref=external_ref,
            sla_class=sla_class,
            priority_score=priority_score,
            search_terms=search_terms,
            key=key,
            request_sha256=request_sha256,
            correlation_id=correlation_id,
            checked=checked,
            stored=stored,
            actor=actor,
        )
    except IntegrityError:
        # A concurrent identical admission won the unique key: answer with its result.
        existing = _find_existing(client, key)
        if existing is None:
            raise
        return _replay(
            existing, request_sha256=request_sha256, actor=actor, correlation_id=correlation_id
        )
    return Admission(submission=submission, replayed=False, body=submission.admission_response)


def _persist(
    *,
    client: User,
    channel: str,
    jurisdiction: Jurisdiction,
    external_ref: str,
    sla_class: str,
    priority_score: int,
    search_terms: list[str],
    key: str,
    request_sha256: str,
    correlation_id: str,
    checked: Sequence[_Checked],
    stored: Sequence[str],
    actor: Actor,
) -> Submission:
    with transaction.atomic(durable=True):
        handoff = review_handoff()
        policy = handoff.admission_policy()
        received_at = db_now()
        statutory = statutory_deadline(jurisdiction, received_at)
        sla_deadline = received_at + dt.timedelta(hours=policy.sla_hours[sla_class])
        submission = Submission.objects.create(
            client=client,
            channel=channel,
            external_ref=external_ref,
            jurisdiction=jurisdiction,
            sla_class=sla_class,
            received_at=received_at,
            statutory_deadline=statutory,
            priority_score=priority_score,
            idempotency_key=key,
            request_sha256=request_sha256,
            correlation_id=correlation_id,
            policy_version=policy.version,
            search_terms=search_terms,
        )
        documents = [
            Document.build(
                submission=submission,
                object_id=normalize_object_id(c.incoming.object_id) or "",
                source_sha256=c.sha256,
                size=c.size,
                page_count=c.page_count,
                original_path=original_path,
                permission_flags=c.permission_flags,
            )
            for c, original_path in zip(checked, stored, strict=True)
        ]
        for document in documents:
            document.save(force_insert=True)
        high_lane = priority_score >= settings.HIGH_LANE_MIN_SCORE
        opened = handoff.items_open(
            documents=documents,
            sla_class=sla_class,
            received_at=received_at,
            deadline=min(sla_deadline, statutory),
            priority_score=priority_score,
        )
        emit_many(
            Event(
                event_type="TASK_ADMITTED",
                actor=actor,
                submission_id=submission.id,
                document_id=item.document.id,
                item_id=item.item_id,
                correlation_id=correlation_id,
                input_hash=c.sha256,
                policy_version=policy.version,
                extra={
                    "pages": c.page_count,
                    "bytes": c.size,
                    "repaired": c.repaired,
                    "permission_flags": c.permission_flags,
                    "lane": "high" if high_lane else "default",
                },
            )
            for c, item in zip(checked, opened, strict=True)
        )
        submission.admission_response = _admission_body(submission, opened)
        submission.save(update_fields=["admission_response"])
        return submission


def _admission_body(submission: Submission, opened: Sequence[OpenedItem]) -> dict[str, Any]:
    """The 201 body, stored as JSON so that a duplicate gets exactly this back."""
    body = submission_body(
        submission,
        documents=[
            {
                "id": item.document.id,
                "object_id": item.document.object_id,
                "source_sha256": item.document.source_sha256,
                "job_key": item.document.job_key,
                "pages": item.document.page_count,
                "state": item.state,
                "deadline": item.deadline,
            }
            for item in opened
        ],
    )
    return json.loads(json.dumps(body, default=_json_value))


def _json_value(value: object) -> str:
    return value.isoformat() if isinstance(value, dt.datetime) else str(value)


class PathUpload:
    """A file on disk, read in chunks on demand (a folder may hold thousands of files)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.name = path.name
        self.size: int | None = path.stat().st_size

    def seek(self, offset: int) -> None:
        """Each `chunks()` call starts from the beginning."""

    def chunks(self, chunk_size: int | None = None) -> Any:
        with self.path.open("rb") as handle:
            while chunk := handle.read(chunk_size or CHUNK):
                yield chunk


@dataclass
class FolderIngestResult:
    submission: Submission | None = None
    admitted: int = 0
    duplicates: int = 0
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (relative path, code)
    rejections_recorded: bool = False


def folder_ingest(
    *,
    root: Path,
    client: User,
    jurisdiction_code: str,
    sla_class: str = SlaClass.STANDARD,
    priority_score: int = 50,
    external_ref: str = "",
    actor: Actor,
    on_file: Callable[[Path], object] | None = None,
) -> FolderIngestResult:
    """One submission per run, one document per readable PDF below `root` (object id =
    path relative to `root`). Unreadable files are recorded as rejected with their reason;
    a second run over the same folder creates nothing new."""
    result = FolderIngestResult()
    correlation_id = uuid.uuid4().hex
    external_ref = external_ref or f"folder:{root.name}"
    paths = sorted(p for p in root.rglob("*") if p.is_file())
    good: list[IncomingFile] = []
    bad: list[_Checked] = []
    for index, path in enumerate(paths):
        incoming = IncomingFile(
            object_id=path.relative_to(root).as_posix(), upload=PathUpload(path), local_path=path
        )
        checked = _check_file(incoming, index)
        if checked.problems:
            bad.append(checked)
        else:
            good.append(incoming)
        if on_file:
            on_file(path)
    result.rejected = [(c.incoming.object_id, c.problems[0].code) for c in bad]
    if bad:
        fingerprint = hashlib.sha256(
            json.dumps(
                sorted((c.incoming.object_id, c.sha256, c.problems[0].code) for c in bad)
            ).encode()
        ).hexdigest()
        key = f"auto:{fingerprint}"
        if not RejectedSubmission.objects.filter(client=client, idempotency_key=key).exists():
            submission_reject(
                client=client,
                channel=Submission.Channel.FOLDER,
                correlation_id=correlation_id,
                problems=[p for c in bad for p in c.problems],
                files=[{"index": i, "sha256": c.sha256, "size": c.size} for i, c in enumerate(bad)],
                external_ref=external_ref,
                idempotency_key=key,
                actor=actor,
            )
            result.rejections_recorded = True
    if good:
        admission = submission_admit(
            client=client,
            files=good,
            external_ref=external_ref,
            jurisdiction_code=jurisdiction_code,
            sla_class=sla_class,
            priority_score=priority_score,
            correlation_id=correlation_id,
            channel=Submission.Channel.FOLDER,
            actor=actor,
        )
        result.submission = admission.submission
        if admission.replayed:
            result.duplicates = len(good)
        else:
            result.admitted = len(good)
    return result
