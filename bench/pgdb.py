"""Throwaway PostgreSQL databases for the benchmarks: create, clone, migrate, drop."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _admin_connection(url: str) -> psycopg.Connection:
    # CREATE/DROP DATABASE cannot run inside a transaction, nor while connected to the
    # database concerned: go through the `postgres` maintenance database.
    return psycopg.connect(with_database(url, "postgres"), autocommit=True)


def create_database(url: str, name: str, template: str | None = None) -> None:
    statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template:
        statement += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
    # Cloning needs the template to have no sessions; an autovacuum worker that just
    # started on it would make this fail, so wait for it briefly.
    for attempt in range(20):
        try:
            with _admin_connection(url) as conn:
                conn.execute(statement)
            return
        except psycopg.errors.ObjectInUse:
            if attempt == 19:
                raise
            time.sleep(0.5)


def drop_database(url: str, name: str) -> None:
    with _admin_connection(url) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


def migrate(env: dict[str, str]) -> None:
    subprocess.run(  # noqa: S603 - our own interpreter and manage.py
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
