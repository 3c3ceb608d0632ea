"""Admission throughput through the full HTTP stack, against the irreducible work, and
the admitting process's peak memory for one ~100 MiB PDF.

    .venv/bin/python bench/intake.py [--count 200] [--database-url postgres://...]

Starts `manage.py runserver` (DEBUG off) on a throwaway data folder in a subprocess and
posts 1-page PDFs over real HTTP, one submission each. The baseline, in the same run and
the same database, does only what admission cannot skip: stream the SHA-256, open the PDF
with PyMuPDF, and INSERT one row (committed). Prints both rates and their ratio (target
>= 0.5). Then admits one PDF just under 100 MiB and prints the server's peak resident
memory above its idle level (target: under 2x the file size).
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
PORT = 8799


def one_page_pdf(n: int) -> bytes:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), f"Benchmark letter number {n}")
    return doc.tobytes()


def big_pdf(path: Path) -> int:
    """~98 MiB: three pages, each with an incompressible noise image."""
    doc = pymupdf.open()
    width, height = 3800, 3000
    for _ in range(3):
        pixmap = pymupdf.Pixmap(pymupdf.csRGB, width, height, os.urandom(width * height * 3), 0)
        page = doc.new_page(width=width / 10, height=height / 10)
        page.insert_image(page.rect, pixmap=pixmap)
    doc.save(str(path), deflate=False)
    return path.stat().st_size


def multipart(pdf: bytes, external_ref: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in [("external_ref", external_ref), ("jurisdiction", "US-FED")]:
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        )
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n'
        f"Content-Type: application/pdf\r\n\r\n".encode()
        + pdf
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def post(token: str, pdf: bytes, external_ref: str) -> int:
    body, content_type = multipart(pdf, external_ref)
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=600)
    connection.request(
        "POST",
        "/api/v1/submissions/",
        body=body,
        headers={"Authorization": f"Token {token}", "Content-Type": content_type},
    )
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def memory_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for {pid}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()

    data_dir = Path(tempfile.mkdtemp(prefix="rrq-bench-intake-"))
    env = {
        **os.environ,
        "DATA_DIR": str(data_dir),
        "SECRET_KEY": "bench-only",
        "DEBUG": "0",
        "INTAKE_THROTTLE_RATE": "1000000/min",
        "LOG_LEVEL": "WARNING",
    }
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    manage = [PYTHON, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True)
    token = (
        subprocess.run(
            [*manage, "create_intake_client", f"bench-{uuid.uuid4().hex[:6]}"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        .stdout.split("token ")[1]
        .split()[0]
    )

    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", "--nothreading", f"127.0.0.1:{PORT}"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", PORT, timeout=1).request(
                    "GET", "/accounts/login/"
                )
                break
            except OSError:
                time.sleep(0.2)
        pdfs = [one_page_pdf(n) for n in range(args.count)]
        post(token, one_page_pdf(-1), "warm-up")

        started = time.perf_counter()
        for n, pdf in enumerate(pdfs):
            status = post(token, pdf, f"bench-{n}")
            if status != 201:
                raise SystemExit(f"admission {n} answered {status}")
        http_rate = args.count / (time.perf_counter() - started)

        baseline_rate = baseline(env, [one_page_pdf(n + 10_000) for n in range(args.count)])
        print(f"full HTTP admission : {http_rate:8.1f} submissions/s")
        print(f"irreducible baseline: {baseline_rate:8.1f} submissions/s")
        print(f"ratio               : {http_rate / baseline_rate:8.3f}   (target >= 0.5)")

        path = data_dir / "big.pdf"
        size = big_pdf(path)
        pid = server.pid  # runserver --noreload serves from the process we started
        idle = memory_kib(pid, "VmRSS")
        status = post(token, path.read_bytes(), "big-one")
        peak = memory_kib(pid, "VmHWM")
        print(f"big PDF             : {size / 2**20:8.1f} MiB, status {status}")
        print(
            f"server memory       : idle {idle / 1024:.1f} MiB, peak {peak / 1024:.1f} MiB, "
            f"peak above idle {(peak - idle) / 1024:.1f} MiB = {(peak - idle) * 1024 / size:.2f}x "
            "the file (target < 2x)"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


def baseline(env: dict[str, str], pdfs: list[bytes]) -> float:
    """Stream SHA-256, PyMuPDF open, one committed INSERT: in the same database."""
    os.environ.update(env)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.db import connection, transaction

    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE IF NOT EXISTS bench_baseline (id varchar(64), sha varchar(64))"
        )
    started = time.perf_counter()
    for pdf in pdfs:
        digest = hashlib.sha256()
        for offset in range(0, len(pdf), 1 << 20):
            digest.update(pdf[offset : offset + (1 << 20)])
        with pymupdf.open(stream=pdf, filetype="pdf") as doc:
            doc.page_count  # noqa: B018 - forces the open check
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO bench_baseline (id, sha) VALUES (%s, %s)",
                [uuid.uuid4().hex, digest.hexdigest()],
            )
    return len(pdfs) / (time.perf_counter() - started)


if __name__ == "__main__":
    main()
