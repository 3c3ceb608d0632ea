from django.db import migrations

# The rate limit's counts need no durability: after a crash PostgreSQL empties an
# unlogged table, and every client starts a fresh window. Writing them without WAL spares
# each admission the wait for a WAL flush of its own (a transaction that wrote only
# unlogged rows commits without one), where a lost count costs nothing.


def unlogged(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE intake_throttlewindow SET UNLOGGED")


def logged(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE intake_throttlewindow SET LOGGED")


class Migration(migrations.Migration):
    dependencies = [
        ("intake", "0008_throttle_window"),
    ]

    operations = [migrations.RunPython(unlogged, logged)]
