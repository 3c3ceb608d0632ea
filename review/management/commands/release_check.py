import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from review.pdf.trial import REFUSED, RELEASED
from review.pdf.verify import Failure
from review.services.release import gate_failure_reason

ROOT = Path(__file__).resolve().parents[3]


class Command(BaseCommand):
    help = (
        "Would these PDFs release? Each file (folders: every *.pdf in them) goes through "
        "admission's checks, detection, burn-in of every proposed mark, sanitize and the "
        "release gate, in a child process with a time limit; nothing is stored. One line "
        "per file, then a summary. Fails when a file that admission accepts would not "
        "release (a page that cannot be drawn, detection failing, the gate refusing)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paths", nargs="+", help="PDF files or folders of them")
        parser.add_argument("--ner", action="store_true", help="full mode (named entities)")
        parser.add_argument(
            "--timeout", type=int, default=600, help="seconds per file (default 600)"
        )

    def handle(self, *args: object, **options: Any) -> None:
        files = _pdfs([Path(p) for p in options["paths"]])
        if not files:
            raise CommandError("no PDF files found")
        outcomes: Counter[str] = Counter()
        for path in files:
            outcome = _trial(path, ner=options["ner"], timeout=options["timeout"])
            outcomes[outcome["outcome"]] += 1
            self.stdout.write(f"{_line(outcome)}  {path}")
        self.stdout.write(", ".join(f"{n} {outcome}" for outcome, n in sorted(outcomes.items())))
        stuck = sum(n for outcome, n in outcomes.items() if outcome not in (RELEASED, REFUSED))
        if stuck:
            raise CommandError(f"{stuck} admitted file(s) would not release")


def _pdfs(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pdf"))
        else:
            found.append(path)
    return found


def _trial(path: Path, *, ner: bool, timeout: int) -> dict[str, Any]:
    command = [sys.executable, "-m", "review.pdf.trial", str(path), str(settings.INTAKE_MAX_PAGES)]
    try:
        run = subprocess.run(  # noqa: S603 - our own interpreter and module, no shell
            [*command, *(["--ner"] if ner else [])],
            capture_output=True,
            cwd=ROOT,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"outcome": "timeout", "reason": f"over {timeout} s"}
    if run.returncode != 0:
        return {"outcome": "crashed", "reason": f"exit status {run.returncode}"}
    outcome: dict[str, Any] = json.loads(run.stdout)
    return outcome


def _line(outcome: dict[str, Any]) -> str:
    """The outcome, then why (a release gate refusal as the service records it) or the
    counts."""
    failures = outcome.get("failures") or []
    if failures:
        reason = gate_failure_reason([Failure(code, page) for code, page in failures])
    else:
        reason = str(outcome.get("reason", ""))
    counts = (
        f"{outcome['pages']} pages, {outcome['marks']} marks ({outcome['hidden']} hidden), "
        f"{outcome['pages_ocred']} OCR'd"
        if outcome["outcome"] == RELEASED
        else reason
    )
    return f"{outcome['outcome']:<16} {counts}"
