"""The audit ledger over REST, for compliance officers: a filtered, keyset-paginated list,
or the same events streamed as a JSON Lines or CSV export with their chain hashes.

No filter is required. Each JSON page is bounded (`limit` at most 500) and pages by
sequence (`after`), so an unfiltered page costs the same as a filtered one, and walking
or exporting the whole ledger is exactly what an auditor checking the chain needs. The
filters narrow a trace; they are not there to protect the database.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.http import HttpResponseBase, StreamingHttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from audit.exports import CONTENT_TYPES, event_record, events_filter, export_rows
from common.api import ErrorSerializer

MAX_PAGE = 500
# PostgreSQL's bigint: a larger `after` would overflow the query, so refuse it as input.
MAX_SEQUENCE = 2**63 - 1


class CanReadLedger(BasePermission):
    """Compliance officers (and superusers): `audit.view_auditevent`."""

    message = "reading the audit ledger needs the audit.view_auditevent permission"

    def has_permission(self, request: Request, view: APIView) -> bool:
        user = request.user
        return bool(user and user.is_authenticated and user.has_perm("audit.view_auditevent"))


class _NoFormatOverride:
    URL_FORMAT_OVERRIDE = None


class ExportFormatNegotiation(DefaultContentNegotiation):
    """Here `?format=` names the export format, not one of DRF's renderers; errors are
    rendered as JSON whatever format was asked for."""

    settings = _NoFormatOverride()  # type: ignore[assignment]


WHOLE_NUMBER = re.compile(r"-?[0-9]+")
CONTROL_FREE = r"^[^\x00-\x1f\x7f]+$"  # empty is the other branch: "any"


class _WholeValueValidator(RegexValidator):
    """The pattern over the whole value, as the schema's (ECMA) pattern reads: Python's
    `$` also matches before a final line break, so "user:olga\n" passed a search."""

    def __call__(self, value: Any) -> None:
        if not re.fullmatch(self.regex, str(value)):
            raise ValidationError(self.message, code=self.code)


class ControlFreeFilter(serializers.CharField):
    """A text filter, empty meaning "any". Ledger values never hold control characters;
    the schema says so (a pattern, beside the empty branch DRF adds), so a filter holding
    one is invalid input, reported once, not a valid filter refused."""

    def __init__(self, **kwargs: Any) -> None:
        # Not trimmed: the value is matched exactly, as the schema describes it.
        super().__init__(required=False, allow_blank=True, trim_whitespace=False, **kwargs)
        self.validators = [
            _WholeValueValidator(CONTROL_FREE, "control characters are not allowed")
            if isinstance(v, ProhibitNullCharactersValidator)
            else v
            for v in self.validators
        ]


class WholeNumberFilter(serializers.IntegerField):
    """An integer query value written as digits, as the schema's `integer` says: DRF's
    own field also takes "2.0"."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not WHOLE_NUMBER.fullmatch(data):
            self.fail("invalid")
        return super().to_internal_value(data)


class AuditQuerySerializer(serializers.Serializer):
    correlation_id = ControlFreeFilter(max_length=64)
    submission_id = serializers.UUIDField(required=False)
    document_id = serializers.UUIDField(required=False)
    actor = ControlFreeFilter(max_length=150, help_text="Exact, e.g. user:olga")
    after = WholeNumberFilter(
        required=False,
        default=0,
        min_value=0,
        max_value=MAX_SEQUENCE,
        help_text="Only events with a larger sequence (the previous page's next_after).",
    )
    limit = WholeNumberFilter(
        required=False,
        default=100,
        min_value=1,
        max_value=MAX_PAGE,
        help_text="Page size of the JSON list (exports are not paged).",
    )
    format = serializers.ChoiceField(
        choices=["json", "jsonl", "csv"],
        required=False,
        default="json",
        help_text="json: a page; jsonl or csv: a streamed export of every matching event.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # DRF reads an empty query value as "not given"; for ids, numbers and the format
        # that would accept what the schema forbids, so an empty one is refused instead.
        blank = [
            name
            for name in ("submission_id", "document_id", "after", "limit", "format")
            if self.initial_data.get(name, None) == ""
        ]
        if blank:
            raise serializers.ValidationError(
                {name: ["This value may not be empty."] for name in blank}, code="blank"
            )
        return attrs

    def to_internal_value(self, data: Any) -> Any:
        """Each parameter once, as the schema has it: of "?actor=a&actor=b" DRF would read
        only the last value, so a first one the filter refuses would pass unseen."""
        if hasattr(data, "getlist"):
            repeated = {
                name: [ErrorDetail("give this parameter once", code="repeated")]
                for name in self.fields.keys()
                if len(data.getlist(name)) > 1
            }
            if repeated:
                raise serializers.ValidationError(repeated)
        return super().to_internal_value(data)


class AuditEventSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    occurred_at = serializers.CharField(help_text="ISO-8601 with microseconds (UTC).")
    event_type = serializers.CharField()
    actor = serializers.CharField()
    submission_id = serializers.UUIDField(allow_null=True)
    document_id = serializers.UUIDField(allow_null=True)
    item_id = serializers.IntegerField(allow_null=True)
    correlation_id = serializers.CharField(allow_blank=True)
    attempt = serializers.IntegerField(allow_null=True)
    input_hash = serializers.CharField(allow_blank=True)
    policy_version = serializers.IntegerField(allow_null=True)
    output_hash = serializers.CharField(allow_blank=True)
    extra = serializers.DictField()
    prev_hash = serializers.CharField()
    row_hash = serializers.CharField()


class AuditPageSerializer(serializers.Serializer):
    results = AuditEventSerializer(many=True)
    next_after = serializers.IntegerField(
        allow_null=True, help_text="Pass as `after` for the next page; null on the last."
    )


class AuditEventListApi(APIView):
    permission_classes = [CanReadLedger]
    content_negotiation_class = ExportFormatNegotiation

    @extend_schema(
        operation_id="audit_events",
        parameters=[AuditQuerySerializer],
        responses={
            (200, "application/json"): AuditPageSerializer,
            (200, "application/jsonl"): OpenApiResponse(
                OpenApiTypes.STR, description="format=jsonl: one event per line, as an attachment"
            ),
            (200, "text/csv"): OpenApiResponse(
                OpenApiTypes.STR, description="format=csv: a header line, then one event per row"
            ),
            400: OpenApiResponse(ErrorSerializer, description="A filter does not parse"),
            401: OpenApiResponse(ErrorSerializer, description="Missing or invalid credentials"),
            403: OpenApiResponse(ErrorSerializer, description="Not a compliance officer"),
        },
    )
    def get(self, request: Request) -> HttpResponseBase:
        query = AuditQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params: dict[str, Any] = query.validated_data
        events = events_filter(
            correlation_id=params.get("correlation_id"),
            submission_id=params.get("submission_id"),
            document_id=params.get("document_id"),
            actor=params.get("actor"),
        ).filter(sequence__gt=params["after"])
        fmt = params["format"]
        if fmt != "json":
            response = StreamingHttpResponse(
                export_rows(events, fmt), content_type=f"{CONTENT_TYPES[fmt]}; charset=utf-8"
            )
            response["Content-Disposition"] = f'attachment; filename="audit-events.{fmt}"'
            return response
        page = list(events[: params["limit"] + 1])
        more = len(page) > params["limit"]
        page = page[: params["limit"]]
        body = {
            "results": [event_record(event) for event in page],
            "next_after": page[-1].sequence if more else None,
        }
        return Response(AuditPageSerializer(body).data)
