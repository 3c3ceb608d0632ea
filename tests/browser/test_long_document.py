"""A 30-page document on the workbench: thumbnails, the page indicator and jump, zoom,
and a mark list that follows the current mark."""

import pymupdf
import pytest

from review.models import Proposal
from review.roles import REVIEWER
from testkit.builders import user_create
from tests.browser.conftest import axe_serious, screenshot
from tests.factories import admitted_items

PASSWORD = "browser-test-pw-1"
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
    user = user_create("rita", role=REVIEWER)
    user.set_password(PASSWORD)
    user.save()
    page = new_page("rita", PASSWORD)
    page.get_by_role("button", name="Claim next").click()
    page.wait_for_url(f"{live_server.url}/items/{item.pk}/")
    return page


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
    screenshot(page, "long-document")


def test_a_thumbnail_is_a_small_render_of_its_page(new_page, live_server, long_item):
    page = _claimed(new_page, live_server, long_item)
    image = page.request.get(f"{live_server.url}/items/{long_item.pk}/pages/0.png?size=thumb")
    full = page.request.get(f"{live_server.url}/items/{long_item.pk}/pages/0.png")

    assert image.ok and image.headers["content-type"] == "image/png"
    assert len(image.body()) < len(full.body()) / 4
    width = int.from_bytes(image.body()[16:20], "big")  # the PNG header's width
    assert 150 <= width <= 250
