"""bench/intake.py's settings: the production settings with the bench-only URLconf
(bench/intake_urls.py, which adds the bare endpoint). The benchmark talks plain HTTP on
the loopback, so it sets SECURE_SSL_REDIRECT=0 in the environment it starts gunicorn with."""

from config.settings_production import *  # noqa: F403

ROOT_URLCONF = "bench.intake_urls"
