"""The review side of admission (`intake.handoff`): the policy admission stamps on a
submission, and one review item per admitted document with its detection in the outbox."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from audit.clock import StatementTime
from common.batch import WriteBatch, allocate_ids
from intake.handoff import AdmissionPolicy, OpenedItem
from intake.models import Document
from review.models import ItemState, Outbox, Policy, ReviewItem
from review.priority import item_priority
from review.services.outbox import outbox_add_new


def admission_policy() -> AdmissionPolicy:
    """The policy in force, only the two fields admission stamps (the detection settings
    beside them are far larger), and the database's time, in one statement."""
    newest = (
        Policy.objects.order_by("-version")
        .annotate(read_at=StatementTime())
        .values_list("version", "sla_hours", "read_at")
        .first()
    )
    if newest is None:
        raise Policy.DoesNotExist("no policy: the migrations publish version 1")
    version, sla_hours, read_at = newest
    return AdmissionPolicy(
        version=version,
        sla_hours={sla: float(hours) for sla, hours in sla_hours.items()},
        read_at=read_at.astimezone(dt.UTC),
    )


def items_open(
    *,
    batch: WriteBatch,
    documents: Sequence[Document],
    sla_class: str,
    deadline: dt.datetime,
    priority_score: int,
    received_at: dt.datetime,
) -> list[OpenedItem]:
    """Adds one review item per document, and its detection in the outbox, to
    admission's write batch (intake audits the admission with these item ids, so they
    are allocated first); they commit with the admission."""
    priority = item_priority(time_left=deadline - received_at, priority_score=priority_score)
    items = [
        ReviewItem(
            id=item_id,
            document=document,
            state=ItemState.ACCEPTED,
            sla_class=sla_class,
            deadline=deadline,
            priority=priority,
            state_changed_at=received_at,
        )
        for item_id, document in zip(
            allocate_ids(ReviewItem, len(documents)), documents, strict=True
        )
    ]
    batch.insert(items)
    outbox_add_new(
        batch=batch, items=items, task=Outbox.Task.DETECT, reason="admitted", now=received_at
    )
    return [
        OpenedItem(document=item.document, item_id=item.pk, state=item.state, deadline=deadline)
        for item in items
    ]
