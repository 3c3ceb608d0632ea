"""Production settings: the environment-driven settings with DEBUG off and the web
hardened. `make serve` runs gunicorn and the worker clusters with this module.

TLS is assumed to end at a reverse proxy (or at gunicorn itself, GUNICORN_CERTFILE) that
sets `X-Forwarded-Proto: https`; plain-HTTP requests are redirected to HTTPS.

SECURE_SSL_REDIRECT     "0" only where something in front already redirects (default on)
SECURE_HSTS_SECONDS     default one year; HSTS covers subdomains and asks for preloading
                        (SECURE_HSTS_PRELOAD=0 to leave the preload list alone)
"""

import os

os.environ["DEBUG"] = "0"  # never on here, whatever the environment says

from config.settings import *  # noqa: E402,F403
from config.settings import env_bool, env_int  # noqa: E402

DEBUG = False

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = True
# The item page's script reads the CSRF cookie to send its decisions (review/static/
# review/item.js), so that cookie stays readable by the page; Django's docs explain why
# an HttpOnly CSRF cookie adds nothing.
CSRF_COOKIE_HTTPONLY = False

# Static files: `make serve` runs collectstatic into STATIC_ROOT (DATA_DIR/static);
# whitenoise serves them from the web process, compressed, under content-hashed names
# cached for a year. A template naming a missing file fails at collectstatic, not live.
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# The second factor (TOTP) for staff, superusers and compliance officers, always.
OTP_REQUIRED = True

# Persistent database connections (a minute; CONN_MAX_AGE to change): connecting for each
# request, and again after each hand-off to the task queue (django-q2's ORM broker closes
# connections it finds too old, which at 0 is all of them), halved admission throughput
# (bench/intake.py). Health checks replace a connection the database dropped meanwhile.
DATABASES["default"]["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", 60)  # noqa: F405
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # noqa: F405
