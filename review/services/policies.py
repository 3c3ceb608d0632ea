"""Redaction policy versions: a change is always a new version; old ones stay untouched."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max

from audit.services import Actor, Event, actor_label, emit_many
from review.models import Policy


def policy_publish(*, draft: Policy, actor: Actor) -> Policy:
    """Save `draft` as the next policy version; the versions before it stay untouched."""
    # Not durable: the admin's change view already wraps its save in a transaction.
    with transaction.atomic():
        draft.pk = None
        draft._state.adding = True
        # Two concurrent publishes may compute the same number: the unique version
        # constraint lets one win and the other fail loudly instead of overwriting.
        draft.version = (Policy.objects.aggregate(v=Max("version"))["v"] or 0) + 1
        draft.created_by = actor_label(actor)
        draft.save()
        emit_many(
            [
                Event(
                    event_type="POLICY_PUBLISHED",
                    actor=actor,
                    policy_version=draft.version,
                    extra={"note": draft.note[:200]},
                )
            ]
        )
        return draft
