"""Real django-q2 clusters (`manage.py qcluster`, ORM broker) in subprocesses against the
test database. PostgreSQL only: pytest-django's SQLite test database lives in memory,
out of reach of a second process.

- The task package is signed with SECRET_KEY, so a cluster runs with this process's key.
- `async_task` runs inline while `Conf.SYNC` is on unless the caller passes `sync=False`
  (django-q2 reads Q_CLUSTER once, at import): that is how a sync-mode test process
  reaches the broker.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

POLL = 0.1


def database_url() -> str:
    """The test database (pytest-django's `test_<name>`), for a process of its own."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def cluster_env(name: str | None = None, **overrides: str) -> dict[str, str]:
    """The environment of a cluster serving queue `name` (None: the default cluster)."""
    env = dict(os.environ)
    env.pop("Q_CLUSTER_NAME", None)
    if name is not None:
        env["Q_CLUSTER_NAME"] = name
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url(),
        # Same key as this process: task packages are signed with SECRET_KEY.
        SECRET_KEY=settings.SECRET_KEY,
        DEBUG="0",
        # Same storage roots, so the worker reads the originals this process admitted.
        DATA_DIR=str(settings.DATA_DIR),
        ORIGINALS_ROOT=str(settings.ORIGINALS_ROOT),
        DERIVATIVES_ROOT=str(settings.DERIVATIVES_ROOT),
        Q_SYNC="0",
        Q_WORKERS="1",
        **overrides,
    )
    return env


def cluster_start(env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("ab") as log_file:
        return subprocess.Popen(  # noqa: S603 - fixed argv, no shell
            [sys.executable, "manage.py", "qcluster"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so cleanup reaches every child
        )


def wait_for(predicate: Callable[[], Any], seconds: float, what: str, log: Path) -> Any:
    """Poll `predicate` until it returns something truthy; fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(POLL)
    pytest.fail(f"timed out after {seconds}s waiting for {what}\n--- qcluster log ---\n{tail(log)}")


def tail(log: Path, lines: int = 60) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:]) if log.exists() else ""


def clusters_stop(*clusters: subprocess.Popen) -> None:
    """Kill each cluster's whole process group: sentinel, pusher, monitor and workers.

    SIGKILL, not a graceful SIGTERM: an orderly stop waits for busy workers, and shutdown
    is not what these tests are about."""
    for cluster in clusters:
        try:
            os.killpg(cluster.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        cluster.wait(timeout=10)
    # Dead processes' sessions can linger a moment; the harness flush (TRUNCATE) and the
    # final DROP DATABASE must not meet them.
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            if cursor.fetchone()[0] == 0:
                return
        time.sleep(POLL)
