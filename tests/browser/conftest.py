import os
import threading
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread

CHROMIUM = "/usr/bin/chromium"
PASSWORD = "browser-test-pw"
# Screenshots the browser tests take, kept after the run (var/ is not in git); the run's
# summary says where.
ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "test-artifacts"
SHOTS: list[Path] = []

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests
# make between browser steps are still plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


class OneRequestAtATime(ThreadedWSGIServer):
    """The live server, answering one request at a time. With SQLite in memory every
    server thread shares the test's one database connection: a page that asks for thirty
    page images at once would otherwise run their transactions interleaved on it (and
    fail with "database table is locked"). Connections are still accepted in threads,
    so a browser's open keep-alive connections do not block each other."""

    lock = threading.Lock()
    # The test is over: a request the server read before the browser closed must not
    # touch the database while it is emptied ("database table is locked" at teardown).
    closed = False

    def set_app(self, application):
        def serial(environ, start_response):
            with self.lock:
                if OneRequestAtATime.closed:
                    start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
                    return [b"The test is over."]
                return application(environ, start_response)

        super().set_app(serial)


LiveServerThread.server_class = OneRequestAtATime


def between_requests():
    """For a test's own database writes while the browser is busy: the live server shares
    the test's connection, so the write waits until no request is being answered (it
    would otherwise land inside a request's transaction)."""
    return OneRequestAtATime.lock


@pytest.fixture(scope="module")
def browser():
    """Per module: Playwright's event loop must be gone before other tests run (pyHanko
    and the ORM refuse to run synchronously inside a live event loop)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, live_server):
    """A page logged in as an existing user (given a password here) in its own browser
    context (its own cookies)."""
    contexts = []

    def make(username: str):
        # Another page may still be loading (its images): write between its requests.
        with between_requests():
            user = get_user_model().objects.get(username=username)
            user.set_password(PASSWORD)
            user.save()
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        return page

    OneRequestAtATime.closed = False
    yield make
    for context in contexts:
        context.close()
    with OneRequestAtATime.lock:
        # A request still being answered ends before the database is emptied; one the
        # server read but had not begun is refused.
        OneRequestAtATime.closed = True


def claim_next_in(page, live_server, item) -> None:
    """Press Claim next and wait for `item`'s page."""
    page.get_by_role("button", name="Claim next").click()
    page.wait_for_url(f"{live_server.url}/items/{item.pk}/")


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    SHOTS.append(path)
    return path


def pytest_terminal_summary(terminalreporter):
    if SHOTS:
        terminalreporter.write_line(f"browser screenshots: {len(SHOTS)} saved in {ARTIFACTS}")


def axe_serious(page) -> list[str]:
    """The serious and critical violations axe-core finds on the page, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{violation['id']} ({violation['impact']}): {violation['help']} at "
        + "; ".join(node["html"][:120] for node in violation["nodes"][:3])
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
