"""Separate duties (DESIGN rule 10): intake clients submit, people review, and nobody
reviews what they submitted; a caller without the claim writes nothing."""

import pytest
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.test import Client
from rest_framework.authtoken.models import Token

from audit.models import AuditEvent
from intake.models import RejectedSubmission, Submission
from intake.roles import INTAKE_CLIENT
from review.errors import ClaimLost, NotAllowed
from review.models import ItemState, ReviewItem
from review.roles import COMPLIANCE_OFFICER, REVIEWER, SENIOR_REVIEWER
from review.services.claims import claim_next
from review.services.holds import legal_hold_place
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items, approve, decide_all
from tests.intake.conftest import URL, pdf_bytes, upload

pytestmark = pytest.mark.django_db
CLEAN = simple_pdf(["Nothing to withhold on this page."])


def _form():
    return {
        "external_ref": "FOIA-SOD",
        "jurisdiction": "US-FED",
        "files": [upload("letter.pdf", pdf_bytes())],
    }


@pytest.mark.parametrize("role", [REVIEWER, SENIOR_REVIEWER, COMPLIANCE_OFFICER, None])
def test_reviewer_session_cannot_submit_through_intake_api(role):
    client = Client()
    client.force_login(user_create(role=role))

    response = client.post(URL, _form())

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert "intake clients" in response.json()["message"]
    assert not Submission.objects.exists() and not RejectedSubmission.objects.exists()
    assert not AuditEvent.objects.exists()


def test_intake_client_session_cannot_submit_only_its_token_can():
    portal = user_create("portal", role=INTAKE_CLIENT)
    session = Client()
    session.force_login(portal)
    assert session.post(URL, _form()).status_code == 403

    token = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=portal).key}")
    assert token.post(URL, _form()).status_code == 201


def test_reviewer_token_cannot_submit():
    rita = user_create("rita", role=REVIEWER)
    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=rita).key}")

    assert client.post(URL, _form()).status_code == 403
    assert not Submission.objects.exists()


def test_claim_next_never_hands_a_submitter_their_own_document():
    (item,) = admitted_items({"letter.pdf": CLEAN})
    submitter = item.document.submission.client
    submitter.groups.add(Group.objects.get(name=REVIEWER))  # one person, both duties

    assert claim_next(reviewer=submitter) is None
    assert claim_next(reviewer=user_create(role=REVIEWER)).item_id == item.pk


def test_submitter_cannot_claim_their_document_from_the_queue_page():
    (item,) = admitted_items({"letter.pdf": CLEAN})
    submitter = item.document.submission.client
    submitter.groups.add(Group.objects.get(name=REVIEWER))
    client = Client()
    client.force_login(submitter)

    response = client.post("/claim-next/", follow=True)

    assert response.redirect_chain[-1][0] == "/"
    assert "Nothing to claim" in response.content.decode()
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.PROPOSED


def test_submitter_holding_a_claim_still_cannot_approve_their_document():
    # Given a reviewer who holds the claim on an item, and then turns out to be its
    # submitter (the claim came first: roles and submissions can change)
    (item,) = admitted_items({"letter.pdf": CLEAN})
    rita = user_create("rita", role=REVIEWER)
    claim = claim_next(reviewer=rita)
    proposal = decide_all(item, claim, rita)
    Submission.objects.filter(pk=item.document.submission_id).update(client=rita)
    events = AuditEvent.objects.count()

    # When she approves, through the service or the page
    with pytest.raises(NotAllowed):
        approve(item, claim, rita, proposal)
    client = Client()
    client.force_login(rita)
    page = client.post(f"/items/{item.pk}/approve/", {"claim_id": claim.pk})

    # Then nothing is approved and nothing is written
    assert page.status_code == 403
    assert page.content.decode() == "you submitted this document: someone else must review it"
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.IN_REVIEW
    assert AuditEvent.objects.count() == events


def test_approve_of_a_held_item_without_the_claim_writes_nothing_and_says_nothing():
    # Given an item claimed by Rita and under a legal hold
    (item,) = admitted_items({"letter.pdf": CLEAN})
    rita = user_create("rita", role=REVIEWER)
    claim = claim_next(reviewer=rita)
    proposal = decide_all(item, claim, rita)
    legal_hold_place(reason="litigation", actor="system:test", document=item.document)
    events = AuditEvent.objects.count()

    # When another reviewer approves it, 21 times, with Rita's claim id
    otto = user_create("otto", role=REVIEWER)
    client = Client()
    client.force_login(otto)
    for _ in range(21):
        response = client.post(
            f"/items/{item.pk}/approve/", {"claim_id": claim.pk, "proposal_version": 2}
        )
        assert response.status_code == 302
    with pytest.raises(ClaimLost):
        approve(item, claim, otto, proposal)

    # Then no HOLD_BLOCKED event (nor any other) was written, and no hold was named
    assert AuditEvent.objects.count() == events
    told = [str(m) for m in get_messages(response.wsgi_request)]
    assert set(told) == {str(ClaimLost())}


@pytest.mark.parametrize("action", ["approve", "release", "escalate", "decisions", "heartbeat"])
def test_unknown_item_id_answers_404_on_every_write(action):
    client = Client()
    client.force_login(user_create(role=REVIEWER))

    response = client.post(f"/items/987654/{action}/", {"claim_id": 1})

    assert response.status_code == 404
    assert not AuditEvent.objects.exists()


def test_malformed_claim_id_on_a_form_write_is_refused_cleanly():
    (item,) = admitted_items({"letter.pdf": CLEAN})
    rita = user_create("rita", role=REVIEWER)
    claim_next(reviewer=rita)
    client = Client()
    client.force_login(rita)
    events = AuditEvent.objects.count()

    response = client.post(f"/items/{item.pk}/approve/", {"claim_id": "x\x01"}, follow=True)

    assert response.status_code == 200
    assert "malformed" in response.content.decode()
    assert AuditEvent.objects.count() == events


def test_a_superuser_counts_as_a_compliance_officer_and_is_an_intake_client_by_token_only():
    from common.authz import COMPLIANCE_OFFICER as OFFICER
    from common.authz import caller_roles

    root = user_create("root")
    root.is_superuser = True
    root.save()
    root.groups.add(Group.objects.get(name=INTAKE_CLIENT))

    assert caller_roles(root, via_session=True) == {OFFICER}
    assert caller_roles(root, via_session=False) == {OFFICER, INTAKE_CLIENT}
