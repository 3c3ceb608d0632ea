"""Admission: stamp, hash, validate, persist with the review items, return.

A duplicate never starts a second deadline clock (the unique idempotency key decides), and
a refused submission never vanishes (a RejectedSubmission row and a SCHEMA_REJECT event).
Search terms are protected content: hashed into the request fingerprint, stored for the
detector, and never logged, audited or echoed.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from audit.clock import db_now
from audit.services import Actor, Event, emit, emit_many_in
from common.batch import WriteBatch, batch_transaction
from common.errors import DomainError
from common.storage import store_content_addressed
from intake.deadlines import statutory_deadline
from intake.handoff import OpenedItem, review_handoff
from intake.models import Document, Jurisdiction, RejectedSubmission, SlaClass, Submission
from intake.selectors import submission_body
from intake.services.checks import (
    Checked,
    IncomingFile,
    Problem,
    check_file,
    check_metadata,
    normalize_object_id,
)


class AdmissionRejected(DomainError):
    """The submission was refused (and recorded as rejected)."""

    code = "invalid_submission"
    status = 400

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("the submission was rejected: " + ", ".join(p.code for p in problems))
        self.problems = list(problems)


class RequestTooLarge(AdmissionRejected):
    """The request was over Django's upload limits (recorded as rejected)."""

    code = "request_too_large"
    status = 413


class IdempotencyKeyReused(DomainError):
    code = "idempotency_key_reused"
    status = 409


@dataclass(frozen=True)
class Admission:
    submission: Submission
    replayed: bool
    body: dict[str, Any]


def _fingerprint(
    *,
    channel: str,
    external_ref: str,
    jurisdiction_code: str,
    sla_class: str,
    priority_score: int,
    search_terms: Sequence[str],
    checked: Sequence[Checked],
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


def _store_original(checked: Checked) -> str:
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
    jurisdiction, problems = check_metadata(
        external_ref=external_ref,
        jurisdiction_code=jurisdiction_code,
        sla_class=sla_class,
        priority_score=priority_score,
        files=files,
        search_terms=search_terms,
        idempotency_key=idempotency_key,
    )
    problems = [*extra_problems, *problems]
    checked = [check_file(incoming, index) for index, incoming in enumerate(files)]
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
        # An earlier or concurrent admission holds the unique key (its row is written
        # last, so a duplicate costs one rolled-back transaction): answer with its result.
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
    checked: Sequence[Checked],
    stored: Sequence[str],
    actor: Actor,
) -> Submission:
    with batch_transaction():
        handoff = review_handoff()
        policy = handoff.admission_policy()
        received_at = policy.read_at
        statutory = statutory_deadline(jurisdiction, received_at)
        sla_deadline = received_at + dt.timedelta(hours=policy.sla_hours[sla_class])
        submission = Submission(
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
        # Every row goes in one write batch (one round trip on PostgreSQL). The
        # submission row goes in last, with the answer that names its documents' items:
        # foreign keys are checked at commit (Django declares them deferred).
        batch = WriteBatch()
        batch.insert(documents)
        high_lane = priority_score >= settings.HIGH_LANE_MIN_SCORE
        opened = handoff.items_open(
            batch=batch,
            documents=documents,
            sla_class=sla_class,
            received_at=received_at,
            deadline=min(sla_deadline, statutory),
            priority_score=priority_score,
        )
        emit_many_in(
            batch,
            (
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
            ),
        )
        submission.admission_response = _admission_body(submission, opened)
        batch.insert([submission])
        batch.write()
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
