"""What every review page shares: the request behind `login_required`, and the
headers that keep a page out of every cache."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse


class AuthenticatedRequest(HttpRequest):
    """A request behind `login_required`: its user is a real user."""

    user: User


NO_STORE = {
    "Cache-Control": "no-store, private",
    "Pragma": "no-cache",
    "X-Content-Type-Options": "nosniff",
}


def no_store(response: HttpResponse) -> HttpResponse:
    for header, value in NO_STORE.items():
        response[header] = value
    return response
