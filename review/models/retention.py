"""Keeping and disposing of stored bytes: legal holds that stop work and disposal, the
versioned retention schedule of each jurisdiction, and the record of each disposal."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from intake.models import Document, Submission


class LegalHold(models.Model):
    """A hard stop on a submission or a document until lifted."""

    submission = models.ForeignKey(
        Submission, on_delete=models.PROTECT, null=True, blank=True, related_name="legal_holds"
    )
    document = models.ForeignKey(
        Document, on_delete=models.PROTECT, null=True, blank=True, related_name="legal_holds"
    )
    reason = models.CharField(max_length=300)
    placed_by = models.CharField(max_length=150)
    placed_at = models.DateTimeField()
    lifted_by = models.CharField(max_length=150, blank=True)
    lifted_at = models.DateTimeField(null=True, blank=True)
    lift_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["-placed_at"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(submission__isnull=False) & Q(document__isnull=True))
                | (Q(submission__isnull=True) & Q(document__isnull=False)),
                name="legalhold_exactly_one_target",
            ),
        ]
        indexes = [
            # Claim next reads the open holds once per call: only those, however many
            # were lifted over the years.
            models.Index(
                fields=["document", "submission"],
                condition=Q(lifted_at__isnull=True),
                name="legalhold_open_idx",
            ),
        ]

    def __str__(self) -> str:
        target = (
            f"submission {self.submission_id}"
            if self.submission_id
            else f"document {self.document_id}"
        )
        return f"legal hold on {target}"


# A century: a longer period is a typo, not a records decision.
RETENTION_MAX_DAYS = 36500


class RetentionPolicy(models.Model):
    """A version of one jurisdiction's retention schedule: how many days after its item
    ends (`signed` or `failed`) a document's bytes are kept. Rows are never edited: a
    change is a new version of that jurisdiction's schedule. The audit ledger is always
    kept; only stored bytes are disposed of.

    The version in force when an item ended governs it (the latest version published at
    or before that moment; the jurisdiction's first version for items that ended before
    any version existed), so a change applies only to work that ends under it. A
    jurisdiction without any version keeps everything."""

    jurisdiction = models.ForeignKey(
        "intake.Jurisdiction", on_delete=models.PROTECT, related_name="retention_policies"
    )
    version = models.PositiveIntegerField(editable=False)
    published_at = models.DateTimeField(editable=False)
    created_by = models.CharField(max_length=150, editable=False)
    note = models.CharField(max_length=300, help_text="Why this schedule (the records decision).")
    originals_days = models.PositiveIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(RETENTION_MAX_DAYS)],
        help_text="Days after the item ends that the submitted original is kept.",
    )
    previews_days = models.PositiveIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(RETENTION_MAX_DAYS)],
        help_text="Days after the item ends that redacted previews may be kept. Previews are "
        "never written to storage (only cached briefly) and are rebuilt from the original, "
        "so this cannot exceed the originals' period; disposal clears any cached copy.",
    )
    derivatives_days = models.PositiveIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(RETENTION_MAX_DAYS)],
        help_text="Days after the item ends that the rendered and signed release is kept.",
    )

    class Meta:
        ordering = ["jurisdiction", "-version"]
        verbose_name_plural = "retention policies"
        constraints = [
            # Two concurrent publishes for one jurisdiction: one wins, one fails loudly.
            models.UniqueConstraint(
                fields=["jurisdiction", "version"], name="retention_version_unique"
            ),
            models.CheckConstraint(
                condition=Q(
                    originals_days__gte=1,
                    previews_days__gte=1,
                    derivatives_days__gte=1,
                    originals_days__lte=RETENTION_MAX_DAYS,
                    previews_days__lte=RETENTION_MAX_DAYS,
                    derivatives_days__lte=RETENTION_MAX_DAYS,
                ),
                name="retention_days_in_range",
            ),
            # A preview is rebuilt from the original: it cannot outlive it.
            models.CheckConstraint(
                condition=Q(previews_days__lte=F("originals_days")),
                name="retention_previews_not_after_originals",
            ),
        ]

    def __str__(self) -> str:
        return f"retention {self.jurisdiction_id} v{self.version}"

    def clean(self) -> None:
        if (
            self.previews_days is not None
            and self.originals_days is not None
            and self.previews_days > self.originals_days
        ):
            raise ValidationError(
                {
                    "previews_days": f"previews are rebuilt from the original: keep them at "
                    f"most as long as originals ({self.originals_days} days), not "
                    f"{self.previews_days}"
                }
            )


class Disposal(models.Model):
    """Bytes of one kind of one document, disposed of under a retention version. The row
    is written (with its DISPOSED event) before the files are deleted; `deleted_at` is
    set once they are gone, so a deletion interrupted by a crash is finished by the next
    pass. Never edited otherwise, never deleted."""

    class Kind(models.TextChoices):
        ORIGINAL = "original", "original"
        PREVIEWS = "previews", "previews"
        DERIVATIVES = "derivatives", "derivatives"

    document = models.ForeignKey(Document, on_delete=models.PROTECT, related_name="disposals")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    retention = models.ForeignKey(
        RetentionPolicy, on_delete=models.PROTECT, related_name="disposals"
    )
    disposed_at = models.DateTimeField()
    sha256s = models.JSONField(default=list, help_text="Hashes of the bytes disposed of.")
    paths = models.JSONField(default=list, help_text="Storage names deleted (no file names).")
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-disposed_at"]
        constraints = [
            models.UniqueConstraint(fields=["document", "kind"], name="disposal_once_per_kind"),
        ]
        indexes = [
            # The pass finishes deletions a crash interrupted: only those rows.
            models.Index(
                fields=["disposed_at"],
                name="disposal_undeleted_idx",
                condition=Q(deleted_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.document_id} disposed"
