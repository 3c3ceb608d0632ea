"""HTTP responses for released files, shared by the API and the compliance pages."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse

from review.selectors import redaction_log_csv


def pdf_attachment(data: bytes, artifact: Any) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{artifact.document_id}-redacted.pdf"'
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "no-store"
    response["X-Output-SHA256"] = artifact.signed_sha256
    return response


def redaction_log_attachment(rows: list[dict[str, Any]], document: Any) -> HttpResponse:
    response = HttpResponse(redaction_log_csv(rows), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{document.id}-redaction-log.csv"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
