"""Every item finishes: random interleavings of the real services on the real database.

A Hypothesis state machine admits documents and then mixes, in any order: the relay
(and lost enqueues), detection failures, claims, decisions and approvals, releases,
lease expiries, deadlines passing, sweeps, legal holds placed and released, breach
resolutions, release-gate failures, reopenings and requeues. After every step it checks
that no item holds two open claims, that no artifact exists without an approval of that
exact proposal, and that the ledger verifies. At the end, after the sweeper and the relay
run and a compliance officer takes the available action for each hold, every item is
`signed` or `failed`.

Each example runs in a savepoint rolled back afterwards. The services open durable
transactions, which Django allows inside a test's own transactions only: the savepoint is
marked as one. Examples: a few in `make test`, more with HYPOTHESIS_PROFILE=ci.
"""

import datetime as dt
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.db.models import Count
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    rule,
    run_state_machine_as_test,
)

from audit.clock import db_now
from audit.services import verify_chain
from common.errors import DomainError
from intake.services.admission import submission_admit
from intake.services.checks import IncomingFile
from review.models import (
    TERMINAL_STATES,
    Approval,
    Artifact,
    Claim,
    CloseReason,
    Hold,
    ItemState,
    LegalHold,
    Outbox,
    ReviewItem,
)
from review.roles import COMPLIANCE_OFFICER, REVIEWER, SENIOR_REVIEWER
from review.services.claims import claim_next, claim_release
from review.services.failures import dead_letter_requeue, failure_record
from review.services.holds import (
    breach_resolve,
    legal_hold_place,
    legal_hold_release,
)
from review.services.outbox import outbox_relay
from review.services.recovery import item_close, item_reopen
from review.sweeps import sweep_pass
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import approve, decide_all

settings.register_profile("default-run", max_examples=int(os.environ.get("LIFECYCLE_EXAMPLES", 6)))
settings.register_profile("ci", max_examples=40)
PROFILE = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "default-run"))

PDFS = [
    simple_pdf(["Requester SSN 123-45-6789", "Reply to jo@example.com"]),
    simple_pdf(["Minutes of the parks board", "Nothing personal here"]),
]
DETECT = Outbox.Task.DETECT
LONG_AGO = dt.timedelta(hours=2)


class Lifecycle(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self._savepoint = transaction.atomic()
        self._savepoint._from_testcase = True  # type: ignore[attr-defined]
        self._savepoint.__enter__()
        self.client = user_create()
        self.reviewers = [
            user_create(role=REVIEWER),
            user_create(role=SENIOR_REVIEWER),
        ]
        self.officer = user_create(role=COMPLIANCE_OFFICER)
        self.admissions = 0

    def teardown(self) -> None:
        try:
            if self.admissions:
                self._finish_everything()
        finally:
            transaction.set_rollback(True)
            self._savepoint.__exit__(None, None, None)

    # --- helpers ---------------------------------------------------------------------

    def _items(self, **filters) -> list[ReviewItem]:
        return list(ReviewItem.objects.filter(**filters).order_by("id"))

    def _pick(self, items: list[ReviewItem], index: int) -> ReviewItem:
        return items[index % len(items)]

    def _expire_leases(self) -> None:
        """Time passes beyond every open lease."""
        now = db_now()
        Claim.objects.filter(ended_at__isnull=True).update(
            claimed_at=now - 2 * LONG_AGO, expires_at=now - LONG_AGO
        )

    def _due_now(self) -> None:
        """Time passes beyond every backoff: queued retries are due."""
        Outbox.objects.filter(sent_at__isnull=True).update(due_at=db_now())

    # --- rules -----------------------------------------------------------------------

    @rule(documents=st.integers(1, 2), score=st.sampled_from([50, 80]))
    def admit(self, documents: int, score: int) -> None:
        self.admissions += 1
        submission_admit(
            client=self.client,
            files=[
                IncomingFile(
                    object_id=f"run{self.admissions}/doc{n}.pdf",
                    upload=SimpleUploadedFile("doc.pdf", PDFS[n % len(PDFS)]),
                )
                for n in range(documents)
            ],
            external_ref=f"FOIA-{self.admissions}",
            jurisdiction_code="US-FED",
            priority_score=score,
            correlation_id=f"run{self.admissions}",
            actor="client:stateful",
        )

    @rule()
    def relay(self) -> None:
        outbox_relay()  # sync mode: each sent task runs here

    @rule()
    def enqueue_lost(self) -> None:
        """The relay marked rows sent, then the broker lost them, long ago."""
        Outbox.objects.filter(sent_at__isnull=True, done_at__isnull=True).update(
            sent_at=db_now() - LONG_AGO
        )

    @rule(index=st.integers(0, 20), permanent=st.booleans())
    def detection_fails(self, index: int, permanent: bool) -> None:
        accepted = self._items(state=ItemState.ACCEPTED, hold=Hold.NONE)
        if accepted:
            failure_record(
                item_id=self._pick(accepted, index).pk,
                reason="DetectionError" if permanent else "OperationalError",
                permanent=permanent,
                retry_task=DETECT,
                actor="service:detector",
            )

    @rule()
    def time_passes(self) -> None:
        self._due_now()

    @rule(reviewer=st.integers(0, 1))
    def claim(self, reviewer: int) -> None:
        try:
            claim_next(reviewer=self.reviewers[reviewer])
        except DomainError:
            pass  # already holds the maximum of open claims

    @rule(reviewer=st.integers(0, 1))
    def review_one(self, reviewer: int) -> None:
        """A reviewer claims the next item, decides every mark and approves."""
        self.relay()
        self.claim(reviewer)
        self.decide_and_approve(0)

    @rule(index=st.integers(0, 20))
    def decide_and_approve(self, index: int) -> None:
        claims = list(Claim.objects.filter(ended_at__isnull=True).select_related("reviewer"))
        if not claims:
            return
        claim = claims[index % len(claims)]
        item = ReviewItem.objects.select_related("document").get(pk=claim.item_id)
        try:
            approve(item, claim, claim.reviewer, decide_all(item, claim, claim.reviewer))
        except DomainError:
            pass  # the lease ran out, or a hold stops the approval: both are refused

    @rule(index=st.integers(0, 20))
    def release_claim(self, index: int) -> None:
        claims = list(Claim.objects.filter(ended_at__isnull=True).select_related("reviewer"))
        if claims:
            claim = claims[index % len(claims)]
            try:
                claim_release(item_id=claim.item_id, claim_id=claim.pk, reviewer=claim.reviewer)
            except DomainError:
                pass

    @rule()
    def leases_expire(self) -> None:
        self._expire_leases()

    @rule(index=st.integers(0, 20))
    def deadline_passes(self, index: int) -> None:
        live = self._items(hold=Hold.NONE, state__in=[ItemState.PROPOSED, ItemState.IN_REVIEW])
        if live:
            item = self._pick(live, index)
            ReviewItem.objects.filter(pk=item.pk).update(
                deadline=db_now() - dt.timedelta(minutes=1)
            )

    @rule()
    def sweep(self) -> None:
        sweep_pass()

    @rule(index=st.integers(0, 20))
    def legal_hold(self, index: int) -> None:
        items = self._items()
        if items:
            document = self._pick(items, index).document
            legal_hold_place(document=document, reason="litigation", actor=self.officer)

    @rule(index=st.integers(0, 20))
    def legal_hold_ends(self, index: int) -> None:
        holds = list(LegalHold.objects.filter(lifted_at__isnull=True).order_by("id"))
        if holds:
            hold = holds[index % len(holds)]
            legal_hold_release(hold_id=hold.pk, reason="case settled", actor=self.officer)

    @rule(index=st.integers(0, 20))
    def breach_resolved(self, index: int) -> None:
        breached = self._items(hold=Hold.SLA_BREACH)
        if breached:
            breach_resolve(
                item_id=self._pick(breached, index).pk,
                deadline=db_now() + dt.timedelta(days=5),
                reason="extension agreed",
                actor=self.officer,
            )

    @rule(index=st.integers(0, 20))
    def release_gate_fails(self, index: int) -> None:
        approved = self._items(state=ItemState.APPROVED, hold=Hold.NONE)
        if approved:
            failure_record(
                item_id=self._pick(approved, index).pk,
                reason="verification_failed:unseen_content@p1",
                permanent=True,
                retry_task=Outbox.Task.RENDER_AND_SIGN,
                actor="service:renderer",
            )

    @rule(index=st.integers(0, 20))
    def reopen(self, index: int) -> None:
        approved = self._items(state=ItemState.APPROVED)
        if approved:
            item_reopen(
                item_id=self._pick(approved, index).pk, reason="second look", actor=self.officer
            )

    @rule(index=st.integers(0, 20))
    def requeue(self, index: int) -> None:
        letters = [
            i
            for i in self._items(hold=Hold.DEAD_LETTER)
            if i.dead_letters.filter(resolved_at__isnull=True).exists()
        ]
        if letters:
            letter = self._pick(letters, index).dead_letters.filter(resolved_at__isnull=True).get()
            dead_letter_requeue(dead_letter_id=letter.pk, reason="try again", actor=self.officer)

    # --- invariants ------------------------------------------------------------------

    @invariant()
    def at_most_one_open_claim_per_item(self) -> None:
        assert not (
            Claim.objects.filter(ended_at__isnull=True)
            .values("item")
            .annotate(n=Count("id"))
            .filter(n__gt=1)
            .exists()
        )

    @invariant()
    def no_artifact_without_an_approval_of_its_exact_proposal(self) -> None:
        for artifact in Artifact.objects.select_related("approval"):
            approval = artifact.approval
            assert approval.proposal_id == artifact.proposal_id
            assert approval.item.document_id == artifact.document_id
            assert approval.proposal_sha256 == artifact.proposal.proposal_sha256

    @invariant()
    def signed_items_have_a_current_approval(self) -> None:
        for item in self._items(state=ItemState.SIGNED):
            assert Approval.objects.filter(item=item, superseded_at__isnull=True).exists()

    @invariant()
    def ledger_verifies(self) -> None:
        report = verify_chain()
        assert report.ok, report

    # --- the end: every item finishes ------------------------------------------------

    def _finish_everything(self) -> None:
        """Sweeper and relay run; compliance takes the available action for each hold;
        reviewers work what is in review. Every item must end signed or failed."""
        for _ in range(8):
            for hold in LegalHold.objects.filter(lifted_at__isnull=True):
                legal_hold_release(hold_id=hold.pk, reason="closing the run", actor=self.officer)
            self._expire_leases()
            sweep_pass()
            for item in self._items(hold=Hold.SLA_BREACH):
                breach_resolve(
                    item_id=item.pk,
                    deadline=db_now() + dt.timedelta(days=5),
                    reason="closing the run",
                    actor=self.officer,
                )
            for item in self._items(hold=Hold.DEAD_LETTER):
                if item.state == ItemState.APPROVED:
                    item_reopen(item_id=item.pk, reason="closing the run", actor=self.officer)
                else:
                    item_close(
                        item_id=item.pk,
                        reason_code=CloseReason.UNPROCESSABLE,
                        note="detection failed for good",
                        actor=self.officer,
                    )
            self._due_now()
            outbox_relay()
            while (claim := claim_next(reviewer=self.officer)) is not None:
                item = ReviewItem.objects.select_related("document").get(pk=claim.item_id)
                approve(item, claim, self.officer, decide_all(item, claim, self.officer))
            self._due_now()
            outbox_relay()
            if all(item.state in TERMINAL_STATES for item in self._items()):
                break
        stuck = [(i.pk, i.state, i.hold) for i in self._items() if i.state not in TERMINAL_STATES]
        assert not stuck, f"items no role finished: {stuck}"
        assert verify_chain().ok


@pytest.mark.django_db
def test_every_item_finishes_whatever_happens_on_the_way():
    run_state_machine_as_test(
        Lifecycle,
        settings=settings(
            PROFILE,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
