from django.core.management.base import BaseCommand, CommandError

from audit.services import verify_chain


class Command(BaseCommand):
    help = "Recompute the audit hash chain; exit non-zero naming the first broken sequence."

    def handle(self, *args: object, **options: object) -> None:
        report = verify_chain()
        if not report.ok:
            raise CommandError(
                f"audit chain broken at sequence {report.first_bad_sequence}: {report.reason} "
                f"({report.count} events verified before it)"
            )
        self.stdout.write(f"audit chain OK: {report.count} events")
