"""What the data migrations that turn on new detection categories share (a module the
migration loader skips: its name starts with "_")."""

from django.db.models import Max


def publish_categories(apps, categories: list[str], note: str) -> None:
    """A new policy version: the latest with `categories` turned on (minimum confidence
    0.5). Earlier versions stay as they were: documents admitted under them keep their
    policy. Nothing when the latest has them all already."""
    Policy = apps.get_model("review", "Policy")
    latest = Policy.objects.order_by("-version").first()
    if latest is None or set(categories) <= set(latest.categories):
        return
    latest.pk = None
    latest.version = (Policy.objects.aggregate(v=Max("version"))["v"] or 0) + 1
    latest.created_by = "system:migration"
    latest.note = note
    latest.categories = [
        *latest.categories,
        *(c for c in categories if c not in latest.categories),
    ]
    latest.category_min_confidence = {
        **latest.category_min_confidence,
        **{c: 0.5 for c in categories if c not in latest.category_min_confidence},
    }
    latest.save()
