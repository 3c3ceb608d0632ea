from django.apps import AppConfig
from django.db.models.signals import post_migrate


def ensure_schedules(sender: AppConfig, **kwargs: object) -> None:
    """The sweeper's, the outbox relay's, the daily reconcile's and the daily
    disposal's schedules, made by code at every migrate (idempotent)."""
    import math

    from django.conf import settings
    from django_q.models import Schedule

    schedules = {
        # django-q2 schedules count whole minutes.
        "rrq-sweep": (
            "review.tasks.sweep",
            Schedule.MINUTES,
            max(1, math.ceil(settings.SWEEP_INTERVAL_SECONDS / 60)),
        ),
        # Commits kick the relay at once; this catches what a lost kick left behind.
        "rrq-outbox-relay": ("review.tasks.relay_outbox", Schedule.MINUTES, 1),
        # Admissions against outcomes, once a day (in django-q2's task results).
        "rrq-reconcile": ("review.tasks.reconcile_daily", Schedule.DAILY, None),
        # The retention schedule: bytes past their period are disposed of once a day.
        "rrq-dispose": ("review.tasks.dispose_expired", Schedule.DAILY, None),
    }
    for name, (func, schedule_type, minutes) in schedules.items():
        Schedule.objects.update_or_create(
            name=name,
            defaults={
                "func": func,
                "schedule_type": schedule_type,
                "minutes": minutes,
                "repeats": -1,
            },
        )


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Review queue"

    def ready(self) -> None:
        from review import lookups  # noqa: F401  registers `__any_of`

        post_migrate.connect(ensure_schedules, sender=self)
