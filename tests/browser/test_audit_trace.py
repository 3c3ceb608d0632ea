"""A compliance officer traces one document from admission to download in the admin,
and the export of that trace verifies against the database."""

import json

import pytest

from audit.exports import verify_export
from review.roles import COMPLIANCE_OFFICER
from testkit.builders import user_create
from tests.browser.conftest import screenshot
from tests.test_end_to_end import signed_document  # noqa: F401 - the fixture, by name

PIPELINE = [
    "TASK_ADMITTED",
    "PROPOSED",
    "CLAIMED",
    "PROPOSAL_REVISED",
    "APPROVED",
    "RENDERED",
    "SIGNED",
    "DOWNLOADED",
]

pytestmark = pytest.mark.django_db(transaction=True)


def _officer(name: str):
    user = user_create(name, role=COMPLIANCE_OFFICER)
    user.is_staff = True  # compliance officers work in the admin
    user.save()
    return user


def test_compliance_officer_traces_a_document_in_the_admin_and_the_export_verifies(
    request, live_server, tmp_path
):
    # Given a document that went the whole way: admitted over the API, detected, reviewed,
    # approved, rendered, signed, then downloaded by its intake client. Built before the
    # browser starts: signing must not run inside Playwright's event loop.
    api, document_id = request.getfixturevalue("signed_document")
    assert api.get(f"/api/v1/documents/{document_id}/output").status_code == 200
    _officer("olga")
    new_page = request.getfixturevalue("new_page")

    # When the officer opens the ledger in the admin and searches for the document id
    page = new_page("olga")
    page.goto(f"{live_server.url}/admin/audit/auditevent/")
    page.fill("#searchbar", document_id)
    page.locator("#changelist-search [type=submit]").click()
    page.wait_for_url(f"**/admin/audit/auditevent/?q={document_id}")
    # ... and sorts the trace oldest first by its sequence column.
    page.locator("#result_list th.column-sequence div.text a").click()
    page.wait_for_url("**o=1**")

    # Then every step from admission to download is listed, in order
    steps = page.locator("#result_list td.field-event_type").all_inner_texts()
    assert steps == PIPELINE
    sequences = [int(s) for s in page.locator("#result_list th.field-sequence").all_inner_texts()]
    assert sequences == sorted(sequences)
    documents = set(page.locator("#result_list td.field-document_link").all_inner_texts())
    assert documents == {document_id}
    page.locator("#toggle-nav-sidebar").click()  # room for the id columns
    screenshot(page, "audit-trace")

    # And the export of this filtered list downloads and verifies against the database
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export this list as JSON Lines").click()
    download = download_info.value
    assert download.suggested_filename == "audit-events.jsonl"
    path = tmp_path / "trace.jsonl"
    download.save_as(path)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["event_type"] for r in rows] == PIPELINE
    assert [r["sequence"] for r in rows] == sequences
    report = verify_export(path, "jsonl")
    assert report.ok, report
    assert report.count == len(PIPELINE)
