"""Refuse malformed credentials before anything reads them.

A NUL byte or another control character in `Authorization` or in the session cookie
reached the database as a lookup key, and PostgreSQL refuses NUL in text: every page and
endpoint answered 500. No token, session key or scrape token holds a control character,
so such a value is refused here, first in the chain (before the session and authentication middleware),
in the API's error shape: 401 for the header, 400 for the cookie (which is cleared, so a
browser holding it is not locked out).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


def _control_free(value: str) -> bool:
    """No C0 or C1 control character, nor DEL (what WSGI gives: latin-1 text)."""
    return not any(ch < " " or "\x7f" <= ch <= "\x9f" for ch in value)


def _refusal(status: int, code: str, message: str) -> JsonResponse:
    response = JsonResponse({"code": code, "message": message, "errors": []}, status=status)
    response["Cache-Control"] = "no-store"
    return response


class MalformedCredentialsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        authorization = request.META.get("HTTP_AUTHORIZATION", "")
        if not _control_free(authorization):
            response = _refusal(
                401,
                "malformed_credentials",
                "the Authorization header holds control characters, which no credential has",
            )
            response["WWW-Authenticate"] = "Token"
            return response
        session_key = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
        if not _control_free(session_key):
            response = _refusal(
                400,
                "malformed_cookie",
                f"the {settings.SESSION_COOKIE_NAME} cookie holds control characters, which "
                "no session key has; it was cleared, log in again",
            )
            response.delete_cookie(settings.SESSION_COOKIE_NAME)
            return response
        return self.get_response(request)
