"""An automated accessibility check (axe-core) of the pages reviewers and compliance use:
no serious or critical violations."""

import pytest

from review.roles import COMPLIANCE_OFFICER, REVIEWER
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.browser.conftest import axe_serious as _serious
from tests.browser.conftest import claim_next_in
from tests.factories import admitted_items

pytestmark = pytest.mark.django_db(transaction=True)


def _user(name: str, role: str, staff: bool = False):
    user = user_create(name, role=role)
    user.is_staff = staff
    user.save()
    return user


def test_queue_item_and_preview_pages_have_no_serious_violations(new_page, live_server):
    (item,) = admitted_items({"a.pdf": simple_pdf(["SSN 123-45-6789", "Mail jo@example.com"])})
    _user("rita", REVIEWER)
    page = new_page("rita")

    assert _serious(page) == []
    claim_next_in(page, live_server, item)
    assert _serious(page) == []
    page.get_by_label("Show redacted preview").check()
    page.wait_for_load_state("networkidle")
    assert _serious(page) == []


def test_ops_and_admin_pages_have_no_serious_violations(new_page, live_server):
    admitted_items({"a.pdf": simple_pdf(["SSN 123-45-6789"])})
    _user("olga", COMPLIANCE_OFFICER, staff=True)
    page = new_page("olga")

    for path in [
        "/ops/",
        "/admin/",
        "/admin/review/reviewitem/",
        "/admin/intake/document/",
        "/admin/review/legalhold/add/",
    ]:
        page.goto(f"{live_server.url}{path}")
        assert _serious(page) == [], path
