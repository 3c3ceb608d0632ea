"""What a worker process does once, before its first request or task
(`config.serving.startup.freeze_start_up_objects`), run in a fresh interpreter as each
kind of worker starts: nothing of the service imported but what `django.setup()` brings,
then gunicorn's `post_worker_init` hook or django-q2's `post_spawn` signal."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

STARTS = {
    "gunicorn": """
import runpy
runpy.run_path("config/gunicorn_conf.py")["post_worker_init"](None)
""",
    "django-q2": """
from django_q.signals import post_spawn
post_spawn.send(sender="django_q", proc_name="Process-1:1")
""",
}

WORKER = """
import gc, sys
import django
django.setup()
before = gc.get_freeze_count(), "intake.apis" in sys.modules, "review.tasks" in sys.modules
{start}
print(*before, gc.get_freeze_count(), "intake.apis" in sys.modules, "review.tasks" in sys.modules)
"""


@pytest.mark.parametrize("server", STARTS)
def test_worker_start_imports_views_and_tasks_and_freezes_what_it_loaded(server: str):
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
    code = WORKER.format(start=STARTS[server])
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    frozen, views, tasks, frozen_after, views_after, tasks_after = done.stdout.split()
    assert (frozen, views, tasks) == ("0", "False", "False")
    # Django, DRF, the views and the tasks: far more than any request leaves behind.
    assert int(frozen_after) > 50_000
    assert (views_after, tasks_after) == ("True", "True")
