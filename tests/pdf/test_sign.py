"""PAdES signing of a released file, checked with pyHanko's own validator."""

from __future__ import annotations

import pytest

from review.pdf import sign
from review.pdf.redact import burn_in
from review.pdf.sanitize import sanitize
from testkit import leak_corpus


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    key_path, cert_path = sign.generate_self_signed(tmp_path_factory.mktemp("keys"))
    return sign.make_signer(key_file=key_path, cert_file=cert_path), sign.load_certificate(
        cert_path
    )


@pytest.fixture(scope="module")
def released() -> bytes:
    case = leak_corpus.page_text()
    return sanitize(burn_in(case.pdf, case.marks))


def test_signed_output_validates_intact_valid_and_trusted(keys, released) -> None:
    signer, root = keys

    signed = sign.sign_pdf(released, signer, reason="Redaction release")
    status = sign.validate(signed, [root])

    assert (status.intact, status.valid, status.trusted) == (True, True, True)
    assert status.coverage == "entire file"
    assert status.field_name == "RRQSignature"
    assert status.ok


def test_signed_file_is_the_sanitized_revision_plus_the_signature(keys, released) -> None:
    signer, _ = keys

    signed = sign.sign_pdf(released, signer, reason="Redaction release")

    assert signed.startswith(released)
    assert signed.count(b"%%EOF") == 2


def test_flipping_a_signed_byte_makes_validation_fail(keys, released) -> None:
    signer, root = keys
    signed = bytearray(sign.sign_pdf(released, signer, reason="Redaction release"))
    # Inside the first signed range (the sanitized revision), in a content-free spot.
    position = signed.index(b"%%EOF") - 20
    signed[position] ^= 0x01

    status = sign.validate(bytes(signed), [root])

    assert not status.ok
    assert not (status.intact and status.valid)


def test_untrusted_root_is_reported_untrusted(keys, released, tmp_path) -> None:
    signer, _ = keys
    _, other_cert = sign.generate_self_signed(tmp_path, common_name="someone else")

    status = sign.validate(
        sign.sign_pdf(released, signer, reason="Redaction release"),
        [sign.load_certificate(other_cert)],
    )

    assert status.intact and status.valid
    assert not status.trusted


def test_make_signer_needs_key_material() -> None:
    with pytest.raises(ValueError):
        sign.make_signer()
