"""The second factor (django-otp, TOTP): required, when OTP_REQUIRED is on (the
production settings), of everyone who can reach the admin or the ops pages: staff users,
superusers and compliance officers. Such a user who has logged in with a password but not
yet with a token from an enrolled device is sent to the verification page from every
page, or answered 403 on the API; reviewers and intake clients (token authentication,
never a session) are not asked. `manage.py enrol_totp USERNAME` enrols a device.
"""

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django_otp import login as otp_login
from django_otp import match_token, user_has_device

from review.roles import COMPLIANCE_OFFICER

# Reachable before the second factor: logging in and out, the verification page itself,
# and the static files those pages use.
_OPEN_PATHS = ("/accounts/login/", "/accounts/logout/", "/accounts/verify/", "/admin/logout/")


def needs_second_factor(user: AbstractBaseUser | AnonymousUser) -> bool:
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False) or getattr(user, "is_superuser", False):
        return True
    return user.groups.filter(name=COMPLIANCE_OFFICER).exists()  # type: ignore[attr-defined]


class SecondFactorMiddleware:
    """After django-otp's OTPMiddleware, which tells whether the session was verified."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.OTP_REQUIRED and not self._open(request.path):
            user = request.user
            if needs_second_factor(user) and not user.is_verified():  # type: ignore[union-attr]
                if request.path.startswith("/api/"):
                    return JsonResponse(
                        {
                            "code": "second_factor_required",
                            "message": "log in with your second factor first",
                            "errors": [],
                        },
                        status=403,
                    )
                return redirect(f"{reverse('otp_verify')}?{urlencode({'next': request.path})}")
        return self.get_response(request)

    @staticmethod
    def _open(path: str) -> bool:
        return path.startswith(_OPEN_PATHS) or path.startswith(
            "/" + settings.STATIC_URL.lstrip("/")
        )


@login_required
def verify(request: HttpRequest) -> HttpResponse:
    """Ask for a token from the user's enrolled authenticator and mark the session
    verified. django-otp throttles wrong tokens per device."""
    next_url = request.POST.get("next") or request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    error = ""
    if request.method == "POST":
        device = match_token(request.user, request.POST.get("otp_token", "").strip())
        if device is not None:
            otp_login(request, device)
            return redirect(next_url)
        error = (
            "That code is not valid. Enter the current six-digit code from your authenticator app."
        )
    return render(
        request,
        "registration/otp_verify.html",
        {"next": next_url, "error": error, "enrolled": user_has_device(request.user)},
        status=400 if error else 200,
    )
