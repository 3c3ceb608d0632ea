"""The shipped jurisdiction registry; compliance officers edit it in the admin."""

from django.db import migrations

JURISDICTIONS = [
    {
        "code": "US-FED",
        "name": "United States (federal)",
        "law": "FOIA, 5 U.S.C. 552(a)(6)(A)",
        "window_unit": "business_days",
        "window_length": 20,
        "holiday_country": "US",
        "default_exemption": "(b)(6)",
        "exemption_codes": {
            "ssn": "(b)(6)",
            "email": "(b)(6)",
            "phone": "(b)(6)",
            "card": "(b)(6)",
            "iban": "(b)(6)",
            "ein": "(b)(4)",
            "dob": "(b)(6)",
            "account_number": "(b)(6)",
            "policy_number": "(b)(6)",
            "medical_record": "(b)(6)",
            "ip_address": "(b)(6)",
            "search_term": "(b)(6)",
        },
    },
    {
        "code": "UK",
        "name": "United Kingdom",
        "law": "Freedom of Information Act 2000, s.10",
        "window_unit": "business_days",
        "window_length": 20,
        "holiday_country": "GB",
        "holiday_subdivision": "ENG",
        "default_exemption": "s.40(2)",
        "exemption_codes": {},
    },
    {
        "code": "EU-GDPR",
        "name": "European Union (GDPR subject access)",
        "law": "GDPR Art. 12(3)",
        "window_unit": "calendar_months",
        "window_length": 1,
        "default_exemption": "Art.15(4)",
        "exemption_codes": {},
    },
]


def seed(apps, schema_editor):
    Jurisdiction = apps.get_model("intake", "Jurisdiction")
    for row in JURISDICTIONS:
        Jurisdiction.objects.update_or_create(code=row["code"], defaults=row)


class Migration(migrations.Migration):
    dependencies = [("intake", "0001_initial")]
    operations = [migrations.RunPython(seed, migrations.RunPython.noop)]
