"""Login throttling (django-axes): AXES_FAILURE_LIMIT (10) wrong passwords lock the
account for AXES_COOLOFF_TIME, whatever is tried next; the answer is a page that says so.
Driven through the login form, as a person (or a password guesser) would."""

import datetime as dt

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import F

from review.roles import REVIEWER
from testkit.builders import user_create

PASSWORD = "pw-for-tests-only"


def _log_in(client, username: str, password: str):
    return client.post("/accounts/login/", {"username": username, "password": password})


@pytest.mark.django_db
def test_ten_failed_logins_lock_the_account_even_against_the_right_password(client):
    user_create("rita", role=REVIEWER)
    assert settings.AXES_FAILURE_LIMIT == 10

    for _ in range(9):
        response = _log_in(client, "rita", "wrong-guess")
        assert response.status_code == 200
        assert "didn't match" in response.content.decode()
    locking = _log_in(client, "rita", "wrong-guess")
    after = _log_in(client, "rita", PASSWORD)

    for response in (locking, after):
        assert response.status_code == 429
        page = response.content.decode()
        assert "Account locked" in page
        assert "after 10 wrong passwords this account is locked for 15 minutes" in page
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_lock_ends_after_the_configured_time_and_the_right_password_then_logs_in(client):
    user_create("rita", role=REVIEWER)
    for _ in range(10):
        _log_in(client, "rita", "wrong-guess")
    assert _log_in(client, "rita", PASSWORD).status_code == 429

    # The cool-off has passed: the recorded failures are older than AXES_COOLOFF_TIME.
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - settings.AXES_COOLOFF_TIME - dt.timedelta(seconds=1)
    )
    response = _log_in(client, "rita", PASSWORD)

    assert response.status_code == 302
    assert client.session["_auth_user_id"]


@pytest.mark.django_db
def test_nine_failures_then_the_right_password_log_in_and_clear_the_count(client):
    user_create("rita", role=REVIEWER)
    for _ in range(9):
        _log_in(client, "rita", "wrong-guess")

    assert _log_in(client, "rita", PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="rita").exists()


@pytest.mark.django_db
def test_the_lock_is_per_account_other_users_still_log_in(client):
    user_create("rita", role=REVIEWER)
    user_create("ravi", role=REVIEWER)
    for _ in range(10):
        _log_in(client, "rita", "wrong-guess")

    assert _log_in(client, "ravi", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_the_admin_login_is_throttled_too(client):
    officer = user_create("olga")
    officer.is_staff = True
    officer.save()
    for _ in range(10):
        client.post("/admin/login/", {"username": "olga", "password": "wrong-guess"})

    response = client.post("/admin/login/?next=/admin/", {"username": "olga", "password": PASSWORD})

    assert response.status_code == 429
    assert "Account locked" in response.content.decode()
