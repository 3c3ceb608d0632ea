from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from intake.models import SlaClass
from intake.services.admission import AdmissionRejected
from intake.services.folder import folder_ingest


class Command(BaseCommand):
    help = "Admit every PDF below PATH as one submission (a run); record the rest as rejected."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument("--client", required=True, help="Intake client (service account).")
        parser.add_argument("--jurisdiction", required=True, help="Jurisdiction code, e.g. US-FED.")
        parser.add_argument("--sla-class", default=SlaClass.STANDARD, choices=SlaClass.values)
        parser.add_argument("--priority-score", type=int, default=50)
        parser.add_argument("--external-ref", default="", help="Default: folder:<folder name>.")

    def handle(self, *args: object, **options: object) -> None:
        root = Path(str(options["path"])).resolve()
        if not root.is_dir():
            raise CommandError(f"{root} is not a folder")
        client = get_user_model().objects.filter(username=options["client"]).first()
        if client is None:
            raise CommandError(f"no intake client named {options['client']!r}")
        total = sum(1 for p in root.rglob("*") if p.is_file())
        with tqdm(total=total, unit="file", disable=None, file=self.stderr) as bar:
            try:
                result = folder_ingest(
                    root=root,
                    client=client,
                    jurisdiction_code=str(options["jurisdiction"]),
                    sla_class=str(options["sla_class"]),
                    priority_score=int(options["priority_score"]),  # type: ignore[call-overload]
                    external_ref=str(options["external_ref"]),
                    actor=f"client:{client.get_username()}",
                    on_file=lambda _path: bar.update(1),
                )
            except AdmissionRejected as rejected:
                raise CommandError(str(rejected)) from rejected
        run = result.submission.id if result.submission else "none"
        self.stdout.write(
            f"run {run}: admitted {result.admitted}, duplicates {result.duplicates}, "
            f"rejected {len(result.rejected)}"
        )
        for path, code in result.rejected:
            self.stdout.write(f"  rejected {path}: {code}")
