"""The reviewer's workbench: the queue, claiming, the item page and its page images, and
the decisions, heartbeat, release, approval and escalation it sends. Each view parses
input, calls one service or selector, renders."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from common.errors import DomainError
from intake.selectors import exemption_catalogue, exemption_titles
from review import health, selectors
from review.errors import ClaimLost, InvalidDecision, OutputDisposed, UnrenderableDocument
from review.models import Claim, Queue, ReviewItem
from review.pdf.geometry import ShownBox, boxes_from_shown
from review.pdf.render import MUPDF_ERRORS, notice_png
from review.services.claims import claim_heartbeat, claim_item, claim_release
from review.services.claims import claim_next as claim_next_item
from review.services.decisions import (
    ESCALATION_REASONS,
    MarkChange,
    NewMark,
    item_escalate,
    proposal_revise,
)
from review.services.release import item_approve
from review.services.rendering import document_check_quarantine, page_image_render
from review.services.retention import original_disposed_check
from review.views.shared import AuthenticatedRequest, no_store


@login_required
def queue(request: AuthenticatedRequest) -> HttpResponse:
    context = {
        "counts": selectors.queue_counts(user=request.user),
        "items": selectors.queue_items(user=request.user),
        "sees_holds": selectors.sees_holds(request.user),
    }
    return no_store(render(request, "review/queue.html", context))


@login_required
@require_POST
def claim_next(request: AuthenticatedRequest) -> HttpResponse:
    try:
        claim = claim_next_item(reviewer=request.user)
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("review:queue")
    held = selectors.held_in_queues(request.user)
    on_hold = f" {held} item{'s' if held != 1 else ''} on hold passed over." if held else ""
    if claim is None:
        messages.info(
            request, "Nothing to claim: every item you may take is done or taken." + on_hold
        )
        return redirect("review:queue")
    if held:
        messages.info(request, on_hold.strip())
    return redirect("review:item", item_id=claim.item_id)


def _item_for(request: AuthenticatedRequest, item_id: int) -> tuple[ReviewItem, Claim | None]:
    item = get_object_or_404(
        ReviewItem.objects.select_related("document__submission__jurisdiction"), pk=item_id
    )
    claim = selectors.open_claim_for(item=item, user=request.user)
    return item, claim


ViewFunc = Callable[..., HttpResponse]


def _moved_aside_on_failure(answer: str) -> Callable[[ViewFunc], ViewFunc]:
    """A page of the item's document that cannot be drawn takes the item out of review
    (the service ends the claim and dead-letters it) and the reviewer is told so, never
    shown a 500: as a page (`answer="page"`), as JSON for the workbench ("json") or as
    a picture in place of the page image ("image"). A raw MuPDF failure elsewhere in
    the view (the layout, the redacted preview) is checked page by page first; any
    other failure surfaces as before."""

    def decorate(view: ViewFunc) -> ViewFunc:
        @functools.wraps(view)
        def wrapped(request: AuthenticatedRequest, item_id: int, **kwargs: Any) -> HttpResponse:
            try:
                return view(request, item_id, **kwargs)
            except UnrenderableDocument as error:
                return _moved_aside(request, error, answer)
            except MUPDF_ERRORS as failure:  # RecursionError included
                quarantined = document_check_quarantine(
                    item_id=item_id,
                    actor=request.user,
                    mupdf_failed=type(failure) is not RuntimeError,
                )
                if quarantined is None:
                    raise
                return _moved_aside(request, quarantined, answer)

        return wrapped

    return decorate


def _moved_aside(
    request: AuthenticatedRequest, error: UnrenderableDocument, answer: str
) -> HttpResponse:
    if answer == "image":
        lines = ["This page cannot be shown.", "The document was moved aside for compliance;"]
        png = notice_png([*lines, "your claim on it is free. Claim next for other work."])
        return no_store(HttpResponse(png, status=error.status, content_type="image/png"))
    if answer == "json":
        body = {"code": error.code, "message": str(error), "reload": reverse("review:queue")}
        return no_store(JsonResponse(body, status=error.status))
    context = {"item_id": error.item_id, "message": str(error)}
    return no_store(render(request, "review/moved_aside.html", context, status=error.status))


@login_required
@_moved_aside_on_failure("page")
def item(request: AuthenticatedRequest, item_id: int) -> HttpResponse:
    item, claim = _item_for(request, item_id)
    if claim is None and not selectors.sees_holds(request.user):
        return no_store(render(request, "review/not_yours.html", {"item_id": item_id}, status=403))
    try:
        original_disposed_check(item.document)
    except OutputDisposed as gone:
        context = {"item_id": item_id, "message": str(gone)}
        return no_store(render(request, "review/disposed.html", context, status=410))
    view_model = selectors.review_view_model(item=item)
    jurisdiction = item.document.submission.jurisdiction
    context = {
        "item": item,
        "claim": claim,
        "read_only": claim is None,
        "document": item.document,
        "escalation_reasons": ESCALATION_REASONS,
        "escalation_queues": [Queue.SENIOR_REVIEW, Queue.COMPLIANCE_REVIEW],
        **view_model,
        "marks_json": view_model["marks"],
        "failure": selectors.failure_explained(item.last_failure_reason)
        if item.last_failure_reason
        else "",
        "reopened_because": selectors.reopen_note(item),
        "legal_hold": selectors.active_legal_hold(item.document) is not None,
        "flags": [
            f
            for f in health.consistency_flags(submission_id=item.document.submission_id)
            if f.item_id == item.pk
        ],
        "categories": selectors.drawable_categories(),
        # The reasons a reviewer may choose: the jurisdiction's catalogue, never free text.
        "exemptions": list(exemption_catalogue(jurisdiction).values()),
        "review_config": {
            "claim_id": claim.pk if claim else None,
            "base_version": view_model["proposal"].version,
            "decisions_url": reverse("review:decisions", args=[item.pk]),
            "heartbeat_url": reverse("review:heartbeat", args=[item.pk]),
            "claim_again_url": reverse("review:claim_again", args=[item.pk]),
            "read_only": claim is None,
            "heartbeat_seconds": settings.REVIEW_HEARTBEAT_SECONDS,
            "hold": selectors.hold_shown(
                item, selectors.active_legal_hold(item.document) is not None
            ),
            "exemptions": [
                {"code": e.code, "title": e.title}
                for e in exemption_catalogue(jurisdiction).values()
            ],
            "exemption_titles": exemption_titles(jurisdiction),
            # What the burn-in removes, for the preview (whole glyphs a box touches).
            "removed": selectors.preview_removed(view_model["proposal"]),
        },
    }
    return no_store(render(request, "review/item.html", context))


# Page images come in three sizes: a thumbnail (about 200 px wide for a letter page), the
# page at its usual size, and a sharper one for zooming in. A fixed set, so a request
# cannot ask for a render of any size.
PAGE_IMAGE_DPI = {"thumb": 24, "": 100, "large": 200}


@login_required
@_moved_aside_on_failure("image")
def page_image(request: AuthenticatedRequest, item_id: int, page: int) -> HttpResponse:
    item, claim = _item_for(request, item_id)
    if claim is None and not selectors.sees_holds(request.user):
        return no_store(HttpResponse("Not your item.", status=403, content_type="text/plain"))
    if not 0 <= page < item.document.page_count:
        return no_store(HttpResponse("No such page.", status=404, content_type="text/plain"))
    try:
        original_disposed_check(item.document)
    except OutputDisposed as gone:
        return no_store(HttpResponse(str(gone), status=410, content_type="text/plain"))
    png = page_image_render(
        viewer=request.user,
        item=item,
        page=page,
        preview=request.GET.get("preview") == "1",
        dpi=PAGE_IMAGE_DPI.get(request.GET.get("size", ""), PAGE_IMAGE_DPI[""]),
    )
    return no_store(HttpResponse(png, content_type="image/png"))


def _json_error(error: DomainError) -> JsonResponse:
    status = 409 if isinstance(error, ClaimLost) else error.status
    return JsonResponse({"code": error.code, "message": str(error)}, status=status)


def _plain_text(value: object, what: str, *, lines: bool = False) -> str:
    """`value` as text without control characters: none belongs in a category, a reason
    or a note (line breaks and tabs aside, in a note), and PostgreSQL cannot store NUL."""
    text = str(value)
    allowed = "\n\r\t" if lines else ""
    if any((ch < " " or "\x7f" <= ch <= "\x9f") and ch not in allowed for ch in text):
        raise InvalidDecision(f"the {what} holds control characters; remove them")
    return text


def _parse_new_marks(item: ReviewItem, raw: list[dict[str, Any]]) -> list[NewMark]:
    """The browser sends boxes as fractions of the page as shown; store them unrotated."""
    if not raw:
        return []
    shown = []
    for entry in raw:
        page_number = int(entry["page"])
        if not 0 <= page_number < item.document.page_count:
            raise DomainError(f"page {page_number + 1} does not exist", code="invalid_decision")
        box = ShownBox(*(float(entry[key]) for key in ("left", "top", "width", "height")))
        shown.append((page_number, box))
    boxes = boxes_from_shown(selectors.original_bytes(item.document), shown)
    return [
        NewMark(
            page=page_number,
            x0=box.x0,
            y0=box.y0,
            x1=box.x1,
            y1=box.y1,
            category=_plain_text(entry.get("category", ""), "category").strip(),
            legal_reason=_plain_text(entry.get("reason", ""), "reason").strip(),
        )
        for entry, (page_number, _), box in zip(raw, shown, boxes, strict=True)
    ]


@login_required
@require_POST
@_moved_aside_on_failure("json")
def decisions(request: AuthenticatedRequest, item_id: int) -> HttpResponse:
    item = get_object_or_404(ReviewItem.objects.select_related("document"), pk=item_id)
    try:
        body = json.loads(request.body)
        claim_id = int(body["claim_id"])
        _claim_first(request, item=item, claim_id=claim_id)
        changes = {
            str(key): MarkChange(decision=value.get("decision"), legal_reason=value.get("reason"))
            for key, value in body.get("changes", {}).items()
        }
        proposal = proposal_revise(
            item_id=item.pk,
            claim_id=claim_id,
            reviewer=request.user,
            base_version=int(body["base_version"]),
            changes=changes,
            added=_parse_new_marks(item, body.get("added", [])),
        )
    except DomainError as error:
        return no_store(_json_error(error))
    except RequestDataTooBig:
        message = (
            f"the decisions are over {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes; "
            "nothing was saved: save them in smaller batches"
        )
        return no_store(JsonResponse({"code": "request_too_large", "message": message}, status=413))
    except (ValueError, KeyError, TypeError, AttributeError):
        return no_store(
            JsonResponse({"code": "invalid_request", "message": "malformed request"}, status=400)
        )
    return no_store(
        JsonResponse(
            {
                "version": proposal.version,
                "proposal_sha256": proposal.proposal_sha256,
                "preview_sha256": selectors.proposal_preview(proposal).sha256,
                "reload": reverse("review:item", args=[item.pk]),
            }
        )
    )


@login_required
@require_POST
def heartbeat(request: AuthenticatedRequest, item_id: int) -> HttpResponse:
    try:
        expires_at = claim_heartbeat(
            item_id=item_id, claim_id=int(request.POST["claim_id"]), reviewer=request.user
        )
    except ClaimLost as error:
        # The lease ran out: say whether the page may claim the item again.
        lost = get_object_or_404(ReviewItem.objects.select_related("document"), pk=item_id)
        free = selectors.item_free_to_claim(item=lost, user=request.user)
        return no_store(
            JsonResponse(
                {"code": error.code, "message": str(error), "claim_again": free}, status=409
            )
        )
    except DomainError as error:
        return no_store(_json_error(error))
    except (KeyError, ValueError):
        return no_store(
            JsonResponse({"code": "invalid_request", "message": "claim_id required"}, status=400)
        )
    # The heartbeat also tells the open page about a hold placed since it loaded.
    item = get_object_or_404(ReviewItem.objects.select_related("document"), pk=item_id)
    hold = selectors.hold_shown(item, selectors.active_legal_hold(item.document) is not None)
    return no_store(JsonResponse({"expires_at": expires_at.isoformat(), "hold": hold}))


@login_required
@require_POST
def claim_again(request: AuthenticatedRequest, item_id: int) -> HttpResponse:
    """The open item page whose lease ran out claims the same item again; the page keeps
    its unsaved decisions and goes on under the new claim."""
    try:
        claim = claim_item(item_id=item_id, reviewer=request.user)
    except DomainError as error:
        return no_store(_json_error(error))
    item = get_object_or_404(ReviewItem.objects.select_related("document"), pk=item_id)
    proposal = selectors.latest_proposal(item.document)
    return no_store(
        JsonResponse(
            {
                "claim_id": claim.pk,
                "expires_at": claim.expires_at.isoformat(),
                "version": proposal.version if proposal else None,
            }
        )
    )


def _claim_first(request: AuthenticatedRequest, *, item: ReviewItem, claim_id: int) -> None:
    """Raise ClaimLost unless `claim_id` is the caller's open claim on `item`: checked
    before anything is read for or written by a write (the role was checked by
    review.middleware; the service checks the claim again under the item's lock), so a
    caller without the claim writes nothing, not even a HOLD_BLOCKED event, and learns
    nothing about holds."""
    claim = selectors.open_claim_for(item=item, user=request.user)
    if claim is None or claim.pk != claim_id:
        raise ClaimLost()


def _claim_action(
    request: AuthenticatedRequest, item_id: int, action: Callable[[int], object], success: str
) -> HttpResponse:
    item = get_object_or_404(ReviewItem, pk=item_id)
    try:
        claim_id = int(request.POST.get("claim_id", "0"))
        _claim_first(request, item=item, claim_id=claim_id)
        action(claim_id)
    except ValueError:
        messages.error(request, "The form was malformed; nothing was changed. Reload the item.")
        return redirect("review:item", item_id=item_id)
    except DomainError as error:
        messages.error(request, str(error))
        if isinstance(error, ClaimLost):
            return redirect("review:queue")
        return redirect("review:item", item_id=item_id)
    messages.success(request, success)
    return redirect("review:queue")


@login_required
@require_POST
def release(request: AuthenticatedRequest, item_id: int) -> HttpResponse:
    return _claim_action(
        request,
        item_id,
        lambda claim_id: claim_release(item_id=item_id, claim_id=claim_id, reviewer=request.user),
        f"Item {item_id} released back to the queue.",
    )


@login_required
@require_POST
@_moved_aside_on_failure("page")
def approve(request: AuthenticatedRequest, item_id: int) -> HttpResponse:
    def act(claim_id: int) -> None:
        item_approve(
            item_id=item_id,
            claim_id=claim_id,
            reviewer=request.user,
            proposal_version=int(request.POST.get("proposal_version", "0")),
            preview_sha256=request.POST.get("preview_sha256", ""),
        )

    return _claim_action(request, item_id, act, f"Item {item_id} approved; rendering is queued.")


@login_required
@require_POST
def escalate(request: AuthenticatedRequest, item_id: int) -> HttpResponse:
    return _claim_action(
        request,
        item_id,
        lambda claim_id: item_escalate(
            item_id=item_id,
            claim_id=claim_id,
            reviewer=request.user,
            to_queue=request.POST.get("to_queue", ""),
            reason=request.POST.get("reason", ""),
            note=_plain_text(request.POST.get("note", ""), "note", lines=True),
        ),
        f"Item {item_id} escalated.",
    )
