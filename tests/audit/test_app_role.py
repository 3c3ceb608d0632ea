"""The application's PostgreSQL role may read and append the ledger and nothing more."""

from __future__ import annotations

import os

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from audit.services import emit

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def app_role():
    """A login role with the grants `grant_app_role` gives, and a connection as it."""
    name = f"rrq_app_test_{os.getpid()}"
    with connection.cursor() as cursor:
        cursor.execute(f"DROP ROLE IF EXISTS {name}")
        cursor.execute(f"CREATE ROLE {name} LOGIN")
    call_command("grant_app_role", name)
    settings = connection.settings_dict
    conn = psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=name,
        autocommit=True,
    )
    try:
        yield conn
    finally:
        conn.close()
        with connection.cursor() as cursor:
            cursor.execute(f"DROP OWNED BY {name}")
            cursor.execute(f"DROP ROLE {name}")


REFUSED = [
    "UPDATE audit_auditevent SET actor = 'user:mallory'",
    "DELETE FROM audit_auditevent",
    "TRUNCATE audit_auditevent",
    "UPDATE audit_checkpoint SET signature = ''",
    "DELETE FROM audit_checkpoint",
    "ALTER TABLE audit_auditevent DISABLE TRIGGER USER",
    "ALTER TABLE audit_auditevent DISABLE TRIGGER ALL",
    "DROP TRIGGER audit_auditevent_no_update_delete ON audit_auditevent",
    "SET session_replication_role = replica",
]


@pytest.mark.parametrize("statement", REFUSED)
def test_application_role_cannot_change_or_unguard_the_ledger(app_role, statement):
    emit("TEST_EVENT", actor="system:test")
    with pytest.raises(psycopg.errors.InsufficientPrivilege):
        app_role.execute(statement)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM audit_auditevent WHERE actor = 'system:test'")
        assert cursor.fetchone()[0] == 1


def test_application_role_reads_and_appends_the_ledger_and_writes_work_tables(app_role):
    emit("TEST_EVENT", actor="system:test")
    assert app_role.execute("SELECT count(*) FROM audit_auditevent").fetchone()[0] >= 1
    with app_role.transaction():
        positions, _, sequences, _ = app_role.execute(
            "SELECT * FROM audit_lock_chain_heads(ARRAY['system'], 1)"
        ).fetchone()
    assert positions == [1] and len(sequences) == 1
    for table in ("audit_auditevent", "audit_checkpoint"):
        row = app_role.execute(
            "SELECT has_table_privilege(current_user, %s, 'INSERT'),"
            " has_table_privilege(current_user, %s, 'UPDATE')",
            [table, table],
        ).fetchone()
        assert row == (True, False)
    app_role.execute("UPDATE review_reviewitem SET priority = priority WHERE false")
    # Admission takes its review items' ids before its write batch (common.batch).
    app_role.execute(
        "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, 2)",
        ['"review_reviewitem"'],
    )
    app_role.execute("DELETE FROM django_session WHERE false")


def test_a_superuser_role_is_refused_as_the_application_role():
    with pytest.raises(CommandError, match="superuser"):
        call_command("grant_app_role", "postgres")


def test_application_role_claims_in_one_call_and_the_event_verifies(app_role):
    from audit.services import verify_chain
    from review.roles import REVIEWER
    from testkit.builders import user_create
    from testkit.corpus import simple_pdf
    from tests.factories import admitted_items

    (item,) = admitted_items({"a.pdf": simple_pdf(["SSN 123-45-6789"])})
    reviewer = user_create("rita", role=REVIEWER)

    outcome, _, _, claimed, *_ = app_role.execute(
        "SELECT * FROM review_claim_next(%s, 'user:rita', '{review}')", [reviewer.pk]
    ).fetchone()

    assert (outcome, claimed) == ("claimed", item.pk)
    assert verify_chain().ok
