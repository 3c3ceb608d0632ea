"""A name found once is proposed everywhere it is written, in every document of the
submission, as one group: one key decides the whole group."""

import pytest

from review.models import Proposal
from review.roles import REVIEWER
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.browser.conftest import screenshot
from tests.factories import admitted_items

pytestmark = pytest.mark.django_db(transaction=True)


def test_accepting_a_name_group_with_one_key_decides_every_occurrence(new_page, live_server):
    first, second = admitted_items(
        {
            "a.pdf": simple_pdf(
                [
                    "The complainant, Jane Doe, wrote on 3 March.",
                    "Ms. Doe asked for the housing file.",
                    "Signed: JANE DOE",
                ]
            ),
            "b.pdf": simple_pdf(["The reply to Jane Doe was sent by post."]),
        },
        priority_score=90,
    )
    proposal = Proposal.objects.get(document=first.document, version=1)
    persons = list(proposal.marks.filter(category="person").order_by("page", "y0", "x0"))
    group = persons[0].group
    assert len([m for m in persons if m.group == group]) == 3
    other = Proposal.objects.get(document=second.document, version=1)
    assert other.marks.filter(category="person", group=group).exists()  # one group, both files
    user_create("rita", role=REVIEWER)
    page = new_page("rita")

    page.get_by_role("button", name="Claim next").click()
    page.wait_for_url(f"{live_server.url}/items/*/")
    item_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    target = first if item_id == first.pk else second
    marks = list(
        Proposal.objects.get(document=target.document, version=1).marks.order_by(
            "page", "y0", "x0", "id"
        )
    )
    index = next(i for i, m in enumerate(marks) if m.group == group)
    for _ in range(index + 1):
        page.keyboard.press("j")
    page.keyboard.press("a")
    page.keyboard.press("g")
    screenshot(page, "entity-group")
    page.get_by_role("button", name="Save decisions").click()
    page.get_by_text("version 2").wait_for()

    latest = Proposal.objects.filter(document=target.document).order_by("-version").first()
    decided = {m.decision for m in latest.marks.filter(group=group)}
    assert decided == {"accepted"}
    assert latest.marks.filter(group=group).count() == (3 if target == first else 1)
    assert latest.marks.exclude(group=group).filter(decision="accepted").count() == 0
