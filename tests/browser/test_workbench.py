"""The reviewer's workbench for mouse and keyboard: deciding from the mark list, the
next undecided mark, a visible wrap, and no silent loss of unsaved decisions."""

import pytest

from review.models import ItemState, Proposal, ReviewItem
from review.roles import REVIEWER
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.browser.conftest import between_requests, claim_next_in, screenshot
from tests.factories import admitted_items

LETTER = simple_pdf(
    ["Requester SSN 123-45-6789", "Reply to jo@example.com", "Card 4111 1111 1111 1111"]
)
pytestmark = pytest.mark.django_db(transaction=True)


def _claimed_page(new_page, live_server):
    (item,) = admitted_items({"letter.pdf": LETTER})
    user_create("rita", role=REVIEWER)
    page = new_page("rita")
    claim_next_in(page, live_server, item)
    return item, page


def test_a_mouse_only_pass_from_claim_to_approve(new_page, live_server):
    item, page = _claimed_page(new_page, live_server)
    marks = Proposal.objects.get(document=item.document).marks.count()

    for button in page.locator("#mark-list button", has_text="Accept").all():
        button.click()
    assert page.locator("#undecided").inner_text() == "(0 undecided)"
    screenshot(page, "workbench-mouse")
    page.get_by_role("button", name="Save decisions").click()
    page.get_by_text("version 2").wait_for()
    page.get_by_role("button", name="Approve").click()
    page.wait_for_url(f"{live_server.url}/")

    latest = Proposal.objects.filter(document=item.document).order_by("-version").first()
    assert latest.marks.filter(decision="accepted").count() == marks
    assert ReviewItem.objects.get(pk=item.pk).state in {ItemState.APPROVED, ItemState.SIGNED}


def test_next_undecided_skips_decided_marks_and_a_wrap_is_announced(new_page, live_server):
    item, page = _claimed_page(new_page, live_server)
    marks = Proposal.objects.get(document=item.document).marks.count()
    assert marks >= 3

    page.keyboard.press("j")
    page.keyboard.press("a")
    page.keyboard.press("u")
    assert "current" in (page.locator("#mark-list li").nth(1).get_attribute("class") or "")
    for _ in range(marks - 1):
        page.keyboard.press("j")
    assert "back to the first" in page.locator(".notice").first.inner_text()


def test_leaving_with_unsaved_decisions_asks_first(new_page, live_server):
    _, page = _claimed_page(new_page, live_server)
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))

    page.keyboard.press("j")
    page.keyboard.press("a")
    page.close(run_before_unload=True)
    page.wait_for_timeout(500)

    assert asked == ["beforeunload"]


@pytest.mark.parametrize("width", [390, 1024, 1440])
def test_the_page_image_stays_usable_at_every_window_width(new_page, live_server, width):
    _, page = _claimed_page(new_page, live_server)
    page.set_viewport_size({"width": width, "height": 900})
    page.wait_for_timeout(200)

    item_shot = screenshot(page, f"item-{width}px")
    image = page.locator("#page-0 img").bounding_box()
    listing = page.locator("#mark-list").bounding_box()

    assert image["width"] >= 300  # at 390 px too: the page image takes the width
    assert image["x"] + image["width"] <= width  # and fits in it
    assert listing["width"] >= 200  # the mark list stays readable (under the pages when narrow)
    page.goto(f"{live_server.url}/")
    queue_shot = screenshot(page, f"queue-{width}px")
    assert page.locator("table").bounding_box()["width"] <= width
    assert item_shot.stat().st_size > 0 and queue_shot.stat().st_size > 0
    print(f"screenshots at {width} px: {item_shot} {queue_shot}")


def test_mark_labels_show_only_for_the_mark_in_hand(new_page, live_server):
    _, page = _claimed_page(new_page, live_server)

    assert page.locator(".mark .tag").first.is_hidden()
    page.keyboard.press("j")
    assert page.locator(".mark.current .tag").is_visible()


def test_the_lease_warning_appears_in_time_and_extend_moves_the_lease(new_page, live_server):
    from review.models import Claim, Policy

    latest = Policy.objects.order_by("-version").first()
    Policy.objects.filter(pk=latest.pk).update(lease_minutes=2)  # a short lease: warned at once
    item, page = _claimed_page(new_page, live_server)
    claim = Claim.objects.get(item=item, ended_at__isnull=True)
    before = claim.expires_at

    page.locator("#lease-warning").wait_for()
    assert "Your lease ends in" in page.locator("#lease-warning-text").inner_text()
    page.wait_for_timeout(1100)  # the next expiry must fall on a later second
    page.get_by_role("button", name="Extend").click()
    page.get_by_text("Lease extended.").wait_for()

    claim.refresh_from_db()
    assert claim.expires_at > before


def test_single_key_shortcuts_can_be_turned_off_and_entries_answer_enter(new_page, live_server):
    _, page = _claimed_page(new_page, live_server)

    page.get_by_label("Single-key shortcuts").uncheck()
    page.locator("body").press("j")
    assert page.locator("#mark-list li.current").count() == 0
    page.locator("#mark-list li").nth(1).focus()
    page.keyboard.press("Enter")
    assert "current" in (page.locator("#mark-list li").nth(1).get_attribute("class") or "")
    page.reload()
    assert not page.get_by_label("Single-key shortcuts").is_checked()  # kept in this browser


def test_a_hold_placed_during_review_shows_on_the_open_page_within_a_heartbeat(
    new_page, live_server, settings
):
    from review.services.holds import legal_hold_place

    settings.REVIEW_HEARTBEAT_SECONDS = 1
    item, page = _claimed_page(new_page, live_server)
    assert page.locator("#hold-now").is_hidden()

    with between_requests():
        legal_hold_place(reason="litigation", actor="user:olga", document=item.document)

    page.locator("#hold-now").wait_for(timeout=5000)
    assert page.locator("#hold-now").inner_text() == "legal hold"
    assert "cannot be approved while the hold lasts" in page.locator(".notice").first.inner_text()


def test_a_whole_category_is_decided_at_once(new_page, live_server):
    item, page = _claimed_page(new_page, live_server)
    marks = list(
        Proposal.objects.get(document=item.document).marks.order_by("page", "y0", "x0", "id")
    )
    first = marks[0]
    same = sum(1 for m in marks if m.category == first.category)

    page.keyboard.press("j")
    page.get_by_role("button", name="reject category").click()

    assert f"{same} mark" in page.locator(".notice").first.inner_text()
    page.get_by_role("button", name="Save decisions").click()
    page.get_by_text("version 2").wait_for()
    latest = Proposal.objects.filter(document=item.document).order_by("-version").first()
    assert set(latest.marks.filter(category=first.category).values_list("decision", flat=True)) == {
        "rejected"
    }
    assert latest.marks.exclude(category=first.category).filter(decision="rejected").count() == 0


def test_after_the_lease_ran_out_claim_again_keeps_the_decisions_made(
    new_page, live_server, settings
):
    from django.db.models.functions import Now

    from audit.models import AuditEvent
    from review.models import Claim

    settings.REVIEW_HEARTBEAT_SECONDS = 1
    item, page = _claimed_page(new_page, live_server)
    first = Claim.objects.get(item=item, ended_at__isnull=True)
    page.keyboard.press("j")
    page.keyboard.press("a")

    with between_requests():
        Claim.objects.filter(pk=first.pk).update(expires_at=Now())  # the lease runs out
    page.get_by_role("button", name="Claim again").wait_for(timeout=5000)
    assert "still free" in page.locator("#lease-warning-text").inner_text()
    page.get_by_role("button", name="Claim again").click()
    page.get_by_text("Claimed again: your decisions are kept.").wait_for()

    first.refresh_from_db()
    again = Claim.objects.get(item=item, ended_at__isnull=True)
    assert first.outcome == Claim.Outcome.EXPIRED and again.reviewer_id == first.reviewer_id
    assert AuditEvent.objects.filter(event_type="CLAIMED", item_id=item.pk).count() == 2
    assert page.locator("#lease-warning").is_hidden()
    assert f"claim={again.pk}" in page.locator("#page-0 img").get_attribute("src")  # drawn anew
    assert "accepted" in page.locator("#mark-list li").first.inner_text()
    page.get_by_role("button", name="Save decisions").click()
    page.get_by_text("version 2").wait_for()
    latest = Proposal.objects.filter(document=item.document).order_by("-version").first()
    assert latest.version == 2 and latest.marks.filter(decision="accepted").count() == 1
    assert latest.created_by == "user:rita"


def test_claim_again_is_not_offered_once_someone_else_has_the_item(new_page, live_server, settings):
    from django.db.models.functions import Now

    from review.models import Claim
    from review.services.claims import claim_next
    from review.sweeps import sweep_pass

    settings.REVIEW_HEARTBEAT_SECONDS = 1
    item, page = _claimed_page(new_page, live_server)
    page.keyboard.press("j")
    page.keyboard.press("a")

    with between_requests():
        Claim.objects.filter(item=item, ended_at__isnull=True).update(expires_at=Now())
        sweep_pass()
        assert claim_next(reviewer=user_create("otto", role=REVIEWER)).item_id == item.pk

    page.get_by_text("claimed by someone else or put on hold").first.wait_for(timeout=5000)
    assert page.get_by_role("button", name="Claim again").is_hidden()


def test_unsaved_decisions_survive_a_reload_and_saving_clears_them(new_page, live_server):
    item, page = _claimed_page(new_page, live_server)
    page.on("dialog", lambda dialog: dialog.accept())  # "leave the page?": yes
    kept = "Object.keys(localStorage).filter(k => k.startsWith('rrq-unsaved:'))"

    page.keyboard.press("j")
    page.keyboard.press("a")
    page.keyboard.press("j")
    page.keyboard.press("r")
    assert len(page.evaluate(kept)) == 1
    page.reload()

    assert "2 unsaved decisions restored" in page.locator("#notice").inner_text()
    entries = page.locator("#mark-list li")
    assert "accepted" in entries.nth(0).inner_text() and "rejected" in entries.nth(1).inner_text()
    page.get_by_role("button", name="Save decisions").click()
    page.get_by_text("version 2").wait_for()

    assert page.evaluate(kept) == []
    assert page.locator("#notice").is_hidden()
    latest = Proposal.objects.filter(document=item.document).order_by("-version").first()
    decided = list(
        latest.marks.order_by("page", "y0", "x0", "id").values_list("decision", flat=True)
    )
    assert decided[:2] == ["accepted", "rejected"]
