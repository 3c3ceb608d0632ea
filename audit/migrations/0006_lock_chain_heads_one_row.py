from django.db import migrations

# audit_lock_chain_heads (0004) answered one row per chain, and every row repeated the
# order numbers and the time: a sweep batch of 500 events read 500 x 500 order numbers
# and parsed 500 timestamps. Now it answers one row: the heads as arrays in the order
# of the chains given, the order numbers and the time once. Same locks, same reads.
FUNCTION = """
DROP FUNCTION IF EXISTS audit_lock_chain_heads(text[], integer);
CREATE FUNCTION audit_lock_chain_heads(chains text[], events integer)
RETURNS TABLE (head_positions bigint[], head_hashes text[], sequences bigint[],
               locked_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(c, 0))
        FROM unnest(chains) WITH ORDINALITY AS t(c, n) ORDER BY n;
    -- A separate statement after the locks: it reads with a snapshot taken once every
    -- lock was granted, so it sees each chain's latest committed append.
    RETURN QUERY
        SELECT array_agg(head.position::bigint ORDER BY t.n),
               array_agg(head.row_hash::text ORDER BY t.n),
               (SELECT array_agg(nextval('audit_event_sequence'))
                  FROM generate_series(1, events)),
               clock_timestamp()
        FROM unnest(chains) WITH ORDINALITY AS t(c, n)
        LEFT JOIN LATERAL (
            SELECT e.position, e.row_hash FROM audit_auditevent e
            WHERE e.chain = t.c AND e.position IS NOT NULL
            ORDER BY e.position DESC LIMIT 1
        ) AS head ON true;
END
$$;
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION, params=None)


def restore(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        from importlib import import_module

        previous = import_module("audit.migrations.0004_lock_chain_heads_function")
        schema_editor.execute("DROP FUNCTION IF EXISTS audit_lock_chain_heads(text[], integer)")
        schema_editor.execute(previous.FUNCTION, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0005_append_function"),
    ]

    operations = [migrations.RunPython(install, restore)]
