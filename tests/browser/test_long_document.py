"""A 30-page document on the workbench: thumbnails, the page indicator and jump, zoom,
and a mark list that follows the current mark."""

import pymupdf
import pytest

from review.models import Proposal
from review.roles import REVIEWER
from testkit.builders import user_create
from tests.browser.conftest import axe_serious, claim_next_in, screenshot
from tests.factories import admitted_items

PAGES = 30
# Twelve people, each named on five pages: detection proposes every place a name is
# written as one group (every occurrence), 60 marks in 12 groups.
NAMES = [
    "Jane Doe", "Oliver Hartmann", "Priya Raman", "Marcus Bell", "Elena Petrova", "Tomas Novak",
    "Grace Okafor", "Henry Caldwell", "Aisha Karim", "Lucas Moreau", "Ingrid Solberg",
    "Daniel Whitaker",
]  # fmt: skip
pytestmark = pytest.mark.django_db(transaction=True)


def long_pdf() -> bytes:
    doc = pymupdf.open()
    for number in range(PAGES):
        page = doc.new_page(width=612, height=792)
        first, second = NAMES[number % 6], NAMES[6 + number % 6]
        page.insert_text((54, 120), f"The complainant, {first}, wrote to the housing office.")
        page.insert_text((54, 420), f"The reply was signed by {second} for the council.")
    return doc.tobytes()


@pytest.fixture
def long_item(db):
    (item,) = admitted_items({"long.pdf": long_pdf()})
    marks = list(Proposal.objects.get(document=item.document).marks.all())
    assert len(marks) == 60 and len({m.group for m in marks}) == 12
    return item


def _claimed(new_page, live_server, item):
    user_create("rita", role=REVIEWER)
    page = new_page("rita")
    claim_next_in(page, live_server, item)
    _settled(page)
    return page


def _settled(page) -> None:
    """Wait until the page images asked for so far have arrived. (The test database is
    SQLite in memory, shared between the live server's threads: a write while thirty
    image requests read fails with "table is locked". A real database waits instead.)"""
    page.wait_for_load_state("networkidle")


def _click(page, locator) -> None:
    """A mouse click where the element is on screen. (Playwright's own click first scrolls
    the window to the element's place in the flow, which for the sticky bars is the top
    of the document.)"""
    box = locator.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _inside(inner, outer) -> bool:
    return (
        inner["y"] >= outer["y"] - 1
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + 1
    )


def test_thumbnails_page_indicator_jump_and_zoom_move_through_thirty_pages(
    new_page, live_server, long_item
):
    page = _claimed(new_page, live_server, long_item)
    indicator = page.locator("#page-indicator")
    assert indicator.inner_text() == "Page 1 of 30"
    thumbs = page.locator("#thumbs a")
    assert thumbs.count() == PAGES
    assert "size=thumb" in thumbs.first.locator("img").get_attribute("src")
    assert thumbs.first.inner_text().replace("\n", " ") == "Page 1, 2 undecided"
    assert axe_serious(page) == []

    # The page jump: a key, the number, Enter.
    page.keyboard.press("#")
    page.keyboard.type("17")
    page.keyboard.press("Enter")
    assert indicator.inner_text() == "Page 17 of 30"
    assert thumbs.nth(16).get_attribute("aria-current") == "page"
    top = page.locator("#page-16").bounding_box()["y"]
    bars = page.locator("#bars").bounding_box()
    assert bars["y"] + bars["height"] <= top <= bars["y"] + bars["height"] + 20

    # j goes on from the page jumped to; the mark list follows the current mark.
    page.keyboard.press("j")
    current = page.locator(".mark.current")
    assert current.evaluate("el => el.closest('.page').dataset.page") == "16"
    entry = page.locator("#mark-list li.current")
    assert "Page 17," in entry.inner_text()
    assert _inside(entry.bounding_box(), page.locator("aside").bounding_box())
    for _ in range(10):  # five pages on: the list scrolls along
        page.keyboard.press("j")
    assert "Page 22," in page.locator("#mark-list li.current").inner_text()
    assert _inside(
        page.locator("#mark-list li.current").bounding_box(), page.locator("aside").bounding_box()
    )
    assert indicator.inner_text() == "Page 22 of 30"

    # A thumbnail jumps there; n and p move a page; scrolling moves the indicator.
    thumbs.nth(24).click()
    assert indicator.inner_text() == "Page 25 of 30"
    page.keyboard.press("n")
    assert indicator.inner_text() == "Page 26 of 30"
    page.locator("#page-4").evaluate("el => el.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(400)
    assert indicator.inner_text() == "Page 5 of 30"

    # Zoom in and out around the page being read; zoomed in, a sharper image.
    fit = page.locator("#page-4").bounding_box()["width"]
    _click(page, page.get_by_role("button", name="Zoom in"))
    _click(page, page.get_by_role("button", name="Zoom in"))
    assert page.locator("#zoom-level").inner_text() == "150 %"
    assert page.locator("#page-4").bounding_box()["width"] == pytest.approx(fit * 1.5, rel=0.02)
    assert "size=large" in page.locator("#page-4 img").get_attribute("src")
    assert indicator.inner_text() == "Page 5 of 30"
    page.keyboard.press("-")
    page.keyboard.press("-")
    page.keyboard.press("-")
    assert page.locator("#page-4").bounding_box()["width"] == pytest.approx(fit * 0.75, rel=0.02)
    _click(page, page.get_by_role("button", name="Fit width"))
    assert page.locator("#page-4").bounding_box()["width"] == pytest.approx(fit, rel=0.02)
    assert "size=large" not in page.locator("#page-4 img").get_attribute("src")
    _settled(page)
    screenshot(page, "long-document")


def test_a_thumbnail_is_a_small_render_of_its_page(new_page, live_server, long_item):
    page = _claimed(new_page, live_server, long_item)
    image = page.request.get(f"{live_server.url}/items/{long_item.pk}/pages/0.png?size=thumb")
    full = page.request.get(f"{live_server.url}/items/{long_item.pk}/pages/0.png")

    assert image.ok and image.headers["content-type"] == "image/png"
    assert len(image.body()) < len(full.body()) / 4
    width = int.from_bytes(image.body()[16:20], "big")  # the PNG header's width
    assert 150 <= width <= 250


def test_sixty_marks_in_twelve_groups_are_decided_with_thirty_keys_or_fewer(
    new_page, live_server, long_item
):
    page = _claimed(new_page, live_server, long_item)
    pressed = []

    def press(key: str) -> None:
        pressed.append(key)
        page.keyboard.press(key)

    press("u")  # the first undecided mark
    for group in range(12):  # accept a group, or reject it; then the next undecided
        press("Shift+A" if group % 2 == 0 else "Shift+R")
        press("u")

    assert page.locator("#undecided").inner_text() == "(0 undecided)"
    assert "Every mark is decided." in page.locator("#notice").inner_text()
    assert len(pressed) <= 30
    _settled(page)
    page.get_by_role("button", name="Save decisions").click()
    page.get_by_text("version 2").wait_for()
    latest = Proposal.objects.filter(document=long_item.document).order_by("-version").first()
    by_group: dict[str, set[str]] = {}
    for mark in latest.marks.all():
        by_group.setdefault(mark.group, set()).add(mark.decision)
    assert len(by_group) == 12 and all(len(d) == 1 for d in by_group.values())
    decided = sorted(d.pop() for d in by_group.values())
    assert decided == ["accepted"] * 6 + ["rejected"] * 6


def test_a_mouse_only_pass_through_thirty_pages_from_claim_to_approve(
    new_page, live_server, long_item
):
    from review.models import ItemState, ReviewItem

    page = _claimed(new_page, live_server, long_item)
    entries = page.locator("#mark-list li")

    for _ in range(12):  # pick an undecided entry in the list, accept its whole group
        entries.filter(has_text="pending").first.locator("span").first.click()
        page.get_by_role("button", name="accept group").click()
    assert page.locator("#undecided").inner_text() == "(0 undecided)"
    # Read every page down to the last with the mouse wheel.
    page.mouse.move(400, 500)
    for _ in range(100):
        if page.locator("#page-indicator").inner_text() == "Page 30 of 30":
            break
        page.mouse.wheel(0, 600)
        page.wait_for_timeout(50)
    thumb = page.locator("#thumbs a").nth(29)
    thumb.click()  # and to the top of the last page, from its thumbnail
    assert page.locator("#page-indicator").inner_text() == "Page 30 of 30"
    assert "undecided" not in thumb.inner_text()
    _settled(page)
    page.get_by_role("button", name="Save decisions").click()
    page.get_by_text("version 2").wait_for()
    _settled(page)
    page.get_by_role("button", name="Approve").click()
    page.wait_for_url(f"{live_server.url}/")

    latest = Proposal.objects.filter(document=long_item.document).order_by("-version").first()
    assert latest.marks.filter(decision="accepted").count() == 60
    assert ReviewItem.objects.get(pk=long_item.pk).state in {ItemState.APPROVED, ItemState.SIGNED}
