"""The preview shows what the burn-in removes: a box drawn over the top of a line, past
its middle, removes the whole line, and the preview marks the whole line."""

import pymupdf
import pytest

from review.roles import REVIEWER
from testkit.builders import user_create
from tests.browser.conftest import claim_next_in, screenshot
from tests.factories import admitted_items

pytestmark = pytest.mark.django_db(transaction=True)


def _minutes() -> tuple[bytes, pymupdf.Rect]:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 100), "Minutes of the meeting held at the town hall", fontsize=14)
    page.insert_text((54, 160), "A second line nobody touches.", fontsize=14)
    words = [w for w in page.get_text("words") if w[1] < 120]
    return doc.tobytes(), pymupdf.Rect(words[0][:4]) | pymupdf.Rect(words[-1][:4])


def test_the_preview_marks_the_whole_line_a_clipping_box_removes(new_page, live_server):
    pdf, line = _minutes()
    (item,) = admitted_items({"minutes.pdf": pdf})
    user_create("rita", role=REVIEWER)
    page = new_page("rita")
    claim_next_in(page, live_server, item)

    # Draw a box over the top three fifths of the line, across its width.
    image = page.locator("#page-0 img").bounding_box()
    scale = image["width"] / 612
    top = image["y"] + (line.y0 - 1) * scale
    page.get_by_role("button", name="Draw box").click()
    page.mouse.move(image["x"] + (line.x0 - 2) * scale, top)
    page.mouse.down()
    page.mouse.move(image["x"] + (line.x1 + 2) * scale, top + line.height * scale * 0.6, steps=5)
    page.mouse.up()
    page.select_option("#new-category", "other")
    page.select_option("#new-reason", "(b)(6)")
    page.get_by_role("button", name="Add mark").click()
    page.get_by_role("button", name="Save decisions").click()
    page.get_by_text("version 2").wait_for()
    drawn = page.locator(".mark").last.bounding_box()

    page.get_by_label("Show redacted preview").check()
    page.wait_for_load_state("networkidle")
    removed = page.locator("#page-0 .removed")
    assert removed.count() == 1 and removed.is_visible()
    area = removed.bounding_box()
    image = page.locator("#page-0 img").bounding_box()  # after the reload
    screenshot(page, "preview-removed-line")

    assert area["height"] > drawn["height"] * 1.4  # the line's full height, not the box's
    assert area["y"] == pytest.approx(image["y"] + line.y0 * scale, abs=2)
    assert area["y"] + area["height"] == pytest.approx(image["y"] + line.y1 * scale, abs=2)
    assert area["width"] == pytest.approx(line.width * scale, abs=3)
    assert "what the release removes" in page.locator("#notice").inner_text()
