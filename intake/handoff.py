"""Where admission hands its documents to the review queue.

Review sits above intake in the layers (review's items point at intake's documents), so
intake may not import it. Intake names here the two operations it needs; the module that
`settings.INTAKE_REVIEW_HANDOFF` names implements them (`review.services.admission`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from typing import Protocol, cast

from django.conf import settings

from common.batch import WriteBatch
from intake.models import Document


@dataclass(frozen=True)
class AdmissionPolicy:
    """What admission needs of the policy in force: its version and SLA windows, and
    the database's time when it was read (the admission's time of receipt)."""

    version: int
    sla_hours: Mapping[str, float]
    read_at: dt.datetime


@dataclass(frozen=True)
class OpenedItem:
    document: Document
    item_id: int
    state: str
    deadline: dt.datetime


class ReviewHandoff(Protocol):
    def admission_policy(self) -> AdmissionPolicy: ...

    def items_open(
        self,
        *,
        batch: WriteBatch,
        documents: Sequence[Document],
        sla_class: str,
        deadline: dt.datetime,
        priority_score: int,
        received_at: dt.datetime,
    ) -> list[OpenedItem]:
        """Open one review item per document, its detection in the outbox: rows of
        admission's write batch, which commit with the admission."""
        ...


def review_handoff() -> ReviewHandoff:
    return cast(ReviewHandoff, import_module(settings.INTAKE_REVIEW_HANDOFF))
