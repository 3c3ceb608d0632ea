import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models.functions import Now
from django.test import Client

from review.health import consistency_flags, run_health, stalled_counts
from review.models import Artifact, Claim, ItemState, Mark, ReviewItem
from review.roles import COMPLIANCE_OFFICER, REVIEWER
from review.selectors import latest_proposal, policy_current
from review.services import claims, release
from review.services.claims import claim_next
from review.services.decisions import MarkChange, proposal_revise
from review.services.policies import policy_publish
from review.tasks import render_and_sign
from testkit.builders import user_create
from testkit.corpus import simple_pdf
from tests.factories import admitted_items, approve, decide_all

pytestmark = pytest.mark.django_db

NAME = "Zebulon Quartermaine"
LETTER = simple_pdf([f"Requester {NAME}", "SSN 123-45-6789"])
LONG_AGO = dt.timedelta(hours=2)


def _check_health() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("check_health", stdout=out)
    except CommandError:
        return 1, out.getvalue()
    return 0, out.getvalue()


def _age(item: ReviewItem, by: dt.timedelta = LONG_AGO) -> None:
    ReviewItem.objects.filter(pk=item.pk).update(state_changed_at=Now() - by)


def _approved(item: ReviewItem, reviewer) -> None:
    claim = claim_next(reviewer=reviewer)
    approve(item, claim, reviewer, decide_all(item, claim, reviewer))


def test_a_fresh_run_is_healthy_and_check_health_exits_zero():
    admitted_items({"a.pdf": LETTER})
    code, out = _check_health()
    assert code == 0 and "all runs healthy" in out


def test_no_worker_stalls_ingestion():
    (item,) = admitted_items({"a.pdf": LETTER}, detect=False)
    _age(item)
    code, out = _check_health()
    assert code == 1
    assert f"{item.document.submission_id} ingestion" in out and "count=1" in out


def test_a_reviewer_who_never_claims_stalls_assignment():
    (item,) = admitted_items({"a.pdf": LETTER})
    _age(item, dt.timedelta(hours=7))  # a standard item's SLA is 24 h: a quarter is 6 h
    code, out = _check_health()
    assert code == 1 and " assignment " in out


def test_an_expired_lease_nobody_reclaimed_stalls_review():
    (item,) = admitted_items({"a.pdf": LETTER})
    claim = claim_next(reviewer=user_create(role=REVIEWER))
    Claim.objects.filter(pk=claim.pk).update(
        claimed_at=Now() - dt.timedelta(minutes=30), expires_at=Now() - dt.timedelta(minutes=1)
    )
    code, out = _check_health()
    assert code == 1 and " review " in out


def test_an_item_whose_leases_ran_out_too_often_stalls_review_once():
    """Reclaimed as often as the policy allows attempts: it keeps coming back to the pool
    and nobody finishes it. Counted once, in the run and in the metrics' tally."""
    (item,) = admitted_items({"a.pdf": LETTER})
    reviewer = user_create(role=REVIEWER)
    Claim.objects.bulk_create(
        Claim(
            item=item,
            reviewer=reviewer,
            claimed_at=Now() - dt.timedelta(hours=3 - n),
            expires_at=Now() - dt.timedelta(hours=2 - n),
            ended_at=Now() - dt.timedelta(hours=2 - n),
            outcome=Claim.Outcome.EXPIRED,
        )
        for n in range(3)  # the policy's max_attempts
    )
    (run,) = run_health()
    assert [(s.handoff, s.count) for s in run.stalls] == [("review", 1)]
    assert stalled_counts()["review"] == 1
    draft = policy_current()
    draft.max_attempts = 4
    policy_publish(draft=draft, actor="system:test-setup")
    assert stalled_counts()["review"] == 0


def test_a_failing_render_task_stalls_rendering(monkeypatch, django_capture_on_commit_callbacks):
    (item,) = admitted_items({"a.pdf": LETTER})
    with django_capture_on_commit_callbacks(execute=False):
        _approved(item, user_create(role=REVIEWER))

    def storage_down(_data):
        raise OSError("derivatives storage unavailable")

    monkeypatch.setattr(release, "_store_derivative", storage_down)
    render_and_sign(item.pk)  # transient failure: recorded and requeued, nothing rendered
    _age(ReviewItem.objects.get(pk=item.pk))
    code, out = _check_health()
    assert code == 1 and " rendering " in out
    assert ReviewItem.objects.get(pk=item.pk).attempts == 1


def test_a_signer_that_is_down_stalls_signing(monkeypatch, django_capture_on_commit_callbacks):
    (item,) = admitted_items({"a.pdf": LETTER})
    with django_capture_on_commit_callbacks(execute=False):
        _approved(item, user_create(role=REVIEWER))

    def signer_down():
        raise OSError("HSM unreachable")

    monkeypatch.setattr(release, "_signer", signer_down)
    render_and_sign(item.pk)
    artifact = Artifact.objects.get(document=item.document)
    assert artifact.signed_at is None
    Artifact.objects.filter(pk=artifact.pk).update(created_at=Now() - LONG_AGO)
    code, out = _check_health()
    assert code == 1 and " signing " in out


def test_run_health_counts_and_names_the_first_stalled_handoff():
    first, second = admitted_items(
        {"a.pdf": LETTER, "b.pdf": simple_pdf(["Nothing here."])}, detect=False
    )
    _age(first)
    (run,) = run_health()
    assert run.counts_by_state == {"accepted": 2}
    assert (run.expected_terminal, run.observed_terminal) == (2, 0)
    assert run.diagnosis == "ingestion" and run.stalls[0].count == 1
    assert run.last_event == "TASK_ADMITTED"


def test_reconcile_finds_an_item_past_its_deadline_without_a_hold():
    (item,) = admitted_items({"a.pdf": LETTER})
    out = io.StringIO()
    call_command("reconcile", stdout=out)
    assert f"item {item.pk} " in out.getvalue()
    ReviewItem.objects.filter(pk=item.pk).update(deadline=Now() - dt.timedelta(minutes=5))
    with pytest.raises(CommandError, match="past their deadline"):
        call_command("reconcile", stdout=io.StringIO())


def test_consistency_check_flags_a_name_redacted_in_one_document_and_visible_in_another():
    first, second = admitted_items(
        {
            "a.pdf": simple_pdf([f"Complainant {NAME}"]),
            "b.pdf": simple_pdf([f"Witness {NAME} said"]),
        },
        search_terms=[NAME],
    )
    reviewer = user_create(role=REVIEWER)
    for _ in range(2):  # the reviewer accepts the name in A and rejects it in B
        claim = claim_next(reviewer=reviewer)
        target = ReviewItem.objects.get(pk=claim.item_id)
        wanted = Mark.Decision.ACCEPTED if target.pk == first.pk else Mark.Decision.REJECTED
        proposal = latest_proposal(target.document)
        proposal_revise(
            item_id=target.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            base_version=proposal.version,
            changes={m.mark_key: MarkChange(decision=wanted) for m in proposal.marks.all()},
        )
        claims.claim_release(item_id=target.pk, claim_id=claim.pk, reviewer=reviewer)

    flags = consistency_flags(submission_id=first.document.submission_id)

    # The name is both a search term and a person the language model found.
    assert sorted(flag.category for flag in flags) == ["person", "search_term"]
    for flag in flags:
        assert flag.item_id == second.pk
        assert flag.redacted_in == (str(first.document_id),)
        assert NAME not in repr(flag)
    officer = Client()
    officer.force_login(user_create("olga", role=COMPLIANCE_OFFICER))
    page = officer.get(f"/ops/runs/{first.document.submission_id}/").content.decode()
    assert "Consistency flags" in page and NAME not in page


def test_ops_pages_are_for_compliance_officers_only():
    (item,) = admitted_items({"a.pdf": LETTER})
    officer, reviewer = Client(), Client()
    officer.force_login(user_create("olga", role=COMPLIANCE_OFFICER))
    reviewer.force_login(user_create("rita", role=REVIEWER))
    for url in ["/ops/", f"/ops/runs/{item.document.submission_id}/", f"/ops/items/{item.pk}/"]:
        assert officer.get(url).status_code == 200, url
        assert reviewer.get(url).status_code == 403, url
    timeline = officer.get(f"/ops/items/{item.pk}/").content.decode()
    assert "TASK_ADMITTED" in timeline and "PROPOSED" in timeline


def test_health_api_reports_the_diagnosis_to_the_owning_client_only():
    from tests.intake.conftest import make_api_client, submit, upload

    api = make_api_client("portal")
    body = submit(api, files=[upload("a.pdf", LETTER)]).json()
    ReviewItem.objects.filter(document__submission_id=body["id"]).update(
        state_changed_at=Now() - LONG_AGO
    )
    health = api.get(f"/api/v1/submissions/{body['id']}/health")
    assert health.status_code == 200
    assert health.json()["diagnosis"] == "ingestion"
    assert health.json()["counts_by_state"] == {ItemState.ACCEPTED: 1}
    assert (
        make_api_client("other").get(f"/api/v1/submissions/{body['id']}/health").status_code == 404
    )
