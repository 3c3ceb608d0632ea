"""The intake throttle counts a client's requests across the server's processes: gunicorn
runs several workers, and a count kept in each worker's memory would let a client send
the rate once per worker."""

import subprocess
import sys

from tests.serving.conftest import ROOT, production_env

# One server process: two throttle checks for client 7, prints how many were allowed.
CHECKS = """
import django
django.setup()
from types import SimpleNamespace
from intake.apis import ClientRateThrottle
request = SimpleNamespace(user=SimpleNamespace(is_authenticated=True, pk=7))
print(sum(ClientRateThrottle().allow_request(request, None) for _ in range(2)))
"""


def allowed_in_a_new_process(env: dict[str, str]) -> int:
    done = subprocess.run(
        [sys.executable, "-c", CHECKS], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_the_intake_throttle_counts_a_client_across_server_processes(tmp_path):
    env = production_env(tmp_path, INTAKE_THROTTLE_RATE="3/min")
    first, second = allowed_in_a_new_process(env), allowed_in_a_new_process(env)
    assert (first, second) == (2, 1)
