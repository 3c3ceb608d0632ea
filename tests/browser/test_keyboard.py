"""Everything from the keyboard: focus that survives the overlay being redrawn, drawing a
box with the arrow keys, and a pass from claim to approve without the mouse."""

import pytest

from review.models import ItemState, Proposal, ReviewItem
from review.roles import REVIEWER
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.browser.conftest import claim_next_in, screenshot
from tests.factories import admitted_items

LETTER = simple_pdf(
    ["Requester SSN 123-45-6789", "Reply to jo@example.com", "Card 4111 1111 1111 1111"]
)
pytestmark = pytest.mark.django_db(transaction=True)

FOCUSED = """() => {
  const el = document.activeElement;
  return (el.getAttribute('aria-label') || el.textContent || '').trim();
}"""


def _login(new_page):
    user_create("kim", role=REVIEWER)
    return new_page("kim")


def tab_to(page, name: str, *, limit: int = 120, backwards: bool = False) -> None:
    """Press Tab until the focused element's accessible name is `name`."""
    for _ in range(limit):
        if page.evaluate(FOCUSED) == name:
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError(f"Tab never reached {name!r} (last: {page.evaluate(FOCUSED)!r})")


def test_focus_stays_where_it_was_when_the_overlay_is_redrawn(new_page, live_server):
    (item,) = admitted_items({"letter.pdf": LETTER})
    page = _login(new_page)
    claim_next_in(page, live_server, item)

    # Tab from mark to mark on the page: each focus selects (and redraws), Tab goes on.
    tab_to(page, "Page 1, ssn, pending")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "Page 1, email, pending"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "Page 1, card, pending"

    # A decision from the list keeps the focus on the button pressed.
    tab_to(page, "Accept Page 1, email, pending")
    page.keyboard.press("Enter")
    assert page.evaluate(FOCUSED) == "Accept Page 1, email, accepted"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED) == "Reject Page 1, email, accepted"

    # A reason changed from the keyboard keeps the focus on its field.
    tab_to(page, "Legal reason for Page 1, card, pending")
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED) == "Legal reason for Page 1, card, pending"
    assert page.evaluate("document.activeElement.tagName") == "SELECT"


def test_a_keyboard_only_pass_from_claim_to_approve_with_a_drawn_box(new_page, live_server):
    (item,) = admitted_items({"letter.pdf": LETTER})
    marks = Proposal.objects.get(document=item.document).marks.count()
    page = _login(new_page)

    tab_to(page, "Claim next")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/items/{item.pk}/")
    for _ in range(marks):  # next undecided, accept
        page.keyboard.press("u")
        page.keyboard.press("a")
    assert page.locator("#undecided").inner_text() == "(0 undecided)"

    # A new box: b, then the arrows move it and Shift + arrows size it.
    page.keyboard.press("b")
    sketch = page.locator(".sketch.keyboard")
    assert sketch.is_visible()
    start = sketch.bounding_box()
    for _ in range(3):
        page.keyboard.press("ArrowDown")
    for _ in range(10):
        page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Shift+ArrowDown")
    moved = sketch.bounding_box()
    assert moved["y"] > start["y"] and moved["width"] > start["width"] * 1.2
    assert moved["height"] > start["height"]
    page.keyboard.press("Escape")  # dropped: nothing added
    assert sketch.count() == 0 and page.locator(".mark").count() == marks

    page.keyboard.press("b")
    page.keyboard.press("Shift+ArrowRight")
    page.keyboard.press("Enter")
    dialog = page.locator("#new-mark")
    assert dialog.is_visible()
    assert page.evaluate("document.activeElement.id") == "new-category"
    page.keyboard.type("name")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "new-reason"
    page.keyboard.type("(b)(6)")
    assert page.locator("#new-reason").input_value() == "(b)(6)"
    assert "privacy" in page.locator("#new-reason-text").inner_text()
    tab_to(page, "Add mark")
    page.keyboard.press("Enter")
    page.get_by_text("Box added on page 1.").wait_for()  # the dialog closes, then the box is added
    assert page.locator(".mark").count() == marks + 1
    assert page.evaluate(FOCUSED) == "Page 1, name, accepted"
    screenshot(page, "keyboard-drawn-box")

    tab_to(page, "Save decisions", backwards=True)
    page.keyboard.press("Enter")
    page.get_by_text("version 2").wait_for()
    tab_to(page, "Approve")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/")

    latest = Proposal.objects.filter(document=item.document).order_by("-version").first()
    drawn = latest.marks.get(detector="reviewer")
    assert (drawn.category, drawn.legal_reason, drawn.decision) == ("name", "(b)(6)", "accepted")
    assert drawn.x1 - drawn.x0 == pytest.approx(0.31, abs=0.01)
    assert latest.marks.filter(decision="accepted").count() == marks + 1
    assert ReviewItem.objects.get(pk=item.pk).state in {ItemState.APPROVED, ItemState.SIGNED}
