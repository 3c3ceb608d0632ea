from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.checkpoints import verify_checkpoints
from audit.exports import FORMATS, verify_export
from audit.services import verify_chain


class Command(BaseCommand):
    help = (
        "Recompute every audit hash chain and check every signed checkpoint; exit non-zero "
        "naming the first broken chain position or checkpoint. "
        "With --export FILE, also check that export within itself and against the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--export", type=Path, help="an export_audit file to check too")
        parser.add_argument(
            "--format",
            choices=FORMATS,
            help="the export's format (default: from the file name, else jsonl)",
        )
        parser.add_argument(
            "--partial",
            action="store_true",
            help="the export is a hand-picked selection or a substring filter: check each "
            "row, not that every matching row is present",
        )

    def handle(self, *args: object, **options: object) -> None:
        report = verify_chain()
        if not report.ok:
            raise CommandError(report.describe())
        self.stdout.write(report.describe())
        checkpoints = verify_checkpoints()
        if not checkpoints.ok:
            raise CommandError(checkpoints.describe())
        self.stdout.write(checkpoints.describe())
        export = options["export"]
        if not isinstance(export, Path):
            return
        if not export.is_file():
            raise CommandError(f"no such export file: {export}")
        fmt = options["format"] or ("csv" if export.suffix.lower() == ".csv" else "jsonl")
        export_report = verify_export(export, str(fmt), partial=bool(options["partial"]))
        if not export_report.ok:
            raise CommandError(export_report.describe())
        self.stdout.write(export_report.describe())
