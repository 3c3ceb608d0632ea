"""A new policy version that turns on the identity-document numbers detection reads
after their labels: passport, driver's licence and US alien registration (A-Number).
Earlier versions stay as they were: documents admitted under them keep their policy."""

from django.db import migrations
from django.db.models import Max

NEW_CATEGORIES = ["passport_number", "driver_license", "a_number"]


def publish(apps, schema_editor):
    Policy = apps.get_model("review", "Policy")
    latest = Policy.objects.order_by("-version").first()
    if latest is None or set(NEW_CATEGORIES) <= set(latest.categories):
        return
    latest.pk = None
    latest.version = (Policy.objects.aggregate(v=Max("version"))["v"] or 0) + 1
    latest.created_by = "system:migration"
    latest.note = "detection: passport, driver's licence and A-Number after their labels"
    latest.categories = [
        *latest.categories,
        *(c for c in NEW_CATEGORIES if c not in latest.categories),
    ]
    latest.category_min_confidence = {
        **latest.category_min_confidence,
        **{c: 0.5 for c in NEW_CATEGORIES if c not in latest.category_min_confidence},
    }
    latest.save()


class Migration(migrations.Migration):
    dependencies = [("review", "0020_claim_next_function_v2")]

    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
