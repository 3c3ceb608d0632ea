from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from rest_framework.authtoken.models import Token

from audit.services import emit
from intake.roles import INTAKE_CLIENT


class Command(BaseCommand):
    help = "Create an intake service account and print its API token (shown only once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name")
        parser.add_argument(
            "--rotate", action="store_true", help="Replace the token of an existing client."
        )

    def handle(self, *args: object, name: str, rotate: bool, **options: object) -> None:
        User = get_user_model()
        with transaction.atomic(durable=True):
            user, created = User.objects.get_or_create(username=name)
            if not created and not rotate:
                raise CommandError(f"client {name!r} exists; use --rotate to issue a new token")
            if created:
                user.set_unusable_password()
                user.save()
                user.groups.add(Group.objects.get(name=INTAKE_CLIENT))
            Token.objects.filter(user=user).delete()
            token = Token.objects.create(user=user)
            emit(
                "INTAKE_CLIENT_CREATED" if created else "INTAKE_CLIENT_TOKEN_ROTATED",
                actor="system:manage",
                extra={"client": name},
            )
        self.stdout.write(f"client {name}: token {token.key}")
        self.stdout.write("Store it now: it is not shown again.")
