import os
import subprocess
import sys

import pytest

from audit.models import AuditEvent
from audit.services import emit
from review.roles import COMPLIANCE_OFFICER
from testkit.builders import user_create
from tests.factories import item_create


def test_settings_refuse_to_start_without_secret_key_when_debug_is_off():
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    result = subprocess.run(
        [sys.executable, "-c", "import config.settings"],
        env={**env, "DEBUG": "0"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


@pytest.fixture
def officer_client(client, db):
    officer = user_create("officer", role=COMPLIANCE_OFFICER)
    officer.is_staff = True
    officer.save()
    client.force_login(officer)
    return client


def test_compliance_officer_sees_every_model_in_the_admin(officer_client):
    page = officer_client.get("/admin/").content.decode()
    for name in [
        "Audit events",
        "Submissions",
        "Documents",
        "Rejected submissions",
        "Review items",
        "Claims",
        "Proposals",
        "Approvals",
        "Artifacts",
        "Dead letters",
        "Legal holds",
        "Policies",
        "Jurisdictions",
    ]:
        assert name in page, name


def test_audit_events_are_read_only_in_the_admin(officer_client):
    emit("TEST_EVENT", actor="system:test")
    event = AuditEvent.objects.get(event_type="TEST_EVENT")
    url = f"/admin/audit/auditevent/{event.pk}/change/"
    assert officer_client.get(url).status_code == 200
    assert officer_client.post(url, {"event_type": "CHANGED"}).status_code == 403
    assert officer_client.post(f"/admin/audit/auditevent/{event.pk}/delete/").status_code == 403
    event.refresh_from_db()
    assert event.event_type == "TEST_EVENT"


def test_review_item_admin_filters_by_state_queue_hold_and_overdue(officer_client):
    item_create()
    for query in [
        "state__exact=accepted",
        "queue__exact=review",
        "hold__exact=none",
        "overdue=yes",
    ]:
        assert officer_client.get(f"/admin/review/reviewitem/?{query}").status_code == 200


def test_saving_a_policy_in_the_admin_publishes_a_new_version(officer_client):
    from review.models import Policy

    form = officer_client.get("/admin/review/policy/1/change/")
    assert form.status_code == 200
    data = {
        "note": "longer lease",
        "categories": '["ssn", "email"]',
        "category_min_confidence": "{}",
        "review_threshold": "0.8",
        "sla_hours": '{"urgent": 4, "standard": 24}',
        "lease_minutes": "20",
        "lease_max_minutes": "120",
        "warn_window_minutes": "60",
        "max_attempts": "3",
        "max_open_claims_per_reviewer": "1",
        "handoff_stall_minutes": "10",
    }
    before = Policy.objects.order_by("-version").first().version
    response = officer_client.post("/admin/review/policy/1/change/", data, follow=True)
    assert response.redirect_chain, response.context["adminform"].form.errors
    assert Policy.objects.get(version=1).lease_minutes == 15
    published = Policy.objects.get(version=before + 1)
    assert published.lease_minutes == 20
    # The message names the version published, and the page shows it.
    assert f"Published policy v{published.version}" in response.content.decode()
    assert response.redirect_chain[-1][0] == f"/admin/review/policy/{published.pk}/change/"


def test_policy_detection_settings_per_jurisdiction_are_checked_with_errors_naming_the_value(
    officer_client,
):
    from review.models import Policy

    data = {
        "note": "GB settings",
        "categories": '["ssn", "person", "phone"]',
        "category_min_confidence": "{}",
        "detection_by_jurisdiction": '{"UK-FOI": {"categories": ["person", "sparkles"],'
        ' "min_confidence": {"person": 1.5}, "phone_regions": ["GB", "XX"]}}',
        "review_threshold": "0.8",
        "sla_hours": '{"urgent": 4, "standard": 24}',
        "lease_minutes": "15",
        "lease_max_minutes": "120",
        "warn_window_minutes": "60",
        "max_attempts": "3",
        "max_open_claims_per_reviewer": "1",
        "handoff_stall_minutes": "10",
    }
    count = Policy.objects.count()

    response = officer_client.post("/admin/review/policy/1/change/", data)

    assert response.status_code == 200
    errors = str(response.context["adminform"].form.errors)
    assert "unknown category &#x27;sparkles&#x27;" in errors
    assert "1.5 is not between 0 and 1" in errors
    assert "&#x27;XX&#x27; is not a phone region code" in errors
    assert Policy.objects.count() == count
    data["detection_by_jurisdiction"] = (
        '{"UK-FOI": {"categories": ["person"], "phone_regions": ["GB"]}}'
    )
    assert officer_client.post("/admin/review/policy/1/change/", data).status_code == 302
    assert Policy.objects.order_by("-version").first().detection_by_jurisdiction == {
        "UK-FOI": {"categories": ["person"], "phone_regions": ["GB"]}
    }


@pytest.mark.django_db
def test_the_shipped_policy_turns_on_every_detector_and_the_log_names_each():
    """A category detection knows but no policy version enables never runs: each new
    detector ships with the migration that publishes a version turning it on."""
    from review.models import Policy
    from review.pdf.patterns import ALL_CATEGORIES
    from review.selectors import CATEGORY_WORDS

    latest = Policy.objects.order_by("-version").first()

    assert set(ALL_CATEGORIES) <= set(latest.categories)
    assert set(ALL_CATEGORIES) <= set(CATEGORY_WORDS)
