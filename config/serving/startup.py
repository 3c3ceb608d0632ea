"""What a worker process does once, before its first request or task (gunicorn's
`post_worker_init` in config/gunicorn_conf.py, django-q2's `post_spawn`)."""

from __future__ import annotations

import gc
from importlib import import_module

from django.urls import get_resolver


def freeze_start_up_objects() -> None:
    """Import what requests and tasks use (every view the URLconf names, the tasks and
    the detectors they import), then hand every object so far to the collector's
    permanent generation: they live as long as the process, and a full collection walked
    them all (200,000 of them, a tenth of a second, every hundred or so admissions, and
    about once per hundred pages of detection), not only what the work made."""
    get_resolver().url_patterns  # noqa: B018 - imports the views now
    import_module("review.tasks")
    gc.freeze()
