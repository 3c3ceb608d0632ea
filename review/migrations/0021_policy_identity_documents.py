"""A new policy version that turns on the identity-document numbers detection reads
after their labels: passport, driver's licence and US alien registration (A-Number).
Earlier versions stay as they were: documents admitted under them keep their policy."""

from django.db import migrations

from review.migrations._categories import publish_categories

NEW_CATEGORIES = ["passport_number", "driver_license", "a_number"]


def publish(apps, schema_editor):
    publish_categories(
        apps,
        NEW_CATEGORIES,
        note="detection: passport, driver's licence and A-Number after their labels",
    )


class Migration(migrations.Migration):
    dependencies = [("review", "0020_claim_next_function_v2")]

    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
