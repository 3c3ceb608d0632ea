"""Start `make run` on a fresh data folder, then fetch the login page and the admin index
as a compliance officer would. Exits non-zero on any miss; always stops the server."""

import http.cookiejar
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

PORT = os.environ.get("SMOKE_PORT", "8765")
PASSWORD = "smoke-check-pw-1"  # noqa: S105 - throwaway demo password for this run only
EXPECTED_ADMIN_MODELS = ["Audit events", "Submissions", "Documents", "Review items", "Policies"]


def main() -> int:
    env = {**os.environ, "PORT": PORT, "DEMO_PASSWORD": PASSWORD}
    env["DATA_DIR"] = tempfile.mkdtemp(prefix="rrq-smoke-")
    log = open(os.path.join(env["DATA_DIR"], "run.log"), "w+")
    proc = subprocess.Popen(
        ["make", "run", f"PORT={PORT}"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        url = wait_for_url(log, timeout=180)
        opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        login_page = fetch(opener, url + "accounts/login/")
        assert "Log in" in login_page, "login page not served"
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page).group(1)
        form = urllib.parse.urlencode(
            {"username": "compliance", "password": PASSWORD, "csrfmiddlewaretoken": token}
        ).encode()
        fetch(opener, url + "accounts/login/", data=form, referer=url + "accounts/login/")
        admin_page = fetch(opener, url + "admin/")
        missing = [name for name in EXPECTED_ADMIN_MODELS if name not in admin_page]
        assert not missing, f"admin index does not list {missing}"
        print(f"smoke OK: {url} serves the login page and the admin lists the models")
        return 0
    except Exception as exc:
        log.seek(0)
        print(log.read()[-4000:], file=sys.stderr)
        print(f"smoke FAILED: {exc}", file=sys.stderr)
        return 1
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        shutil.rmtree(env["DATA_DIR"], ignore_errors=True)


def wait_for_url(log, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        log.seek(0)
        found = re.search(r"Serving on (http://\S+/)", log.read())
        if found:
            try:
                urllib.request.urlopen(found.group(1) + "accounts/login/", timeout=2)
                return found.group(1)
            except OSError:
                pass
        time.sleep(1)
    raise TimeoutError("make run did not serve a page in time")


def fetch(opener, url: str, data: bytes | None = None, referer: str = "") -> str:
    request = urllib.request.Request(
        url, data=data, headers={"Referer": referer} if referer else {}
    )
    with opener.open(request, timeout=10) as response:
        return response.read().decode()


if __name__ == "__main__":
    sys.exit(main())
