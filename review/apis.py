"""The intake client's view of the work under review: status of a submission and its
documents, the signed output, the redaction log and run health. Each view reads through
a selector or calls one service."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api import ERROR_RESPONSES, ErrorSerializer, request_user
from intake import selectors as intake_selectors
from intake.apis import DocumentOutSerializer, SubmissionFieldsSerializer, document_or_404
from intake.models import Document, Submission
from review.downloads import pdf_attachment, redaction_log_attachment
from review.errors import NotReady
from review.health import run_health
from review.models import CloseReason, Disposal
from review.selectors import active_legal_hold, hold_shown, redaction_log
from review.services.release import artifact_download
from review.services.retention import document_disposals


def _document_status(document: Document) -> dict[str, Any]:
    item = document.item
    artifact = next((a for a in document.artifacts.all() if a.signed_at), None)
    return {
        "redaction_log": redaction_log(document),
        "id": document.id,
        "submission_id": document.submission_id,
        "object_id": document.object_id,
        "source_sha256": document.source_sha256,
        "job_key": document.job_key,
        "pages": document.page_count,
        "state": item.state,
        "queue": item.queue,
        "hold": hold_shown(item, active_legal_hold(document) is not None),
        "deadline": item.deadline,
        "output_sha256": artifact.signed_sha256 if artifact else None,
        "permission_flags": document.permission_flags,
        "closed_reason": item.closed_reason or None,
        "disposal": _disposal(document),
    }


def _disposal(document: Document) -> dict[str, Any] | None:
    """What the retention schedule disposed of, when and under which version (None
    while every byte is kept): the API says so instead of offering a broken download."""
    disposals = document_disposals(document)
    if not disposals:
        return None
    retention = next(iter(disposals.values())).retention  # one version governs a document
    when = {kind: d.disposed_at for kind, d in disposals.items()}
    return {
        "jurisdiction": retention.jurisdiction_id,
        "retention_version": retention.version,
        "original_disposed_at": when.get(Disposal.Kind.ORIGINAL),
        "previews_disposed_at": when.get(Disposal.Kind.PREVIEWS),
        "derivatives_disposed_at": when.get(Disposal.Kind.DERIVATIVES),
    }


class RedactionLogRowSerializer(serializers.Serializer):
    page = serializers.IntegerField()
    legal_reason = serializers.CharField(help_text="The exemption code stamped on the boxes.")
    exemption_title = serializers.CharField(
        help_text="The code's title in the jurisdiction's catalogue (empty for hidden "
        "content, which is removed as sanitisation, not withheld under an exemption)."
    )
    category = serializers.CharField(help_text="What was withheld, in words.")
    count = serializers.IntegerField()


class DisposalSerializer(serializers.Serializer):
    jurisdiction = serializers.CharField()
    retention_version = serializers.IntegerField(
        help_text="The jurisdiction's retention version that governed the document."
    )
    original_disposed_at = serializers.DateTimeField(
        allow_null=True, help_text="When the submitted original was deleted, else null."
    )
    previews_disposed_at = serializers.DateTimeField(
        allow_null=True, help_text="When cached previews were cleared, else null."
    )
    derivatives_disposed_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the rendered and signed output was deleted (downloads answer 410 "
        "Gone from then on), else null.",
    )


class DocumentStatusSerializer(DocumentOutSerializer):
    submission_id = serializers.UUIDField()
    queue = serializers.CharField()
    hold = serializers.CharField()
    output_sha256 = serializers.CharField(
        allow_null=True, help_text="SHA-256 of the signed output, once signed."
    )
    redaction_log = RedactionLogRowSerializer(many=True, allow_null=True)
    closed_reason = serializers.ChoiceField(
        choices=CloseReason.choices,
        allow_null=True,
        help_text="Why the document was closed as failed (state `failed`), else null.",
    )
    permission_flags = serializers.BooleanField(
        help_text="The source carried an owner password's permission flags (no-copy, "
        "no-print); the released file is a full rewrite without them."
    )
    disposal = DisposalSerializer(
        allow_null=True,
        help_text="Bytes disposed of under the retention schedule (hashes and the audit "
        "ledger are kept); null while everything is retained.",
    )


class SubmissionStatusSerializer(SubmissionFieldsSerializer):
    documents = DocumentStatusSerializer(many=True)


def _submission_or_404(request: Request, submission_id: str) -> Submission:
    try:
        return intake_selectors.submission_get(
            user=request_user(request), submission_id=submission_id
        )
    except Submission.DoesNotExist as exc:
        raise NotFound("no such submission") from exc


class SubmissionDetailApi(APIView):
    @extend_schema(
        operation_id="submission_get",
        responses={200: SubmissionStatusSerializer, **ERROR_RESPONSES},
    )
    def get(self, request: Request, submission_id: str) -> Response:
        submission = _submission_or_404(request, submission_id)
        body = intake_selectors.submission_body(
            submission, documents=[_document_status(d) for d in submission.documents.all()]
        )
        return Response(SubmissionStatusSerializer(body).data)


class DocumentDetailApi(APIView):
    @extend_schema(
        operation_id="document_get", responses={200: DocumentStatusSerializer, **ERROR_RESPONSES}
    )
    def get(self, request: Request, document_id: str) -> Response:
        document = document_or_404(request, document_id)
        return Response(DocumentStatusSerializer(_document_status(document)).data)


class DocumentOutputApi(APIView):
    @extend_schema(
        operation_id="document_output",
        responses={
            (200, "application/pdf"): OpenApiResponse(description="The signed, redacted PDF"),
            409: OpenApiResponse(ErrorSerializer, description="Not signed yet"),
            410: OpenApiResponse(
                ErrorSerializer, description="Disposed of under the retention schedule"
            ),
            423: OpenApiResponse(ErrorSerializer, description="On hold"),
            **ERROR_RESPONSES,
        },
    )
    def get(self, request: Request, document_id: str) -> HttpResponse:
        document = document_or_404(request, document_id)
        artifact, data = artifact_download(
            document=document, actor=f"client:{request.user.get_username()}"
        )
        return pdf_attachment(data, artifact)


class DocumentRedactionLogApi(APIView):
    @extend_schema(
        operation_id="document_redaction_log",
        responses={
            (200, "text/csv"): OpenApiResponse(description="page, legal_reason, category, count"),
            409: OpenApiResponse(ErrorSerializer, description="Not approved yet"),
            **ERROR_RESPONSES,
        },
    )
    def get(self, request: Request, document_id: str) -> HttpResponse:
        document = document_or_404(request, document_id)
        rows = redaction_log(document)
        if rows is None:
            raise NotReady("the document has no approved redactions yet")
        return redaction_log_attachment(rows, document)


class StallSerializer(serializers.Serializer):
    handoff = serializers.ChoiceField(
        choices=["ingestion", "assignment", "review", "rendering", "signing", "dead_letter"]
    )
    count = serializers.IntegerField()
    oldest_age_seconds = serializers.IntegerField()


class RunHealthSerializer(serializers.Serializer):
    submission_id = serializers.UUIDField()
    external_ref = serializers.CharField()
    received_at = serializers.DateTimeField()
    statutory_deadline = serializers.DateTimeField()
    counts_by_state = serializers.DictField(child=serializers.IntegerField())
    expected_terminal = serializers.IntegerField()
    observed_terminal = serializers.IntegerField()
    oldest_open_age_seconds = serializers.IntegerField(allow_null=True)
    last_transition_at = serializers.DateTimeField(allow_null=True)
    last_event = serializers.CharField(allow_blank=True)
    holds = serializers.DictField(child=serializers.IntegerField())
    legal_hold = serializers.BooleanField()
    diagnosis = serializers.CharField(help_text="The stalled handoff, or 'healthy'.")
    stalls = StallSerializer(many=True)


class SubmissionHealthApi(APIView):
    @extend_schema(
        operation_id="submission_health",
        responses={200: RunHealthSerializer, **ERROR_RESPONSES},
    )
    def get(self, request: Request, submission_id: str) -> Response:
        submission = _submission_or_404(request, submission_id)
        (health,) = run_health(submissions=Submission.objects.filter(pk=submission.pk))
        return Response(RunHealthSerializer(health.as_dict()).data)
