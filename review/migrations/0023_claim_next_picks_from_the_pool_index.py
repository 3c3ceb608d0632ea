from django.conf import settings
from django.db import migrations

# review_claim_next (0020) picks from the item table alone. The pick joined the item to
# its document and submission; once the documents table had statistics (autovacuum
# analyses it soon after a bulk admission), the planner could plan that join from the
# documents side: every document read and sorted on each call, or a fresh plan made on
# every call to avoid that, which cost a third of the call. Separation of duties and the
# legal holds on a submission are now a per-row check (a scalar subquery, which the
# planner cannot turn into a join), so the pick walks the pool index in deadline order
# under any statistics; the document and submission are read once, for the picked item.
FUNCTION = """
CREATE OR REPLACE FUNCTION review_claim_next(p_reviewer integer, p_actor text, p_queues text[])
RETURNS TABLE (outcome text, held integer, claim_id bigint, item_id bigint,
               claimed_at timestamptz, expires_at timestamptz, previous_change timestamptz)
LANGUAGE plpgsql VOLATILE
SET enable_seqscan = off
AS $$
#variable_conflict use_column
DECLARE
    current_time_ timestamptz := statement_timestamp();
    rules record;
    got boolean := false;
    open_claims integer;
    picked record;
    origin record;
    new_claim bigint;
    lease_ends timestamptz;
    held_documents uuid[];
    held_submissions uuid[];
BEGIN
    PERFORM 1 FROM {user_table} WHERE id = p_reviewer FOR UPDATE;
    SELECT p.max_open_claims_per_reviewer, p.lease_minutes INTO rules
        FROM review_policy p ORDER BY p.version DESC LIMIT 1;
    SELECT count(*) INTO open_claims FROM review_claim c
        WHERE c.reviewer_id = p_reviewer AND c.ended_at IS NULL AND c.expires_at > now();
    IF open_claims >= rules.max_open_claims_per_reviewer THEN
        RETURN QUERY SELECT 'limit', open_claims, NULL::bigint, NULL::bigint,
                            NULL::timestamptz, NULL::timestamptz, NULL::timestamptz;
        RETURN;
    END IF;
    -- Legal holds are few: read the open ones once, not once per candidate row.
    SELECT coalesce(array_agg(h.document_id) FILTER (WHERE h.document_id IS NOT NULL), '{{}}'),
           coalesce(array_agg(h.submission_id) FILTER (WHERE h.submission_id IS NOT NULL), '{{}}')
        INTO held_documents, held_submissions
        FROM review_legalhold h WHERE h.lifted_at IS NULL;
    -- An item this reviewer released goes to someone else first: it comes back to them
    -- only when no other work is waiting. Never an item of a submission they made.
    FOR round IN 1..2 LOOP
        SELECT i.id, i.document_id, i.attempts, i.state_changed_at
            INTO picked
            FROM review_reviewitem i
            WHERE i.state = 'proposed' AND i.hold = 'none' AND i.queue = ANY (p_queues)
              AND i.document_id <> ALL (held_documents)
              AND (SELECT s.client_id <> p_reviewer
                          AND d.submission_id <> ALL (held_submissions)
                   FROM intake_document d JOIN intake_submission s ON s.id = d.submission_id
                   WHERE d.id = i.document_id)
              AND (round = 2 OR NOT EXISTS (
                  SELECT 1 FROM review_claim c
                  WHERE c.item_id = i.id AND c.reviewer_id = p_reviewer
                    AND c.outcome = 'released'))
            ORDER BY i.priority, i.deadline, i.id
            FOR UPDATE OF i SKIP LOCKED
            LIMIT 1;
        got := FOUND;
        EXIT WHEN got;
    END LOOP;
    IF NOT got THEN
        RETURN QUERY SELECT 'empty', open_claims, NULL::bigint, NULL::bigint,
                            NULL::timestamptz, NULL::timestamptz, NULL::timestamptz;
        RETURN;
    END IF;
    SELECT d.submission_id, d.policy_version, d.source_sha256, s.correlation_id
        INTO origin
        FROM intake_document d JOIN intake_submission s ON s.id = d.submission_id
        WHERE d.id = picked.document_id;
    lease_ends := current_time_ + rules.lease_minutes * interval '1 minute';
    INSERT INTO review_claim (item_id, reviewer_id, claimed_at, expires_at, outcome)
        VALUES (picked.id, p_reviewer, current_time_, lease_ends, '')
        RETURNING id INTO new_claim;
    UPDATE review_reviewitem SET state = 'in_review', state_changed_at = current_time_
        WHERE id = picked.id;
    PERFORM audit_append(
        'CLAIMED', p_actor, origin.submission_id, picked.document_id, picked.id,
        origin.correlation_id, nullif(picked.attempts, 0), origin.source_sha256,
        origin.policy_version, '',
        jsonb_build_object('from', 'proposed', 'to', 'in_review', 'claim', new_claim,
                           'lease_seconds', rules.lease_minutes * 60));
    RETURN QUERY SELECT 'claimed', open_claims, new_claim, picked.id, current_time_,
                        lease_ends, picked.state_changed_at;
END
$$;
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        user_table = apps.get_model(settings.AUTH_USER_MODEL)._meta.db_table
        schema_editor.execute(
            FUNCTION.format(user_table=schema_editor.quote_name(user_table)), params=None
        )


def restore(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        from importlib import import_module

        import_module("review.migrations.0020_claim_next_function_v2").install(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("review", "0022_policy_vehicle_and_medicare_numbers"),
    ]

    operations = [migrations.RunPython(install, restore)]
