"""Compliance officers edit the exemption catalogues: their role gains its permissions."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from review.roles import install_roles


def update_roles(apps, schema_editor):
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    install_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("review", "0013_policy_detection_categories"),
        ("intake", "0006_exemption_catalogue_seed"),
    ]
    operations = [migrations.RunPython(update_roles, migrations.RunPython.noop)]
