import uuid
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from audit.exports import FORMATS, events_filter, export_rows


def _uuid(value: object, flag: str) -> str | None:
    if value is None:
        return None
    try:
        return str(uuid.UUID(str(value)))
    except ValueError as exc:
        raise CommandError(f"{flag} is not a UUID") from exc


class Command(BaseCommand):
    help = (
        "Export audit events (all, or those matching every given filter) as JSON Lines or "
        "CSV with their chain hashes, in sequence order; to stdout unless --output is given."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", choices=FORMATS, default="jsonl")
        parser.add_argument("--correlation-id")
        parser.add_argument("--submission", help="submission id (UUID)")
        parser.add_argument("--document", help="document id (UUID)")
        parser.add_argument("--actor", help="exact actor label, e.g. user:olga")
        parser.add_argument("--output", type=Path, help="file to write (default: stdout)")

    def handle(self, *args: object, **options: object) -> None:
        events = events_filter(
            correlation_id=str(options["correlation_id"] or ""),
            submission_id=_uuid(options["submission"], "--submission"),
            document_id=_uuid(options["document"], "--document"),
            actor=str(options["actor"] or ""),
        )
        lines = export_rows(events, str(options["format"]))
        output = options["output"]
        if not isinstance(output, Path):
            for line in lines:
                self.stdout.write(line, ending="")
            return
        # newline="": the lines keep their own "\n" endings on every platform.
        with output.open("w", encoding="utf-8", newline="") as handle:
            handle.writelines(lines)
        self.stderr.write(f"exported to {output}")
