"""Test settings: the real settings plus a throwaway data folder and a fast hasher."""

import os
import tempfile

os.environ.setdefault("SECRET_KEY", "test-only-not-secret")
os.environ.setdefault("DATA_DIR", tempfile.mkdtemp(prefix="rrq-test-"))
os.environ.setdefault("Q_SYNC", "1")

from config.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
