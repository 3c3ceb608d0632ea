import datetime as dt

from django.core.management.base import BaseCommand, CommandError, CommandParser

from review.health import reconcile


class Command(BaseCommand):
    help = (
        "Admissions against terminal outcomes per day, then every item neither terminal nor "
        "held, oldest first. Non-zero when an item is past its deadline unnoticed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--date", type=dt.date.fromisoformat, help="UTC day of receipt, YYYY-MM-DD"
        )

    def handle(self, *args: object, **options: object) -> None:
        day = options.get("date")
        totals, open_items = reconcile(day=day)  # type: ignore[arg-type]
        self.stdout.write("day         admitted  terminal  open")
        for row in totals:
            self.stdout.write(
                f"{row.day}  {row.admitted:8}  {row.terminal:8}  {row.admitted - row.terminal:4}"
            )
        self.stdout.write("open items (neither terminal nor held), oldest first:")
        unnoticed = 0
        for item in open_items:
            flag = "PAST DEADLINE, NO HOLD" if item.overdue else ""
            unnoticed += bool(item.overdue)
            self.stdout.write(
                f"  item {item.pk} document {item.document_id} {item.state} queue={item.queue} "
                f"deadline={item.deadline.isoformat()} {flag}".rstrip()
            )
        if unnoticed:
            raise CommandError(
                f"{unnoticed} item(s) past their deadline without a hold or escalation"
            )
