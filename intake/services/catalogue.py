"""The exemption catalogues: every change is a new version of the entry, in the ledger."""

from __future__ import annotations

from django.db import transaction

from audit.services import Actor, emit
from intake.models import Exemption


def exemption_save(*, exemption: Exemption, actor: Actor) -> Exemption:
    """Save a new or changed catalogue entry, raise its version, and record it."""
    with transaction.atomic():
        if exemption.pk is not None:
            exemption.version += 1
        exemption.save()
        emit(
            "EXEMPTION_SAVED",
            actor=actor,
            extra={
                "jurisdiction": exemption.jurisdiction_id,
                "code": exemption.code,
                "version": exemption.version,
                "active": exemption.active,
            },
        )
        return exemption
