"""The work that continues an item: the transactional outbox of its tasks, and the dead
letter left when that work failed for good."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from review.models.items import ReviewItem


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
