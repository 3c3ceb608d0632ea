"""The queue entry for one document and its leases: the item's state, queue, hold and
close reason, the claims reviewers hold on it, and the pages drawn under each claim."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from intake.models import Document, SlaClass


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
            # Every scrape of /metrics asks for the oldest open item, held or not: found
            # among the open items, not among every item ever finished.
            models.Index(
                fields=["created_at"],
                name="item_open_created_idx",
                condition=~Q(state__in=[ItemState.SIGNED, ItemState.FAILED]),
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
            # Claim next passes over the items a reviewer released (others get them
            # first): found among those few, not among every claim the reviewer made.
            models.Index(
                fields=["reviewer", "item"],
                name="claim_released_by_reviewer_idx",
                condition=Q(outcome="released"),
            ),
            # Every scrape of /metrics counts the expired leases: found among those few,
            # not among every claim ever made.
            models.Index(
                fields=["item", "ended_at"],
                name="claim_expired_idx",
                condition=Q(outcome="expired"),
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
