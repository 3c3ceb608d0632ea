"""What killed processes leave behind: saves cut short in a storage (no record names
them) and uploads received in part. They hold documents' bytes, and no retention
schedule would ever dispose of them; the daily retention pass removes them here."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.core.files.storage import storages
from django.db import transaction

from audit.services import Actor, emit
from common.storage import PARTIAL_PREFIX, crash_remnants_remove

# A file nobody has written to for this long is no save or upload still in progress.
REMNANT_AGE = dt.timedelta(hours=1)


def remnants_remove(*, storage_aliases: Iterable[str], actor: Actor, dry_run: bool) -> int:
    """Remove the remnants older than REMNANT_AGE from the storages named and the upload
    folder, and return how many there were (with `dry_run`, only count them). How many
    went, from where, goes to the ledger."""
    found = {
        alias: crash_remnants_remove(
            Path(storages[alias].path("")),
            prefix=PARTIAL_PREFIX,
            older_than=REMNANT_AGE,
            dry_run=dry_run,
        )
        for alias in storage_aliases
    }
    found["uploads"] = crash_remnants_remove(
        Path(settings.FILE_UPLOAD_TEMP_DIR), older_than=REMNANT_AGE, dry_run=dry_run
    )
    total = sum(found.values())
    if total and not dry_run:
        with transaction.atomic():
            emit("CRASH_REMNANTS_REMOVED", actor=actor, extra={"files": found})
    return total
