import datetime as dt

import pytest
from django.db.models.functions import Now

from audit.clock import db_now
from audit.models import AuditEvent
from common.errors import DomainError
from review.errors import ClaimLost, HoldActive, InvalidDecision, StaleProposal
from review.metrics import observe_transition
from review.models import Approval, Claim, ItemState, LegalHold, Queue, ReviewItem
from review.roles import REVIEWER, SENIOR_REVIEWER
from review.selectors import latest_proposal, proposal_preview
from review.services.claims import claim_heartbeat, claim_next, claim_release
from review.services.decisions import MarkChange, NewMark, item_escalate, proposal_revise
from review.services.release import item_approve
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items, decide_all, view_every_page

LETTER = simple_pdf(["Requester SSN 123-45-6789", "Reply to jo@example.com"])


@pytest.fixture
def reviewer(db):
    return user_create("rita", role=REVIEWER)


def _expire(claim: Claim) -> None:
    Claim.objects.filter(pk=claim.pk).update(
        expires_at=Now() - dt.timedelta(seconds=1), claimed_at=Now() - dt.timedelta(minutes=20)
    )


def test_claim_next_takes_the_most_urgent_item_with_a_policy_lease(reviewer):
    calm, urgent = admitted_items(
        {"calm.pdf": LETTER, "urgent.pdf": simple_pdf(["SSN 123-45-6789"])}
    )
    ReviewItem.objects.filter(pk=urgent.pk).update(priority=5)

    claim = claim_next(reviewer=reviewer)

    assert claim.item_id == urgent.pk
    assert claim.expires_at - claim.claimed_at == dt.timedelta(minutes=15)
    urgent.refresh_from_db()
    assert urgent.state == ItemState.IN_REVIEW
    event = AuditEvent.objects.get(event_type="CLAIMED")
    assert event.item_id == urgent.pk and event.actor == "user:rita"


def test_reviewer_holds_at_most_one_open_claim(reviewer):
    admitted_items({"a.pdf": LETTER, "b.pdf": simple_pdf(["x@example.com"])})
    claim_next(reviewer=reviewer)
    with pytest.raises(DomainError, match="open claim"):
        claim_next(reviewer=reviewer)


def test_reviewers_only_claim_from_their_queues(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    ReviewItem.objects.filter(pk=item.pk).update(queue=Queue.SENIOR_REVIEW)
    assert claim_next(reviewer=reviewer) is None
    senior = user_create("sam", role=SENIOR_REVIEWER)
    assert claim_next(reviewer=senior).item_id == item.pk


@pytest.mark.parametrize("target", ["document", "submission"])
def test_item_under_legal_hold_is_not_offered_and_a_lifted_hold_frees_it(reviewer, target):
    (held,) = admitted_items({"a.pdf": LETTER})
    (free,) = admitted_items({"b.pdf": LETTER})
    # The held item is the more urgent one: claim next would pick it first.
    ReviewItem.objects.filter(pk=held.pk).update(priority=0)
    ReviewItem.objects.filter(pk=free.pk).update(priority=1000)
    on = held.document if target == "document" else held.document.submission
    hold = LegalHold.objects.create(
        **{target: on}, reason="litigation", placed_by="user:x", placed_at=db_now()
    )

    assert claim_next(reviewer=reviewer).item_id == free.pk
    claim_release(item_id=free.pk, claim_id=Claim.objects.get().pk, reviewer=reviewer)
    LegalHold.objects.filter(pk=hold.pk).update(lifted_at=db_now(), lifted_by="user:x")
    assert claim_next(reviewer=reviewer).item_id == held.pk


def test_release_returns_the_item_to_the_pool(reviewer):
    admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    claim_release(item_id=claim.item_id, claim_id=claim.pk, reviewer=reviewer)
    claim.refresh_from_db()
    assert claim.outcome == Claim.Outcome.RELEASED and claim.ended_at is not None
    assert ReviewItem.objects.get(pk=claim.item_id).state == ItemState.PROPOSED
    assert AuditEvent.objects.filter(event_type="RELEASED").count() == 1


def test_saving_decisions_writes_a_linked_new_version_without_text(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    v1 = latest_proposal(item.document)
    first = v1.marks.first()

    v2 = proposal_revise(
        item_id=item.pk,
        claim_id=claim.pk,
        reviewer=reviewer,
        base_version=1,
        changes={first.mark_key: MarkChange(decision="rejected", legal_reason="(b)(7)(C)")},
        added=[
            NewMark(page=0, x0=0.1, y0=0.5, x1=0.3, y1=0.55, category="name", legal_reason="(b)(6)")
        ],
    )

    assert v2.version == 2 and v2.previous == v1
    assert v2.proposal_sha256 != v1.proposal_sha256
    assert v1.marks.get(mark_key=first.mark_key).decision == "pending"  # v1 untouched
    changed = v2.marks.get(mark_key=first.mark_key)
    assert (changed.decision, changed.legal_reason) == ("rejected", "(b)(7)(C)")
    assert v2.marks.filter(detector="reviewer", decision="accepted").count() == 1
    event = AuditEvent.objects.get(event_type="PROPOSAL_REVISED")
    assert event.output_hash == v2.proposal_sha256
    assert event.extra["rejected"] == 1 and event.extra["added"] == 1
    assert b"123-45-6789" not in event.canonical()


def test_saving_against_an_older_version_is_refused(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    decide_all(item, claim, reviewer)
    with pytest.raises(StaleProposal):
        proposal_revise(
            item_id=item.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            base_version=1,
            changes={"m1": MarkChange(decision="rejected")},
        )


def test_drawn_box_needs_category_and_reason(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    with pytest.raises(InvalidDecision, match="legal reason"):
        proposal_revise(
            item_id=item.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            base_version=1,
            changes={},
            added=[
                NewMark(page=0, x0=0.1, y0=0.1, x1=0.2, y1=0.2, category="name", legal_reason="")
            ],
        )


def test_approve_requires_every_mark_decided(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    proposal = latest_proposal(item.document)
    with pytest.raises(InvalidDecision, match="undecided"):
        item_approve(
            item_id=item.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            proposal_version=1,
            preview_sha256=proposal_preview(proposal).sha256,
        )


def test_approval_binds_source_proposal_and_preview_hashes(
    reviewer, django_capture_on_commit_callbacks
):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    v2 = decide_all(item, claim, reviewer)
    preview = proposal_preview(v2).sha256
    view_every_page(item, reviewer)

    with django_capture_on_commit_callbacks() as callbacks:
        approval = item_approve(
            item_id=item.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            proposal_version=2,
            preview_sha256=preview,
        )

    assert (approval.source_sha256, approval.proposal_sha256, approval.preview_sha256) == (
        item.document.source_sha256,
        v2.proposal_sha256,
        preview,
    )
    claim.refresh_from_db()
    assert claim.outcome == Claim.Outcome.SUBMITTED
    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.APPROVED
    assert AuditEvent.objects.get(event_type="APPROVED").output_hash == v2.proposal_sha256
    # Rendering is queued after commit (next to the transition's metrics observation).
    queued = [c for c in callbacks if getattr(c, "func", None) is not observe_transition]
    assert len(queued) == 1


def test_approve_with_a_preview_hash_of_other_bytes_is_refused(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    decide_all(item, claim, reviewer)
    with pytest.raises(StaleProposal, match="preview"):
        item_approve(
            item_id=item.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            proposal_version=2,
            preview_sha256="0" * 64,
        )
    assert not Approval.objects.exists()


def test_approve_after_the_lease_expired_changes_nothing(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    v2 = decide_all(item, claim, reviewer)
    _expire(claim)
    events_before = AuditEvent.objects.count()

    with pytest.raises(ClaimLost):
        item_approve(
            item_id=item.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            proposal_version=2,
            preview_sha256=proposal_preview(v2).sha256,
        )

    assert ReviewItem.objects.get(pk=item.pk).state == ItemState.IN_REVIEW
    assert not Approval.objects.exists()
    assert Claim.objects.get(pk=claim.pk).ended_at is None
    assert AuditEvent.objects.count() == events_before


def test_legal_hold_blocks_approval_and_the_refusal_is_audited(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    v2 = decide_all(item, claim, reviewer)
    LegalHold.objects.create(
        document=item.document, reason="subpoena", placed_by="user:x", placed_at=db_now()
    )
    with pytest.raises(HoldActive):
        item_approve(
            item_id=item.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            proposal_version=2,
            preview_sha256=proposal_preview(v2).sha256,
        )
    assert not Approval.objects.exists()
    assert AuditEvent.objects.get(event_type="HOLD_BLOCKED").extra["action"] == "approved"


def test_escalation_moves_the_item_to_the_senior_queue(reviewer):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    item_escalate(
        item_id=item.pk,
        claim_id=claim.pk,
        reviewer=reviewer,
        to_queue=Queue.SENIOR_REVIEW,
        reason="legal_question",
        note="Is the witness statement covered by (b)(7)(C)?",
    )
    item.refresh_from_db()
    assert (item.queue, item.state) == (Queue.SENIOR_REVIEW, ItemState.PROPOSED)
    assert item.escalation_note == "Is the witness statement covered by (b)(7)(C)?"
    event = AuditEvent.objects.get(event_type="ESCALATED")
    assert event.extra["reason"] == "legal_question"
    assert "witness" not in str(event.extra)  # the note stays off the ledger
    claim2 = claim_next(reviewer=user_create("sue", role=SENIOR_REVIEWER))
    for reason, note, message in [
        ("", "a note", "choose a reason"),
        ("legal_question", "   ", "write a note"),
        ("legal_question", "x" * 1001, "longer than 1000"),
    ]:
        with pytest.raises(InvalidDecision, match=message):
            item_escalate(
                item_id=item.pk,
                claim_id=claim2.pk,
                reviewer=claim2.reviewer,
                to_queue=Queue.COMPLIANCE_REVIEW,
                reason=reason,
                note=note,
            )


def test_the_senior_reviewer_reads_the_escalation_note_on_the_item(reviewer, client):
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    item_escalate(
        item_id=item.pk,
        claim_id=claim.pk,
        reviewer=reviewer,
        to_queue=Queue.SENIOR_REVIEW,
        reason="legal_question",
        note="Page 2 names a minor; redact?",
    )
    sue = user_create("sue", role=SENIOR_REVIEWER)
    client.force_login(sue)
    client.post("/claim-next/")

    page = client.get(f"/items/{item.pk}/").content.decode()

    assert "Page 2 names a minor; redact?" in page


def test_heartbeat_extends_the_lease_but_never_past_the_policy_maximum(reviewer):
    admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=reviewer)
    Claim.objects.filter(pk=claim.pk).update(claimed_at=Now() - dt.timedelta(minutes=110))
    claim.refresh_from_db()
    expires_at = claim_heartbeat(item_id=claim.item_id, claim_id=claim.pk, reviewer=reviewer)
    assert expires_at == claim.claimed_at + dt.timedelta(minutes=120)
    _expire(claim)
    with pytest.raises(ClaimLost):
        claim_heartbeat(item_id=claim.item_id, claim_id=claim.pk, reviewer=reviewer)


@pytest.mark.django_db
def test_an_item_released_goes_to_other_work_first_and_comes_back_when_nothing_else_waits():
    first, second = admitted_items(
        {"a.pdf": simple_pdf(["SSN 123-45-6789"]), "b.pdf": simple_pdf(["SSN 123-45-6780"])}
    )
    rita = user_create("rita-release", role=REVIEWER)
    claim = claim_next(reviewer=rita)
    released = claim.item_id
    claim_release(item_id=released, claim_id=claim.pk, reviewer=rita)

    other = claim_next(reviewer=rita)

    assert other.item_id != released
    claim_release(item_id=other.item_id, claim_id=other.pk, reviewer=rita)
    # Both were released by her now: the most urgent of them comes back.
    assert claim_next(reviewer=rita).item_id in {first.pk, second.pk}


@pytest.mark.postgres
def test_on_postgresql_a_claim_is_one_statement_whose_event_verifies(reviewer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from audit.services import verify_chain
    from review.selectors import reviewer_queues

    (item,) = admitted_items({"a.pdf": LETTER})
    reviewer_queues(reviewer)  # the permissions, read once per user object

    with CaptureQueriesContext(connection) as queries:
        claim = claim_next(reviewer=reviewer)

    (statement,) = [q["sql"] for q in queries]
    assert statement.startswith("SELECT * FROM review_claim_next(")
    assert statement.endswith(f"({reviewer.pk}, 'user:rita', '{{review}}'::text[])")
    assert claim.item_id == item.pk and claim == Claim.objects.get()
    event = AuditEvent.objects.get(event_type="CLAIMED")
    assert event.extra == {"from": "proposed", "to": "in_review", "claim": claim.pk,
                           "lease_seconds": 15 * 60}  # fmt: skip
    assert event.compute_hash() == event.row_hash
    assert verify_chain().ok
