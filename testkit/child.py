"""A few lines of the service's own code run in a child interpreter, bounded by a
timeout, for tests of what once ran for hours: such a test ends either way. The bound
is a timeout, not a measurement."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_in_child(code: str, *args: str, timeout: float = 120) -> str:
    """What `code` (with `args` as sys.argv[1:]) printed; fails the test on an error or
    when it does not finish within `timeout` seconds."""
    done = subprocess.run(  # noqa: S603 - our own interpreter and code
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout
