"""Per-document chains, signed checkpoints over their heads, and offline evidence: every
kind of tampering is found and named (chain and position, or checkpoint)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections, transaction
from django.test import Client
from rest_framework.test import APIClient

from audit import merkle
from audit.checkpoints import LEGACY, checkpoint_create, verify_checkpoints
from audit.evidence import evidence_bundle
from audit.models import GENESIS_HASH, AuditEvent, Checkpoint
from audit.services import emit, verify_chain
from review.roles import COMPLIANCE_OFFICER
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items

VERIFIER = Path(__file__).resolve().parents[2] / "tools" / "verify_evidence.py"
DOC_A, DOC_B = uuid.uuid4(), uuid.uuid4()


def _emit(document_id: uuid.UUID | None, count: int) -> list[AuditEvent]:
    """Append `count` events to one chain; the rows as stored, oldest first."""
    for n in range(count):
        emit("TEST_EVENT", actor="system:test", document_id=document_id, extra={"n": n})
    return list(AuditEvent.objects.order_by("-sequence")[:count])[::-1]


def _tamper(sql: str, params=()) -> None:
    """Change ledger rows behind the application's back (triggers off on PostgreSQL, as
    a superuser could)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE audit_auditevent DISABLE TRIGGER USER")
        cursor.execute(sql, params)
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE audit_auditevent ENABLE TRIGGER USER")


def _broken(match: str) -> None:
    with pytest.raises(CommandError, match=match):
        call_command("verify_audit")


@pytest.mark.django_db
def test_each_document_has_its_own_chain_from_genesis():
    a = _emit(DOC_A, 3)
    b = _emit(DOC_B, 2)
    system = _emit(None, 1)

    assert [(e.chain, e.position) for e in a] == [(f"document:{DOC_A}", p) for p in (1, 2, 3)]
    assert [(e.chain, e.position) for e in b] == [(f"document:{DOC_B}", p) for p in (1, 2)]
    assert (system[0].chain, system[0].position) == ("system", 1)
    assert a[0].prev_hash == b[0].prev_hash == GENESIS_HASH
    assert a[2].prev_hash == a[1].row_hash
    assert verify_chain().ok


@pytest.mark.django_db
def test_a_checkpoint_records_the_moved_chain_heads_signed_and_chained():
    a = _emit(DOC_A, 2)
    _emit(DOC_B, 1)

    first = checkpoint_create()
    assert checkpoint_create() is None  # nothing moved since
    a.extend(_emit(DOC_A, 1))
    second = checkpoint_create()

    assert set(first.heads) == {f"document:{DOC_A}", f"document:{DOC_B}"}
    assert second.heads == {f"document:{DOC_A}": [3, a[-1].row_hash]}
    assert second.prev_hash == first.checkpoint_hash
    assert verify_checkpoints().ok
    assert AuditEvent.objects.filter(event_type="AUDIT_CHECKPOINT").count() == 2


@pytest.mark.django_db
def test_the_merkle_path_of_every_leaf_leads_to_the_root():
    sys.path.insert(0, str(VERIFIER.parent))
    import verify_evidence

    for size in (1, 2, 3, 5, 8, 13):
        leaves = [merkle.head_leaf(f"c{i}", i + 1, "ab" * 32) for i in range(size)]
        root = merkle.root(leaves)
        for index in range(size):
            path = merkle.path(leaves, index)
            assert verify_evidence.root_from_path(leaves[index], index, size, path) == root


@pytest.mark.django_db
def test_an_edited_event_is_named_by_chain_and_position():
    events = _emit(DOC_A, 4)
    _tamper("UPDATE audit_auditevent SET actor = 'user:mallory' WHERE id = %s", [events[2].pk])
    _broken(rf"chain document:{DOC_A}, position 3\): row content does not match")


@pytest.mark.django_db
def test_a_deleted_event_is_named_by_the_gap_it_leaves():
    events = _emit(DOC_A, 4)
    _tamper("DELETE FROM audit_auditevent WHERE id = %s", [events[1].pk])
    _broken(rf"chain document:{DOC_A}, position 2\): position missing")


@pytest.mark.django_db
def test_two_reordered_events_are_named():
    events = _emit(DOC_A, 4)
    _tamper("UPDATE audit_auditevent SET position = 100 WHERE id = %s", [events[1].pk])
    _tamper("UPDATE audit_auditevent SET position = 2 WHERE id = %s", [events[2].pk])
    _tamper("UPDATE audit_auditevent SET position = 3 WHERE id = %s", [events[1].pk])
    _broken(rf"chain document:{DOC_A}, position 2\): previous hash does not match")


@pytest.mark.django_db
def test_an_inserted_event_is_named():
    events = _emit(DOC_A, 3)
    forged = AuditEvent(
        sequence=events[-1].sequence + 1,
        occurred_at=events[-1].occurred_at,
        event_type="FORGED",
        actor="user:mallory",
        document_id=DOC_A,
        chain=f"document:{DOC_A}",
        position=2,
        prev_hash=events[0].row_hash,
        extra={},
    )
    forged.row_hash = forged.compute_hash()
    for shift in (1000, -999):  # two steps: the (chain, position) pairs stay unique
        _tamper(
            "UPDATE audit_auditevent SET position = position + %s WHERE chain = %s AND position >= 2",
            [shift, f"document:{DOC_A}"],
        )
    AuditEvent.objects.bulk_create([forged])
    _broken(rf"chain document:{DOC_A}, position 3\): previous hash does not match")


@pytest.mark.django_db
def test_a_tail_cut_after_a_checkpoint_is_named_by_the_checkpoint():
    events = _emit(DOC_A, 4)
    checkpoint_create()
    _tamper("DELETE FROM audit_auditevent WHERE id = %s", [events[-1].pk])
    _broken(rf"checkpoint 1: chain document:{DOC_A} no longer holds position 4")


@pytest.mark.django_db
def test_a_document_chain_removed_whole_after_a_checkpoint_is_named():
    _emit(DOC_A, 3)
    _emit(DOC_B, 2)
    checkpoint_create()
    _tamper("DELETE FROM audit_auditevent WHERE chain = %s", [f"document:{DOC_B}"])
    _broken(rf"checkpoint 1: chain document:{DOC_B} no longer holds position 2")


@pytest.mark.django_db
def test_a_changed_checkpoint_fails_its_signature_or_hash():
    _emit(DOC_A, 2)
    checkpoint = checkpoint_create()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE audit_checkpoint DISABLE TRIGGER USER")
        cursor.execute(
            "UPDATE audit_checkpoint SET merkle_root = %s WHERE id = %s", ["0" * 64, checkpoint.pk]
        )
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE audit_checkpoint ENABLE TRIGGER USER")
    _broken("checkpoint 1: Merkle root does not match its heads")


@pytest.mark.django_db
def test_rows_of_the_legacy_single_chain_verify_and_the_first_checkpoint_seals_them():
    legacy = []
    prev = GENESIS_HASH
    for sequence in (1, 2, 3):
        row = AuditEvent(
            sequence=sequence,
            occurred_at=_emit(None, 1)[0].occurred_at,
            event_type="OLD",
            actor="system:before-chains",
            prev_hash=prev,
            extra={},
        )
        row.row_hash = row.compute_hash()
        prev = row.row_hash
        legacy.append(row)
    AuditEvent.objects.filter(chain="system").exists()
    _tamper("DELETE FROM audit_auditevent WHERE chain = 'system'")
    AuditEvent.objects.bulk_create(legacy)

    assert verify_chain().ok
    checkpoint = checkpoint_create()
    assert checkpoint.heads[LEGACY] == [3, legacy[-1].row_hash]
    _tamper("DELETE FROM audit_auditevent WHERE sequence = 3")
    _broken("checkpoint 1: chain legacy no longer holds position 3")


@pytest.mark.django_db
def test_evidence_from_the_api_verifies_offline_and_one_flipped_byte_is_named(tmp_path):
    (item,) = admitted_items({"a.pdf": simple_pdf(["SSN 123-45-6789 on file"])})
    client = APIClient()
    client.force_authenticate(item.document.submission.client)

    response = client.get(f"/api/v1/documents/{item.document_id}/evidence")

    assert response.status_code == 200
    bundle = tmp_path / "evidence.json"
    bundle.write_bytes(response.content)
    done = subprocess.run(
        [sys.executable, str(VERIFIER), str(bundle)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: ")
    data = json.loads(response.content)
    assert len(data["events"]) >= 2
    text = response.content.decode()
    actor = data["events"][0]["actor"]
    flipped = text.replace(f'"actor": "{actor}"', f'"actor": "{actor[:-1]}X"', 1)
    bundle.write_text(flipped)
    done = subprocess.run(
        [sys.executable, str(VERIFIER), str(bundle)], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "event at position 1: content does not match its hash" in done.stdout


@pytest.mark.django_db
def test_evidence_is_for_the_owning_client_only():
    first, second = (admitted_items({"a.pdf": simple_pdf(["Nothing here."])})[0] for _ in range(2))
    client = APIClient()
    client.force_authenticate(first.document.submission.client)

    assert client.get(f"/api/v1/documents/{second.document_id}/evidence").status_code == 404
    assert client.get(f"/api/v1/documents/{first.document_id}/evidence").status_code == 200
    officer, olga = Client(), user_create("olga", role=COMPLIANCE_OFFICER)
    olga.is_staff = True
    olga.save()
    officer.force_login(olga)
    admin_page = officer.get(f"/admin/intake/document/?q={second.document_id}").content.decode()
    assert f"/api/v1/documents/{second.document_id}/evidence" in admin_page
    assert officer.get(f"/api/v1/documents/{second.document_id}/evidence").status_code == 200


@pytest.mark.django_db
def test_a_changed_signature_is_named_by_the_offline_verifier(tmp_path):
    _emit(DOC_A, 3)
    data = evidence_bundle(DOC_A)
    signature = bytearray(data["checkpoint"]["signature"].encode())
    signature[10] = ord("A") if signature[10] != ord("A") else ord("B")
    data["checkpoint"]["signature"] = signature.decode()
    bundle = tmp_path / "evidence.json"
    bundle.write_text(json.dumps(data))

    done = subprocess.run(
        [sys.executable, str(VERIFIER), str(bundle)], capture_output=True, text=True
    )

    assert done.returncode == 1
    assert "checkpoint: " in done.stdout


def _writers(targets: list[uuid.UUID], per_writer: int) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(len(targets))

    def writer(document_id: uuid.UUID) -> None:
        try:
            start.wait()
            for i in range(per_writer):
                with transaction.atomic():
                    emit(
                        "CONCURRENT", actor="system:writer", document_id=document_id, extra={"i": i}
                    )
        except BaseException as exc:  # noqa: BLE001 - surfaced by the caller's assertion
            errors.append(exc)
        finally:
            connections.close_all()

    workers = [threading.Thread(target=writer, args=(target,)) for target in targets]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return errors


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_fifty_writers_on_fifty_documents_and_twenty_on_one_leave_every_chain_valid():
    documents = [uuid.uuid4() for _ in range(50)]
    assert _writers(documents, 5) == []
    shared = uuid.uuid4()
    assert _writers([shared] * 20, 5) == []

    report = verify_chain()
    assert report.ok, report.describe()
    assert report.count == 50 * 5 + 20 * 5
    positions = AuditEvent.objects.filter(chain=f"document:{shared}").values_list(
        "position", flat=True
    )
    assert sorted(positions) == list(range(1, 101))
    assert checkpoint_create() is not None
    assert verify_checkpoints().ok
    assert Checkpoint.objects.count() == 1
