from django.core.management.base import BaseCommand, CommandParser

from review.services.retention import disposal_run


class Command(BaseCommand):
    help = (
        "Dispose of the bytes (originals, previews, derivatives) whose retention period "
        "has passed, except under a legal hold; the ledger is kept. --dry-run lists what "
        "would go and changes nothing. The daily schedule runs the same pass."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="List what would be disposed of; change nothing."
        )

    def handle(self, *args: object, **options: object) -> None:
        dry_run = bool(options["dry_run"])
        report = disposal_run(actor="system:dispose", dry_run=dry_run)
        for planned in report.planned:
            item = planned.item
            self.stdout.write(
                f"would dispose {item.document_id} item={item.pk} "
                f"{planned.policy.jurisdiction_id} retention v{planned.policy.version} "
                f"ended={item.state_changed_at:%Y-%m-%dT%H:%M:%SZ} {','.join(planned.kinds)}"
            )
        verb = "would dispose of" if dry_run else "disposed of"
        self.stdout.write(
            f"{verb} {report.documents} document(s), {report.files_deleted} file(s) deleted; "
            f"{report.held} kept under legal hold, {report.shared} waiting on shared files; "
            f"{'would remove' if dry_run else 'removed'} {report.remnants} crash remnant(s) "
            "(unfinished saves and uploads)"
        )
