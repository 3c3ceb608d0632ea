import pytest
from django.test import Client

from audit.models import AuditEvent
from review.models import Artifact, DeadLetter, Hold, ItemState, LegalHold, ReviewItem
from review.roles import REVIEWER
from review.selectors import proposal_preview
from review.services.claims import claim_next
from review.services.failures import dead_letter_record
from review.services.holds import legal_hold_place, legal_hold_release
from review.services.release import artifact_render
from review.tasks import render_and_sign
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items, decide_all, view_every_page

pytestmark = pytest.mark.django_db

LETTER = simple_pdf(["Requester SSN 123-45-6789"])


def _claimed_and_decided():
    (item,) = admitted_items({"a.pdf": LETTER})
    reviewer = user_create(role=REVIEWER)
    claim = claim_next(reviewer=reviewer)
    return item, claim, reviewer, decide_all(item, claim, reviewer)


def test_placing_and_releasing_a_legal_hold_is_audited_and_needs_a_reason(officer):
    (item,) = admitted_items({"a.pdf": LETTER})
    hold = legal_hold_place(
        submission=item.document.submission, reason="litigation 24-118", actor=officer
    )
    assert AuditEvent.objects.get(event_type="LEGAL_HOLD_PLACED").extra["legal_hold"] == hold.pk
    with pytest.raises(Exception, match="reason"):
        legal_hold_release(hold_id=hold.pk, reason=" ", actor=officer)
    legal_hold_release(hold_id=hold.pk, reason="case closed", actor=officer)
    assert LegalHold.objects.get(pk=hold.pk).lifted_at is not None
    assert AuditEvent.objects.filter(event_type="LEGAL_HOLD_RELEASED").count() == 1


def test_legal_hold_blocks_approval_through_the_page(officer):
    item, claim, reviewer, v2 = _claimed_and_decided()
    legal_hold_place(document=item.document, reason="subpoena", actor=officer)
    client = Client()
    client.force_login(reviewer)
    response = client.post(
        f"/items/{item.pk}/approve/",
        {
            "claim_id": claim.pk,
            "proposal_version": 2,
            "preview_sha256": proposal_preview(v2).sha256,
        },
        follow=True,
    )
    assert "on hold" in response.content.decode()
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.IN_REVIEW


def test_legal_hold_placed_after_approval_blocks_rendering_and_signing(
    officer, django_capture_on_commit_callbacks
):
    from review.services.release import item_approve

    item, claim, reviewer, v2 = _claimed_and_decided()
    view_every_page(item, reviewer)
    with django_capture_on_commit_callbacks(execute=False):
        item_approve(
            item_id=item.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            proposal_version=2,
            preview_sha256=proposal_preview(v2).sha256,
        )
    legal_hold_place(submission=item.document.submission, reason="litigation", actor=officer)

    render_and_sign(item.pk)
    with pytest.raises(Exception, match="on hold"):
        artifact_render(item_id=item.pk, actor="service:renderer")

    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.APPROVED
    assert not Artifact.objects.exists()
    blocked = AuditEvent.objects.filter(event_type="HOLD_BLOCKED")
    assert {e.extra["action"] for e in blocked} == {"rendered"}


def test_admin_places_a_legal_hold_with_a_reason(officer_client):
    (item,) = admitted_items({"a.pdf": LETTER})
    response = officer_client.post(
        "/admin/review/legalhold/add/",
        {"submission": str(item.document.submission_id), "document": "", "reason": "litigation"},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    assert LegalHold.objects.get().placed_by == "user:olga"
    assert AuditEvent.objects.filter(event_type="LEGAL_HOLD_PLACED").count() == 1


def test_admin_requeues_a_dead_letter_with_a_reason(
    officer_client, django_capture_on_commit_callbacks
):
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    letter = dead_letter_record(
        item_id=item.pk, reason="OperationalError", actor="service:detector"
    )
    page = officer_client.get("/admin/review/deadletter/")
    assert "depth 1" in page.content.decode()
    asked = officer_client.post(
        "/admin/review/deadletter/", {"action": "requeue", "_selected_action": [letter.pk]}
    )
    assert "Reason (required" in asked.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        officer_client.post(
            "/admin/review/deadletter/",
            {
                "action": "requeue",
                "_selected_action": [letter.pk],
                "apply": "1",
                "reason": "db is back",
            },
        )
    item.refresh_from_db()
    assert (item.hold, item.attempts) == (Hold.NONE, 0)
    assert DeadLetter.objects.get(pk=letter.pk).resolved_at is not None
    assert AuditEvent.objects.get(event_type="DLQ_REQUEUED").extra["reason"] == "db is back"
    assert item.state == ItemState.PROPOSED  # the requeued detection ran


def test_compliance_officer_lifts_an_sla_breach_hold_with_a_reason(officer_client):
    (item,) = admitted_items({"a.pdf": LETTER})
    ReviewItem.objects.filter(pk=item.pk).update(hold=Hold.SLA_BREACH, queue="compliance_review")
    officer_client.post(
        "/admin/review/reviewitem/",
        {
            "action": "lift_sla_or_dead_letter_hold",
            "_selected_action": [item.pk],
            "apply": "1",
            "reason": "deadline extended by agreement",
        },
    )
    item.refresh_from_db()
    assert item.hold == Hold.NONE and item.queue == "compliance_review"
    assert AuditEvent.objects.get(event_type="HOLD_LIFTED").extra["hold"] == Hold.SLA_BREACH
