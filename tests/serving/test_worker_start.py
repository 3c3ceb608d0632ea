"""What a gunicorn worker does once it has loaded the application
(config/gunicorn_conf.py's `post_worker_init`), run in a fresh interpreter as a worker
would: nothing of the service imported but what `django.setup()` brings."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WORKER = """
import gc, runpy, sys
import django
django.setup()
hooks = runpy.run_path("config/gunicorn_conf.py")
before = gc.get_freeze_count(), "intake.apis" in sys.modules
hooks["post_worker_init"](None)
print(*before, gc.get_freeze_count(), "intake.apis" in sys.modules)
"""


def test_worker_start_imports_the_views_and_freezes_what_it_loaded():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    done = subprocess.run(
        [sys.executable, "-c", WORKER], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    frozen_before, views_before, frozen_after, views_after = done.stdout.split()
    assert (frozen_before, views_before) == ("0", "False")
    # Django, DRF and every view module: far more than any request leaves behind.
    assert int(frozen_after) > 50_000
    assert views_after == "True"
