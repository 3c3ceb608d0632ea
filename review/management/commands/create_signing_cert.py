from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from review.pdf.sign import generate_self_signed


class Command(BaseCommand):
    help = "Write a self-signed development signing key and certificate (SIGNING_DIR)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="Replace an existing pair.")

    def handle(self, *args: object, force: bool, **options: object) -> None:
        if settings.SIGNING_CERT_FILE.exists() and not force:
            self.stdout.write(f"signing certificate exists: {settings.SIGNING_CERT_FILE}")
            return
        key, cert = generate_self_signed(settings.SIGNING_DIR)
        self.stdout.write(f"wrote development signing key {key} and certificate {cert}")
