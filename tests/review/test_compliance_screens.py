"""What reviewers and compliance see: legal reasons come from the item's jurisdiction's
exemption catalogue (never typed; edited by compliance as versioned entries), downloads
are offered only where they exist, and a legal hold shows wherever the item does."""

import json

import pytest

from audit.models import AuditEvent
from intake.models import Exemption, Jurisdiction
from review.models import Claim
from review.roles import REVIEWER
from review.selectors import latest_proposal
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items

pytestmark = pytest.mark.django_db
LETTER = simple_pdf(["Requester SSN 123-45-6789", "Reply to jo@example.com"])


@pytest.fixture
def claimed(client):
    (item,) = admitted_items({"a.pdf": LETTER})
    client.force_login(user_create("rita", role=REVIEWER))
    client.post("/claim-next/")
    claim = Claim.objects.get(item=item, ended_at__isnull=True)
    return client, item, claim


def _save(client, item, claim, *, changes=None, added=()):
    return client.post(
        f"/items/{item.pk}/decisions/",
        data=json.dumps(
            {
                "claim_id": claim.pk,
                "base_version": latest_proposal(item.document).version,
                "changes": changes or {},
                "added": list(added),
            }
        ),
        content_type="application/json",
    )


def _box(reason: str) -> dict:
    return {"page": 0, "left": 0.1, "top": 0.6, "width": 0.2, "height": 0.05,
            "category": "name", "reason": reason}  # fmt: skip


def test_a_made_up_reason_on_a_new_box_is_refused_naming_the_catalogue(claimed):
    client, item, claim = claimed

    response = _save(client, item, claim, added=[_box("(b)(99)")])

    assert response.status_code == 400
    assert response.json()["code"] == "invalid_decision"
    assert "'(b)(99)' is not in the US-FED exemption catalogue" in response.json()["message"]
    assert latest_proposal(item.document).version == 1


def test_a_made_up_reason_on_a_proposed_mark_is_refused(claimed):
    client, item, claim = claimed
    mark = latest_proposal(item.document).marks.first()

    response = _save(client, item, claim, changes={mark.mark_key: {"reason": "because"}})

    assert response.status_code == 400
    assert "'because' is not in the US-FED exemption catalogue" in response.json()["message"]


def test_a_code_of_another_jurisdiction_is_refused_and_a_catalogue_code_is_saved(claimed):
    client, item, claim = claimed

    assert _save(client, item, claim, added=[_box("s.40(2)")]).status_code == 400
    saved = _save(client, item, claim, added=[_box("(b)(7)(C)")])

    assert saved.status_code == 200, saved.content
    assert latest_proposal(item.document).marks.filter(legal_reason="(b)(7)(C)").count() == 1


def test_a_retired_code_can_no_longer_be_chosen(claimed):
    client, item, claim = claimed
    Exemption.objects.filter(jurisdiction="US-FED", code="(b)(2)").update(active=False)

    assert _save(client, item, claim, added=[_box("(b)(2)")]).status_code == 400


def test_the_item_page_offers_the_catalogue_with_titles_and_no_free_text(claimed):
    client, item, _ = claimed

    page = client.get(f"/items/{item.pk}/").content.decode()

    assert '<select id="new-reason"' in page
    assert "(b)(6) — Personal privacy" in page
    assert 'list="reasons"' not in page


def test_compliance_edits_an_entry_as_a_new_version_recorded_in_the_ledger(officer_client):
    jurisdiction = Jurisdiction.objects.get(code="UK")
    entries = list(jurisdiction.exemptions.order_by("id"))
    target = next(e for e in entries if e.code == "s.40(2)")
    data = {
        "code": "UK", "name": jurisdiction.name, "law": jurisdiction.law,
        "window_unit": jurisdiction.window_unit, "window_length": jurisdiction.window_length,
        "holiday_country": "GB", "holiday_subdivision": "ENG", "holiday_categories": "",
        "exemption_codes": "{}", "default_exemption": "s.40(2)", "active": "on",
        "exemptions-TOTAL_FORMS": str(len(entries)),
        "exemptions-INITIAL_FORMS": str(len(entries)),
        "exemptions-MIN_NUM_FORMS": "0", "exemptions-MAX_NUM_FORMS": "1000",
    }  # fmt: skip
    for index, entry in enumerate(entries):
        title = "Third-party personal data" if entry.pk == target.pk else entry.title
        data.update(
            {
                f"exemptions-{index}-id": str(entry.pk),
                f"exemptions-{index}-jurisdiction": "UK",
                f"exemptions-{index}-code": entry.code,
                f"exemptions-{index}-title": title,
                f"exemptions-{index}-description": entry.description,
                f"exemptions-{index}-active": "on",
            }
        )

    response = officer_client.post("/admin/intake/jurisdiction/UK/change/", data)

    assert response.status_code == 302, [
        str(e) for e in response.context["inline_admin_formsets"][0].formset.errors if e
    ] + [str(response.context["adminform"].form.errors)]
    target.refresh_from_db()
    assert (target.title, target.version) == ("Third-party personal data", 2)
    event = AuditEvent.objects.get(event_type="EXEMPTION_SAVED")
    assert event.extra == {"jurisdiction": "UK", "code": "s.40(2)", "version": 2, "active": True}


def test_a_default_code_missing_from_the_catalogue_is_refused(officer_client):
    jurisdiction = Jurisdiction.objects.get(code="EU-GDPR")
    jurisdiction.default_exemption = "Art.99"

    with pytest.raises(Exception, match="not in EU-GDPR's exemption catalogue: Art.99"):
        jurisdiction.full_clean()


def test_the_document_list_offers_downloads_only_for_signed_documents(officer_client):
    (item,) = admitted_items({"a.pdf": LETTER})

    page = officer_client.get("/admin/intake/document/").content.decode()

    assert "signed PDF" not in page
    assert "Proposed" in page
    assert f"/api/v1/documents/{item.document_id}/evidence" in page


def test_a_legal_hold_shows_in_the_queue_on_the_item_and_in_the_api(officer_client):
    from rest_framework.test import APIClient

    from review.services.holds import legal_hold_place

    (item,) = admitted_items({"a.pdf": LETTER})
    legal_hold_place(reason="litigation 2026-17", actor="user:olga", document=item.document)

    queue = officer_client.get("/").content.decode()
    page = officer_client.get(f"/items/{item.pk}/").content.decode()
    api = APIClient()
    api.force_authenticate(item.document.submission.client)
    status = api.get(f"/api/v1/documents/{item.document_id}/").json()

    assert f"#{item.pk}" in queue and "legal hold" in queue
    assert 'id="legal-hold"' in page
    assert status["hold"] == "legal_hold"
    assert "litigation" not in str(status)  # the hold's reason is compliance's business


def test_claim_next_says_how_many_held_items_it_passed_over(client):
    from review.services.holds import legal_hold_place

    held, free = admitted_items({"a.pdf": LETTER, "b.pdf": LETTER})
    legal_hold_place(reason="litigation", actor="user:olga", document=held.document)
    client.force_login(user_create("rita", role=REVIEWER))

    response = client.post("/claim-next/", follow=True)

    assert response.redirect_chain[-1][0] == f"/items/{free.pk}/"
    assert "1 item on hold passed over." in response.content.decode()
