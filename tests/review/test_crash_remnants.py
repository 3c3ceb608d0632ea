"""What a killed process leaves behind (a save cut short, an upload received in part)
holds a document's bytes that no record names: the daily retention pass removes it once
nobody has written to it for an hour, and records that it did."""

import os
import time
import uuid
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.storage import storages
from django.core.files.uploadedfile import TemporaryUploadedFile
from django.core.management import call_command

from audit.models import AuditEvent
from audit.services import verify_chain
from common.storage import PARTIAL_PREFIX
from intake.models import Document
from review.services.remnants import REMNANT_AGE
from review.services.retention import disposal_run
from tests.intake.conftest import make_api_client, pdf_bytes, submit, upload

pytestmark = pytest.mark.django_db


def _file(folder: Path, name: str, *, age_seconds: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(b"%PDF-1.7 part of a requester's letter")
    then = time.time() - age_seconds
    os.utime(path, (then, then))
    return path


@pytest.fixture
def remnants():
    """An old and a fresh remnant of each kind; whatever a test leaves is removed after."""
    originals = Path(storages["originals"].location)
    derivatives = Path(storages["derivatives"].location)
    uploads = Path(settings.FILE_UPLOAD_TEMP_DIR)
    old = REMNANT_AGE.total_seconds() + 60
    tag = uuid.uuid4().hex
    made = {
        "old_original": _file(
            originals / "sha256" / "ab", f"{PARTIAL_PREFIX}{tag}", age_seconds=old
        ),
        "old_derivative": _file(
            derivatives / "sha256" / "cd", f"{PARTIAL_PREFIX}{tag}", age_seconds=old
        ),
        "old_upload": _file(uploads, f"tmp{tag}.upload.pdf", age_seconds=old),
        "fresh_original": _file(
            originals / "sha256" / "ab", f"{PARTIAL_PREFIX}{tag}-now", age_seconds=0
        ),
        "fresh_upload": _file(uploads, f"tmp{tag}-now.upload.pdf", age_seconds=0),
    }
    yield made
    for path in made.values():
        path.unlink(missing_ok=True)


def test_the_daily_pass_removes_old_remnants_and_records_how_many(remnants):
    response = submit(make_api_client(), files=[upload("letter.pdf", pdf_bytes(text="kept"))])
    assert response.status_code == 201, response.content
    stored = storages["originals"].path(Document.objects.get().original_path)

    report = disposal_run()

    assert report.remnants == 3
    for name in ("old_original", "old_derivative", "old_upload"):
        assert not remnants[name].exists(), name
    # Still being written, perhaps: a save or an upload under an hour old stays.
    assert remnants["fresh_original"].exists()
    assert remnants["fresh_upload"].exists()
    assert Path(stored).read_bytes() == pdf_bytes(text="kept")
    event = AuditEvent.objects.get(event_type="CRASH_REMNANTS_REMOVED")
    assert event.actor == "system:retention"
    assert event.extra == {"files": {"originals": 1, "derivatives": 1, "uploads": 1}}
    assert verify_chain().ok

    assert disposal_run().remnants == 0
    assert AuditEvent.objects.filter(event_type="CRASH_REMNANTS_REMOVED").count() == 1


def test_dry_run_counts_the_remnants_and_removes_nothing(remnants):
    out = StringIO()
    call_command("dispose", "--dry-run", stdout=out)

    assert "would remove 3 crash remnant(s)" in out.getvalue()
    assert all(path.exists() for path in remnants.values())
    assert not AuditEvent.objects.filter(event_type="CRASH_REMNANTS_REMOVED").exists()


def test_a_large_upload_is_received_in_the_services_own_folder():
    received = TemporaryUploadedFile("letter.pdf", "application/pdf", 0, None)
    try:
        assert Path(received.temporary_file_path()).parent == Path(settings.FILE_UPLOAD_TEMP_DIR)
    finally:
        received.close()
