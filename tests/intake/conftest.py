import functools

import pymupdf
import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from intake.roles import INTAKE_CLIENT
from testkit.builders import user_create

URL = "/api/v1/submissions/"


@functools.cache
def pdf_bytes(pages: int = 1, text: str = "Quarterly report") -> bytes:
    """The same arguments give the same bytes (PyMuPDF stamps a fresh file id otherwise)."""
    doc = pymupdf.open()
    for number in range(pages):
        doc.new_page().insert_text((72, 72), f"{text} page {number + 1}")
    return doc.tobytes()


def encrypted_pdf_bytes() -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "sealed")
    return doc.tobytes(encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="user", owner_pw="owner")


def certificate_encrypted_pdf_bytes() -> bytes:
    """A PDF whose /Encrypt names the public-key handler (Adobe.PubSec): encrypted for
    its recipients' certificates, which no password opens."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "for the recipients only")
    data = doc.tobytes()
    trailer = data.rindex(b"trailer")
    handler = b"<</Encrypt <</Filter /Adobe.PubSec /SubFilter /adbe.pkcs7.s5 /V 4 /R 4>>"
    return data[:trailer] + data[trailer:].replace(b"<<", handler, 1)


def upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/pdf")


def make_api_client(username: str | None = None) -> APIClient:
    user = user_create(username)
    user.groups.add(Group.objects.get(name=INTAKE_CLIENT))
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    api.user = user
    return api


@pytest.fixture
def api(db) -> APIClient:
    return make_api_client()


def submit(api: APIClient, files=None, headers=None, **fields):
    data = {"external_ref": "FOIA-2026-001", "jurisdiction": "US-FED", **fields}
    data["files"] = files if files is not None else [upload("letter.pdf", pdf_bytes())]
    data = {key: value for key, value in data.items() if value is not None}  # None: omit
    return api.post(URL, data=data, format="multipart", headers=headers or {})


def owner_password_pdf_bytes() -> bytes:
    """Encrypted with an owner password only: opens without a password, still encrypted."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "restricted")
    return doc.tobytes(
        encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", permissions=pymupdf.PDF_PERM_PRINT
    )
