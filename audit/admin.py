"""The ledger in the admin, read-only, arranged for tracing: filter by event type, actor
kind or actor; click a submission, document or correlation id to see only its events;
export the current filtered list (or the selected rows) as JSON Lines or CSV with the
chain hashes, which `verify_audit --export FILE` checks against the database."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.options import IncorrectLookupParameters
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect, StreamingHttpResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.http import urlencode

from audit.exports import CONTENT_TYPES, FORMATS, export_rows
from audit.models import AuditEvent

ACTOR_KINDS = [
    ("user", "people (user:)"),
    ("client", "intake clients (client:)"),
    ("service", "services (service:)"),
    ("system", "system (system:)"),
]


class ActorKindFilter(admin.SimpleListFilter):
    title = "actor kind"
    parameter_name = "actor_kind"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return ACTOR_KINDS

    def queryset(self, request: HttpRequest, queryset: QuerySet[AuditEvent]) -> QuerySet[Any]:
        if self.value() in dict(ACTOR_KINDS):
            return queryset.filter(actor__startswith=f"{self.value()}:")
        return queryset


def _export_response(queryset: QuerySet[AuditEvent], fmt: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(
        export_rows(queryset, fmt), content_type=f"{CONTENT_TYPES[fmt]}; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="audit-events.{fmt}"'
    return response


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Read-only: the ledger is append-only, here as everywhere."""

    list_display = [
        "sequence",
        "occurred_at",
        "event_type",
        "actor",
        "submission_link",
        "document_link",
        "item_id",
        "correlation_link",
    ]
    list_filter = ["event_type", ActorKindFilter, "actor"]
    search_fields = ["=correlation_id", "=submission_id", "=document_id", "=item_id", "actor"]
    date_hierarchy = "occurred_at"
    ordering = ["-sequence"]
    actions = ["export_selected_jsonl", "export_selected_csv"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: AuditEvent | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: AuditEvent | None = None) -> bool:
        return False

    # Each id links to the list narrowed to it: one click from any event to its trace.
    def _trace_link(self, field: str, value: object) -> str:
        if value in (None, ""):
            return "-"
        query = urlencode({field: str(value)})
        url = reverse("admin:audit_auditevent_changelist")
        return format_html('<a href="{}?{}" title="Only this {}">{}</a>', url, query, field, value)

    @admin.display(description="submission", ordering="submission_id")
    def submission_link(self, obj: AuditEvent) -> str:
        return self._trace_link("submission_id", obj.submission_id)

    @admin.display(description="document", ordering="document_id")
    def document_link(self, obj: AuditEvent) -> str:
        return self._trace_link("document_id", obj.document_id)

    @admin.display(description="correlation id", ordering="correlation_id")
    def correlation_link(self, obj: AuditEvent) -> str:
        return self._trace_link("correlation_id", obj.correlation_id)

    @admin.action(description="Export selected as JSON Lines")
    def export_selected_jsonl(
        self, request: HttpRequest, queryset: QuerySet[AuditEvent]
    ) -> StreamingHttpResponse:
        return _export_response(queryset, "jsonl")

    @admin.action(description="Export selected as CSV")
    def export_selected_csv(
        self, request: HttpRequest, queryset: QuerySet[AuditEvent]
    ) -> StreamingHttpResponse:
        return _export_response(queryset, "csv")

    def get_urls(self) -> list[URLPattern]:
        export = path(
            "export.<str:fmt>",
            self.admin_site.admin_view(self.export_view),
            name="audit_auditevent_export",
        )
        return [export, *super().get_urls()]

    def export_view(self, request: HttpRequest, fmt: str) -> HttpResponseBase:
        """The changelist's current filters, search and date drill-down, exported whole
        (not just one page), in sequence order."""
        if not self.has_view_permission(request):
            raise PermissionDenied  # admin_view already sent anonymous users to log in
        changelist_url = reverse("admin:audit_auditevent_changelist")
        if fmt not in FORMATS:
            return HttpResponseRedirect(changelist_url)
        try:
            changelist = self.get_changelist_instance(request)
        except IncorrectLookupParameters:
            self.message_user(request, "Those filters do not apply.", messages.ERROR)
            return HttpResponseRedirect(changelist_url)
        return _export_response(changelist.get_queryset(request), fmt)
