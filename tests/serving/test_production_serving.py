"""Production settings and serving: a clean `check --deploy`, and `make serve` (gunicorn
and the worker clusters with config.settings_production: DEBUG off, here over TLS) serving the
admin with its styles (after the second factor) and the Swagger UI, under the
Content-Security-Policy, without a single CSP violation."""

import subprocess
import sys
from base64 import b32decode
from urllib.parse import parse_qs, urlsplit

import pytest
from django_otp.oath import totp

from tests.browser.conftest import browser  # noqa: F401 - the shared Chromium fixture
from tests.serving.conftest import ADMIN_PASSWORD, ADMIN_USER, ROOT, production_env

pytestmark = pytest.mark.own_database


def test_check_deploy_with_production_settings_prints_no_warning(tmp_path):
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(tmp_path),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout
    assert "WARNING" not in done.stdout + done.stderr


def totp_key(production_server) -> bytes:
    """Enrol an authenticator for the admin user, as an administrator would."""
    uri = production_server.manage("enrol_totp", ADMIN_USER, "--replace").splitlines()[-1]
    secret = parse_qs(urlsplit(uri).query)["secret"][0]
    return b32decode(secret + "=" * (-len(secret) % 8))


def _page(browser, violations):  # noqa: F811 - the fixture, passed on
    context = browser.new_context(ignore_https_errors=True)
    page = context.new_page()
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return context, page


def test_make_serve_serves_the_admin_with_its_styles_after_the_second_factor(
    production_server,
    browser,  # noqa: F811
):
    violations: list[str] = []
    context, page = _page(browser, violations)
    try:
        response = page.goto(f"{production_server.url}/admin/login/")
        headers = response.headers
        assert "max-age=" in headers["strict-transport-security"]
        policy = headers["content-security-policy"]
        script_src = next(d for d in policy.split(";") if d.strip().startswith("script-src"))
        assert "'unsafe-inline'" not in script_src
        assert headers["referrer-policy"] == "same-origin"
        stylesheets = page.eval_on_selector_all(
            "link[rel=stylesheet]", "links => links.map(l => l.href)"
        )
        # whitenoise serves the collected, content-hashed admin stylesheet.
        base_css = next(href for href in stylesheets if "/static/admin/css/base." in href)
        assert page.request.get(base_css).status == 200

        key = totp_key(production_server)
        page.fill("#id_username", ADMIN_USER)
        page.fill("#id_password", ADMIN_PASSWORD)
        page.click("input[type=submit]")
        # The production settings ask the admin for its second factor (TOTP) first.
        page.wait_for_url(f"{production_server.url}/accounts/verify/?next=%2Fadmin%2F")
        page.fill("#id_otp_token", f"{totp(key):06d}")
        page.click("button[type=submit].primary")
        page.wait_for_url(f"{production_server.url}/admin/")
        assert page.locator("#site-name").inner_text() == "Redaction Review Queue"
        # The admin's stylesheet is applied: its header is a coloured bar, not bare HTML.
        header_background = page.eval_on_selector(
            "#header", "el => getComputedStyle(el).backgroundColor"
        )
        assert header_background not in {"rgba(0, 0, 0, 0)", "transparent"}
        cookies = {cookie["name"]: cookie for cookie in context.cookies()}
        assert cookies["sessionid"]["secure"] and cookies["sessionid"]["httpOnly"]
        assert cookies["csrftoken"]["secure"]
        assert violations == []
    finally:
        context.close()


def test_make_serve_renders_the_swagger_ui_with_debug_off(
    production_server,
    browser,  # noqa: F811
):
    violations: list[str] = []
    context, page = _page(browser, violations)
    try:
        page.goto(f"{production_server.url}/api/v1/docs/")
        page.wait_for_selector(".swagger-ui .info .title", timeout=15_000)
        assert "Redaction Review Queue API" in page.inner_text(".swagger-ui .info .title")
        page.wait_for_selector(".opblock", timeout=15_000)
        assert page.locator(".opblock").count() > 5
        assert violations == []
    finally:
        context.close()
