"""What a reviewer decides on: versioned proposals of marks, the approval bound to the
bytes seen, and the redacted, signed artifact made from it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from intake.models import Document
from review.models.items import ReviewItem


class Proposal(models.Model):
    """An immutable, versioned set of marks for a document. Edits make a new version."""

    document = models.ForeignKey(Document, on_delete=models.PROTECT, related_name="proposals")
    version = models.PositiveIntegerField()
    previous = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="next"
    )
    proposal_sha256 = models.CharField(max_length=64)
    created_by = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)
    policy_version = models.PositiveIntegerField()

    class Meta:
        ordering = ["document", "version"]
        constraints = [
            models.UniqueConstraint(fields=["document", "version"], name="proposal_version_unique"),
            models.CheckConstraint(condition=Q(version__gte=1), name="proposal_version_positive"),
        ]

    def __str__(self) -> str:
        return f"proposal v{self.version} of {self.document_id}"


class Mark(models.Model):
    """One proposed redaction box. Never the matched text: a salted hash at most."""

    class Decision(models.TextChoices):
        PENDING = "pending", "Pending"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"

    proposal = models.ForeignKey(Proposal, on_delete=models.PROTECT, related_name="marks")
    mark_key = models.CharField(max_length=32, help_text="Stable id across proposal versions.")
    group = models.CharField(max_length=32, blank=True)
    page = models.PositiveIntegerField(help_text="0-based page index.")
    x0 = models.FloatField()
    y0 = models.FloatField()
    x1 = models.FloatField()
    y1 = models.FloatField()
    category = models.CharField(max_length=40)
    legal_reason = models.CharField(max_length=64)
    detector = models.CharField(max_length=40)
    detector_version = models.CharField(max_length=20)
    confidence = models.FloatField()
    decision = models.CharField(max_length=10, choices=Decision.choices, default=Decision.PENDING)
    text_hash = models.CharField(max_length=64, blank=True)
    needs_manual_review = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["proposal", "page", "y0", "x0"]
        constraints = [
            models.UniqueConstraint(fields=["proposal", "mark_key"], name="mark_key_unique"),
            models.CheckConstraint(
                condition=Q(confidence__gte=0, confidence__lte=1), name="mark_confidence_0_1"
            ),
            models.CheckConstraint(
                condition=Q(x0__gte=0, y0__gte=0, x1__lte=1, y1__lte=1)
                & Q(x0__lte=F("x1"), y0__lte=F("y1")),
                name="mark_box_normalized",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.category} on page {self.page + 1}"


class Approval(models.Model):
    """A reviewer's sign-off, bound to the exact bytes seen (DESIGN rule 1)."""

    item = models.ForeignKey(ReviewItem, on_delete=models.PROTECT, related_name="approvals")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT)
    proposal = models.OneToOneField(Proposal, on_delete=models.PROTECT, related_name="approval")
    proposal_sha256 = models.CharField(max_length=64)
    source_sha256 = models.CharField(max_length=64)
    preview_sha256 = models.CharField(max_length=64)
    approved_at = models.DateTimeField()
    superseded_at = models.DateTimeField(
        null=True, blank=True, help_text="The item was reopened for review after this approval."
    )
    superseded_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["-approved_at"]

    def __str__(self) -> str:
        return f"approval of {self.proposal}"


class Artifact(models.Model):
    """The redacted, signed output. One per (document, approved proposal)."""

    document = models.ForeignKey(Document, on_delete=models.PROTECT, related_name="artifacts")
    proposal = models.ForeignKey(Proposal, on_delete=models.PROTECT, related_name="artifacts")
    approval = models.ForeignKey(Approval, on_delete=models.PROTECT, related_name="artifacts")
    storage_path = models.CharField(
        max_length=200, help_text="Redacted, sanitized, verified output (derivatives storage)."
    )
    output_sha256 = models.CharField(max_length=64)
    signed_path = models.CharField(max_length=200, blank=True)
    signed_sha256 = models.CharField(max_length=64, blank=True)
    certificate_sha256 = models.CharField(max_length=64, blank=True)
    signature = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    signed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["document", "proposal"], name="artifact_one_per_document_proposal"
            ),
            models.CheckConstraint(
                condition=(Q(signed_at__isnull=True) & Q(signed_sha256=""))
                | (Q(signed_at__isnull=False) & ~Q(signed_sha256="")),
                name="artifact_signed_iff_signed_hash",
            ),
        ]

    def __str__(self) -> str:
        return f"artifact {self.output_sha256[:12]}"
