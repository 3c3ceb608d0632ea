"""Compliance officers' pages: the signed output and the redaction log of a document,
and the ops pages (runs, one run, one item's timeline). Everyone else is refused."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render

from common.errors import DomainError
from intake.models import Document, Submission
from review import health, selectors
from review.downloads import pdf_attachment, redaction_log_attachment
from review.models import ReviewItem
from review.services.release import artifact_download
from review.views.shared import AuthenticatedRequest, no_store


def _compliance_document(request: AuthenticatedRequest, document_id: str) -> Document | None:
    if not selectors.sees_holds(request.user):
        return None
    return Document.objects.filter(pk=document_id).first()


@login_required
def document_output(request: AuthenticatedRequest, document_id: str) -> HttpResponse:
    """Compliance officers' download of the signed output (refused under hold, audited)."""
    document = _compliance_document(request, document_id)
    if document is None:
        return no_store(HttpResponse("Not found.", status=404, content_type="text/plain"))
    try:
        artifact, data = artifact_download(document=document, actor=request.user)
    except DomainError as error:
        return no_store(HttpResponse(str(error), status=error.status, content_type="text/plain"))
    return pdf_attachment(data, artifact)


@login_required
def document_redaction_log(request: AuthenticatedRequest, document_id: str) -> HttpResponse:
    document = _compliance_document(request, document_id)
    rows = selectors.redaction_log(document) if document else None
    if rows is None:
        return no_store(
            HttpResponse("No approved redactions.", status=404, content_type="text/plain")
        )
    return redaction_log_attachment(rows, document)


def _compliance_only(request: AuthenticatedRequest) -> HttpResponse | None:
    if selectors.sees_holds(request.user):
        return None
    return no_store(
        HttpResponse("Compliance officers only.", status=403, content_type="text/plain")
    )


@login_required
def ops_runs(request: AuthenticatedRequest) -> HttpResponse:
    if refused := _compliance_only(request):
        return refused
    return no_store(render(request, "ops/runs.html", {"runs": health.run_health()}))


@login_required
def ops_run(request: AuthenticatedRequest, submission_id: str) -> HttpResponse:
    if refused := _compliance_only(request):
        return refused
    submission = get_object_or_404(Submission, pk=submission_id)
    (run,) = health.run_health(submissions=Submission.objects.filter(pk=submission.pk))
    items = (
        ReviewItem.objects.filter(document__submission=submission)
        .select_related("document")
        .order_by("id")
    )
    context = {
        "run": run,
        "items": items,
        "flags": health.consistency_flags(submission_id=submission.pk),
    }
    return no_store(render(request, "ops/run.html", context))


@login_required
def ops_item_timeline(request: AuthenticatedRequest, item_id: int) -> HttpResponse:
    if refused := _compliance_only(request):
        return refused
    item = get_object_or_404(ReviewItem.objects.select_related("document__submission"), pk=item_id)
    # A failure, retry or dead letter says why, in words.
    events = [
        (event, selectors.failure_explained(str((event.extra or {}).get("reason", ""))))
        for event in health.item_timeline(item)
    ]
    context = {"item": item, "events": events}
    return no_store(render(request, "ops/timeline.html", context))
