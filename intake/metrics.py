"""Admission latency, observed where admission runs. Served with the other series by
`review.metrics` (its registry and its multiprocess notes apply here too)."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import Histogram

# Admission hashes and opens every PDF: milliseconds for a letter, minutes for 500 files.
ADMISSION_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0)

ADMISSION_SECONDS = Histogram(
    "rrq_admission_seconds",
    "Wall time of POST /api/v1/submissions/ (admitted, replayed or rejected).",
    buckets=ADMISSION_BUCKETS,
    registry=None,
)


def observe_admission(seconds: float) -> None:
    ADMISSION_SECONDS.observe(seconds)


def admission_timed(handler: Callable[..., Any]) -> Callable[..., Any]:
    """Time a view handler with `observe_admission`, whether it returns or raises: an
    admitted, a replayed and a rejected submission alike. Requests refused before the
    handler (authentication, permissions, throttling) are not timed."""

    @functools.wraps(handler)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return handler(*args, **kwargs)
        finally:
            observe_admission(time.perf_counter() - started)

    return timed
