"""Ops pages write durations for people and say why a failure happened."""

import pytest
from django.test import Client

from review.roles import COMPLIANCE_OFFICER
from review.services.failures import failure_record
from review.templatetags.ops_format import age
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(None, "-"), (45, "45 s"), (125, "2 min 5 s"), (900, "15 min"), (11_520, "3 h 12 min"),
     (190_000, "2 d 4 h")],
)  # fmt: skip
def test_an_age_reads_in_days_hours_minutes_or_seconds(seconds, words):
    assert age(seconds) == words


@pytest.mark.django_db
def test_the_timeline_says_why_a_release_failed():
    (item,) = admitted_items({"a.pdf": simple_pdf(["SSN 123-45-6789"])})
    failure_record(
        item_id=item.pk,
        reason="verification_failed:unseen_content@p2",
        permanent=True,
        retry_task="review.tasks.render_and_sign",
        actor="system:test",
    )
    officer = Client()
    officer.force_login(user_create("olga", role=COMPLIANCE_OFFICER))

    page = officer.get(f"/ops/items/{item.pk}/").content.decode()

    assert "Release gate failed: unseen_content on page 2" in page
