from django.core.management.base import BaseCommand

from review.sweeps import sweep_pass


class Command(BaseCommand):
    help = "Run one sweeper pass now: reclaim, bump, breach, escalate dead letters."

    def handle(self, *args: object, **options: object) -> None:
        report = sweep_pass()
        self.stdout.write(
            f"reclaimed {report.reclaimed}, bumped {report.bumped}, breached {report.breached}, "
            f"escalated {report.escalated} in {report.seconds:.2f}s"
        )
