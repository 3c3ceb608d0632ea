from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django_otp.plugins.otp_totp.models import TOTPDevice


class Command(BaseCommand):
    help = (
        "Enrol a TOTP authenticator for a user and print its otpauth:// URI (a secret: "
        "hand it to the user over a trusted channel, who adds it to an authenticator app)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="authenticator", help="Device name.")
        parser.add_argument(
            "--replace", action="store_true", help="Remove the user's other TOTP devices."
        )

    def handle(
        self, *args: object, username: str, name: str, replace: bool, **options: object
    ) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        if replace:
            TOTPDevice.objects.filter(user=user).delete()
        device = TOTPDevice.objects.create(user=user, name=name, confirmed=True)
        self.stdout.write(f"enrolled TOTP device {device.pk} ({name}) for {username}")
        self.stdout.write(device.config_url)
