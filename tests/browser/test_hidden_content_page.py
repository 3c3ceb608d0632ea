import pytest

from review.models import Mark, Proposal
from review.roles import REVIEWER
from testkit.builders import user_create
from testkit.hidden_corpus import build
from tests.browser.conftest import claim_next_in, screenshot
from tests.factories import admitted_items

pytestmark = pytest.mark.django_db(transaction=True)


def test_reviewer_reads_hidden_text_in_the_mark_list_and_cannot_reject_it(new_page, live_server):
    case = build("covered_by_rectangle")
    (item,) = admitted_items({"letter.pdf": case.pdf})
    user_create("rita", role=REVIEWER)
    page = new_page("rita")

    claim_next_in(page, live_server, item)
    entry = page.locator("#mark-list li").filter(has_text="hidden content (covered)")
    assert entry.locator(".hidden-text").inner_text() == case.canary
    screenshot(page, "item-hidden-content")

    page.get_by_role(
        "button", name=f"Page {case.page + 1}, hidden content (covered), removed on release"
    ).click()
    page.keyboard.press("r")
    assert "always removed" in page.locator("#notice").inner_text()
    page.get_by_role("button", name="Save decisions").click()
    page.wait_for_load_state("networkidle")
    latest = Proposal.objects.filter(document=item.document).order_by("-version").first()
    assert latest.marks.get(category="hidden_content").decision == Mark.Decision.ACCEPTED
