"""The review queue: items, leases, proposals, approvals, outputs, failures and holds.

One module a responsibility; import from `review.models`, which re-exports them all:

- `policy`: the versioned redaction policy.
- `items`: the item's states, queues, holds and close reasons, the item, its claims and
  the pages drawn under a claim.
- `proposals`: proposals and their marks, approvals, artifacts.
- `delivery`: the outbox of an item's tasks, and dead letters.
- `retention`: legal holds, retention schedules, disposals.
"""

from __future__ import annotations

# isort: off
# In the order the models were first defined, which is the order the app registry lists
# them in (get_models(), dumpdata, flush).
from review.models.policy import Policy
from review.models.items import (
    TERMINAL_STATES,
    Claim,
    ClaimPage,
    CloseReason,
    Hold,
    ItemState,
    Queue,
    ReviewItem,
)
from review.models.proposals import Approval, Artifact, Mark, Proposal
from review.models.delivery import DeadLetter, Outbox
from review.models.retention import RETENTION_MAX_DAYS, Disposal, LegalHold, RetentionPolicy

# isort: on

__all__ = [
    # policy
    "Policy",
    # items
    "TERMINAL_STATES",
    "Claim",
    "ClaimPage",
    "CloseReason",
    "Hold",
    "ItemState",
    "Queue",
    "ReviewItem",
    # proposals
    "Approval",
    "Artifact",
    "Mark",
    "Proposal",
    # delivery
    "DeadLetter",
    "Outbox",
    # retention
    "RETENTION_MAX_DAYS",
    "Disposal",
    "LegalHold",
    "RetentionPolicy",
]
