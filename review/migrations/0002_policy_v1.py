"""Policy version 1: the defaults every later version starts from."""

from django.db import migrations

CATEGORIES = [
    "ssn",
    "email",
    "phone",
    "card",
    "iban",
    "ein",
    "dob",
    "account_number",
    "policy_number",
    "medical_record",
    "ip_address",
    "search_term",
]


def seed(apps, schema_editor):
    Policy = apps.get_model("review", "Policy")
    Policy.objects.get_or_create(
        version=1,
        defaults={
            "created_by": "system:migration",
            "note": "initial policy",
            "categories": CATEGORIES,
            "category_min_confidence": {category: 0.5 for category in CATEGORIES},
            "review_threshold": 0.9,
            "sla_hours": {"urgent": 4, "standard": 24},
            "lease_minutes": 15,
            "lease_max_minutes": 120,
            "warn_window_minutes": 60,
            "max_attempts": 3,
            "max_open_claims_per_reviewer": 1,
        },
    )


class Migration(migrations.Migration):
    dependencies = [("review", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
