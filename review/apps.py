from django.apps import AppConfig
from django.db.models.signals import post_migrate


def ensure_schedules(sender: AppConfig, **kwargs: object) -> None:
    """The sweeper's, the outbox relay's and the daily reconcile's schedules, made by
    code at every migrate (idempotent)."""
    import math

    from django.conf import settings
    from django_q.models import Schedule

    Schedule.objects.update_or_create(
        name="rrq-sweep",
        defaults={
            "func": "review.tasks.sweep",
            "schedule_type": Schedule.MINUTES,
            # django-q2 schedules count whole minutes.
            "minutes": max(1, math.ceil(settings.SWEEP_INTERVAL_SECONDS / 60)),
            "repeats": -1,
        },
    )
    # Admissions against outcomes, once a day (logged in django-q2's task results).
    Schedule.objects.update_or_create(
        name="rrq-reconcile",
        defaults={
            "func": "review.tasks.reconcile_daily",
            "schedule_type": Schedule.DAILY,
            "repeats": -1,
        },
    )
    # Commits kick the relay at once; this catches what a lost kick left behind.
    Schedule.objects.update_or_create(
        name="rrq-outbox-relay",
        defaults={
            "func": "review.tasks.relay_outbox",
            "schedule_type": Schedule.MINUTES,
            "minutes": 1,
            "repeats": -1,
        },
    )


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Review queue"

    def ready(self) -> None:
        post_migrate.connect(ensure_schedules, sender=self)
