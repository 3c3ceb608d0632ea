"""Clean shutdown: the worker clusters (`manage.py qcluster`, config/serving/workers.py)
and `make run` end every process within 10 s of a signal to their process group, and
print no traceback. Real processes on a free port and a throwaway data folder; the bound
is a timeout, not a measurement."""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from tests.serving.conftest import ROOT

pytestmark = pytest.mark.own_database

STOP_BOUND_SECONDS = 10
# The test process's own switches and database stay out of the processes it starts.
_DROPPED = {
    "DATABASE_URL",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "Q_SYNC",
    "SECRET_KEY",
    "DATA_DIR",
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def demo_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    (data_dir / "prometheus").mkdir(exist_ok=True)
    env.update(
        {
            "DEBUG": "1",
            "DATA_DIR": str(data_dir),
            "PROMETHEUS_MULTIPROC_DIR": str(data_dir / "prometheus"),
            **extra,
        }
    )
    return env


def group_members(pgid: int) -> list[str]:
    """Living processes of the group (zombies are already gone, only not yet reaped)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name_end = text.rindex(")")
        state, _ppid, group = text[name_end + 2 :].split()[:3]
        if int(group) == pgid and state != "Z":
            members.append(f"{stat.parent.name} {_command_line(stat.parent)}")
    return members


def _command_line(proc: Path) -> str:
    """The process's arguments (which python it is, for a failure's message)."""
    try:
        return proc.joinpath("cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return "?"


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not within {timeout} s")
        time.sleep(0.2)


def stop_and_wait(process: subprocess.Popen, signum: int, whole_group: bool = True) -> float:
    """Signal, then wait (bounded) until no process of the group is left; returns the
    seconds taken, for the failure message only."""
    started = time.monotonic()
    if whole_group:
        os.killpg(process.pid, signum)
    else:
        os.kill(process.pid, signum)
    deadline = started + STOP_BOUND_SECONDS
    while time.monotonic() < deadline:
        process.poll()
        if not group_members(process.pid):
            return time.monotonic() - started
        time.sleep(0.2)
    left = group_members(process.pid)
    raise AssertionError(f"still running {STOP_BOUND_SECONDS} s after the signal: {left}")


def kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


@pytest.fixture(scope="module")
def migrated_data_dir(tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("rrq-shutdown")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=demo_env(data_dir),
        check=True,
    )
    return data_dir


def start_cluster(data_dir: Path, log: Path, **extra: str) -> subprocess.Popen:
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"],
            cwd=ROOT,
            env=demo_env(data_dir, **extra),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    wait_for(lambda: "running." in log.read_text(), 120, "the cluster running")
    return process


@pytest.mark.parametrize(
    ("signum", "whole_group"),
    [(signal.SIGTERM, True), (signal.SIGINT, True), (signal.SIGTERM, False)],
    ids=["SIGTERM-to-group", "SIGINT-to-group", "SIGTERM-to-main-process"],
)
def test_a_worker_cluster_stops_within_seconds_on_a_signal(
    migrated_data_dir, tmp_path, signum, whole_group
):
    log = tmp_path / "qcluster.log"
    process = start_cluster(migrated_data_dir, log)
    try:
        stop_and_wait(process, signum, whole_group)
    finally:
        kill_group(process)
    output = log.read_text()
    assert "Traceback" not in output
    assert "has stopped." in output


def test_a_busy_worker_does_not_hold_the_stop_and_its_task_stays_queued(
    migrated_data_dir, tmp_path
):
    """A task longer than the stop's grace: the worker is ended, and the task, never
    acknowledged, stays with the broker to be handed out again."""
    log = tmp_path / "qcluster.log"
    process = start_cluster(migrated_data_dir, log, Q_STOP_GRACE_SECONDS="2")
    try:
        subprocess.run(
            [
                sys.executable,
                "manage.py",
                "shell",
                "-c",
                "from django_q.tasks import async_task; async_task('time.sleep', 120)",
            ],
            cwd=ROOT,
            env=demo_env(migrated_data_dir),
            check=True,
        )
        wait_for(lambda: "processing" in log.read_text(), 60, "the task started")
        stop_and_wait(process, signal.SIGINT)
    finally:
        kill_group(process)
    output = log.read_text()
    assert "Traceback" not in output
    assert "still busy" in output
    queued = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django_q.models import OrmQ; print(OrmQ.objects.count())",
        ],
        cwd=ROOT,
        env=demo_env(migrated_data_dir),
        capture_output=True,
        text=True,
        check=True,
    )
    assert queued.stdout.strip().splitlines()[-1] == "1"


def test_make_run_stopped_with_ctrl_c_ends_every_process_within_10_s_without_traceback(
    tmp_path,
):
    port = free_port()
    env = demo_env(tmp_path, DEMO_PASSWORD="shutdown-test-pw-1")
    del env["DEBUG"]  # make run turns it on itself
    stdout, stderr = tmp_path / "run.out", tmp_path / "run.err"
    with stdout.open("w") as out, stderr.open("w") as err:
        process = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
    try:

        def serving() -> bool:
            try:
                with urllib.request.urlopen(  # noqa: S310 - http on the loopback
                    f"http://127.0.0.1:{port}/accounts/login/", timeout=2
                ) as response:
                    return response.status == 200
            except OSError:
                return False

        wait_for(serving, 300, "make run serving")
        # The schedule cluster and one per worker pool.
        clusters = 1 + len(settings.WORKER_POOLS)
        wait_for(lambda: stderr.read_text().count("running.") == clusters, 120, "every cluster")

        # Ctrl-C in a terminal: SIGINT to the foreground process group.
        stop_and_wait(process, signal.SIGINT)
    finally:
        kill_group(process)
    errors = stderr.read_text()
    assert "Traceback" not in errors
    assert "RecursionError" not in errors
    assert errors.count("has stopped.") == clusters
