"""The intake REST API. Views parse input, call one service or selector, and render."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, NoReturn

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.validators import RegexValidator
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from audit.evidence import evidence_bundle
from common.api import ERROR_RESPONSES, ErrorSerializer, flatten_errors, request_user
from intake import selectors
from intake.metrics import admission_timed
from intake.models import Document, SlaClass, Submission
from intake.services.admission import (
    AdmissionRejected,
    RequestTooLarge,
    submission_admit,
    submission_reject,
)
from intake.services.checks import IncomingFile, Problem, correlation_id_or_new, oversize_problem
from intake.services.throttle import throttle_hit

CORRELATION_HEADER = "X-Correlation-ID"


class ClientRateThrottle(BaseThrottle):
    """At most the rate's number of requests per intake client in each window of its
    period (settings.INTAKE_THROTTLE_RATE, read at request time, e.g. "120/min")."""

    def allow_request(self, request: Request, view: object) -> bool:
        user = request.user
        if not (user and user.is_authenticated):
            return True  # authentication refuses it
        allowed, self.left = throttle_hit(
            client_id=user.pk, rate=settings.INTAKE_THROTTLE_RATE, now=time.time()
        )
        return allowed

    def wait(self) -> float:
        return self.left


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


# The published schema says what the server accepts: not blank, not only white space
# (the server trims white space, then refuses an empty value).
NOT_BLANK = RegexValidator(r"\S", message="must not be blank", code="blank")


class SubmissionInSerializer(serializers.Serializer):
    files = serializers.ListField(
        child=serializers.FileField(allow_empty_file=True, use_url=False), allow_empty=False
    )
    external_ref = serializers.CharField(max_length=200, validators=[NOT_BLANK])
    jurisdiction = serializers.CharField(max_length=32, validators=[NOT_BLANK])
    sla_class = serializers.ChoiceField(choices=SlaClass.choices, default=SlaClass.STANDARD)
    priority_score = serializers.IntegerField(min_value=0, max_value=100, default=50)
    paths = serializers.ListField(
        child=serializers.CharField(max_length=1000),
        required=False,
        help_text="One relative path per file, in the same order: no '..', no control or "
        "bidirectional-override characters.",
    )
    search_terms = serializers.ListField(
        child=serializers.CharField(max_length=200), required=False
    )


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

    def throttled(self, request: Request, wait: float) -> NoReturn:
        """Over its rate: refused before the body is read, and kept as rejected."""
        problem = Problem(
            "body", "throttled", f"over the rate of {settings.INTAKE_THROTTLE_RATE} requests"
        )
        submission_reject(
            client=request_user(request),
            channel=Submission.Channel.API,
            correlation_id=correlation_id_or_new(request.headers.get(CORRELATION_HEADER)),
            problems=[problem],
            idempotency_key=request.headers.get("Idempotency-Key") or "",
            actor=f"client:{request.user.get_username()}",
        )
        super().throttled(request, wait)

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
            413: OpenApiResponse(
                ErrorSerializer,
                description="More files or fields than allowed, or a form field over "
                "the size limit (recorded as a rejected submission)",
            ),
            415: OpenApiResponse(
                ErrorSerializer, description="The body is not readable multipart/form-data"
            ),
            **ERROR_RESPONSES,
        },
    )
    @admission_timed  # created, replayed and rejected admissions alike
    def post(self, request: Request) -> Response:
        correlation_id = correlation_id_or_new(request.headers.get(CORRELATION_HEADER))
        idempotency_key = request.headers.get("Idempotency-Key")
        actor = f"client:{request.user.get_username()}"
        try:
            body = request.data  # parsed here: Django's upload limits raise on reading it
        except (RequestDataTooBig, TooManyFilesSent, TooManyFieldsSent) as error:
            problem = oversize_problem(error)
            submission_reject(
                client=request_user(request),
                channel=Submission.Channel.API,
                correlation_id=correlation_id,
                problems=[problem],
                idempotency_key=idempotency_key or "",
                actor=actor,
            )
            raise RequestTooLarge([problem]) from error
        serializer = SubmissionInSerializer(data=body)
        if not serializer.is_valid():
            problems = [Problem(**e) for e in flatten_errors(serializer.errors)]
            submission_reject(
                client=request_user(request),
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
            client=request_user(request),
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


def document_or_404(request: Request, document_id: str) -> Document:
    try:
        return selectors.document_get(user=request_user(request), document_id=document_id)
    except Document.DoesNotExist as exc:
        raise NotFound("no such document") from exc


class DocumentEvidenceApi(APIView):
    @extend_schema(
        operation_id="document_evidence",
        responses={
            (200, "application/json"): OpenApiResponse(
                description="The document's audit chain and the signed checkpoint over its "
                "head, with the Merkle path: check it offline with tools/verify_evidence.py"
            ),
            **ERROR_RESPONSES,
        },
    )
    def get(self, request: Request, document_id: str) -> HttpResponse:
        document = document_or_404(request, document_id)
        try:
            bundle = evidence_bundle(document.id)
        except LookupError as exc:
            raise NotFound(str(exc)) from exc
        response = HttpResponse(
            json.dumps(bundle, sort_keys=True, indent=1), content_type="application/json"
        )
        response["Content-Disposition"] = f'attachment; filename="evidence-{document.id}.json"'
        return response


class DocumentEventsApi(APIView):
    @extend_schema(
        operation_id="document_events",
        responses={200: AuditEventOutSerializer(many=True), **ERROR_RESPONSES},
    )
    def get(self, request: Request, document_id: str) -> Response:
        document = document_or_404(request, document_id)
        events = selectors.document_events(document=document)
        return Response(AuditEventOutSerializer(events, many=True).data)
