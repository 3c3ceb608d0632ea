"""The intake throttle counts a client's requests across the server's processes: gunicorn
runs several workers, and a count kept in each worker's memory would let a client send
the rate once to each of them."""

import subprocess
import sys

import pytest

from tests.serving.conftest import ROOT, manage, production_env

pytestmark = pytest.mark.own_database

# A server process: two requests of one client through the intake API's throttle.
TWO_REQUESTS = """
import django
django.setup()
from types import SimpleNamespace
from django.contrib.auth.models import User
from intake.apis import ClientRateThrottle
client, _ = User.objects.get_or_create(username="intake-client")
request = SimpleNamespace(user=client)
print(sum(ClientRateThrottle().allow_request(request, None) for _ in range(2)))
"""


def allowed_in_a_new_process(env: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-c", TWO_REQUESTS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_the_intake_throttle_counts_a_client_across_server_processes(tmp_path):
    env = production_env(tmp_path, INTAKE_THROTTLE_RATE="3/day")
    manage(env, "migrate", "-v0")
    assert (allowed_in_a_new_process(env), allowed_in_a_new_process(env)) == (2, 1)
