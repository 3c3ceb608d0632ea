from django.core.management.base import BaseCommand, CommandError

from review.health import run_health


class Command(BaseCommand):
    help = "One line per stalled run (run id, handoff, oldest age, count); non-zero if any."

    def handle(self, *args: object, **options: object) -> None:
        stalled = 0
        for run in run_health():
            for stall in run.stalls:
                stalled += 1
                self.stdout.write(
                    f"{run.submission_id} {stall.handoff} oldest={stall.oldest_age_seconds}s "
                    f"count={stall.count}"
                )
        if stalled:
            raise CommandError(f"{stalled} stalled handoff(s)")
        self.stdout.write("all runs healthy")
