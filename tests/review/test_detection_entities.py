"""Detection of a submission: a name found in one document is proposed wherever it is
written in the others, in the same group; per-jurisdiction settings narrow the policy."""

from __future__ import annotations

import pytest

from review.models import Policy, Proposal
from review.pdf.patterns import ALL_CATEGORIES, SEARCH_TERM
from review.services.detection import detection_policy_for
from testkit.corpus import simple_pdf
from tests.factories import admitted_items

pytestmark = pytest.mark.django_db

FIRST = simple_pdf(["The complainant, Jane Doe, wrote to the department on 3 March."])
SECOND = simple_pdf(["Reply sent. The file of Ms. Doe stays open until JANE DOE answers."])


def _person_groups(item) -> set[str]:
    proposal = Proposal.objects.get(document=item.document, version=1)
    return {m.group for m in proposal.marks.filter(category="person")}


def test_a_name_found_in_one_document_is_proposed_in_another_in_the_same_group():
    first, second = admitted_items({"a.pdf": FIRST, "b.pdf": SECOND})

    first_groups, second_groups = _person_groups(first), _person_groups(second)

    assert first_groups and first_groups <= second_groups
    proposal = Proposal.objects.get(document=second.document, version=1)
    shared = proposal.marks.filter(category="person", group__in=first_groups)
    assert shared.count() == 2  # "Doe" after the title and "JANE DOE"


def _groups_of(item, category: str) -> set[str]:
    proposal = Proposal.objects.get(document=item.document, version=1)
    return {m.group for m in proposal.marks.filter(category=category)}


@pytest.mark.parametrize("categories", [None, ["medical_record"]], ids=["full", "pattern_only"])
def test_a_number_labelled_in_one_document_is_proposed_in_another_in_the_same_group(
    categories,
):
    """The cover letter labels the patient's MRN; the lab sheet of the same submission
    writes it bare. Both places are one group, in full and in pattern-only mode."""
    if categories is not None:
        latest = Policy.objects.order_by("-version").first()
        latest.detection_by_jurisdiction = {"US-FED": {"categories": categories}}
        latest.save()
    letter = simple_pdf(["Re: records of the patient, MRN: 4829173, enclosed."])
    sheet = simple_pdf(["Lab sheet", "Sample 4829173 collected on ward 4."])

    first, second = admitted_items({"a.pdf": letter, "b.pdf": sheet})

    labelled, bare = _groups_of(first, "medical_record"), _groups_of(second, "medical_record")
    assert len(labelled) == 1 and labelled == bare


def test_the_jurisdictions_own_detection_settings_narrow_the_policy():
    (item,) = admitted_items({"a.pdf": FIRST}, detect=False)
    latest = Policy.objects.order_by("-version").first()
    latest.detection_by_jurisdiction = {
        "US-FED": {"categories": ["ssn", "phone"], "phone_regions": ["US", "CA"]}
    }
    latest.save()
    item.document.policy_version = latest.version

    policy = detection_policy_for(item.document)

    assert policy.categories == frozenset({"ssn", "phone"})
    assert policy.phone_regions == ("US", "CA")
    assert policy.ner is False


def test_the_latest_policy_version_the_migrations_publish_turns_on_every_category():
    """A detector added without the data migration that publishes it would find
    nothing in production: no policy version would ask for its category."""
    latest = Policy.objects.order_by("-version").first()

    missing = ALL_CATEGORIES - {SEARCH_TERM} - set(latest.categories)

    assert not missing
