import uuid

import pytest
from django.db import IntegrityError, transaction

from intake.models import Submission, job_key_for
from review.models import Mark, Proposal
from testkit.builders import document_create, submission_create


def test_job_key_is_deterministic():
    submission_id = uuid.UUID("00000000-0000-0000-0000-000000000001")
    args = dict(
        submission_id=submission_id, object_id="a/x.pdf", source_sha256="ab" * 32, policy_version=1
    )
    assert job_key_for(**args) == job_key_for(**args)
    assert job_key_for(**args) != job_key_for(**{**args, "policy_version": 2})


@pytest.mark.parametrize(
    ("part", "other"),
    [
        ("submission_id", uuid.UUID("00000000-0000-0000-0000-000000000002")),
        ("object_id", "b/x.pdf"),
        ("source_sha256", "cd" * 32),
        ("policy_version", 2),
    ],
)
def test_job_key_changes_with_each_of_its_four_parts(part, other):
    args = dict(
        submission_id=uuid.UUID("00000000-0000-0000-0000-000000000001"),
        object_id="a/x.pdf",
        source_sha256="ab" * 32,
        policy_version=1,
    )
    assert job_key_for(**args) != job_key_for(**{**args, part: other})


@pytest.mark.django_db
def test_same_file_name_in_different_folders_gets_different_job_keys():
    submission = submission_create()
    first = document_create(submission=submission, object_id="2024/letter.pdf")
    second = document_create(submission=submission, object_id="2025/letter.pdf")
    assert first.job_key != second.job_key


@pytest.mark.django_db
def test_idempotency_key_is_unique_per_client_but_not_across_clients():
    first = submission_create()
    same_client = submission_create(client=first.client)
    other_client = submission_create()
    Submission.objects.filter(pk=other_client.pk).update(idempotency_key=first.idempotency_key)
    with pytest.raises(IntegrityError), transaction.atomic():
        Submission.objects.filter(pk=same_client.pk).update(idempotency_key=first.idempotency_key)


@pytest.mark.django_db
def test_priority_score_outside_0_100_is_refused_by_the_database():
    submission = submission_create()
    with pytest.raises(IntegrityError), transaction.atomic():
        Submission.objects.filter(pk=submission.pk).update(priority_score=101)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "bad",
    [
        {"confidence": 1.5},
        {"confidence": -0.1},
        {"x1": 1.2},
        {"x0": -0.01},
        {"x0": 0.6, "x1": 0.5},
    ],
)
def test_mark_with_out_of_range_values_is_refused_by_the_database(bad):
    document = document_create()
    proposal = Proposal.objects.create(
        document=document, version=1, proposal_sha256="0" * 64, created_by="t", policy_version=1
    )
    values = dict(
        proposal=proposal,
        mark_key="m1",
        page=0,
        x0=0.1,
        y0=0.1,
        x1=0.2,
        y1=0.2,
        category="email",
        legal_reason="(b)(6)",
        detector="email",
        detector_version="1",
        confidence=0.9,
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Mark.objects.create(**{**values, **bad})
