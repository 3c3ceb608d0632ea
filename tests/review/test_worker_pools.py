"""Worker pools drain independently: a flood of bulk work does not delay detection, and
within one lane work runs in the order it was queued. Real clusters in subprocesses
(tests/qcluster.py), so PostgreSQL only."""

from __future__ import annotations

import pytest
from django_q.models import OrmQ
from django_q.tasks import async_task

from audit.models import AuditEvent
from review.models import ItemState, ReviewItem
from review.services import outbox
from testkit.corpus import simple_pdf
from tests.factories import admitted_items
from tests.qcluster import cluster_env, cluster_start, clusters_stop, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BACKLOG = 200


@pytest.fixture
def broker(monkeypatch):
    """The relay hands tasks to the real broker, not inline (this process is in sync mode)."""
    monkeypatch.setattr(
        outbox,
        "async_task",
        lambda func, *args, cluster: async_task(func, *args, cluster=cluster, sync=False),
    )


def _proposed(*items: ReviewItem) -> bool:
    return ReviewItem.objects.filter(
        pk__in=[i.pk for i in items], state=ItemState.PROPOSED
    ).count() == len(items)


def test_urgent_detection_does_not_wait_behind_a_flood_of_bulk_work(broker, tmp_path):
    for _ in range(BACKLOG):
        async_task("tests.worker_tasks.bulk_work", 0.5, cluster="bulk-default", sync=False)
    log = tmp_path / "qcluster.log"
    clusters = [
        cluster_start(cluster_env("bulk-default", Q_WORKERS_BULK_DEFAULT="1"), log),
        cluster_start(cluster_env("pii-high", Q_WORKERS_PII_HIGH="1"), log),
    ]
    try:
        # The bulk pool is busy with its backlog...
        wait_for(
            lambda: OrmQ.objects.filter(key="bulk-default").count() < BACKLOG,
            60,
            "the bulk pool to start on its backlog",
            log,
        )
        # ...when an urgent document arrives: its detection goes to the PII pool's high
        # lane and finishes while the renders are still waiting.
        (item,) = admitted_items(
            {"urgent.pdf": simple_pdf(["SSN 123-45-6789"])}, priority_score=90, detect=False
        )
        wait_for(lambda: _proposed(item), 90, "the urgent document to be detected", log)
        waiting = OrmQ.objects.filter(key="bulk-default").count()
    finally:
        clusters_stop(*clusters)

    assert waiting > BACKLOG // 2, f"only {waiting} bulk tasks were still waiting"


def test_default_lane_detects_in_admission_order(broker, tmp_path):
    pdf = simple_pdf(["Requester SSN 123-45-6789"])
    items = [admitted_items({f"{n}.pdf": pdf}, detect=False)[0] for n in range(4)]
    log = tmp_path / "qcluster.log"
    cluster = cluster_start(cluster_env("pii-default", Q_WORKERS_PII_DEFAULT="1"), log)
    try:
        wait_for(lambda: _proposed(*items), 120, "every document to be detected", log)
    finally:
        clusters_stop(cluster)

    detected = list(
        AuditEvent.objects.filter(event_type="PROPOSED", item_id__in=[i.pk for i in items])
        .order_by("occurred_at", "sequence")
        .values_list("item_id", flat=True)
    )
    assert detected == [i.pk for i in items]
