"""Events appended inside PostgreSQL (`audit_append`, migration audit 0005) hash exactly
what `AuditEvent.canonical()` hashes, and take turns with appends from Python."""

from __future__ import annotations

import json
import threading
import uuid

import pytest
from django.db import connection, connections, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from audit.models import AuditEvent
from audit.services import emit, verify_chain

pytestmark = pytest.mark.postgres

# What PostgreSQL text holds: any character but NUL (and no lone surrogates).
TEXT = st.text(st.characters(exclude_categories=["Cs"], exclude_characters="\x00"), max_size=40)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
EXAMPLES = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def _append(**fields) -> None:
    values = {
        "event_type": "TEST_EVENT",
        "actor": "system:test",
        "submission_id": None,
        "document_id": None,
        "item_id": None,
        "correlation_id": "",
        "attempt": None,
        "input_hash": "",
        "policy_version": None,
        "output_hash": "",
        "extra": {},
        **fields,
    }
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT audit_append(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb)",
            [*list(values.values())[:-1], json.dumps(values["extra"])],
        )


@pytest.mark.django_db
@EXAMPLES
@given(value=JSON)
def test_the_sql_serialiser_writes_what_python_json_dumps_writes(value):
    with connection.cursor() as cursor:
        cursor.execute("SELECT audit_json(%s::jsonb)", [json.dumps(value)])
        written = cursor.fetchone()[0]

    assert written == json.dumps(value, sort_keys=True, separators=(",", ":"))


@pytest.mark.django_db
def test_a_fraction_is_refused_rather_than_hashed_differently():
    with pytest.raises(Exception, match="only integers"), connection.cursor() as cursor:
        cursor.execute("SELECT audit_json('{\"ratio\": 0.5}'::jsonb)")


@pytest.mark.django_db
@EXAMPLES
@given(
    actor=TEXT.filter(bool).map(lambda s: s[:150]),
    correlation=TEXT.map(lambda s: s[:64]),
    extra=st.dictionaries(TEXT, JSON, max_size=4),
    attempt=st.none() | st.integers(1, 50),
)
def test_an_event_appended_in_the_database_verifies_in_python(actor, correlation, extra, attempt):
    document = uuid.uuid4()
    emit("FIRST", actor="system:test", document_id=document)
    _append(
        actor=actor,
        document_id=document,
        submission_id=uuid.uuid4(),
        item_id=7,
        correlation_id=correlation,
        attempt=attempt,
        input_hash="ab" * 32,
        policy_version=3,
        extra=extra,
    )

    first, second = AuditEvent.objects.filter(chain=f"document:{document}").order_by("position")
    assert (second.position, second.prev_hash) == (2, first.row_hash)
    assert second.compute_hash() == second.row_hash
    assert (second.actor, second.correlation_id, second.extra) == (actor, correlation, extra)
    assert verify_chain().ok


@pytest.mark.django_db(transaction=True)
def test_appends_from_python_and_from_the_database_take_turns_on_one_chain():
    document = uuid.uuid4()
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def writer(in_database: bool) -> None:
        try:
            start.wait()
            for i in range(10):
                with transaction.atomic():
                    if in_database:
                        _append(document_id=document, extra={"i": i})
                    else:
                        emit(
                            "TEST_EVENT", actor="system:test", document_id=document, extra={"i": i}
                        )
        except BaseException as exc:  # noqa: BLE001 - surfaced by the assertion below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=writer, args=(n % 2 == 0,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    positions = AuditEvent.objects.filter(chain=f"document:{document}").values_list(
        "position", flat=True
    )
    assert sorted(positions) == list(range(1, 81))
    report = verify_chain()
    assert report.ok, report.describe()
