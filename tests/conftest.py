import pytest
from django.db import connection
from django.test import testcases

LEDGER_TABLES = ("audit_auditevent", "audit_checkpoint")


def _flush_with_ledger_triggers_disabled(original):
    """Transactional tests end with a TRUNCATE of every table; the ledger's triggers
    (rightly) refuse that, so the test harness lifts them for its own flush only."""

    def teardown(self):
        if connection.vendor != "postgresql":
            return original(self)
        with connection.cursor() as cursor:
            for table in LEDGER_TABLES:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        try:
            return original(self)
        finally:
            with connection.cursor() as cursor:
                for table in LEDGER_TABLES:
                    cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")

    return teardown


testcases.TransactionTestCase._fixture_teardown = _flush_with_ledger_triggers_disabled(
    testcases.TransactionTestCase._fixture_teardown
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.get_closest_marker("postgres") and connection.vendor != "postgresql":
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)"))


@pytest.fixture(autouse=True, scope="session")
def _signing_certificate():
    """A self-signed development signer, as `make run` creates with create_signing_cert."""
    from django.conf import settings

    from review.pdf.sign import generate_self_signed

    if not settings.SIGNING_CERT_FILE.exists():
        generate_self_signed(settings.SIGNING_DIR)


@pytest.fixture(autouse=True)
def _forget_cached_policy_rows():
    """Policy rows are cached per process because they are never edited; a rolled-back
    or flushed test database may reuse a primary key for another row."""
    from review.selectors import policy_version

    policy_version.cache_clear()


@pytest.fixture(autouse=True)
def _reference_data_after_flush(request):
    """Transactional tests end by emptying every table, seed rows from data migrations
    included (post_migrate brings back only content types and permissions). Put the
    jurisdictions, the policy versions and role groups back, as the migrations made them."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None or not marker.kwargs.get("transaction"):
        return
    request.getfixturevalue("transactional_db")
    from importlib import import_module

    from django.apps import apps
    from django.contrib.auth.models import Group, Permission

    from review.roles import install_roles

    import_module("intake.migrations.0002_jurisdictions").seed(apps, None)
    import_module("intake.migrations.0006_exemption_catalogue_seed").seed(apps, None)
    import_module("review.migrations.0002_policy_v1").seed(apps, None)
    import_module("review.migrations.0013_policy_detection_categories").publish(apps, None)
    import_module("review.migrations.0021_policy_identity_documents").publish(apps, None)
    import_module("review.migrations.0022_policy_vehicle_and_medicare_numbers").publish(apps, None)
    install_roles(Group, Permission)


@pytest.fixture(autouse=True)
def _ledger_sequence_from_the_ledger(request):
    """On PostgreSQL the ledger's order numbers come from a database sequence, which a
    rolled-back test does not rewind: start each test after the rows that exist, as a
    fresh ledger would, so tests can name sequences."""
    marker = request.node.get_closest_marker("django_db")
    uses = set(request.fixturenames)
    if marker is None and not uses & {"db", "transactional_db", "live_server"}:
        return
    transactional = (marker is not None and marker.kwargs.get("transaction")) or (
        uses & {"transactional_db", "live_server"}
    )
    request.getfixturevalue("transactional_db" if transactional else "db")

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT setval('audit_event_sequence', "
                "COALESCE((SELECT max(sequence) FROM audit_auditevent), 0) + 1, false)"
            )


def pytest_sessionfinish(session, exitstatus):
    """Remove the run's throwaway data folder (config.settings_test made it)."""
    import shutil
    from pathlib import Path

    from django.conf import settings

    data_dir = Path(settings.DATA_DIR)
    if data_dir.name.startswith("rrq-test-"):
        shutil.rmtree(data_dir, ignore_errors=True)
