import json

import pytest
from django.db import connection
from django.db.models.functions import Now
from django.test import Client
from django.test.utils import CaptureQueriesContext

from review.models import Claim, ItemState, ReviewItem
from review.roles import COMPLIANCE_OFFICER, REVIEWER
from review.selectors import latest_proposal, proposal_preview
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items

LETTER = simple_pdf(["Requester SSN 123-45-6789", "Reply to jo@example.com"])


@pytest.fixture
def reviewer_client(client, db):
    client.force_login(user_create("rita", role=REVIEWER))
    return client


def _claimed(client) -> ReviewItem:
    response = client.post("/claim-next/")
    assert response.status_code == 302
    return ReviewItem.objects.get(pk=int(response["Location"].strip("/").split("/")[-1]))


def _queue_queries(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/").status_code == 200
    return len(queries)


def test_queue_page_makes_the_same_number_of_queries_for_3_or_30_items(reviewer_client):
    admitted_items({f"a{n}.pdf": LETTER for n in range(3)}, detect=True)
    few = _queue_queries(reviewer_client)
    admitted_items({f"b{n}.pdf": LETTER for n in range(27)}, detect=True)
    assert _queue_queries(reviewer_client) == few


def test_queue_page_lists_items_without_document_content(reviewer_client):
    (item,) = admitted_items({"a.pdf": LETTER})
    page = reviewer_client.get("/").content.decode()
    assert f"#{item.pk}" in page and "Claim next" in page
    assert "123-45-6789" not in page and "jo@example.com" not in page


def test_claim_next_opens_the_item_page_with_its_hashes_and_buttons(reviewer_client):
    admitted_items({"a.pdf": LETTER})
    item = _claimed(reviewer_client)
    page = reviewer_client.get(f"/items/{item.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    for label in ["Save decisions", "Approve", "Release", "Escalate"]:
        assert f">{label}</button>" in html
    assert item.document.source_sha256 in html
    assert latest_proposal(item.document).proposal_sha256 in html
    assert page["Cache-Control"].startswith("no-store")


def test_another_reviewer_cannot_open_a_claimed_item_or_its_images(reviewer_client):
    admitted_items({"a.pdf": LETTER})
    item = _claimed(reviewer_client)
    other = Client()
    other.force_login(user_create("otto", role=REVIEWER))
    assert other.get(f"/items/{item.pk}/").status_code == 403
    assert other.get(f"/items/{item.pk}/pages/0.png").status_code == 403
    officer = Client()
    officer.force_login(user_create("olga", role=COMPLIANCE_OFFICER))
    assert officer.get(f"/items/{item.pk}/pages/0.png").status_code == 200


def test_page_images_and_previews_are_png_and_never_cached(reviewer_client):
    admitted_items({"a.pdf": LETTER})
    item = _claimed(reviewer_client)
    for url in [f"/items/{item.pk}/pages/0.png", f"/items/{item.pk}/pages/0.png?preview=1"]:
        response = reviewer_client.get(url)
        assert response.status_code == 200
        assert response.content.startswith(b"\x89PNG")
        assert response["Cache-Control"].startswith("no-store")
        assert response["X-Content-Type-Options"] == "nosniff"
    assert reviewer_client.get(f"/items/{item.pk}/pages/7.png").status_code == 404


def test_saving_decisions_then_approving_through_the_pages(
    reviewer_client, django_capture_on_commit_callbacks
):
    admitted_items({"a.pdf": LETTER})
    item = _claimed(reviewer_client)
    claim = Claim.objects.get(item=item, ended_at__isnull=True)
    v1 = latest_proposal(item.document)
    saved = reviewer_client.post(
        f"/items/{item.pk}/decisions/",
        data=json.dumps(
            {
                "claim_id": claim.pk,
                "base_version": 1,
                "changes": {m.mark_key: {"decision": "accepted"} for m in v1.marks.all()},
                "added": [
                    {
                        "page": 0,
                        "left": 0.1,
                        "top": 0.6,
                        "width": 0.2,
                        "height": 0.05,
                        "category": "name",
                        "reason": "(b)(6)",
                    }
                ],
            }
        ),
        content_type="application/json",
    )
    assert saved.status_code == 200, saved.content
    assert saved.json()["version"] == 2
    v2 = latest_proposal(item.document)
    assert saved.json()["preview_sha256"] == proposal_preview(v2).sha256
    assert reviewer_client.get(f"/items/{item.pk}/pages/0.png").status_code == 200

    with django_capture_on_commit_callbacks():
        approved = reviewer_client.post(
            f"/items/{item.pk}/approve/",
            {
                "claim_id": claim.pk,
                "proposal_version": 2,
                "preview_sha256": saved.json()["preview_sha256"],
            },
        )
    assert approved.status_code == 302
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.APPROVED


def test_approve_after_lease_expiry_is_refused_with_a_plain_message(reviewer_client):
    admitted_items({"a.pdf": simple_pdf(["Nothing sensitive here."])})
    item = _claimed(reviewer_client)
    claim = Claim.objects.get(item=item, ended_at__isnull=True)
    Claim.objects.filter(pk=claim.pk).update(expires_at=Now())
    preview = proposal_preview(latest_proposal(item.document)).sha256
    response = reviewer_client.post(
        f"/items/{item.pk}/approve/",
        {"claim_id": claim.pk, "proposal_version": 1, "preview_sha256": preview},
        follow=True,
    )
    assert "expired" in response.content.decode()
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.IN_REVIEW


def test_heartbeat_answers_with_the_new_expiry(reviewer_client):
    admitted_items({"a.pdf": LETTER})
    item = _claimed(reviewer_client)
    claim = Claim.objects.get(item=item, ended_at__isnull=True)
    response = reviewer_client.post(f"/items/{item.pk}/heartbeat/", {"claim_id": claim.pk})
    assert response.status_code == 200
    assert "expires_at" in response.json()
    assert (
        reviewer_client.post(f"/items/{item.pk}/heartbeat/", {"claim_id": 999999}).status_code
        == 409
    )
