"""Folder ingest: one submission per run over a folder of PDFs, the unreadable ones
recorded as rejected with their reasons; a second run over the same folder adds nothing."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User

from audit.services import Actor
from intake.models import RejectedSubmission, SlaClass, Submission
from intake.services.admission import submission_admit, submission_reject
from intake.services.checks import CHUNK, Checked, IncomingFile, check_file


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
    bad: list[Checked] = []
    for index, path in enumerate(paths):
        incoming = IncomingFile(
            object_id=path.relative_to(root).as_posix(), upload=PathUpload(path), local_path=path
        )
        checked = check_file(incoming, index)
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
