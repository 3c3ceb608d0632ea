"""Demo data for `make run`: one login per role with fresh passwords printed once, an
intake client with a fresh token, and (once) a demo submission of generated PDFs."""

import os
import secrets

import pymupdf
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management.base import BaseCommand
from django.db import transaction
from rest_framework.authtoken.models import Token

from intake.models import Submission
from intake.roles import INTAKE_CLIENT
from intake.services.admission import submission_admit
from intake.services.checks import IncomingFile, correlation_id_or_new
from review.roles import COMPLIANCE_OFFICER, REVIEWER, SENIOR_REVIEWER

DEMO_USERS = [
    ("reviewer", REVIEWER, False),
    ("senior", SENIOR_REVIEWER, False),
    ("compliance", COMPLIANCE_OFFICER, True),
]
DEMO_CLIENT = "demo-portal"

# Synthetic values only (reserved example domains, 555 numbers, test card numbers).
DEMO_DOCUMENTS = {
    "requests/letter-1.pdf": [
        "Re: records request 2026-114",
        "Requester: Jordan Example, jordan@example.com, (202) 555-0143",
        "SSN 123-45-6789 appears on the enclosed form.",
    ],
    "requests/letter-2.pdf": [
        "Payment on file: 4111 1111 1111 1111",
        "Account no. 00981234, DOB: 04/12/1980",
    ],
    "contracts/summary.pdf": ["Nothing personal in this summary."],
}


def _pdf(lines: list[str]) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    for number, line in enumerate(lines):
        page.insert_text((72, 90 + 20 * number), line, fontsize=11)
    return doc.tobytes()


class Command(BaseCommand):
    help = "Create or refresh demo users and an intake client (development only)."

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
            client, _ = User.objects.get_or_create(username=DEMO_CLIENT)
            client.set_unusable_password()
            client.save()
            client.groups.set([Group.objects.get(name=INTAKE_CLIENT)])
            Token.objects.filter(user=client).delete()
            token = Token.objects.create(user=client)
        self.stdout.write("Demo logins (role, username, password):")
        self.stdout.write("\n".join(lines))
        self.stdout.write(f"Demo intake client {DEMO_CLIENT}: API token {token.key}")
        if not Submission.objects.filter(client=client).exists():
            submission_admit(
                client=client,
                files=[
                    IncomingFile(object_id=path, upload=SimpleUploadedFile(path, _pdf(text)))
                    for path, text in DEMO_DOCUMENTS.items()
                ],
                external_ref="DEMO-2026-001",
                jurisdiction_code="US-FED",
                search_terms=["Jordan Example"],
                correlation_id=correlation_id_or_new(None),
                actor=f"client:{DEMO_CLIENT}",
            )
            self.stdout.write(
                f"Demo submission DEMO-2026-001 admitted ({len(DEMO_DOCUMENTS)} PDFs)."
            )
