"""The authorization matrix (`common.authz.MATRIX`) enforced for the reviewer site, before
any view runs: the caller's role first, then, for an item, that it exists (404) and, for
a write on it, that the caller did not submit its document (403). Whose claim it is is
the service's check, under the item's lock. Nothing here writes anything."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse

from common.authz import (
    ANONYMOUS,
    CLAIMED_ITEM,
    FREE_ITEM,
    MATRIX,
    allowed,
    caller_roles,
    refusal_message,
)
from review.models import ReviewItem

NAMESPACE = "review"


def _refused(json: bool, status: int, code: str, message: str) -> HttpResponse:
    if json:
        response: HttpResponse = JsonResponse(
            {"code": code, "message": message, "errors": []}, status=status
        )
    else:
        response = HttpResponse(message, status=status, content_type="text/plain")
    response["Cache-Control"] = "no-store, private"
    return response


class AuthorizationMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        match = request.resolver_match
        if match is None or match.namespace != NAMESPACE:
            return None  # the API checks the matrix itself (common.authz.Authorized)
        endpoint = match.view_name
        rule = MATRIX.get(endpoint)
        json = bool(rule and rule.json)
        roles = caller_roles(request.user, via_session=True)
        if ANONYMOUS in roles:
            return redirect_to_login(request.get_full_path())
        if not allowed(endpoint, roles):
            return _refused(json, 403, "not_allowed", refusal_message(endpoint))
        if "item_id" not in kwargs or rule is None:
            return None
        submitter = (
            ReviewItem.objects.filter(pk=kwargs["item_id"])
            .values_list("document__submission__client_id", flat=True)
            .first()
        )
        if submitter is None and not ReviewItem.objects.filter(pk=kwargs["item_id"]).exists():
            return _refused(json, 404, "not_found", "no such item")
        if rule.objects in (CLAIMED_ITEM, FREE_ITEM) and submitter == request.user.pk:
            # Separation of duties: nobody reviews what they submitted (DESIGN rule 10).
            return _refused(
                json,
                403,
                "own_submission",
                "you submitted this document: someone else must review it",
            )
        return None
