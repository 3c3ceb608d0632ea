"""A new policy version that turns on the vehicle and Medicare numbers detection reads:
a licence plate after its label, a vehicle identification number and a Medicare
Beneficiary Identifier. Earlier versions stay as they were: documents admitted under
them keep their policy."""

from django.db import migrations

from review.migrations._categories import publish_categories

NEW_CATEGORIES = ["license_plate", "vin", "medicare_number"]


def publish(apps, schema_editor):
    publish_categories(
        apps,
        NEW_CATEGORIES,
        note="detection: licence plates, vehicle identification and Medicare numbers",
    )


class Migration(migrations.Migration):
    dependencies = [("review", "0021_policy_identity_documents")]

    operations = [migrations.RunPython(publish, migrations.RunPython.noop)]
