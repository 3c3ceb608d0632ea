from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from intake.models import Document, Exemption, Jurisdiction, RejectedSubmission, Submission
from intake.services.catalogue import exemption_save


class ReadOnlyAdmin(admin.ModelAdmin):
    """History that must not change: viewable, never added, edited or deleted by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ExemptionInline(admin.TabularInline):
    """The jurisdiction's exemption catalogue: entries are retired (inactive), never
    deleted, as past redactions name them."""

    model = Exemption
    fields = ["code", "title", "description", "active", "version"]
    readonly_fields = ["version"]
    extra = 1
    can_delete = False


@admin.register(Jurisdiction)
class JurisdictionAdmin(admin.ModelAdmin):
    inlines = [ExemptionInline]

    def save_formset(self, request: HttpRequest, form: object, formset: Any, change: bool) -> None:
        if formset.model is not Exemption:
            super().save_formset(request, form, formset, change)
            return
        for exemption in formset.save(commit=False):
            exemption_save(exemption=exemption, actor=request.user)

    list_display = [
        "code",
        "name",
        "law",
        "window_length",
        "window_unit",
        "holiday_country",
        "active",
    ]
    list_filter = ["window_unit", "active"]

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class DocumentInline(admin.TabularInline):
    model = Document
    fields = ["object_id", "source_sha256", "size", "page_count", "job_key"]
    readonly_fields = ("object_id", "source_sha256", "size", "page_count", "job_key")
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Submission)
class SubmissionAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "external_ref",
        "client",
        "jurisdiction",
        "sla_class",
        "received_at",
        "statutory_deadline",
        "priority_score",
    ]
    list_filter = ["jurisdiction", "sla_class", "channel", "client"]
    search_fields = ["=id", "external_ref", "=correlation_id"]
    date_hierarchy = "received_at"
    exclude = ["search_terms"]  # protected content stays out of pages
    inlines = [DocumentInline]


@admin.register(Document)
class DocumentAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "object_id",
        "submission",
        "page_count",
        "size",
        "source_sha256",
        "review_state",
        "release",
    ]

    @admin.display(description="state")
    def review_state(self, obj: Document) -> str:
        item = getattr(obj, "item", None)
        return item.get_state_display() if item is not None else "not admitted"

    @admin.display(description="downloads")
    def release(self, obj: Document) -> str:
        """One link a line (no link inside running text); the signed PDF and its log only
        once the document is signed. Once its bytes were disposed of under the retention
        schedule, the day and version stand in place of the PDF."""
        item = getattr(obj, "item", None)
        signed = item is not None and item.state == "signed"
        # Disposals are review's records (a reverse relation: intake does not import review).
        disposals = sorted(obj.disposals.all(), key=lambda d: d.disposed_at)
        links = [
            *(
                [("signed PDF", reverse("review:document_output", args=[obj.pk]))]
                if signed and not disposals
                else []
            ),
            *(
                [("redaction log", reverse("review:document_redaction_log", args=[obj.pk]))]
                if signed
                else []
            ),
            ("audit evidence", reverse("document-evidence", args=[obj.pk])),
        ]
        line_break = mark_safe("<br>")  # noqa: S308 - a constant
        html = format_html_join(line_break, '<a href="{}">{}</a>', ((u, t) for t, u in links))
        if disposals:
            first = disposals[0]
            return format_html(
                "bytes disposed of {} (retention v{})<br>{}",
                f"{first.disposed_at:%Y-%m-%d}",
                first.retention.version,
                html,
            )
        return html

    search_fields = ["=id", "=source_sha256", "=job_key", "object_id"]
    list_select_related = ["submission", "item"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Document]:
        return super().get_queryset(request).prefetch_related("disposals__retention")


@admin.register(RejectedSubmission)
class RejectedSubmissionAdmin(ReadOnlyAdmin):
    list_display = [
        "received_at",
        "client",
        "channel",
        "external_ref",
        "reason_list",
        "correlation_id",
    ]
    list_filter = ["channel", "client"]
    search_fields = ["=correlation_id", "external_ref"]
    date_hierarchy = "received_at"

    @admin.display(description="reasons")
    def reason_list(self, obj: RejectedSubmission) -> str:
        return ", ".join(obj.reason_codes)
