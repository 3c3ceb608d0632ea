"""Tasks that only tests enqueue; a real `qcluster` imports them by dotted path.

Kept out of `review.tasks` so production code never carries test-only behaviour.
"""

import os
import time
from pathlib import Path

from review.tasks import detect_document

# Longer than any Q_TIMEOUT a test sets, so the first delivery can only end by being
# killed: by the test (SIGKILL) or, if the test never gets to it, by django-q2's own
# timeout, which records a failure and lets the test fail loudly instead of hanging.
BLOCK_SECONDS = 60


def block_once_then_detect(item_id: int, marker_dir: str) -> None:
    """First delivery: publish this worker's PID, then block until killed.
    Any later delivery (the broker's re-delivery after the kill): run detection and
    append one line to `runs` once it has finished."""
    folder = Path(marker_dir)
    marker = folder / "first-delivery.pid"
    if not marker.exists():
        # Write-then-rename, so the test never reads a half-written PID.
        partial = folder / "first-delivery.tmp"
        partial.write_text(str(os.getpid()))
        partial.replace(marker)
        deadline = time.monotonic() + BLOCK_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.1)
        return  # never reached in a passing test; does no work if it is
    detect_document(item_id)
    with (folder / "runs").open("a") as runs:
        runs.write(f"{os.getpid()}\n")


def bulk_work(seconds: float) -> None:
    """Stands in for one render in the bulk pool: occupies its worker for `seconds`."""
    time.sleep(seconds)
