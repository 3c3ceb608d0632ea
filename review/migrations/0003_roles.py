"""Groups for the three human roles and for intake service accounts."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from review.roles import install_roles


def create_roles(apps, schema_editor):
    # Permissions are normally made after migrate; this migration needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None

    install_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


class Migration(migrations.Migration):
    dependencies = [
        ("review", "0002_policy_v1"),
        ("intake", "0002_jurisdictions"),
        ("audit", "0002_append_only_triggers"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_roles, migrations.RunPython.noop)]
