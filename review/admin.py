from django.contrib import admin
from django.db.models import QuerySet
from django.db.models.functions import Now
from django.http import HttpRequest

from intake.admin import ReadOnlyAdmin
from review.models import (
    TERMINAL_STATES,
    Approval,
    Artifact,
    Claim,
    DeadLetter,
    LegalHold,
    Mark,
    Policy,
    Proposal,
    ReviewItem,
)
from review.services import policy_publish


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


@admin.register(Claim)
class ClaimAdmin(ReadOnlyAdmin):
    list_display = ["id", "item", "reviewer", "claimed_at", "expires_at", "ended_at", "outcome"]
    list_filter = ["outcome"]
    list_select_related = ["reviewer"]


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
    list_filter = ["last_reason"]


@admin.register(LegalHold)
class LegalHoldAdmin(ReadOnlyAdmin):
    list_display = ["id", "submission", "document", "reason", "placed_by", "placed_at", "lifted_at"]
    list_filter = ["lifted_at"]


@admin.register(Policy)
class PolicyAdmin(admin.ModelAdmin):
    """Policies are versioned: saving a change writes a new version, the old one stays."""

    list_display = ["version", "created_at", "created_by", "note", "lease_minutes", "max_attempts"]
    readonly_fields = ["version", "created_at", "created_by"]

    def save_model(self, request: HttpRequest, obj: Policy, form: object, change: bool) -> None:
        policy_publish(draft=obj, actor=request.user)

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
