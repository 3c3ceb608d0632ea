"""`manage.py release_check`: would these PDFs release? Each file through the service's
steps in a child process, one line each, failing when an admitted file would not."""

from io import StringIO

import pymupdf
import pytest
from django.core.management import CommandError, call_command

from testkit.corpus import simple_pdf
from tests.intake.conftest import encrypted_pdf_bytes


def release_check(*paths: object) -> str:
    out = StringIO()
    call_command("release_check", *(str(p) for p in paths), stdout=out)
    return out.getvalue()


def test_each_file_of_a_folder_is_released_or_refused_with_its_reason(tmp_path):
    (tmp_path / "letter.pdf").write_bytes(simple_pdf(["Requester SSN 123-45-6789"]))
    (tmp_path / "sealed.PDF").write_bytes(encrypted_pdf_bytes())
    (tmp_path / "notes.pdf").write_bytes(b"Just some plain text, not a PDF at all.\n")
    (tmp_path / "readme.txt").write_bytes(b"not looked at")

    lines = release_check(tmp_path).splitlines()

    assert [line.split()[0] for line in lines[:3]] == ["released", "refused", "refused"]
    assert lines[0].endswith("letter.pdf") and "1 marks (0 hidden)" in lines[0]
    assert lines[1].split()[1:] == ["not_pdf", str(tmp_path / "notes.pdf")]
    assert lines[2].split()[1:] == ["encrypted", str(tmp_path / "sealed.PDF")]
    assert lines[3] == "2 refused, 1 released"


def test_an_admitted_file_that_would_not_release_fails_the_check(tmp_path):
    poster = pymupdf.open()
    poster.new_page(width=18000, height=36000).insert_text((72, 72), "A very large poster")
    (tmp_path / "poster.pdf").write_bytes(poster.tobytes())

    with pytest.raises(CommandError, match="1 admitted file"):
        release_check(tmp_path / "poster.pdf")
