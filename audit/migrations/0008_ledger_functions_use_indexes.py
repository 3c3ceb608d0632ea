from django.db import migrations

# The functions cache their statements' plans for the session. A plan made while the
# ledger was small (a new deployment, a table just vacuumed) reads the whole table, and
# keeps doing so as it grows: a chain's head was found by scanning every event. The head
# lookups are only ever meant to use the (chain, position) index; no seq scan plans.
# CREATE OR REPLACE drops the setting: a later redefinition of these functions carries
# `SET enable_seqscan = off` itself, as review 0020 does for review_claim_next
# (tests/audit/test_hot_functions_use_indexes.py fails otherwise).
FUNCTIONS = (
    "audit_append(text, text, uuid, uuid, bigint, text, integer, text, integer, text, jsonb)",
    "audit_lock_chain_heads(text[], integer)",
)


def index_only(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for function in FUNCTIONS:
            schema_editor.execute(f"ALTER FUNCTION {function} SET enable_seqscan = off")


def reset(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for function in FUNCTIONS:
            schema_editor.execute(f"ALTER FUNCTION {function} RESET enable_seqscan")


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0007_ledger_indexes_without_pattern_copies"),
    ]

    operations = [migrations.RunPython(index_only, reset)]
