"""Poison documents (issue 17): a document whose page cannot be drawn reaches the
dead-letter queue with `unrenderable_page@p<page>:<cause>`, without any 500; the
reviewer who held it is told and is free to claim other work; Claim next never hands it
out again until compliance requeues or closes it. Approval needs every page drawn for
the reviewer during the claim."""

import pytest
from django.test import Client

from audit.models import AuditEvent
from review.models import Approval, Claim, DeadLetter, Hold, ItemState, ReviewItem
from review.pdf.render import CONTENT, NO_SUCH_PAGE
from review.roles import REVIEWER
from review.selectors import latest_proposal, proposal_preview
from review.services.claims import claim_next, claim_release
from review.services.decisions import proposal_create
from review.services.release import item_approve
from review.services.rendering import page_image_render
from review.services.transitions import item_transition
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from testkit.poison_corpus import POISON_KINDS, poison_case
from tests.factories import admitted_items, decide_all, view_every_page
from tests.intake.conftest import make_api_client, submit, upload
from tests.pdf.test_render_limits import CAUSE
from tests.pipeline import accept_every_mark

pytestmark = pytest.mark.django_db

LETTER = simple_pdf(["Requester SSN 123-45-6789", "Reply to jo@example.com"])


def _two_page_letter() -> bytes:
    import pymupdf

    doc = pymupdf.open()
    for number, line in enumerate(["Requester SSN 123-45-6789", "Reply to jo@example.com"]):
        doc.new_page().insert_text((72, 72), f"{line} (page {number + 1})")
    return doc.tobytes(no_new_id=True)


# Admission refuses a page measured in a user unit before detection could see it.
ADMITTED_KINDS = tuple(kind for kind in POISON_KINDS if kind != "huge_user_unit_page")


def _reason(kind: str) -> str:
    return f"unrenderable_page@p{poison_case(kind).bad_pages[0] + 1}:{CAUSE[kind]}"


def _browser(user) -> Client:
    # A server error comes back as a 500 response, not as an exception in the test.
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _claimed_item_id(response) -> int | None:
    assert response.status_code == 302
    location = response["Location"]
    return int(location.strip("/").split("/")[-1]) if location.startswith("/items/") else None


def _in_queue_unchecked(pdf: bytes, *, priority: int) -> ReviewItem:
    """A poison document that reached the queue without detection's page check (as
    documents detected before the check existed did): admitted through the service,
    proposal version 1 written and the item moved to `proposed` by the services
    detection uses."""
    (item,) = admitted_items({"poison.pdf": pdf}, detect=False)
    proposal_create(
        document=item.document,
        version=1,
        marks=[],
        created_by="service:detector",
        policy_version=item.document.policy_version,
    )
    item_transition(
        item_id=item.pk,
        to_state=ItemState.PROPOSED,
        actor="service:detector",
        event_type="PROPOSED",
    )
    ReviewItem.objects.filter(pk=item.pk).update(priority=priority)
    return ReviewItem.objects.select_related("document").get(pk=item.pk)


def _event_types(item: ReviewItem) -> list[str]:
    return list(
        AuditEvent.objects.filter(item_id=item.pk)
        .order_by("sequence")
        .values_list("event_type", flat=True)
    )


@pytest.mark.parametrize("kind", ADMITTED_KINDS)
def test_poison_document_is_dead_lettered_at_detection_with_its_page_named(
    kind, django_capture_on_commit_callbacks
):
    api = make_api_client("portal")
    with django_capture_on_commit_callbacks(execute=True):
        admitted = submit(
            api, files=[upload("poison.pdf", poison_case(kind).pdf), upload("letter.pdf", LETTER)]
        )
    assert admitted.status_code == 201

    poison = ReviewItem.objects.get(document__object_id="poison.pdf")
    assert (poison.state, poison.hold) == (ItemState.ACCEPTED, Hold.DEAD_LETTER)
    assert DeadLetter.objects.get(item=poison, resolved_at__isnull=True).last_reason == (
        _reason(kind)
    )
    moved = AuditEvent.objects.get(item_id=poison.pk, event_type="MOVED_TO_DLQ")
    assert moved.extra["reason"] == _reason(kind)

    rita, sam = user_create("rita", role=REVIEWER), user_create("sam", role=REVIEWER)
    letter = ReviewItem.objects.get(document__object_id="letter.pdf")
    assert _claimed_item_id(_browser(rita).post("/claim-next/")) == letter.pk
    assert _claimed_item_id(_browser(sam).post("/claim-next/")) is None  # never the poison


def test_a_poison_page_measured_in_a_user_unit_is_refused_at_admission():
    api = make_api_client("portal")

    refused = submit(api, files=[upload("poison.pdf", poison_case("huge_user_unit_page").pdf)])

    assert refused.status_code == 400
    assert [e["code"] for e in refused.json()["errors"]] == ["user_unit"]
    assert not ReviewItem.objects.exists()


@pytest.mark.parametrize("kind", ADMITTED_KINDS)
def test_reviewer_on_a_poison_page_is_told_freed_and_handed_other_work_next(kind):
    poison = _in_queue_unchecked(poison_case(kind).pdf, priority=0)  # the most urgent
    (other,) = admitted_items({"letter.pdf": LETTER})
    rita = user_create("rita", role=REVIEWER)
    browser = _browser(rita)
    assert _claimed_item_id(browser.post("/claim-next/")) == poison.pk
    claim = Claim.objects.get(item=poison)

    responses = [browser.get(f"/items/{poison.pk}/")]
    responses += [
        browser.get(f"/items/{poison.pk}/pages/{page}.png")
        for page in range(poison.document.page_count)
    ]

    assert 500 not in [response.status_code for response in responses]
    told = [response for response in responses if response.status_code == 409]
    assert len(told) == 1  # the first request that met the bad page; later ones are refused
    if told[0]["Content-Type"] == "image/png":
        assert told[0].content.startswith(b"\x89PNG")  # a notice in the page's place
    else:
        html = told[0].content.decode()
        assert "moved aside" in html and "your claim on it is free" in html
    poison.refresh_from_db()
    assert (poison.state, poison.hold) == (ItemState.PROPOSED, Hold.DEAD_LETTER)
    assert DeadLetter.objects.get(item=poison).last_reason == _reason(kind)
    claim.refresh_from_db()
    assert claim.ended_at is not None and claim.outcome == Claim.Outcome.RELEASED
    assert _event_types(poison)[-3:] == ["RELEASED", "REVIEW_FAILURE", "MOVED_TO_DLQ"]
    released = AuditEvent.objects.filter(item_id=poison.pk, event_type="RELEASED").get()
    assert released.extra["reason"] == _reason(kind)

    # The claim is free: Claim next hands out the other document, never the poison.
    assert _claimed_item_id(browser.post("/claim-next/")) == other.pk
    sam = user_create("sam", role=REVIEWER)
    assert _claimed_item_id(_browser(sam).post("/claim-next/")) is None


def test_a_decision_save_that_fails_on_the_document_answers_json_and_frees_the_claim():
    poison = _in_queue_unchecked(poison_case("deep_nesting").pdf, priority=0)
    rita = user_create("rita", role=REVIEWER)
    browser = _browser(rita)
    assert _claimed_item_id(browser.post("/claim-next/")) == poison.pk
    claim = Claim.objects.get(item=poison)

    saved = browser.post(
        f"/items/{poison.pk}/decisions/",
        data={"claim_id": claim.pk, "base_version": 1, "changes": {}},
        content_type="application/json",
    )

    assert saved.status_code == 409
    assert saved.json()["code"] == "unrenderable_page"
    assert "your claim on it is free" in saved.json()["message"]
    assert DeadLetter.objects.get(item=poison).last_reason == f"unrenderable_page@p2:{CONTENT}"
    assert Claim.objects.get(pk=claim.pk).outcome == Claim.Outcome.RELEASED


def test_an_approval_that_fails_on_the_document_shows_the_moved_aside_page():
    poison = _in_queue_unchecked(poison_case("broken_page_tree").pdf, priority=0)
    rita = user_create("rita", role=REVIEWER)
    browser = _browser(rita)
    assert _claimed_item_id(browser.post("/claim-next/")) == poison.pk
    claim = Claim.objects.get(item=poison)

    approved = browser.post(
        f"/items/{poison.pk}/approve/",
        {"claim_id": claim.pk, "proposal_version": 1, "preview_sha256": "0" * 64},
    )

    assert approved.status_code == 409
    assert "moved aside" in approved.content.decode()
    assert DeadLetter.objects.get(item=poison).last_reason == (
        f"unrenderable_page@p3:{NO_SUCH_PAGE}"
    )
    assert not Approval.objects.exists()


def test_a_quarantined_item_is_handed_out_again_only_after_compliance_requeues_it(officer_client):
    poison = _in_queue_unchecked(poison_case("huge_image").pdf, priority=0)
    rita = user_create("rita", role=REVIEWER)
    browser = _browser(rita)
    assert _claimed_item_id(browser.post("/claim-next/")) == poison.pk
    assert browser.get(f"/items/{poison.pk}/pages/1.png").status_code == 409
    letter = DeadLetter.objects.get(item=poison)
    assert _claimed_item_id(browser.post("/claim-next/")) is None

    officer_client.post(
        "/admin/review/deadletter/",
        {"action": "requeue", "_selected_action": [letter.pk], "apply": "1", "reason": "retry"},
    )

    assert ReviewItem.objects.get(pk=poison.pk).hold == Hold.NONE
    assert _claimed_item_id(browser.post("/claim-next/")) == poison.pk


def test_compliance_reads_why_a_quarantined_document_cannot_be_reviewed(officer_client):
    poison = _in_queue_unchecked(poison_case("huge_image").pdf, priority=0)
    browser = _browser(user_create("rita", role=REVIEWER))
    assert _claimed_item_id(browser.post("/claim-next/")) == poison.pk
    assert browser.get(f"/items/{poison.pk}/pages/1.png").status_code == 409

    timeline = officer_client.get(f"/ops/items/{poison.pk}/")

    assert timeline.status_code == 200
    assert (
        "Page 2 cannot be drawn for review: an image on it is too large to decode"
        in timeline.content.decode()
    )


def test_approve_is_refused_naming_the_pages_the_reviewer_never_received():
    admitted_items({"two.pdf": _two_page_letter()})
    rita = user_create("rita", role=REVIEWER)
    browser = _browser(rita)
    item_id = _claimed_item_id(browser.post("/claim-next/"))
    page = browser.get(f"/items/{item_id}/")
    config = page.context["review_config"]
    saved = accept_every_mark(browser, item_id, page)
    approve_form = {
        "claim_id": config["claim_id"],
        "proposal_version": saved["version"],
        "preview_sha256": saved["preview_sha256"],
    }
    assert browser.get(f"/items/{item_id}/pages/0.png").status_code == 200

    refused = browser.post(f"/items/{item_id}/approve/", approve_form, follow=True)

    assert "page 2 of 2 was never shown to you" in refused.content.decode()
    assert ReviewItem.objects.get(pk=item_id).state == ItemState.IN_REVIEW
    assert not Approval.objects.exists()

    assert browser.get(f"/items/{item_id}/pages/1.png?preview=1").status_code == 200
    approved = browser.post(f"/items/{item_id}/approve/", approve_form)
    assert approved.status_code == 302
    assert ReviewItem.objects.get(pk=item_id).state == ItemState.APPROVED
    assert AuditEvent.objects.get(event_type="APPROVED").extra["pages_seen"] == 2


def test_pages_seen_under_an_earlier_claim_or_as_thumbnails_do_not_count():
    from review.errors import PagesNotSeen

    (item,) = admitted_items({"two.pdf": _two_page_letter()})
    rita = user_create("rita", role=REVIEWER)
    first = claim_next(reviewer=rita)
    view_every_page(item, rita)
    claim_release(item_id=item.pk, claim_id=first.pk, reviewer=rita)
    second = claim_next(reviewer=rita)
    assert second.item_id == item.pk
    page_image_render(item=item, page=0, preview=False, viewer=rita)
    page_image_render(item=item, page=1, preview=False, dpi=24, viewer=rita)  # a thumbnail
    proposal = decide_all(item, second, rita)

    with pytest.raises(PagesNotSeen, match="page 2 of 2"):
        item_approve(
            item_id=item.pk,
            claim_id=second.pk,
            reviewer=rita,
            proposal_version=proposal.version,
            preview_sha256=proposal_preview(latest_proposal(item.document)).sha256,
        )
