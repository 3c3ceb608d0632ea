"""Compliance places a legal hold in the admin by searching for its submission or
document (autocomplete), and is told in words when neither or both are chosen."""

import pytest

from audit.models import AuditEvent
from review.models import LegalHold
from testkit.corpus import simple_pdf
from tests.factories import admitted_items

ADD = "/admin/review/legalhold/add/"
AUTOCOMPLETE = "/admin/autocomplete/"


@pytest.fixture
def item(db):
    (item,) = admitted_items({"letters/reply-to-jo.pdf": simple_pdf(["Mail jo@example.com"])})
    return item


def _search(client, field: str, term: str) -> list[dict[str, str]]:
    response = client.get(
        AUTOCOMPLETE,
        {"term": term, "app_label": "review", "model_name": "legalhold", "field_name": field},
    )
    assert response.status_code == 200, response.content.decode()[:300]
    return response.json()["results"]


def test_the_form_finds_submission_and_document_by_search(officer_client, item):
    page = officer_client.get(ADD).content.decode()
    assert page.count("admin-autocomplete") >= 2  # both targets are search boxes
    assert 'name="submission"' in page and 'name="document"' in page
    document, submission = item.document, item.document.submission

    found = _search(officer_client, "submission", submission.external_ref)
    assert [r["id"] for r in found] == [str(submission.pk)]
    assert submission.external_ref in found[0]["text"]
    found = _search(officer_client, "document", "reply-to-jo")
    assert [r["id"] for r in found] == [str(document.pk)]
    assert _search(officer_client, "document", "no-such-file") == []


def test_a_hold_on_the_document_found_is_placed_and_audited(officer_client, item):
    (result,) = _search(officer_client, "document", "reply-to-jo")

    response = officer_client.post(
        ADD, {"submission": "", "document": result["id"], "reason": "litigation"}
    )

    assert response.status_code == 302
    hold = LegalHold.objects.get()
    assert hold.document_id == item.document.pk and hold.submission_id is None
    assert AuditEvent.objects.filter(event_type="LEGAL_HOLD_PLACED").count() == 1


@pytest.mark.parametrize(
    ("targets", "said"),
    [
        ("neither", "Choose what the hold is on: a submission, or a single document."),
        ("both", "Choose a submission or a document, not both"),
    ],
)
def test_neither_or_both_targets_are_refused_in_words(officer_client, item, targets, said):
    document, submission = item.document, item.document.submission
    chosen = {
        "neither": {"submission": "", "document": ""},
        "both": {"submission": str(submission.pk), "document": str(document.pk)},
    }[targets]

    response = officer_client.post(ADD, {**chosen, "reason": "litigation"})

    page = response.content.decode()
    assert response.status_code == 200
    assert said in page
    assert "Constraint" not in page and "legalhold_exactly_one_target" not in page
    assert not LegalHold.objects.exists()
    assert not AuditEvent.objects.filter(event_type="LEGAL_HOLD_PLACED").exists()
