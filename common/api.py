"""One JSON error shape for the whole API:
`{"code": ..., "message": ..., "errors": [{"field", "code", "message"}]}`."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from common.errors import DomainError


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


def flatten_errors(detail: Any, field: str = "") -> list[dict[str, str]]:
    """DRF's nested error details as a flat list, each naming its field and code."""
    if isinstance(detail, dict):
        return [
            error
            for key, value in detail.items()
            for error in flatten_errors(
                value, key if key == "non_field_errors" or not field else f"{field}.{key}"
            )
        ]
    if isinstance(detail, list):
        if all(not isinstance(d, dict | list) for d in detail):
            return [
                {"field": field, "code": getattr(d, "code", "invalid"), "message": str(d)}
                for d in detail
            ]
        return [
            error
            for index, value in enumerate(detail)
            for error in flatten_errors(value, f"{field}[{index}]")
        ]
    return [{"field": field, "code": getattr(detail, "code", "invalid"), "message": str(detail)}]


def error_body(
    code: str, message: str, errors: list[dict[str, str]] | None = None
) -> dict[str, Any]:
    return {"code": code, "message": message, "errors": errors or []}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        problems = [p.as_dict() for p in getattr(exc, "problems", [])]
        return Response(error_body(exc.code, str(exc), problems), status=exc.status)
    if isinstance(exc, RequestDataTooBig | TooManyFilesSent | TooManyFieldsSent):
        # Django's upload limits, met while reading the body (outside the intake view,
        # which records them as rejected submissions): its HTML 400 is not the API's shape.
        return Response(
            error_body("request_too_large", "the request is over the upload limits"),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = error_body(
            "invalid_request", "the request is invalid", flatten_errors(exc.detail)
        )
    elif isinstance(exc, exceptions.APIException):
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else exc.default_code
        response.data = error_body(str(code), str(exc.detail))
    if response.status_code == status.HTTP_429_TOO_MANY_REQUESTS:
        response.data["code"] = "throttled"
    return response


def request_user(request: Request) -> User:
    """The user behind an API request; every API view requires one to be logged in."""
    user = request.user
    if not isinstance(user, User):
        raise exceptions.NotAuthenticated()
    return user
