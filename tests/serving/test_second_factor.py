"""The second factor (TOTP through django-otp): with the production settings' switch on,
a compliance officer who logged in with a password reaches neither the admin nor the ops
pages until a valid token from an enrolled authenticator; then both open. Reviewers are
not asked; the `make run` demo (DEBUG, config.settings) does not ask anyone."""

import subprocess
import sys
from io import StringIO
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import call_command
from django.test import override_settings
from django_otp.oath import totp

from review.roles import COMPLIANCE_OFFICER, REVIEWER
from testkit.builders import user_create
from tests.serving.conftest import ROOT, production_env

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("second_factor_required")]


@pytest.fixture
def second_factor_required():
    with override_settings(OTP_REQUIRED=True):
        yield


@pytest.fixture
def officer(client):
    user = user_create("olga", role=COMPLIANCE_OFFICER)
    user.is_staff = True
    user.save()
    client.force_login(user)
    return user


def enrol(username: str) -> bytes:
    """The enrolment command, as an administrator runs it; the secret from its URI."""
    out = StringIO()
    call_command("enrol_totp", username, stdout=out)
    uri = out.getvalue().splitlines()[-1]
    assert uri.startswith("otpauth://totp/")
    from base64 import b32decode

    secret = parse_qs(urlsplit(uri).query)["secret"][0]
    return b32decode(secret + "=" * (-len(secret) % 8))


def test_a_compliance_officer_without_a_verified_device_reaches_neither_admin_nor_ops(
    client, officer
):
    for page in ("/admin/", "/ops/", "/admin/review/policy/"):
        response = client.get(page)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/verify/?next=")

    verify_page = client.get("/accounts/verify/?next=/admin/").content.decode()
    assert "No authenticator is enrolled for your account" in verify_page
    assert "manage.py enrol_totp olga" in verify_page


def test_a_wrong_token_is_refused_and_the_admin_stays_closed(client, officer):
    key = enrol("olga")
    wrong = f"{(totp(key) + 1) % 1_000_000:06d}"

    response = client.post("/accounts/verify/", {"otp_token": wrong, "next": "/admin/"})

    assert response.status_code == 400
    assert "That code is not valid" in response.content.decode()
    assert client.get("/admin/").status_code == 302


def test_a_compliance_officer_with_a_valid_totp_token_reaches_admin_and_ops(client, officer):
    key = enrol("olga")

    response = client.post("/accounts/verify/", {"otp_token": f"{totp(key):06d}", "next": "/ops/"})

    assert response.status_code == 302
    assert response["Location"] == "/ops/"
    assert client.get("/ops/").status_code == 200
    assert client.get("/admin/").status_code == 200


def test_the_api_answers_an_unverified_compliance_session_with_403_in_the_error_shape(
    client, officer
):
    response = client.get("/api/v1/queues/")

    assert response.status_code == 403
    assert response.json()["code"] == "second_factor_required"


def test_a_reviewer_is_not_asked_for_a_second_factor(client):
    client.force_login(user_create("rita", role=REVIEWER))

    assert client.get("/").status_code == 200


def test_the_verification_page_never_redirects_off_site(client, officer):
    key = enrol("olga")

    response = client.post(
        "/accounts/verify/", {"otp_token": f"{totp(key):06d}", "next": "https://evil.example/"}
    )

    assert response["Location"] == "/"


@override_settings(OTP_REQUIRED=False)
def test_the_demo_settings_do_not_ask_for_a_second_factor(client, officer):
    assert client.get("/admin/").status_code == 200


@pytest.mark.own_database
@pytest.mark.parametrize(
    ("settings_module", "extra", "required"),
    [("config.settings_production", {}, "True"), ("config.settings", {"DEBUG": "1"}, "False")],
)
def test_production_settings_require_the_second_factor_and_the_demo_does_not(
    tmp_path, settings_module, extra, required
):
    env = production_env(tmp_path, DJANGO_SETTINGS_MODULE=settings_module, **extra)
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); "
            "from django.conf import settings; print(settings.OTP_REQUIRED)",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.stdout.strip().splitlines()[-1] == required, done.stderr
