"""Admission throughput through the full HTTP stack under gunicorn, against a bare
endpoint in the same server doing only the irreducible work, and the serving worker's
peak memory for one ~100 MiB PDF.

    .venv/bin/python bench/intake.py [--count 200] [--workers 1] [--database-url postgres://...]

Starts gunicorn (config/gunicorn_conf.py) with the production settings and a bench-only
URLconf (bench/intake_settings.py, bench/intake_urls.py) on a throwaway data folder and,
with --database-url (default: DATABASE_URL), a throwaway database
`rrq_bench_intake_<pid>` created next to the one it names and dropped at the end (the
named database itself is never touched; without one, SQLite in the data folder), and
posts 1-page PDFs over real HTTP, one submission each, to the intake API. The baseline,
in the same run, the same server and the same database, posts the same kind of PDF to
the bare endpoint, which does only what admission cannot skip: receive the upload while
hashing it, open it with PyMuPDF, INSERT one row (committed). The two alternate in
rounds, so drift on a shared machine hits both. Prints both rates and their ratio
(target >= 0.5). Then admits one PDF just under 100 MiB and prints the serving worker's
peak resident memory above its idle level (target: under 2x the file size).
"""

from __future__ import annotations

import argparse
import http.client
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pgdb import create_database, drop_database, with_database  # noqa: E402

PYTHON = sys.executable
GUNICORN = str(Path(sys.executable).parent / "gunicorn")
ROUNDS = 4


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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


def post(port: int, path: str, token: str, pdf: bytes, external_ref: str) -> int:
    body, content_type = multipart(pdf, external_ref)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request(
        "POST",
        path,
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


def workers_of(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


def wait_until_serving(port: int, server: subprocess.Popen) -> None:
    for _ in range(300):
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with {server.returncode}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/accounts/login/")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not serve in time")


def timed(port: int, path: str, token: str, pdfs: list[tuple[int, bytes]]) -> float:
    started = time.perf_counter()
    for n, pdf in pdfs:
        status = post(port, path, token, pdf, f"bench-{n}")
        if status != 201:
            raise SystemExit(f"{path} answered {status} for document {n}")
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers")
    # As bench/claim.py: DATABASE_URL only finds the server; the run never touches the
    # database it names, only a throwaway one next to it.
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    args = parser.parse_args()

    data_dir = Path(tempfile.mkdtemp(prefix="rrq-bench-intake-"))
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        "DATA_DIR": str(data_dir),
        "SECRET_KEY": "bench-only-" + uuid.uuid4().hex,
        "DJANGO_SETTINGS_MODULE": "bench.intake_settings",
        # Plain HTTP on the loopback: no TLS in front, so no redirect to it.
        "SECURE_SSL_REDIRECT": "0",
        "INTAKE_THROTTLE_RATE": "1000000/min",
        "LOG_LEVEL": "WARNING",
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "WEB_CONCURRENCY": str(args.workers),
        "PYTHONPATH": str(ROOT),
    }
    database = f"rrq_bench_intake_{os.getpid()}"
    if args.database_url:
        create_database(args.database_url, database)
        env["DATABASE_URL"] = with_database(args.database_url, database)
    try:
        measure(args, env, data_dir, port)
    finally:
        if args.database_url:
            drop_database(args.database_url, database)


def measure(args: argparse.Namespace, env: dict[str, str], data_dir: Path, port: int) -> None:
    manage = [PYTHON, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=ROOT)
    token = (
        subprocess.run(
            [*manage, "create_intake_client", f"bench-{uuid.uuid4().hex[:6]}"],
            env=env,
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        .stdout.split("token ")[1]
        .split()[0]
    )

    server = subprocess.Popen(
        [
            GUNICORN,
            "--config",
            "config/gunicorn_conf.py",
            # No access log: a line per request belongs to neither side's work.
            "--access-logfile",
            "/dev/null",
            "config.wsgi:application",
        ],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    full_path, bare_path = "/api/v1/submissions/", "/bench/bare-intake/"
    try:
        wait_until_serving(port, server)
        for n in range(2 * args.workers):  # every worker imports and connects first
            post(port, full_path, token, one_page_pdf(-1 - n), f"warm-up-{n}")
            post(port, bare_path, token, one_page_pdf(-1 - n), f"warm-up-{n}")

        full_pdfs = [(n, one_page_pdf(n)) for n in range(args.count)]
        bare_pdfs = [(n, one_page_pdf(n + 10_000)) for n in range(args.count)]
        full_seconds = bare_seconds = 0.0
        per_round = max(1, args.count // ROUNDS)
        for start in range(0, args.count, per_round):
            full_seconds += timed(port, full_path, token, full_pdfs[start : start + per_round])
            bare_seconds += timed(port, bare_path, token, bare_pdfs[start : start + per_round])
        full_rate = args.count / full_seconds
        bare_rate = args.count / bare_seconds
        print(f"gunicorn            : {args.workers} worker(s), production settings")
        print(f"full HTTP admission : {full_rate:8.1f} submissions/s")
        print(f"bare endpoint       : {bare_rate:8.1f} submissions/s  (hash, open, one INSERT)")
        print(f"ratio               : {full_rate / bare_rate:8.3f}   (target >= 0.5)")

        path = data_dir / "big.pdf"
        size = big_pdf(path)
        workers = workers_of(server.pid)
        idle = {pid: memory_kib(pid, "VmRSS") for pid in workers}
        before = {pid: memory_kib(pid, "VmHWM") for pid in workers}
        status = post(port, full_path, token, path.read_bytes(), "big-one")
        after = {pid: memory_kib(pid, "VmHWM") for pid in workers}
        # The worker that served it is the one whose high-water mark rose (with one
        # worker, the only one); its peak above its own idle level is the request's cost.
        served = max(workers, key=lambda pid: after[pid] - before[pid])
        peak = after[served]
        print(f"big PDF             : {size / 2**20:8.1f} MiB, status {status}")
        print(
            f"worker memory       : idle {idle[served] / 1024:.1f} MiB, peak {peak / 1024:.1f} "
            f"MiB, peak above idle {(peak - idle[served]) / 1024:.1f} MiB = "
            f"{(peak - idle[served]) * 1024 / size:.2f}x the file (target < 2x)"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
