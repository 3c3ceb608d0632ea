"""What a locked-out login sees (django-axes' AXES_LOCKOUT_CALLABLE)."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(
    request: HttpRequest,
    original_response: HttpResponse | None = None,  # noqa: ARG001 - axes' signature
    credentials: dict | None = None,  # noqa: ARG001
) -> HttpResponse:
    """A page, not a bare error: the account is locked after AXES_FAILURE_LIMIT failed
    logins, for AXES_COOLOFF_TIME, whatever the password tried next."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/locked_out.html",
        {"failure_limit": settings.AXES_FAILURE_LIMIT, "cooloff_minutes": minutes},
        status=429,
    )
