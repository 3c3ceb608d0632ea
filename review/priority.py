"""Item priority: lower is more urgent; 0 is reserved for items bumped near their deadline."""

from __future__ import annotations

import datetime as dt

BUMPED = 0
MAX_PRIORITY = 1000
_HORIZON = dt.timedelta(days=30)


def item_priority(
    *, time_left: dt.timedelta, priority_score: int, lowest_confidence: float | None = None
) -> int:
    """Blend the time to the item's deadline (dominant), the submission's priority score
    (0-100, higher is more important) and, once detection ran, the lowest mark confidence
    (uncertain documents first among equals)."""
    horizon = max(dt.timedelta(0), min(time_left, _HORIZON)) / _HORIZON
    time_part = 600 * horizon
    score_part = 3 * (100 - max(0, min(100, priority_score)))
    confidence_part = 99 * (1.0 if lowest_confidence is None else lowest_confidence)
    return max(1, min(MAX_PRIORITY, round(1 + time_part + score_part + confidence_part)))
