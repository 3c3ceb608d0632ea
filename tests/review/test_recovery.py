"""Every hold has a way out a compliance officer can take, and taking it resumes the
work the hold blocked: breach resolution with a new deadline, lifting holds."""

import datetime as dt

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from audit.clock import db_now
from audit.models import AuditEvent
from common.errors import DomainError
from intake.models import Submission
from review.models import Approval, CloseReason, DeadLetter, Hold, ItemState, Outbox, ReviewItem
from review.roles import REVIEWER, SENIOR_REVIEWER
from review.services import release
from review.services.claims import claim_next
from review.services.holds import breach_resolve, hold_lift, legal_hold_place, legal_hold_release
from review.services.recovery import item_close, item_reopen
from review.sweeps import sweep_pass
from review.tasks import render_and_sign
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items, approve, approved_item, decide_all
from tests.intake.conftest import make_api_client

pytestmark = pytest.mark.django_db

LETTER = simple_pdf(["Requester SSN 123-45-6789"])


def _breached() -> ReviewItem:
    (item,) = admitted_items({"a.pdf": LETTER})
    ReviewItem.objects.filter(pk=item.pk).update(deadline=db_now() - dt.timedelta(minutes=5))
    assert sweep_pass().breached == 1
    item.refresh_from_db()
    assert item.hold == Hold.SLA_BREACH
    return item


def test_lifting_a_breach_hold_without_a_future_deadline_is_refused(officer):
    item = _breached()

    with pytest.raises(DomainError, match="resolve the breach with a new deadline"):
        hold_lift(item_id=item.pk, reason="please", actor=officer)

    assert ReviewItem.objects.get(pk=item.pk).hold == Hold.SLA_BREACH


def test_a_breach_resolved_with_a_new_deadline_stays_unheld_and_is_released_after_approval(
    officer, django_capture_on_commit_callbacks
):
    item = _breached()
    new_deadline = db_now() + dt.timedelta(days=3)

    breach_resolve(item_id=item.pk, deadline=new_deadline, reason="extension agreed", actor=officer)
    assert sweep_pass().breached == 0  # the sweeper leaves it alone until the new deadline

    claim = claim_next(reviewer=officer)  # the breach moved it to the compliance queue
    assert claim is not None and claim.item_id == item.pk
    with django_capture_on_commit_callbacks(execute=True):
        approve(item, claim, officer, decide_all(item, claim, officer))
    item.refresh_from_db()
    assert (item.state, item.hold, item.deadline) == (ItemState.SIGNED, Hold.NONE, new_deadline)
    event = AuditEvent.objects.get(event_type="BREACH_RESOLVED", item_id=item.pk)
    assert event.extra["reason"] == "extension agreed"


def test_a_breach_cannot_be_resolved_with_a_deadline_in_the_past(officer):
    item = _breached()

    with pytest.raises(DomainError, match="must lie in the future"):
        breach_resolve(
            item_id=item.pk,
            deadline=db_now() - dt.timedelta(hours=1),
            reason="oops",
            actor=officer,
        )


def test_releasing_a_legal_hold_renders_the_item_approved_under_it(
    officer, django_capture_on_commit_callbacks
):
    item = approved_item(LETTER)
    hold = legal_hold_place(document=item.document, reason="litigation", actor=officer)
    render_and_sign(item.pk)  # refused under the hold, and audited
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.APPROVED

    with django_capture_on_commit_callbacks(execute=True):
        legal_hold_release(hold_id=hold.pk, reason="case settled", actor=officer)

    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.SIGNED
    resumed = AuditEvent.objects.get(event_type="WORK_RESUMED", item_id=item.pk)
    assert resumed.extra == {"task": "render_and_sign", "after": "legal_hold"}
    assert Outbox.objects.get(item=item, task=Outbox.Task.RENDER_AND_SIGN).done_at is not None


def test_a_second_legal_hold_keeps_the_item_waiting_when_the_first_is_released(officer):
    item = approved_item(LETTER)
    first = legal_hold_place(document=item.document, reason="one", actor=officer)
    legal_hold_place(submission=item.document.submission, reason="two", actor=officer)

    legal_hold_release(hold_id=first.pk, reason="done", actor=officer)

    assert not AuditEvent.objects.filter(event_type="WORK_RESUMED").exists()


def test_compliance_resolves_a_breach_in_the_admin_with_a_new_deadline(officer):
    item = _breached()
    client = Client()
    client.force_login(officer)

    client.post(
        "/admin/review/reviewitem/",
        {
            "action": "resolve_sla_breach_with_a_new_deadline",
            "_selected_action": [item.pk],
            "apply": "1",
            "reason": "requester agreed to an extension",
            "deadline": (db_now() + dt.timedelta(days=10)).strftime("%Y-%m-%dT%H:%M"),
        },
    )

    item.refresh_from_db()
    assert item.hold == Hold.NONE and item.deadline > db_now() + dt.timedelta(days=9)


def _gate_failed(monkeypatch) -> ReviewItem:
    """Approved, then refused by the release gate: dead-lettered, nothing released."""
    item = approved_item(LETTER)
    monkeypatch.setattr(release, "sanitize", lambda pdf: pdf + b"%%EOF\n")  # two revisions
    render_and_sign(item.pk)
    monkeypatch.undo()
    item.refresh_from_db()
    assert item.hold == Hold.DEAD_LETTER and item.state == ItemState.APPROVED
    return item


def test_a_gate_failure_is_reopened_revised_and_released(
    officer, monkeypatch, django_capture_on_commit_callbacks
):
    item = _gate_failed(monkeypatch)
    first = Approval.objects.get(item=item)

    item_reopen(item_id=item.pk, reason="release gate failed; check page 1", actor=officer)

    item.refresh_from_db()
    assert (item.state, item.hold, item.attempts) == (ItemState.PROPOSED, Hold.NONE, 0)
    first.refresh_from_db()
    assert first.superseded_at is not None
    assert first.superseded_reason == "release gate failed; check page 1"
    assert not DeadLetter.objects.filter(item=item, resolved_at__isnull=True).exists()
    # The next reviewer sees why it came back and which check failed.
    reviewer = user_create(role=REVIEWER)
    claim = claim_next(reviewer=reviewer)
    page = Client()
    page.force_login(reviewer)
    html = page.get(f"/items/{item.pk}/").content.decode()
    assert "release gate failed; check page 1" in html and "multiple_revisions" in html
    with django_capture_on_commit_callbacks(execute=True):
        approve(item, claim, reviewer, decide_all(item, claim, reviewer))
    item.refresh_from_db()
    failures = list(DeadLetter.objects.filter(item=item).values_list("last_reason", flat=True))
    assert item.state == ItemState.SIGNED, (item.hold, item.attempts, failures)
    assert Approval.objects.filter(item=item, superseded_at__isnull=True).count() == 1


def test_the_approving_reviewer_cannot_reopen_their_own_approval(monkeypatch):
    item = _gate_failed(monkeypatch)
    approver = Approval.objects.get(item=item).reviewer
    approver.groups.add(Group.objects.get(name=SENIOR_REVIEWER))

    with pytest.raises(DomainError, match="senior reviewer who did not approve"):
        item_reopen(item_id=item.pk, reason="second look", actor=approver)

    senior = user_create(role=SENIOR_REVIEWER)
    assert item_reopen(item_id=item.pk, reason="second look", actor=senior).state == "proposed"


def test_a_document_closed_as_failed_reads_failed_through_the_api(officer):
    item = _breached()
    client = make_api_client("client-x")
    Submission.objects.filter(pk=item.document.submission_id).update(
        client=User.objects.get(username="client-x")
    )

    item_close(
        item_id=item.pk, reason_code=CloseReason.WITHDRAWN, note="requester withdrew", actor=officer
    )

    body = client.get(f"/api/v1/documents/{item.document_id}/").json()
    assert (body["state"], body["hold"], body["closed_reason"]) == ("failed", "none", "withdrawn")
    assert AuditEvent.objects.get(event_type="CLOSED", item_id=item.pk).extra == {
        "reason": "withdrawn",
        "note": "requester withdrew",
        "from": "proposed",
        "to": "failed",
    }
    assert not Outbox.objects.filter(item=item, done_at__isnull=True).exists()


def test_only_compliance_closes_an_item_and_only_with_a_listed_reason(officer):
    (item,) = admitted_items({"a.pdf": LETTER})

    with pytest.raises(DomainError, match="only a compliance officer"):
        item_close(item_id=item.pk, reason_code="withdrawn", note="", actor=user_create())
    with pytest.raises(DomainError, match="choose a reason"):
        item_close(item_id=item.pk, reason_code="bored", note="", actor=officer)


def test_compliance_closes_an_item_from_the_admin(officer):
    (item,) = admitted_items({"a.pdf": LETTER})
    client = Client()
    client.force_login(officer)

    client.post(
        "/admin/review/reviewitem/",
        {
            "action": "close_as_failed_withheld_in_full",
            "_selected_action": [item.pk],
            "apply": "1",
            "reason": "exempt in full under (b)(5)",
        },
    )

    item.refresh_from_db()
    assert (item.state, item.closed_reason) == (ItemState.FAILED, CloseReason.WITHHELD_IN_FULL)
