"""PAdES signing and validation of released PDFs, with pyHanko.

A signature is by definition an incremental update: pyHanko appends a revision holding
the signature field and the CMS blob, and the signed byte range covers the whole
earlier file. So the release gate (`verify.verify`, which demands exactly one revision)
runs on the UNSIGNED sanitized output, and a signed artifact has exactly two
revisions: the sanitized one and the signature's. `validate` reports whether the
signature covers the entire file, so any later appended revision is visible.

No network at run time: validation uses only the given trust roots, never fetches OCSP
or CRLs (`allow_fetching=False`), and signing embeds no timestamp (PAdES baseline B).
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from asn1crypto import x509 as asn1_x509
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from pyhanko.keys import load_cert_from_pemder
from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.pdf_utils.misc import PdfError
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign import fields, signers
from pyhanko.sign.validation import validate_pdf_signature
from pyhanko.sign.validation.errors import SignatureValidationError
from pyhanko_certvalidator import ValidationContext

KEY_FILE = "signing-key.pem"
CERT_FILE = "signing-cert.pem"
VALIDITY = datetime.timedelta(days=5 * 365)


@dataclass(frozen=True)
class SignatureStatus:
    intact: bool  # the signed bytes hash to the digest in the signature
    valid: bool  # the cryptographic signature over that digest checks out
    trusted: bool  # the signer's chain ends in one of the given trust roots
    coverage: str  # "entire file", "entire revision" or "unclear"
    field_name: str | None = None

    @property
    def ok(self) -> bool:
        return self.intact and self.valid and self.trusted and self.coverage == "entire file"


def generate_self_signed(
    path_dir: str | Path, *, common_name: str = "RRQ development signer"
) -> tuple[Path, Path]:
    """Write an EC P-256 key and a 5-year self-signed certificate (development and tests).

    Returns (key_path, cert_path). The key is written unencrypted with mode 0600;
    production keys come from a managed store, not from here.
    """
    directory = Path(path_dir)
    directory.mkdir(parents=True, exist_ok=True)
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + VALIDITY)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=True,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_path, cert_path = directory / KEY_FILE, directory / CERT_FILE
    key_path.touch(mode=0o600, exist_ok=True)
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return key_path, cert_path


def make_signer(
    *,
    key_file: str | Path | None = None,
    cert_file: str | Path | None = None,
    pkcs12_file: str | Path | None = None,
    passphrase: bytes | None = None,
    chain_files: Sequence[str | Path] = (),
) -> signers.SimpleSigner:
    """Load a signer from PEM/DER key + certificate files, or from a PKCS#12 archive."""
    chain = [str(path) for path in chain_files] or None
    if pkcs12_file is not None:
        signer = signers.SimpleSigner.load_pkcs12(
            str(pkcs12_file), ca_chain_files=chain, passphrase=passphrase
        )
    elif key_file is not None and cert_file is not None:
        signer = signers.SimpleSigner.load(
            str(key_file), str(cert_file), ca_chain_files=chain, key_passphrase=passphrase
        )
    else:
        raise ValueError("give key_file and cert_file, or pkcs12_file")
    if signer is None:  # pyHanko logs the cause and returns None
        raise ValueError("could not load the signing key or certificate")
    return signer


def load_certificate(path: str | Path) -> asn1_x509.Certificate:
    """A trust root for `validate`, from a PEM or DER file."""
    return load_cert_from_pemder(str(path))


def sign_pdf(
    pdf: bytes, signer: signers.Signer, *, reason: str, field_name: str = "RRQSignature"
) -> bytes:
    """Append a PAdES baseline-B signature revision covering all of `pdf`."""
    writer = IncrementalPdfFileWriter(io.BytesIO(pdf), strict=False)
    meta = signers.PdfSignatureMetadata(
        field_name=field_name,
        reason=reason,
        md_algorithm="sha256",
        subfilter=fields.SigSeedSubFilter.PADES,
    )
    output = signers.PdfSigner(meta, signer=signer).sign_pdf(writer, output=io.BytesIO())
    return output.getvalue()


def validate(
    pdf: bytes, trust_roots: Sequence[asn1_x509.Certificate], *, field_name: str | None = None
) -> SignatureStatus:
    """Validate the (named, else the last) embedded signature against `trust_roots` only.

    Any error while parsing or checking the signature means "invalid", never a crash:
    a tampered file is an expected input here.
    """
    try:
        reader = PdfFileReader(io.BytesIO(pdf), strict=False)
        embedded = reader.embedded_signatures
        if field_name is not None:
            embedded = [sig for sig in embedded if sig.field_name == field_name]
        if not embedded:
            return SignatureStatus(False, False, False, "unclear", field_name)
        sig = embedded[-1]
        context = ValidationContext(trust_roots=list(trust_roots), allow_fetching=False)
        status = validate_pdf_signature(sig, signer_validation_context=context)
    except (PdfError, SignatureValidationError, ValueError, KeyError, TypeError, OSError):
        # The message is dropped on purpose: it may quote document bytes.
        return SignatureStatus(False, False, False, "unclear", field_name)
    coverage = status.coverage.name.lower().replace("_", " ") if status.coverage else "unclear"
    return SignatureStatus(
        intact=bool(status.intact),
        valid=bool(status.valid),
        trusted=bool(status.trusted),
        coverage=coverage,
        field_name=sig.field_name,
    )
