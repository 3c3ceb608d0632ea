"""The review side of admission (`intake.handoff`): the policy admission stamps on a
submission, and one review item per admitted document, its detection queued on commit."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from functools import partial

from django.conf import settings
from django.db import transaction
from django_q.tasks import async_task

from intake.handoff import AdmissionPolicy, OpenedItem
from intake.models import Document
from review.models import ItemState, ReviewItem
from review.priority import item_priority
from review.selectors import policy_current


def admission_policy() -> AdmissionPolicy:
    policy = policy_current()
    return AdmissionPolicy(
        version=policy.version,
        sla_hours={sla: float(hours) for sla, hours in policy.sla_hours.items()},
    )


def items_open(
    *,
    documents: Sequence[Document],
    sla_class: str,
    deadline: dt.datetime,
    priority_score: int,
    received_at: dt.datetime,
    high_lane: bool,
) -> list[OpenedItem]:
    """Runs inside admission's transaction (intake audits the admission with these item
    ids); detection is queued only once that transaction commits."""
    opened = []
    for document in documents:
        item = ReviewItem.objects.create(
            document=document,
            state=ItemState.ACCEPTED,
            sla_class=sla_class,
            deadline=deadline,
            priority=item_priority(time_left=deadline - received_at, priority_score=priority_score),
            state_changed_at=received_at,
        )
        opened.append(
            OpenedItem(document=document, item_id=item.pk, state=item.state, deadline=deadline)
        )
    transaction.on_commit(
        partial(detection_enqueue, [o.item_id for o in opened], high_lane=high_lane)
    )
    return opened


def detection_enqueue(item_ids: Sequence[int], *, high_lane: bool) -> None:
    """Queue detection per item. Urgent submissions use the second cluster."""
    for item_id in item_ids:
        if high_lane:
            async_task("review.tasks.detect_document", item_id, cluster=settings.HIGH_LANE)
        else:
            async_task("review.tasks.detect_document", item_id)
