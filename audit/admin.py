from django.contrib import admin
from django.http import HttpRequest

from audit.models import AuditEvent


@admin.register(AuditEvent)
class AuditEventAdmin(admin.ModelAdmin):
    """Read-only: the ledger is append-only, here as everywhere."""

    list_display = [
        "sequence",
        "occurred_at",
        "event_type",
        "actor",
        "submission_id",
        "document_id",
        "item_id",
        "correlation_id",
    ]
    list_filter = ["event_type"]
    search_fields = ["=correlation_id", "=submission_id", "=document_id", "=item_id", "actor"]
    date_hierarchy = "occurred_at"
    ordering = ["-sequence"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: AuditEvent | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: AuditEvent | None = None) -> bool:
        return False
