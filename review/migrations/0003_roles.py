"""Groups for the three human roles and for intake service accounts."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

from review.roles import (
    COMPLIANCE_ADMIN_PERMISSIONS,
    COMPLIANCE_OFFICER,
    INTAKE_CLIENT,
    QUEUE_PERMISSIONS,
)


def create_roles(apps, schema_editor):
    # Permissions are normally made after migrate; this migration needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")

    def permissions(names):
        result = []
        for name in names:
            app_label, codename = name.split(".")
            result.append(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )
        return result

    for role, names in QUEUE_PERMISSIONS.items():
        extra = COMPLIANCE_ADMIN_PERMISSIONS if role == COMPLIANCE_OFFICER else []
        group, _ = Group.objects.get_or_create(name=role)
        group.permissions.set(permissions(names + extra))
    Group.objects.get_or_create(name=INTAKE_CLIENT)


class Migration(migrations.Migration):
    dependencies = [
        ("review", "0002_policy_v1"),
        ("intake", "0002_jurisdictions"),
        ("audit", "0002_append_only_triggers"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_roles, migrations.RunPython.noop)]
