"""An admitted original is on the disk, whole, before admission answers: a crash or a
power cut never leaves the database naming a file that is empty or cut short."""

import hashlib
import os
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import storages

from intake.models import Document
from tests.intake.conftest import pdf_bytes, submit, upload


def _name_of(data: bytes) -> str:
    sha = hashlib.sha256(data).hexdigest()
    return f"sha256/{sha[:2]}/{sha}.pdf"


@pytest.fixture
def flushes(monkeypatch):
    """Every fsync in order: the path flushed, and whether the original's final name
    existed at that moment."""
    seen: list[tuple[str, bool]] = []
    real_fsync = os.fsync
    watched: dict[str, str] = {}

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        final = watched.get("path")
        seen.append((path, bool(final) and os.path.exists(final)))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return seen, watched


@pytest.mark.django_db
def test_an_original_is_flushed_to_disk_before_its_name_exists(api, flushes):
    seen, watched = flushes
    data = pdf_bytes(text="flushed before named")
    final = storages["originals"].path(_name_of(data))
    watched["path"] = final

    response = submit(api, files=[upload("letter.pdf", data)])

    assert response.status_code == 201, response.content
    assert Path(final).read_bytes() == data
    paths = [path for path, _ in seen]
    flushed = next(n for n, path in enumerate(paths) if Path(path).name.startswith(".partial-"))
    assert not seen[flushed][1]  # the bytes were on the disk before the name existed
    assert os.path.dirname(final) in paths[flushed + 1 :]  # then the rename reached it too
    assert not [p for p in Path(final).parent.iterdir() if p.name.startswith(".partial-")]


@pytest.mark.django_db
def test_a_crash_remnant_at_an_originals_name_is_written_again_on_the_next_admission(api):
    data = pdf_bytes(text="cut short by a crash")
    name = _name_of(data)
    remnant = Path(storages["originals"].path(name))
    remnant.parent.mkdir(parents=True, exist_ok=True)
    remnant.write_bytes(data[: len(data) // 3])  # what a power cut left of an old save

    response = submit(api, files=[upload("letter.pdf", data)])

    assert response.status_code == 201, response.content
    document = Document.objects.get(pk=response.json()["documents"][0]["id"])
    assert document.original_path == name
    assert remnant.read_bytes() == data


@pytest.mark.django_db
@pytest.mark.parametrize("alias", ["originals", "derivatives"])
def test_a_save_that_fails_half_way_leaves_neither_the_name_nor_a_partial_file(monkeypatch, alias):
    storage = storages[alias]
    name = "sha256/ff/failing.pdf"

    def disk_error(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", disk_error)
    with pytest.raises(OSError, match="Input/output error"):
        storage.save(name, ContentFile(b"%PDF-1.7 never whole"))

    folder = Path(storage.path(name)).parent
    assert not storage.exists(name)
    assert not [p for p in folder.iterdir() if p.name.startswith(".partial-")]
