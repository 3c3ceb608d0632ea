from django.db import migrations

# Appending one event in the database itself, for hot paths that do all their work in
# one call (claim next). The hashed content is `AuditEvent.canonical()`: the same fields,
# serialised as Python's `json.dumps(..., sort_keys=True, separators=(",", ":"))` with its
# default `ensure_ascii`. `audit_json` is that serialiser for the JSON values the ledger
# holds (objects, arrays, strings, integers, booleans, null); the tests check it against
# Python's on generated values, and every event it writes against `verify_chain`.
FUNCTIONS = """
CREATE OR REPLACE FUNCTION audit_json_text(s text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
    out text := '';
    code integer;
    c text;
BEGIN
    IF s ~ '^[ -~]*$' AND position('"' IN s) = 0 AND position('\\' IN s) = 0 THEN
        RETURN '"' || s || '"';
    END IF;
    FOREACH c IN ARRAY regexp_split_to_array(s, '') LOOP
        code := ascii(c);
        out := out || CASE
            WHEN c = '"' THEN '\\"'
            WHEN c = '\\' THEN '\\\\'
            WHEN code = 10 THEN '\\n'
            WHEN code = 13 THEN '\\r'
            WHEN code = 9 THEN '\\t'
            WHEN code = 8 THEN '\\b'
            WHEN code = 12 THEN '\\f'
            WHEN code < 32 OR (code > 126 AND code < 65536)
                THEN '\\u' || lpad(to_hex(code), 4, '0')
            WHEN code >= 65536
                THEN '\\u' || to_hex(55296 + ((code - 65536) >> 10))
                  || '\\u' || to_hex(56320 + ((code - 65536) & 1023))
            ELSE c
        END;
    END LOOP;
    RETURN '"' || out || '"';
END
$$;

CREATE OR REPLACE FUNCTION audit_json(v jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    kind text := jsonb_typeof(v);
BEGIN
    IF kind = 'string' THEN
        RETURN audit_json_text(v #>> '{}');
    ELSIF kind = 'number' THEN
        IF v::text !~ '^-?[0-9]+$' THEN
            RAISE EXCEPTION 'audit_json: only integers are hashed in SQL, not %', v;
        END IF;
        RETURN v::text;
    ELSIF kind = 'object' THEN
        RETURN '{' || coalesce((
            SELECT string_agg(audit_json_text(key) || ':' || CASE jsonb_typeof(value)
                WHEN 'string' THEN audit_json_text(value #>> '{}')
                WHEN 'object' THEN audit_json(value)
                WHEN 'array' THEN audit_json(value)
                WHEN 'number' THEN audit_json(value)
                ELSE value::text END, ',' ORDER BY key COLLATE "C")
            FROM jsonb_each(v)), '') || '}';
    ELSIF kind = 'array' THEN
        RETURN '[' || coalesce((
            SELECT string_agg(audit_json(e), ',' ORDER BY n)
            FROM jsonb_array_elements(v) WITH ORDINALITY AS t(e, n)), '') || ']';
    END IF;
    RETURN v::text;  -- true, false, null: as Python writes them
END
$$;

CREATE OR REPLACE FUNCTION audit_append(
    p_event_type text, p_actor text, p_submission uuid, p_document uuid, p_item bigint,
    p_correlation text, p_attempt integer, p_input_hash text, p_policy_version integer,
    p_output_hash text, p_extra jsonb
) RETURNS void
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    chain_name text := CASE
        WHEN p_document IS NOT NULL THEN 'document:' || p_document
        WHEN p_submission IS NOT NULL THEN 'submission:' || p_submission
        ELSE 'system' END;
    number bigint;
    occurred timestamptz;
    head_position bigint;
    previous text;
    canonical text;
BEGIN
    -- As audit_lock_chain_heads (0004), for one chain: the same lock key, so appends
    -- from Python and from here take turns; the head is read after the lock.
    PERFORM pg_advisory_xact_lock(hashtextextended(chain_name, 0));
    number := nextval('audit_event_sequence');
    occurred := clock_timestamp();
    SELECT e.position, e.row_hash INTO head_position, previous
        FROM audit_auditevent e
        WHERE e.chain = chain_name AND e.position IS NOT NULL
        ORDER BY e.position DESC LIMIT 1;
    head_position := coalesce(head_position, 0) + 1;
    previous := coalesce(previous, repeat('0', 64));
    -- AuditEvent.canonical(), keys in sorted order.
    canonical := '{"actor":' || audit_json_text(p_actor)
        || ',"attempt":' || coalesce(p_attempt::text, 'null')
        || ',"chain":' || audit_json_text(chain_name)
        || ',"correlation_id":' || audit_json_text(p_correlation)
        || ',"document_id":' || coalesce(audit_json_text(p_document::text), 'null')
        || ',"event_type":' || audit_json_text(p_event_type)
        || ',"extra":' || audit_json(p_extra)
        || ',"input_hash":' || audit_json_text(p_input_hash)
        || ',"item_id":' || coalesce(p_item::text, 'null')
        || ',"occurred_at":"'
        || to_char(occurred AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') || '+00:00"'
        || ',"output_hash":' || audit_json_text(p_output_hash)
        || ',"policy_version":' || coalesce(p_policy_version::text, 'null')
        || ',"position":' || head_position
        || ',"prev_hash":' || audit_json_text(previous)
        || ',"sequence":' || number
        || ',"submission_id":' || coalesce(audit_json_text(p_submission::text), 'null')
        || '}';
    INSERT INTO audit_auditevent (
        sequence, occurred_at, event_type, actor, submission_id, document_id, item_id,
        correlation_id, attempt, input_hash, policy_version, output_hash, extra,
        prev_hash, row_hash, chain, position)
    VALUES (
        number, occurred, p_event_type, p_actor, p_submission, p_document, p_item,
        p_correlation, p_attempt, p_input_hash, p_policy_version, p_output_hash, p_extra,
        previous, encode(sha256(convert_to(canonical, 'UTF8')), 'hex'), chain_name,
        head_position);
END
$$;
"""

DROP = """
DROP FUNCTION IF EXISTS audit_append(text, text, uuid, uuid, bigint, text, integer, text,
                                     integer, text, jsonb);
DROP FUNCTION IF EXISTS audit_json(jsonb);
DROP FUNCTION IF EXISTS audit_json_text(text);
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTIONS, params=None)  # no placeholders: '%' is SQL's


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("audit", "0004_lock_chain_heads_function"),
    ]

    operations = [migrations.RunPython(install, remove)]
