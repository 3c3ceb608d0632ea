"""Least privilege on PostgreSQL: the role the web server and workers connect as may read
and write the service's tables, but may only SELECT and INSERT the ledger.

Run it as the owner role (the one `migrate` runs as) after every `migrate`: tables that a
migration adds are granted the next time. The application role owns nothing, so it can
neither ALTER the ledger nor disable its triggers (both need ownership), nor set
`session_replication_role` (superuser only); the append-only triggers stay as a second
wall behind the missing privileges.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction
from psycopg import sql

LEDGER_TABLES = ("audit_auditevent", "audit_checkpoint")
_ROLE_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


class Command(BaseCommand):
    help = "Grant the application role its privileges: everything but UPDATE/DELETE/TRUNCATE of the ledger."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="the role the application connects as, e.g. rrq_app")

    def handle(self, *args: Any, **options: Any) -> None:
        role = options["role"]
        if connection.vendor != "postgresql":
            raise CommandError("database roles exist on PostgreSQL only")
        if not _ROLE_NAME.match(role):
            raise CommandError(f"role {role!r}: use lower-case letters, digits and _")
        with connection.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
            row = cursor.fetchone()
            if row is None:
                raise CommandError(f"role {role!r} does not exist: CREATE ROLE {role} LOGIN")
            if row[0]:
                raise CommandError(f"role {role!r} is a superuser: it could lift any grant")
            cursor.execute("SELECT current_database()")
            database = cursor.fetchone()[0]
        names = {"role": sql.Identifier(role), "db": sql.Identifier(database)}
        statements = [
            "GRANT CONNECT ON DATABASE {db} TO {role}",
            "GRANT USAGE ON SCHEMA public TO {role}",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
            "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
            "REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON "
            + ", ".join(LEDGER_TABLES)
            + " FROM {role}",
        ]
        with transaction.atomic(), connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(sql.SQL(statement).format(**names).as_string(cursor.connection))
        self.stdout.write(
            f"{role}: read and write on every table of {database}; "
            f"SELECT and INSERT only on {', '.join(LEDGER_TABLES)}"
        )
