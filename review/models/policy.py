"""The redaction policy: versioned settings for detection, deadlines, leases and retries."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q


class Policy(models.Model):
    """A version of the redaction policy. Rows are never edited: a change is a new version."""

    version = models.PositiveIntegerField(unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.CharField(max_length=150)
    note = models.CharField(max_length=300, blank=True)
    categories = models.JSONField(default=list, help_text="Detector categories that are enabled.")
    category_min_confidence = models.JSONField(
        default=dict,
        blank=True,
        help_text="Category -> minimum confidence (0-1) for a mark to be proposed.",
    )
    review_threshold = models.FloatField(
        default=0.9, help_text="Marks below this confidence make the item more urgent."
    )
    sla_hours = models.JSONField(
        default=dict, help_text="SLA class -> hours from receipt, e.g. urgent 4, standard 24."
    )
    lease_minutes = models.PositiveIntegerField(default=15)
    lease_max_minutes = models.PositiveIntegerField(
        default=120, help_text="Heartbeats never extend a claim beyond this from its start."
    )
    warn_window_minutes = models.PositiveIntegerField(default=60)
    max_attempts = models.PositiveIntegerField(default=3)
    max_open_claims_per_reviewer = models.PositiveIntegerField(default=1)
    detection_by_jurisdiction = models.JSONField(
        default=dict,
        blank=True,
        help_text="Jurisdiction code -> detection settings for its documents: "
        '{"categories": [...], "min_confidence": {"person": 0.6}, "phone_regions": ["GB"]}. '
        "A key left out falls back to this policy's categories and thresholds and to the "
        "jurisdiction's holiday country for phone regions. Exemption codes per category "
        "are the jurisdiction's own.",
    )
    handoff_stall_minutes = models.PositiveIntegerField(
        default=10,
        help_text="An automatic handoff (detection, rendering, signing) waiting longer than "
        "this is reported as stalled.",
    )

    class Meta:
        ordering = ["-version"]
        verbose_name_plural = "policies"
        constraints = [
            models.CheckConstraint(
                condition=Q(review_threshold__gte=0, review_threshold__lte=1),
                name="policy_review_threshold_0_1",
            ),
            models.CheckConstraint(condition=Q(lease_minutes__gt=0), name="policy_lease_positive"),
            models.CheckConstraint(
                condition=Q(lease_max_minutes__gte=F("lease_minutes")),
                name="policy_lease_max_not_below_lease",
            ),
            models.CheckConstraint(
                condition=Q(max_attempts__gt=0), name="policy_attempts_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"policy v{self.version}"

    def clean(self) -> None:
        # Imported here: the detectors load Presidio and spaCy's modules.
        from review.pdf.detect import detection_settings_errors

        errors = detection_settings_errors(self.categories, self.detection_by_jurisdiction)
        if errors:
            raise ValidationError({"detection_by_jurisdiction": errors})
