"""A new policy version that turns on the detectors added with it: names, places and
organisations (full mode), street addresses, ITIN and the UK's NI and NHS numbers.
Earlier versions stay as they were: documents admitted under them keep their policy."""

from django.db import migrations

from review.migrations._categories import publish_categories

NEW_CATEGORIES = [
    "itin",
    "uk_nino",
    "uk_nhs",
    "address",
    "person",
    "location",
    "organization",
]


def publish(apps, schema_editor):
    publish_categories(
        apps,
        NEW_CATEGORIES,
        note="detection: names, places, organisations, addresses, ITIN, UK NI and NHS",
    )


class Migration(migrations.Migration):
    dependencies = [("review", "0012_policy_detection_by_jurisdiction")]

    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
