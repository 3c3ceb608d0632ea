"""Reads for the intake API, scoped so a client sees only its own submissions."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from audit.models import AuditEvent
from intake.models import Document, Exemption, Jurisdiction, Submission

SEE_ALL_PERMISSION = "intake.view_submission"


def _visible_submissions(user: User) -> QuerySet[Submission]:
    queryset = Submission.objects.all()
    if user.has_perm(SEE_ALL_PERMISSION):
        return queryset
    return queryset.filter(client=user)


def _uuid(value: str, missing: type[Exception]) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError as exc:
        raise missing from exc


def submission_get(*, user: User, submission_id: str) -> Submission:
    """Raises Submission.DoesNotExist for another client's id, as for an unknown or
    malformed one: a client cannot tell them apart."""
    pk = _uuid(submission_id, Submission.DoesNotExist)
    return (
        _visible_submissions(user)
        .select_related("jurisdiction")
        .prefetch_related("documents__item", "documents__artifacts")
        .get(pk=pk)
    )


def document_get(*, user: User, document_id: str) -> Document:
    pk = _uuid(document_id, Document.DoesNotExist)
    return (
        Document.objects.filter(submission__in=_visible_submissions(user))
        .select_related("item", "submission")
        .prefetch_related("artifacts")
        .get(pk=pk)
    )


def document_events(*, document: Document) -> QuerySet[AuditEvent]:
    return AuditEvent.objects.filter(document_id=document.id).order_by("sequence")


def submission_body(submission: Submission, *, documents: list[dict[str, Any]]) -> dict[str, Any]:
    """A submission as the API shows it (the admission answer and the status read),
    with the caller's view of its documents."""
    return {
        "id": submission.id,
        "external_ref": submission.external_ref,
        "jurisdiction": submission.jurisdiction_id,
        "sla_class": submission.sla_class,
        "priority_score": submission.priority_score,
        "received_at": submission.received_at,
        "statutory_deadline": submission.statutory_deadline,
        "correlation_id": submission.correlation_id,
        "policy_version": submission.policy_version,
        "documents": documents,
    }


def exemption_catalogue(jurisdiction: Jurisdiction) -> dict[str, Exemption]:
    """The codes a reviewer may choose for this jurisdiction, by code."""
    return {e.code: e for e in jurisdiction.exemptions.filter(active=True).order_by("code")}


def exemption_titles(jurisdiction: Jurisdiction) -> dict[str, str]:
    """Every code the jurisdiction has ever had (inactive ones stay on past redactions)."""
    return dict(jurisdiction.exemptions.values_list("code", "title"))
