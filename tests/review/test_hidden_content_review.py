"""Hidden content through the queue: proposed as accepted marks the reviewer reads but
cannot reject, listed in the redaction log as removed, gone from the signed output, and
a gate failure that compliance can read by check and page."""

import pymupdf
import pytest
from django.core.files.storage import storages
from django.test import Client

from common.errors import DomainError
from review.models import DeadLetter, Hold, ItemState, Mark, ReviewItem
from review.roles import COMPLIANCE_OFFICER, REVIEWER
from review.selectors import latest_proposal, redaction_log, redaction_marks
from review.services import release
from review.services.claims import claim_next
from review.services.decisions import MarkChange, proposal_revise
from review.tasks import render_and_sign
from testkit.builders import user_create
from testkit.hidden_corpus import build
from tests.factories import admitted_items, approve, decide_all

pytestmark = pytest.mark.django_db


def _claimed(pdf: bytes):
    (item,) = admitted_items({"letter.pdf": pdf})
    reviewer = user_create(role=REVIEWER)
    return item, reviewer, claim_next(reviewer=reviewer)


def _hidden_marks(item: ReviewItem) -> list[Mark]:
    return list(latest_proposal(item.document).marks.filter(category="hidden_content"))


def test_hidden_content_is_proposed_accepted_with_its_kind_and_never_burned_as_a_box():
    case = build("covered_by_rectangle")
    (item,) = admitted_items({"letter.pdf": case.pdf})

    (mark,) = _hidden_marks(item)

    assert mark.decision == Mark.Decision.ACCEPTED
    assert mark.needs_manual_review == "covered"
    assert mark.legal_reason == "hidden content removed"
    assert case.canary not in repr(mark.__dict__)  # a hash at most, never the text
    assert redaction_marks(latest_proposal(item.document)) == []


def test_reviewer_cannot_reject_hidden_content():
    item, reviewer, claim = _claimed(build("white_on_white").pdf)
    (mark,) = _hidden_marks(item)

    with pytest.raises(DomainError, match="hidden content is always removed"):
        proposal_revise(
            item_id=item.pk,
            claim_id=claim.pk,
            reviewer=reviewer,
            base_version=1,
            changes={mark.mark_key: MarkChange(decision=Mark.Decision.REJECTED)},
        )


def test_item_page_shows_the_reviewer_the_hidden_text_itself():
    case = build("outside_crop_right")
    item, reviewer, claim = _claimed(case.pdf)
    client = Client()
    client.force_login(reviewer)

    page = client.get(f"/items/{item.pk}/").content.decode()

    assert case.canary in page  # the page image cannot show it; the mark list does
    assert "outside_crop_box" in page


def test_signed_output_holds_no_hidden_text_and_the_log_lists_it_as_removed(
    django_capture_on_commit_callbacks,
):
    case = build("tiny_text")
    item, reviewer, claim = _claimed(case.pdf)
    with django_capture_on_commit_callbacks(execute=True):
        approve(item, claim, reviewer, decide_all(item, claim, reviewer))

    item.refresh_from_db()
    assert item.state == ItemState.SIGNED
    artifact = item.document.artifacts.get()
    with storages["derivatives"].open(artifact.signed_path, "rb") as handle:
        signed = handle.read()
    with pymupdf.open(stream=signed, filetype="pdf") as doc:
        text = "".join(p.get_text(clip=pymupdf.INFINITE_RECT()) for p in doc)
        streams = b"".join(doc.xref_stream(x) or b"" for x in range(1, doc.xref_length()))
    assert case.canary not in text
    assert case.canary.encode() not in streams
    assert {
        "page": case.page + 1,
        "legal_reason": "hidden content removed",
        "exemption_title": "",
        "category": "hidden content",
        "count": 1,
    } in redaction_log(item.document)


def test_gate_failure_dead_letters_the_item_and_compliance_sees_the_check_and_page(
    monkeypatch,
):
    case = build("covered_by_rectangle")
    item, reviewer, claim = _claimed(case.pdf)
    approve(item, claim, reviewer, decide_all(item, claim, reviewer))
    monkeypatch.setattr(release, "sanitize", lambda pdf: pdf)  # the hidden text stays

    render_and_sign(item.pk)

    item.refresh_from_db()
    assert item.hold == Hold.DEAD_LETTER and item.state == ItemState.APPROVED
    letter = DeadLetter.objects.get(item=item)
    assert letter.last_reason.startswith("verification_failed:")
    assert f"unseen_content@p{case.page + 1}" in letter.last_reason
    officer = Client()
    officer.force_login(user_create(role=COMPLIANCE_OFFICER))
    page = officer.get(f"/items/{item.pk}/").content.decode()
    assert f"unseen_content on page {case.page + 1}" in page
    assert case.canary not in letter.last_reason
