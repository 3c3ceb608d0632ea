"""The intake REST API. Views parse input, call one service or selector, and render."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from config.api import flatten_errors
from intake import selectors
from intake.models import Document, SlaClass, Submission
from intake.services import (
    AdmissionRejected,
    IncomingFile,
    Problem,
    correlation_id_or_new,
    submission_admit,
    submission_reject,
)
from review import selectors as review_selectors
from review import services as review_services
from review.downloads import pdf_attachment, redaction_log_attachment
from review.metrics import admission_timed

CORRELATION_HEADER = "X-Correlation-ID"


class ClientRateThrottle(UserRateThrottle):
    """Per intake client (per user id); the rate is read at request time from settings."""

    scope = "intake"

    def get_rate(self) -> str | None:
        return settings.INTAKE_THROTTLE_RATE


class ErrorItemSerializer(serializers.Serializer):
    field = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField()


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    # A declared field named `errors` is fine at run time (DRF's metaclass collects it), but
    # it shadows Serializer.errors for the type checker.
    errors = ErrorItemSerializer(many=True)  # type: ignore[assignment]


ERROR_RESPONSES = {
    401: OpenApiResponse(ErrorSerializer, description="Missing or invalid token"),
    403: OpenApiResponse(ErrorSerializer, description="Not allowed"),
    404: OpenApiResponse(ErrorSerializer, description="Unknown id, or another client's"),
    429: OpenApiResponse(ErrorSerializer, description="Throttled; see Retry-After"),
}


class DocumentOutSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    object_id = serializers.CharField()
    source_sha256 = serializers.CharField()
    job_key = serializers.CharField()
    pages = serializers.IntegerField()
    state = serializers.CharField()
    deadline = serializers.DateTimeField()


class SubmissionFieldsSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    external_ref = serializers.CharField()
    jurisdiction = serializers.CharField()
    sla_class = serializers.CharField()
    priority_score = serializers.IntegerField()
    received_at = serializers.DateTimeField()
    statutory_deadline = serializers.DateTimeField()
    correlation_id = serializers.CharField()


class SubmissionOutSerializer(SubmissionFieldsSerializer):
    """The admission answer (201, and replayed verbatim to a duplicate)."""

    policy_version = serializers.IntegerField()
    documents = DocumentOutSerializer(many=True)


class SubmissionInSerializer(serializers.Serializer):
    files = serializers.ListField(
        child=serializers.FileField(allow_empty_file=True, use_url=False), allow_empty=False
    )
    external_ref = serializers.CharField(max_length=200)
    jurisdiction = serializers.CharField(max_length=32)
    sla_class = serializers.ChoiceField(choices=SlaClass.choices, default=SlaClass.STANDARD)
    priority_score = serializers.IntegerField(min_value=0, max_value=100, default=50)
    paths = serializers.ListField(child=serializers.CharField(max_length=1000), required=False)
    search_terms = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False
    )


def _document_status(document: Document) -> dict[str, Any]:
    item = document.item
    artifact = next((a for a in document.artifacts.all() if a.signed_at), None)
    return {
        "redaction_log": review_selectors.redaction_log(document),
        "id": document.id,
        "submission_id": document.submission_id,
        "object_id": document.object_id,
        "source_sha256": document.source_sha256,
        "job_key": document.job_key,
        "pages": document.page_count,
        "state": item.state,
        "queue": item.queue,
        "hold": item.hold,
        "deadline": item.deadline,
        "output_sha256": artifact.signed_sha256 if artifact else None,
    }


class RedactionLogRowSerializer(serializers.Serializer):
    page = serializers.IntegerField()
    legal_reason = serializers.CharField()
    category = serializers.CharField()
    count = serializers.IntegerField()


class DocumentStatusSerializer(DocumentOutSerializer):
    submission_id = serializers.UUIDField()
    queue = serializers.CharField()
    hold = serializers.CharField()
    output_sha256 = serializers.CharField(
        allow_null=True, help_text="SHA-256 of the signed output, once signed."
    )
    redaction_log = RedactionLogRowSerializer(many=True, allow_null=True)


class SubmissionStatusSerializer(SubmissionFieldsSerializer):
    documents = DocumentStatusSerializer(many=True)


class AuditEventOutSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    occurred_at = serializers.DateTimeField()
    event_type = serializers.CharField()
    actor = serializers.CharField()
    submission_id = serializers.UUIDField(allow_null=True)
    document_id = serializers.UUIDField(allow_null=True)
    item_id = serializers.IntegerField(allow_null=True)
    correlation_id = serializers.CharField()
    attempt = serializers.IntegerField(allow_null=True)
    input_hash = serializers.CharField()
    output_hash = serializers.CharField()
    policy_version = serializers.IntegerField(allow_null=True)
    prev_hash = serializers.CharField()
    row_hash = serializers.CharField()


def _with_correlation(response: Response, correlation_id: str) -> Response:
    response[CORRELATION_HEADER] = correlation_id
    return response


class SubmissionCreateApi(APIView):
    parser_classes = [MultiPartParser, FormParser]
    throttle_classes = [ClientRateThrottle]

    @extend_schema(
        operation_id="submission_create",
        request={"multipart/form-data": SubmissionInSerializer},
        parameters=[
            OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False),
            OpenApiParameter(CORRELATION_HEADER, str, OpenApiParameter.HEADER, required=False),
        ],
        responses={
            201: SubmissionOutSerializer,
            200: OpenApiResponse(SubmissionOutSerializer, description="Replay of a duplicate"),
            400: ErrorSerializer,
            409: OpenApiResponse(ErrorSerializer, description="Idempotency-Key reused"),
            **ERROR_RESPONSES,
        },
    )
    @admission_timed  # created, replayed and rejected admissions alike
    def post(self, request: Request) -> Response:
        correlation_id = correlation_id_or_new(request.headers.get(CORRELATION_HEADER))
        idempotency_key = request.headers.get("Idempotency-Key")
        actor = f"client:{request.user.get_username()}"
        serializer = SubmissionInSerializer(data=request.data)
        if not serializer.is_valid():
            problems = [Problem(**e) for e in flatten_errors(serializer.errors)]
            submission_reject(
                client=request.user,
                channel=Submission.Channel.API,
                correlation_id=correlation_id,
                problems=problems,
                external_ref=str(serializer.initial_data.get("external_ref", ""))[:200],
                idempotency_key=idempotency_key or "",
                actor=actor,
            )
            raise AdmissionRejected(problems)
        data = serializer.validated_data
        paths = data.get("paths") or [f.name for f in data["files"]]
        path_problems = []
        if len(paths) != len(data["files"]):
            path_problems.append(
                Problem("paths", "paths_mismatch", "give one path per file, in the same order")
            )
            paths = [f.name for f in data["files"]]
        admission = submission_admit(
            client=request.user,
            files=[
                IncomingFile(object_id=path, upload=upload, local_path=_temp_path(upload))
                for path, upload in zip(paths, data["files"], strict=True)
            ],
            external_ref=data["external_ref"],
            jurisdiction_code=data["jurisdiction"],
            sla_class=data["sla_class"],
            priority_score=data["priority_score"],
            search_terms=data.get("search_terms", []),
            idempotency_key=idempotency_key,
            correlation_id=correlation_id,
            actor=actor,
            extra_problems=path_problems,
        )
        response = Response(
            admission.body,
            status=status.HTTP_200_OK if admission.replayed else status.HTTP_201_CREATED,
        )
        if admission.replayed:
            response["Idempotent-Replayed"] = "true"
        return _with_correlation(response, admission.submission.correlation_id)


def _temp_path(upload: Any) -> Path | None:
    """Large uploads already sit in a temporary file: PyMuPDF opens them from disk."""
    path = getattr(upload, "temporary_file_path", None)
    return Path(path()) if path else None


class SubmissionDetailApi(APIView):
    @extend_schema(
        operation_id="submission_get",
        responses={200: SubmissionStatusSerializer, **ERROR_RESPONSES},
    )
    def get(self, request: Request, submission_id: str) -> Response:
        try:
            submission = selectors.submission_get(user=request.user, submission_id=submission_id)
        except Submission.DoesNotExist as exc:
            raise NotFound("no such submission") from exc
        body = {
            "id": submission.id,
            "external_ref": submission.external_ref,
            "jurisdiction": submission.jurisdiction_id,
            "sla_class": submission.sla_class,
            "priority_score": submission.priority_score,
            "received_at": submission.received_at,
            "statutory_deadline": submission.statutory_deadline,
            "correlation_id": submission.correlation_id,
            "documents": [_document_status(d) for d in submission.documents.all()],
        }
        return Response(SubmissionStatusSerializer(body).data)


def _document_or_404(request: Request, document_id: str) -> Document:
    try:
        return selectors.document_get(user=request.user, document_id=document_id)
    except Document.DoesNotExist as exc:
        raise NotFound("no such document") from exc


class DocumentDetailApi(APIView):
    @extend_schema(
        operation_id="document_get", responses={200: DocumentStatusSerializer, **ERROR_RESPONSES}
    )
    def get(self, request: Request, document_id: str) -> Response:
        document = _document_or_404(request, document_id)
        return Response(DocumentStatusSerializer(_document_status(document)).data)


class DocumentEventsApi(APIView):
    @extend_schema(
        operation_id="document_events",
        responses={200: AuditEventOutSerializer(many=True), **ERROR_RESPONSES},
    )
    def get(self, request: Request, document_id: str) -> Response:
        document = _document_or_404(request, document_id)
        events = selectors.document_events(document=document)
        return Response(AuditEventOutSerializer(events, many=True).data)


class DocumentOutputApi(APIView):
    @extend_schema(
        operation_id="document_output",
        responses={
            (200, "application/pdf"): OpenApiResponse(description="The signed, redacted PDF"),
            409: OpenApiResponse(ErrorSerializer, description="Not signed yet"),
            423: OpenApiResponse(ErrorSerializer, description="On hold"),
            **ERROR_RESPONSES,
        },
    )
    def get(self, request: Request, document_id: str) -> HttpResponse:
        document = _document_or_404(request, document_id)
        artifact, data = review_services.artifact_download(
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
        document = _document_or_404(request, document_id)
        rows = review_selectors.redaction_log(document)
        if rows is None:
            raise review_services.NotReady("the document has no approved redactions yet")
        return redaction_log_attachment(rows, document)
