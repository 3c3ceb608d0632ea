"""Demo logins for `make run`: one user per role, with fresh passwords printed once."""

import os
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction

from review.roles import COMPLIANCE_OFFICER, REVIEWER, SENIOR_REVIEWER

DEMO_USERS = [
    ("reviewer", REVIEWER, False),
    ("senior", SENIOR_REVIEWER, False),
    ("compliance", COMPLIANCE_OFFICER, True),
]


class Command(BaseCommand):
    help = "Create or refresh the demo users (development only) and print their logins."

    def handle(self, *args: object, **options: object) -> None:
        User = get_user_model()
        lines = []
        with transaction.atomic():
            for username, role, is_staff in DEMO_USERS:
                # DEMO_PASSWORD lets scripted checks log in; otherwise a fresh one each start.
                password = os.environ.get("DEMO_PASSWORD") or secrets.token_urlsafe(12)
                user, _ = User.objects.get_or_create(username=username)
                user.is_staff = is_staff
                user.set_password(password)
                user.save()
                user.groups.set([Group.objects.get(name=role)])
                lines.append(f"  {role:<20} {username:<12} {password}")
        self.stdout.write("Demo logins (role, username, password):")
        self.stdout.write("\n".join(lines))
