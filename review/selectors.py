"""Reads for pages and APIs. Counts only: never document content."""

from django.db.models import Count

from review.models import ReviewItem


def item_counts_by_queue_and_state() -> list[dict[str, object]]:
    rows = (
        ReviewItem.objects.values("queue", "state")
        .annotate(count=Count("id"))
        .order_by("queue", "state")
    )
    return [dict(row) for row in rows]
