"""A production server for the serving tests: `make serve` (gunicorn with
config/gunicorn_conf.py and the worker clusters, config.settings_production), over TLS
with a throwaway self-signed certificate, on a free port, with its own SQLite database
and static files in a temporary DATA_DIR."""

import datetime as dt
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from ssl import create_default_context

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable
ADMIN_USER = "ops-admin"
ADMIN_PASSWORD = "serving-test-" + secrets.token_hex(8)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    key_file, cert_file = folder / "tls-key.pem", folder / "tls-cert.pem"
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return key_file, cert_file


def production_env(data_dir: Path, **extra: str) -> dict[str, str]:
    # The test process's own database and test-only switches stay out of the server.
    dropped = {"DATABASE_URL", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "Q_SYNC"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "config.settings_production",
            "SECRET_KEY": secrets.token_urlsafe(60),
            "DATA_DIR": str(data_dir),
            "LOG_LEVEL": "WARNING",
            **extra,
        }
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


class ProductionServer:
    def __init__(self, url: str, env: dict[str, str]) -> None:
        self.url = url
        self.env = env

    def manage(self, *args: str) -> str:
        return manage(self.env, *args)


@pytest.fixture(scope="module")
def production_server(tmp_path_factory):
    """`make serve` itself (gunicorn and every worker cluster), with TLS from gunicorn."""
    data_dir = tmp_path_factory.mktemp("rrq-serving")
    key_file, cert_file = self_signed_certificate(data_dir)
    port = free_port()
    (data_dir / "prometheus").mkdir()
    env = production_env(
        data_dir,
        HOST="127.0.0.1",
        PORT=str(port),
        WEB_CONCURRENCY="1",
        # One worker per cluster: the test machine runs all of them beside the browser.
        Q_WORKERS="1",
        Q_WORKERS_PII_HIGH="1",
        Q_WORKERS_PII_DEFAULT="1",
        Q_WORKERS_BULK_HIGH="1",
        Q_WORKERS_BULK_DEFAULT="1",
        GUNICORN_CERTFILE=str(cert_file),
        GUNICORN_KEYFILE=str(key_file),
        PROMETHEUS_MULTIPROC_DIR=str(data_dir / "prometheus"),
        DJANGO_SUPERUSER_PASSWORD=ADMIN_PASSWORD,
    )
    manage(env, "migrate", "--noinput", "-v0")
    manage(
        env, "createsuperuser", "--noinput", "--username", ADMIN_USER, "--email", "ops@example.org"
    )
    log_path = data_dir / "serve.log"
    with log_path.open("w") as log:
        server = subprocess.Popen(
            ["make", "serve", "HOST=127.0.0.1", f"PORT={port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"https://127.0.0.1:{port}"
    context = create_default_context(cafile=str(cert_file))
    context.check_hostname = False
    try:
        for _ in range(900):
            assert server.poll() is None, log_path.read_text()[-3000:]
            try:
                urllib.request.urlopen(f"{url}/accounts/login/", timeout=2, context=context)  # noqa: S310
                break
            except OSError:
                time.sleep(0.2)
        yield ProductionServer(url, env)
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
