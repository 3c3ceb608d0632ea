from django.db import migrations

# One round trip for everything an append needs before it can hash its rows: lock each
# chain (advisory, transaction-level, in the order given), then read each head, the
# ledger-wide order numbers and the time. PL/pgSQL runs each statement with its own
# snapshot under READ COMMITTED, so the head read sees every append committed before
# the lock was granted; one plain SQL statement would read with its snapshot from
# before the wait and could fork a chain.
FUNCTION = """
CREATE OR REPLACE FUNCTION audit_lock_chain_heads(chains text[], events integer)
RETURNS TABLE (chain text, head_position bigint, head_hash text, sequences bigint[],
               locked_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    numbers bigint[];
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(c, 0))
        FROM unnest(chains) WITH ORDINALITY AS t(c, n) ORDER BY n;
    SELECT array_agg(nextval('audit_event_sequence')) INTO numbers
        FROM generate_series(1, events);
    RETURN QUERY
        SELECT t.c, head.position::bigint, head.row_hash::text, numbers, clock_timestamp()
        FROM unnest(chains) WITH ORDINALITY AS t(c, n)
        LEFT JOIN LATERAL (
            SELECT e.position, e.row_hash FROM audit_auditevent e
            WHERE e.chain = t.c AND e.position IS NOT NULL
            ORDER BY e.position DESC LIMIT 1
        ) AS head ON true
        ORDER BY t.n;
END
$$;
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS audit_lock_chain_heads(text[], integer)")


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0003_chains_and_checkpoints"),
    ]

    operations = [migrations.RunPython(install, remove)]
