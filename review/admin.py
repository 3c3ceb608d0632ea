import datetime as dt
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import Count, Min, QuerySet
from django.db.models.functions import Now
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from common.errors import DomainError
from intake.admin import ReadOnlyAdmin
from review.errors import InvalidDecision
from review.models import (
    TERMINAL_STATES,
    Approval,
    Artifact,
    Claim,
    CloseReason,
    DeadLetter,
    Disposal,
    LegalHold,
    Mark,
    Outbox,
    Policy,
    Proposal,
    RetentionPolicy,
    ReviewItem,
)
from review.services.failures import dead_letter_requeue
from review.services.holds import (
    breach_resolve,
    hold_lift,
    legal_hold_place,
    legal_hold_release,
)
from review.services.policies import policy_publish
from review.services.recovery import item_close, item_reopen
from review.services.retention import retention_publish


def with_reason(
    title: str,
    perform: Callable[[Any, str, Any, dt.datetime | None], object],
    *,
    ask_deadline: bool = False,
) -> Callable[[admin.ModelAdmin, HttpRequest, QuerySet], TemplateResponse | None]:
    """An admin action that first asks for a reason (required, audited) and, when asked
    to, a new deadline (UTC), then calls the service once per selected row."""

    def action(
        modeladmin: admin.ModelAdmin, request: HttpRequest, queryset: QuerySet
    ) -> TemplateResponse | None:
        reason = request.POST.get("reason", "").strip()
        deadline = _utc(request.POST.get("deadline", "")) if ask_deadline else None
        if "apply" in request.POST and reason and (deadline or not ask_deadline):
            done = 0
            for obj in queryset:
                try:
                    perform(obj, reason, request.user, deadline)
                    done += 1
                except DomainError as error:
                    modeladmin.message_user(request, f"{obj}: {error}", messages.ERROR)
            modeladmin.message_user(request, f"{title}: {done} done.")
            return None
        return TemplateResponse(
            request,
            "admin/review/reason_action.html",
            {
                **modeladmin.admin_site.each_context(request),
                "title": title,
                "objects": list(queryset),
                "action": action.__name__,
                "ask_deadline": ask_deadline,
            },
        )

    action.__name__ = re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_")
    action.short_description = title  # type: ignore[attr-defined]
    return action


def _close(code: str, item: ReviewItem, note: str, user: Any, _: object) -> None:
    item_close(item_id=item.pk, reason_code=code, note=note, actor=user)


def _required(deadline: dt.datetime | None) -> dt.datetime:
    if deadline is None:
        raise InvalidDecision("a new deadline is required")
    return deadline


def _utc(value: str) -> dt.datetime | None:
    """A datetime-local field's value, read as UTC (the service's one clock)."""
    try:
        return dt.datetime.fromisoformat(value).replace(tzinfo=dt.UTC)
    except ValueError:
        return None


class OverdueFilter(admin.SimpleListFilter):
    title = "overdue"
    parameter_name = "overdue"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("yes", "Past deadline, not finished"), ("no", "On time or finished")]

    def queryset(self, request: HttpRequest, queryset: QuerySet) -> QuerySet:
        live = queryset.exclude(state__in=TERMINAL_STATES)
        if self.value() == "yes":
            return live.filter(deadline__lt=Now())
        if self.value() == "no":
            return queryset.exclude(pk__in=live.filter(deadline__lt=Now()).values("pk"))
        return queryset


@admin.register(ReviewItem)
class ReviewItemAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "document",
        "state",
        "queue",
        "hold",
        "sla_class",
        "deadline",
        "priority",
        "attempts",
    ]
    list_filter = ["state", "queue", "hold", "sla_class", OverdueFilter]
    search_fields = ["=id", "=document__id", "document__submission__external_ref"]
    list_select_related = ["document"]
    ordering = ["priority", "deadline", "id"]
    actions = [
        with_reason(
            "Lift SLA or dead-letter hold",
            lambda item, reason, user, _: hold_lift(item_id=item.pk, reason=reason, actor=user),
        ),
        with_reason(
            "Reopen for review",
            lambda item, reason, user, _: item_reopen(item_id=item.pk, reason=reason, actor=user),
        ),
        *(
            with_reason(
                f"Close as failed: {label.lower()}",
                partial(_close, code),
            )
            for code, label in CloseReason.choices
        ),
        with_reason(
            "Resolve SLA breach with a new deadline",
            lambda item, reason, user, deadline: breach_resolve(
                item_id=item.pk, deadline=_required(deadline), reason=reason, actor=user
            ),
            ask_deadline=True,
        ),
    ]


@admin.register(Claim)
class ClaimAdmin(ReadOnlyAdmin):
    list_display = ["id", "item", "reviewer", "claimed_at", "expires_at", "ended_at", "outcome"]
    list_filter = ["outcome", "reviewer"]  # reclaim history per reviewer: outcome=expired
    list_select_related = ["reviewer"]


@admin.register(Outbox)
class OutboxAdmin(ReadOnlyAdmin):
    """Work queued for items: what is due, what was sent, what finished."""

    list_display = ["id", "item", "task", "lane", "reason", "due_at", "sent_at", "sends", "done_at"]
    list_filter = ["task", "lane", ("done_at", admin.EmptyFieldListFilter)]


class MarkInline(admin.TabularInline):
    model = Mark
    fields = [
        "page",
        "category",
        "legal_reason",
        "detector",
        "confidence",
        "decision",
        "group",
    ]
    readonly_fields = (
        "page",
        "category",
        "legal_reason",
        "detector",
        "confidence",
        "decision",
        "group",
    )
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Proposal)
class ProposalAdmin(ReadOnlyAdmin):
    list_display = ["id", "document", "version", "created_by", "created_at", "proposal_sha256"]
    search_fields = ["=document__id", "=proposal_sha256"]
    inlines = [MarkInline]


@admin.register(Approval)
class ApprovalAdmin(ReadOnlyAdmin):
    list_display = ["id", "item", "reviewer", "approved_at", "proposal_sha256", "preview_sha256"]


@admin.register(Artifact)
class ArtifactAdmin(ReadOnlyAdmin):
    list_display = ["id", "document", "proposal", "output_sha256", "created_at", "signed_at"]
    search_fields = ["=output_sha256", "=document__id"]


@admin.register(DeadLetter)
class DeadLetterAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "item",
        "attempts",
        "last_reason",
        "failed_at",
        "escalated_at",
        "resolved_at",
    ]
    list_filter = ["last_reason", ("resolved_at", admin.EmptyFieldListFilter)]
    actions = [
        with_reason(
            "Requeue",
            lambda letter, reason, user, _: dead_letter_requeue(
                dead_letter_id=letter.pk, reason=reason, actor=user
            ),
        ),
        with_reason(
            "Escalate to compliance review",
            lambda letter, reason, user, _: hold_lift(
                item_id=letter.item_id, reason=reason, actor=user
            ),
        ),
    ]

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> Any:
        open_letters = DeadLetter.objects.filter(resolved_at__isnull=True)
        summary = open_letters.aggregate(depth=Count("id"), oldest=Min("failed_at"))
        return super().changelist_view(
            request,
            {
                **(extra_context or {}),
                "title": (
                    f"Dead letters: depth {summary['depth']}, oldest since {summary['oldest'] or '-'}"
                ),
            },
        )


class LegalHoldForm(forms.ModelForm):
    """A hold is on one submission (all of its documents) or on one document: the form
    says so in words before the database constraint would."""

    class Meta:
        model = LegalHold
        fields = ["submission", "document", "reason"]
        help_texts = {
            "submission": "Search by reference or id. Holds every document of the submission.",
            "document": "Search by file name, id or SHA-256. Holds this document only.",
            "reason": "Why (litigation, an investigation, a request to preserve); audited.",
        }

    class Media:
        # After the search boxes' own script: the admin merges script lists keeping each
        # list's order.
        js = ["admin/js/jquery.init.js", "admin/js/autocomplete.js", "review/admin_autocomplete.js"]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        submission, document = cleaned.get("submission"), cleaned.get("document")
        # Attached to a field, so the constraint's own message ("Constraint … is
        # violated") is not shown as well: Django skips constraints on fields in error.
        if submission is None and document is None:
            self.add_error(
                "submission", "Choose what the hold is on: a submission, or a single document."
            )
        elif submission is not None and document is not None:
            self.add_error(
                "submission",
                "Choose a submission or a document, not both: a hold on the submission "
                "already covers each of its documents.",
            )
        return cleaned


@admin.register(LegalHold)
class LegalHoldAdmin(admin.ModelAdmin):
    """Placed through this form (reason required, audited); released by the action. The
    submission or document is found by searching (the intake admins' search fields)."""

    form = LegalHoldForm
    list_display = ["id", "submission", "document", "reason", "placed_by", "placed_at", "lifted_at"]
    list_filter = [("lifted_at", admin.EmptyFieldListFilter)]
    fields = ["submission", "document", "reason"]
    autocomplete_fields = ["submission", "document"]
    actions = [
        with_reason(
            "Release legal hold",
            lambda hold, reason, user, _: legal_hold_release(
                hold_id=hold.pk, reason=reason, actor=user
            ),
        )
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: LegalHold | None = None) -> Any:
        return (
            [
                "submission",
                "document",
                "reason",
                "placed_by",
                "placed_at",
                "lifted_by",
                "lifted_at",
                "lift_reason",
            ]
            if obj
            else []
        )

    def get_fields(self, request: HttpRequest, obj: LegalHold | None = None) -> Any:
        return self.get_readonly_fields(request, obj) if obj else self.fields

    def save_model(self, request: HttpRequest, obj: LegalHold, form: object, change: bool) -> None:
        if change:
            return
        placed = legal_hold_place(
            submission=obj.submission, document=obj.document, reason=obj.reason, actor=request.user
        )
        obj.pk = placed.pk

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False if obj else super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Policy)
class PolicyAdmin(admin.ModelAdmin):
    """Policies are versioned: saving a change writes a new version, the old one stays."""

    list_display = ["version", "created_at", "created_by", "note", "lease_minutes", "max_attempts"]
    readonly_fields = ["version", "created_at", "created_by"]

    def save_model(self, request: HttpRequest, obj: Policy, form: object, change: bool) -> None:
        policy_publish(draft=obj, actor=request.user)

    def response_change(self, request: HttpRequest, obj: Policy) -> HttpResponse:
        # Django would say "policy vN was changed": a new version was published instead.
        self.message_user(
            request, f"Published policy v{obj.version}; earlier versions stay as they were."
        )
        return HttpResponseRedirect(reverse("admin:review_policy_change", args=[obj.pk]))

    def response_add(
        self, request: HttpRequest, obj: Policy, post_url_continue: str | None = None
    ) -> HttpResponse:
        return self.response_change(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(RetentionPolicy)
class RetentionPolicyAdmin(admin.ModelAdmin):
    """Retention schedules per jurisdiction, versioned like the policy: saving a change
    publishes the jurisdiction's next version; the old one keeps governing the work that
    ended under it."""

    list_display = [
        "jurisdiction",
        "version",
        "originals_days",
        "previews_days",
        "derivatives_days",
        "published_at",
        "created_by",
        "note",
    ]
    list_filter = ["jurisdiction"]
    fields = [
        "jurisdiction",
        "originals_days",
        "previews_days",
        "derivatives_days",
        "note",
        "version",
        "published_at",
        "created_by",
    ]
    readonly_fields = ["version", "published_at", "created_by"]

    def get_readonly_fields(self, request: HttpRequest, obj: RetentionPolicy | None = None) -> Any:
        # A new version stays with its jurisdiction: change another's by editing its own.
        return [*self.readonly_fields, "jurisdiction"] if obj else self.readonly_fields

    def save_model(
        self, request: HttpRequest, obj: RetentionPolicy, form: object, change: bool
    ) -> None:
        retention_publish(draft=obj, actor=request.user)

    def response_change(self, request: HttpRequest, obj: RetentionPolicy) -> HttpResponse:
        self.message_user(
            request,
            f"Published {obj.jurisdiction_id} retention v{obj.version}; earlier versions "
            "keep governing the work that ended under them.",
        )
        return HttpResponseRedirect(reverse("admin:review_retentionpolicy_change", args=[obj.pk]))

    def response_add(
        self, request: HttpRequest, obj: RetentionPolicy, post_url_continue: str | None = None
    ) -> HttpResponse:
        return self.response_change(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Disposal)
class DisposalAdmin(ReadOnlyAdmin):
    """What the retention schedule disposed of: per document and kind, when, under which
    version, with the hashes of the bytes deleted. `manage.py dispose --dry-run`
    lists what the next pass would dispose of."""

    list_display = ["document", "kind", "retention", "disposed_at", "deleted_at"]
    list_filter = ["kind", "retention__jurisdiction", ("deleted_at", admin.EmptyFieldListFilter)]
    search_fields = ["=document__id", "=document__job_key"]
    list_select_related = ["retention"]
