import pytest
from django.db.models.functions import Now

from review.models import Approval, Claim, ItemState, Proposal, ReviewItem
from review.roles import REVIEWER
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.browser.conftest import between_requests, claim_next_in, screenshot
from tests.factories import admitted_items

LETTER = simple_pdf(
    ["Requester SSN 123-45-6789", "Reply to jo@example.com", "Nothing else of note on this page."]
)

pytestmark = pytest.mark.django_db(transaction=True)


def _reviewer(name: str):
    return user_create(name, role=REVIEWER)


def test_reviewer_claims_decides_from_the_keyboard_draws_a_box_and_approves(new_page, live_server):
    (item,) = admitted_items({"letter.pdf": LETTER})
    marks = Proposal.objects.get(document=item.document).marks.count()
    assert marks >= 2
    _reviewer("rita")
    page = new_page("rita")
    screenshot(page, "queue")

    claim_next_in(page, live_server, item)
    # The mark list says what proposed each mark and how sure it was.
    assert "regex.ssn 95%" in page.locator("#mark-list").inner_text()
    ordered = Proposal.objects.get(document=item.document).marks.order_by("page", "y0", "x0", "id")
    for mark in ordered:  # the list reads in page order: accept the SSN, reject the rest
        page.keyboard.press("j")
        page.keyboard.press("a" if mark.category == "ssn" else "r")
    assert page.get_by_role("button", name="Page 1, ssn, accepted", exact=True).count() == 1

    page.get_by_role("button", name="Draw box").click()
    box = page.locator("#page-0 .overlay").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.1, box["y"] + box["height"] * 0.3)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.34, steps=5)
    page.mouse.up()
    page.select_option("#new-category", "name")
    # Reasons are chosen from the jurisdiction's catalogue, with the code's meaning shown.
    offered = page.locator("#new-reason option").all_text_contents()[1:]
    assert len(offered) == 14 and "(b)(7)(C) — Law enforcement: personal privacy" in offered
    page.select_option("#new-reason", "(b)(6)")
    assert (
        "unwarranted invasion of personal privacy" in page.locator("#new-reason-text").inner_text()
    )
    page.get_by_role("button", name="Add mark").click()
    screenshot(page, "item-decisions")

    page.get_by_role("button", name="Save decisions").click()
    page.get_by_text("version 2").wait_for()  # the page reloads with the saved version
    latest = Proposal.objects.filter(document=item.document).order_by("-version").first()
    assert latest.version == 2
    assert latest.marks.filter(detector="reviewer", category="name").count() == 1
    assert not latest.marks.filter(decision="pending").exists()
    page.get_by_label("Show redacted preview").check()
    page.wait_for_load_state("networkidle")
    screenshot(page, "item-preview")

    page.get_by_role("button", name="Approve").click()
    page.wait_for_url(f"{live_server.url}/")
    assert "approved" in page.content()
    approval = Approval.objects.get(item=item)
    assert approval.proposal == latest
    assert ReviewItem.objects.get(pk=item.pk).state in {ItemState.APPROVED, ItemState.SIGNED}


def test_second_reviewer_cannot_open_the_claimed_item(new_page, live_server):
    (item,) = admitted_items({"letter.pdf": LETTER})
    _reviewer("rita")
    _reviewer("otto")
    first = new_page("rita")
    claim_next_in(first, live_server, item)

    second = new_page("otto")
    response = second.goto(f"{live_server.url}/items/{item.pk}/")
    assert response.status == 403
    assert "Not your item" in second.content()


def test_approve_after_the_lease_expired_is_refused_and_changes_nothing(new_page, live_server):
    (item,) = admitted_items({"letter.pdf": simple_pdf(["Minutes of the parks committee."])})
    _reviewer("rita")
    page = new_page("rita")
    claim_next_in(page, live_server, item)
    # The lease runs out while the page is open (the clock is moved, not waited for).
    with between_requests():
        Claim.objects.filter(item=item).update(expires_at=Now())

    page.get_by_role("button", name="Approve").click()
    page.wait_for_url(f"{live_server.url}/")
    assert "expired" in page.content()
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.IN_REVIEW
    assert not Approval.objects.exists()
