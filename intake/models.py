"""What intake systems hand over: submissions, their documents, and rejected attempts."""

from __future__ import annotations

import hashlib
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q


class SlaClass(models.TextChoices):
    URGENT = "urgent", "Urgent"
    STANDARD = "standard", "Standard"


class Jurisdiction(models.Model):
    """A statutory response window and its exemption code set; edited by compliance."""

    class WindowUnit(models.TextChoices):
        BUSINESS_DAYS = "business_days", "Business days"
        CALENDAR_MONTHS = "calendar_months", "Calendar months"

    code = models.CharField(max_length=32, primary_key=True)
    name = models.CharField(max_length=200)
    law = models.CharField(max_length=200)
    window_unit = models.CharField(max_length=20, choices=WindowUnit.choices)
    window_length = models.PositiveIntegerField()
    holiday_country = models.CharField(
        max_length=8, blank=True, help_text="`holidays` country code, e.g. US or GB."
    )
    holiday_subdivision = models.CharField(max_length=16, blank=True)
    holiday_categories = models.CharField(
        max_length=100, blank=True, help_text="Comma-separated `holidays` categories."
    )
    exemption_codes = models.JSONField(
        default=dict,
        blank=True,  # none: every category gets the default exemption
        help_text="Category -> legal reason code stamped on the burned box.",
    )
    default_exemption = models.CharField(max_length=64)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=Q(window_length__gt=0), name="jurisdiction_window_positive"
            )
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.law})"

    def clean(self) -> None:
        """Every exemption code the jurisdiction stamps by default is in its catalogue."""
        if self._state.adding:
            return
        known = set(self.exemptions.filter(active=True).values_list("code", flat=True))
        used = {self.default_exemption, *dict(self.exemption_codes or {}).values()}
        unknown = sorted(code for code in used if code not in known)
        if unknown:
            raise ValidationError(
                f"not in {self.code}'s exemption catalogue: {', '.join(unknown)}; "
                "add them to the catalogue first"
            )


class Exemption(models.Model):
    """One entry of a jurisdiction's exemption catalogue: the legal reason a reviewer
    chooses for a redaction, stamped on the box and listed in the redaction log. Edited
    by compliance; each change raises `version` and is recorded in the audit ledger."""

    jurisdiction = models.ForeignKey(
        Jurisdiction, on_delete=models.PROTECT, related_name="exemptions"
    )
    code = models.CharField(max_length=64, help_text="As stamped on the box, e.g. (b)(6).")
    title = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    active = models.BooleanField(
        default=True, help_text="Inactive codes stay on past redactions but cannot be chosen."
    )
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        ordering = ["jurisdiction", "code"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "code"], name="exemption_code_unique_per_jurisdiction"
            )
        ]

    def __str__(self) -> str:
        return f"{self.code} — {self.title}"


class Submission(models.Model):
    """One admission from an intake system, or one folder ingest run."""

    class Channel(models.TextChoices):
        API = "api", "REST API"
        FOLDER = "folder", "Folder ingest"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    client = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="submissions"
    )
    channel = models.CharField(max_length=10, choices=Channel.choices, default=Channel.API)
    external_ref = models.CharField(max_length=200)
    jurisdiction = models.ForeignKey(Jurisdiction, on_delete=models.PROTECT)
    sla_class = models.CharField(max_length=10, choices=SlaClass.choices)
    received_at = models.DateTimeField()
    statutory_deadline = models.DateTimeField()
    priority_score = models.PositiveSmallIntegerField(default=50)
    idempotency_key = models.CharField(max_length=200)
    request_sha256 = models.CharField(
        max_length=64, help_text="Hash of the canonical metadata and file hashes."
    )
    correlation_id = models.CharField(max_length=64, db_index=True)
    policy_version = models.PositiveIntegerField()
    # Protected content: the requester's names and phrases to redact. Read only by the
    # detector; never logged, never in audit events, never in API responses.
    search_terms = models.JSONField(default=list, blank=True)
    admission_response = models.JSONField(
        default=dict, blank=True, help_text="The 201 body, replayed verbatim to a duplicate."
    )

    class Meta:
        ordering = ["-received_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["client", "idempotency_key"], name="submission_idempotency_key_unique"
            ),
            models.CheckConstraint(
                condition=Q(priority_score__gte=0, priority_score__lte=100),
                name="submission_priority_score_0_100",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.external_ref} ({self.id})"


def job_key_for(
    *, submission_id: uuid.UUID, object_id: str, source_sha256: str, policy_version: int
) -> str:
    """One job per (submission, object, content, policy): the retry-safe identity."""
    raw = f"{submission_id}/{object_id}/{source_sha256}/{policy_version}"
    return hashlib.sha256(raw.encode()).hexdigest()


class Document(models.Model):
    """One PDF of a submission. Immutable once created."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="documents")
    object_id = models.CharField(max_length=1000, help_text="Path relative to the submission root.")
    source_sha256 = models.CharField(max_length=64, db_index=True)
    size = models.PositiveBigIntegerField()
    page_count = models.PositiveIntegerField()
    original_path = models.CharField(
        max_length=200, help_text="Content-addressed name in the originals storage."
    )
    job_key = models.CharField(max_length=64, unique=True)
    policy_version = models.PositiveIntegerField()
    permission_flags = models.BooleanField(
        default=False,
        help_text="The source was encrypted with an owner password only (permission flags "
        "such as no-copy or no-print); the release is a full rewrite without them.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["submission", "object_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "object_id"], name="document_object_id_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.object_id} ({self.id})"

    @classmethod
    def build(
        cls,
        *,
        submission: Submission,
        object_id: str,
        source_sha256: str,
        size: int,
        page_count: int,
        original_path: str,
        permission_flags: bool = False,
    ) -> Document:
        """An unsaved document of `submission` under its policy version, with its job
        key: the one way to make a Document (admission, tests, benchmarks)."""
        return cls(
            submission=submission,
            object_id=object_id,
            source_sha256=source_sha256,
            size=size,
            page_count=page_count,
            original_path=original_path,
            job_key=job_key_for(
                submission_id=submission.id,
                object_id=object_id,
                source_sha256=source_sha256,
                policy_version=submission.policy_version,
            ),
            policy_version=submission.policy_version,
            permission_flags=permission_flags,
        )


class RejectedSubmission(models.Model):
    """A refused admission, kept with its reasons. Never the file bytes or search terms."""

    client = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rejected_submissions",
    )
    channel = models.CharField(max_length=10, choices=Submission.Channel.choices)
    received_at = models.DateTimeField()
    external_ref = models.CharField(max_length=200, blank=True)
    idempotency_key = models.CharField(max_length=200, blank=True)
    correlation_id = models.CharField(max_length=64, db_index=True)
    reason_codes = models.JSONField(default=list)
    errors = models.JSONField(default=list, help_text="Field, code and message per problem.")
    files = models.JSONField(default=list, help_text="Per file: index, sha256, size.")

    class Meta:
        ordering = ["-received_at"]

    def __str__(self) -> str:
        return f"rejected {self.received_at:%Y-%m-%d %H:%M} {','.join(self.reason_codes)}"


class ThrottleWindow(models.Model):
    """How many requests one intake client made in one window of the intake rate
    (settings.INTAKE_THROTTLE_RATE). Counted in the database, so that every server process
    and host sees one count; a client's past windows are deleted as a new one opens."""

    client = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    window_start = models.BigIntegerField(help_text="Seconds since the epoch.")
    hits = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["client", "window_start"], name="throttlewindow_one_per_window"
            )
        ]

    def __str__(self) -> str:
        return f"client {self.client_id}: {self.hits} requests from {self.window_start}"
