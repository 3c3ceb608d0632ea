"""The review queue: items, leases, proposals, approvals, outputs, failures and holds."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q

from intake.models import Document, SlaClass, Submission


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


class ItemState(models.TextChoices):
    ACCEPTED = "accepted", "Accepted"
    PROPOSED = "proposed", "Proposed"
    IN_REVIEW = "in_review", "In review"
    APPROVED = "approved", "Approved"
    SIGNED = "signed", "Signed"
    FAILED = "failed", "Failed"


TERMINAL_STATES = frozenset({ItemState.SIGNED, ItemState.FAILED})


class Queue(models.TextChoices):
    REVIEW = "review", "Review"
    SENIOR_REVIEW = "senior_review", "Senior review"
    COMPLIANCE_REVIEW = "compliance_review", "Compliance review"


class Hold(models.TextChoices):
    NONE = "none", "None"
    SLA_BREACH = "sla_breach", "SLA breach"
    LITIGATION = "litigation", "Litigation"
    DEAD_LETTER = "dead_letter", "Dead letter"


class CloseReason(models.TextChoices):
    """Why compliance closed an item as failed (a fixed list, reported to the client)."""

    WITHHELD_IN_FULL = "withheld_in_full", "Withheld in full"
    UNPROCESSABLE = "unprocessable", "Unprocessable document"
    WITHDRAWN = "withdrawn", "Withdrawn by the requester"


class ReviewItem(models.Model):
    """The queue entry for one document. State changes only via `item_transition`."""

    document = models.OneToOneField(Document, on_delete=models.PROTECT, related_name="item")
    state = models.CharField(max_length=12, choices=ItemState.choices, default=ItemState.ACCEPTED)
    queue = models.CharField(max_length=20, choices=Queue.choices, default=Queue.REVIEW)
    hold = models.CharField(max_length=12, choices=Hold.choices, default=Hold.NONE)
    sla_class = models.CharField(max_length=10, choices=SlaClass.choices)
    deadline = models.DateTimeField()
    priority = models.PositiveIntegerField(default=500, help_text="Lower is more urgent (0 = top).")
    attempts = models.PositiveIntegerField(default=0)
    unfinished_deliveries = models.PositiveIntegerField(
        default=0,
        help_text="Task deliveries that started and never finished (a worker died).",
    )
    last_failure_reason = models.CharField(max_length=200, blank=True)
    # Why the last reviewer escalated it, for the senior reviewer who picks it up; kept
    # on the item, not in the ledger (a note may describe the document).
    escalation_reason = models.CharField(max_length=40, blank=True)
    escalation_note = models.TextField(blank=True)
    closed_reason = models.CharField(
        max_length=20,
        choices=CloseReason.choices,
        blank=True,
        help_text="Why compliance closed the item as failed.",
    )
    priority_bumped_at = models.DateTimeField(
        null=True, blank=True, help_text="When the sweeper raised it near its deadline (once)."
    )
    state_changed_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["priority", "deadline", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(priority__gte=0, priority__lte=1000), name="item_priority_0_1000"
            ),
            models.CheckConstraint(
                condition=Q(state__in=ItemState.values), name="item_state_valid"
            ),
        ]
        indexes = [
            # Claim-next: the claimable pool in urgency order. The queue is filtered while
            # walking it, so a reviewer of several queues still reads it in index order.
            models.Index(
                fields=["priority", "deadline", "id"],
                name="item_pool_idx",
                condition=Q(state=ItemState.PROPOSED, hold=Hold.NONE),
            ),
            # Sweeps read only the rows they may change: live, unheld items by deadline
            # (breach), and of those the ones not yet bumped (warn window).
            models.Index(
                fields=["deadline"],
                name="item_live_deadline_idx",
                condition=~Q(state__in=[ItemState.SIGNED, ItemState.FAILED]) & Q(hold=Hold.NONE),
            ),
            models.Index(
                fields=["deadline"],
                name="item_unbumped_deadline_idx",
                condition=~Q(state__in=[ItemState.SIGNED, ItemState.FAILED])
                & Q(hold=Hold.NONE, priority_bumped_at__isnull=True),
            ),
        ]
        permissions = [
            ("review_queue", "Can claim items from the review queue"),
            ("review_senior_queue", "Can claim items from the senior review queue"),
            ("review_compliance_queue", "Can claim items from the compliance queue and holds"),
        ]

    def __str__(self) -> str:
        return f"item {self.pk} ({self.state})"


class Claim(models.Model):
    """One lease of an item by a reviewer. Ended, never deleted."""

    class Outcome(models.TextChoices):
        SUBMITTED = "submitted", "Submitted"
        RELEASED = "released", "Released"
        EXPIRED = "expired", "Expired"

    item = models.ForeignKey(ReviewItem, on_delete=models.PROTECT, related_name="claims")
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="claims"
    )
    claimed_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, blank=True)

    class Meta:
        ordering = ["-claimed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["item"],
                condition=Q(ended_at__isnull=True),
                name="claim_one_open_per_item",
            ),
            models.CheckConstraint(
                condition=(Q(ended_at__isnull=True) & Q(outcome=""))
                | (Q(ended_at__isnull=False) & ~Q(outcome="")),
                name="claim_ended_iff_outcome",
            ),
            models.CheckConstraint(
                condition=Q(expires_at__gt=F("claimed_at")), name="claim_expires_after_start"
            ),
        ]
        indexes = [
            models.Index(
                fields=["expires_at"],
                name="claim_open_expiry_idx",
                condition=Q(ended_at__isnull=True),
            ),
            # The claim limit counts a reviewer's open claims on every claim.
            models.Index(
                fields=["reviewer"],
                name="claim_open_by_reviewer_idx",
                condition=Q(ended_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"claim {self.pk} on item {self.item_id}"


class ClaimPage(models.Model):
    """A page image drawn for the reviewer under a claim (the page itself or its redacted
    preview): approval needs one row per page of the document (DESIGN rule 8: a page the
    reviewer never received cannot be approved). Not audited, like the heartbeat: the
    approval's event counts them."""

    claim = models.ForeignKey(Claim, on_delete=models.PROTECT, related_name="pages_rendered")
    page = models.PositiveIntegerField(help_text="0-based page index.")
    rendered_at = models.DateTimeField()

    class Meta:
        ordering = ["claim", "page"]
        constraints = [
            # The first drawing counts; a page's later requests (the preview, a reload)
            # insert nothing, even when the browser asks for several pages at once.
            models.UniqueConstraint(fields=["claim", "page"], name="claimpage_once_per_page"),
        ]

    def __str__(self) -> str:
        return f"page {self.page + 1} shown under claim {self.claim_id}"


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


class DeadLetter(models.Model):
    """An item that failed for good. References and reasons only, never content."""

    item = models.ForeignKey(ReviewItem, on_delete=models.PROTECT, related_name="dead_letters")
    attempts = models.PositiveIntegerField()
    last_reason = models.CharField(max_length=200)
    failed_at = models.DateTimeField()
    escalated_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-failed_at"]
        indexes = [
            models.Index(
                fields=["failed_at"],
                name="deadletter_unescalated_idx",
                condition=Q(escalated_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"dead letter for item {self.item_id}"


class Outbox(models.Model):
    """A task that continues an item's work, written in the transaction of the state
    change that made it necessary (DESIGN rule 9). The relay hands a row to django-q2
    once it is due and marks it sent; the finished task marks it done; the sweeper sends
    again what was sent long ago and never finished. Tasks are idempotent."""

    class Task(models.TextChoices):
        DETECT = "review.tasks.detect_document", "detect"
        RENDER_AND_SIGN = "review.tasks.render_and_sign", "render and sign"

    class Lane(models.TextChoices):
        DEFAULT = "default", "default"
        HIGH = "high", "high"

    item = models.ForeignKey(ReviewItem, on_delete=models.PROTECT, related_name="outbox")
    task = models.CharField(max_length=64, choices=Task.choices)
    lane = models.CharField(max_length=10, choices=Lane.choices, default=Lane.DEFAULT)
    reason = models.CharField(max_length=40, help_text="What made the task necessary.")
    created_at = models.DateTimeField()
    due_at = models.DateTimeField(help_text="Not sent before (a retry's backoff).")
    sent_at = models.DateTimeField(null=True, blank=True)
    sends = models.PositiveIntegerField(default=0)
    done_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["due_at", "id"]
        constraints = [
            # One unfinished row per item and task: a second request joins the first.
            models.UniqueConstraint(
                fields=["item", "task"],
                condition=Q(done_at__isnull=True),
                name="outbox_one_open_row_per_item_task",
            ),
        ]
        indexes = [
            models.Index(
                fields=["due_at"], name="outbox_unsent_idx", condition=Q(sent_at__isnull=True)
            ),
            models.Index(
                fields=["sent_at"],
                name="outbox_unfinished_idx",
                condition=Q(done_at__isnull=True, sent_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_task_display()} for item {self.item_id}"


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
