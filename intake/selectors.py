"""Reads for the intake API, scoped so a client sees only its own submissions."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet

from audit.models import AuditEvent
from intake.models import Document, Submission

SEE_ALL_PERMISSION = "intake.view_submission"


def _visible_submissions(user: Any) -> QuerySet[Submission]:
    queryset = Submission.objects.all()
    if user.has_perm(SEE_ALL_PERMISSION):
        return queryset
    return queryset.filter(client=user)


def _uuid(value: str, missing: type[Exception]) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError as exc:
        raise missing from exc


def submission_get(*, user: Any, submission_id: str) -> Submission:
    """Raises Submission.DoesNotExist for another client's id, as for an unknown or
    malformed one: a client cannot tell them apart."""
    pk = _uuid(submission_id, Submission.DoesNotExist)
    return (
        _visible_submissions(user)
        .select_related("jurisdiction")
        .prefetch_related("documents__item", "documents__artifacts")
        .get(pk=pk)
    )


def document_get(*, user: Any, document_id: str) -> Document:
    pk = _uuid(document_id, Document.DoesNotExist)
    return (
        Document.objects.filter(submission__in=_visible_submissions(user))
        .select_related("item", "submission")
        .prefetch_related("artifacts")
        .get(pk=pk)
    )


def document_events(*, document: Document) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(document_id=document.id).order_by("sequence")
