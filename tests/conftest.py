import pytest
from django.db import connection
from django.test import testcases


def _flush_with_ledger_triggers_disabled(original):
    """Transactional tests end with a TRUNCATE of every table; the ledger's triggers
    (rightly) refuse that, so the test harness lifts them for its own flush only."""

    def teardown(self):
        if connection.vendor != "postgresql":
            return original(self)
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER USER")
        try:
            return original(self)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER USER")

    return teardown


testcases.TransactionTestCase._fixture_teardown = _flush_with_ledger_triggers_disabled(
    testcases.TransactionTestCase._fixture_teardown
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)"))
