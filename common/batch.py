"""Writes that go to the database together: one round trip on PostgreSQL.

An admission writes a handful of rows into several tables. Sent one statement at a
time inside a transaction, each costs a round trip (and BEGIN and COMMIT two more),
which was most of an admission's time on PostgreSQL. A `WriteBatch` collects the
statements and sends them as one simple-protocol query: outside a transaction
PostgreSQL runs such a query as one transaction, all of it or none of it; inside one
(a caller's atomic block, a test) it runs under a savepoint of its own. Elsewhere
(SQLite, in process, where a statement costs no round trip) the statements run one by
one in an atomic block.

Rows that later rows point at need their ids before the batch is sent:
`allocate_ids` takes them from the table's sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from django.db import connection, models, transaction


def batch_transaction() -> AbstractContextManager[Any]:
    """Around the reads that prepare a batch, the id allocation and the batch's write.
    On PostgreSQL nothing: the batch is its own transaction, and the reads before it
    see committed rows and lock nothing. Elsewhere a durable atomic block: on SQLite its
    BEGIN takes the write lock, which keeps the allocated ids free until the write."""
    if connection.vendor == "postgresql":
        return nullcontext()
    return transaction.atomic(durable=True)


def allocate_ids(model: type[models.Model], count: int) -> list[int]:
    """`count` fresh primary keys of `model`'s table, for rows written with them. On
    PostgreSQL from the identity sequence (a rolled-back batch leaves a gap, as any
    insert does). On SQLite, where the caller's transaction holds the write lock from
    its BEGIN, the next ones after both AUTOINCREMENT's high-water mark and the rows."""
    if count == 0:
        return []
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [connection.ops.quote_name(table), model._meta.pk.column, count],
            )
            return [row[0] for row in cursor.fetchall()]
        if not connection.in_atomic_block:
            raise RuntimeError("ids are allocated inside the transaction that writes them")
        quoted = connection.ops.quote_name(table)
        cursor.execute(
            "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = %s), 0), "  # noqa: S608 - the model's own table and key
            f"coalesce((SELECT max({connection.ops.quote_name(str(model._meta.pk.column))}) "
            f"FROM {quoted}), 0))",
            [table],
        )
        last = cursor.fetchone()[0]
    return list(range(last + 1, last + 1 + count))


class WriteBatch:
    """Statements to send together, in the order added (`write` sends them)."""

    def __init__(self) -> None:
        self._statements: list[tuple[str, Sequence[Any]]] = []
        self._after_write: list[Callable[[], object]] = []

    def insert(self, objs: Sequence[models.Model]) -> None:
        """INSERT these instances of one model as they are: every concrete field, the
        primary key too when they have one (`allocate_ids`), else the table's default.
        Field values are prepared as Django's own insert prepares them (`pre_save`,
        then `get_db_prep_save`), so `auto_now_add` and JSON fields behave the same."""
        if not objs:
            return
        model = type(objs[0])
        with_pk = objs[0].pk is not None
        fields = [f for f in model._meta.concrete_fields if with_pk or not f.primary_key]
        quote = connection.ops.quote_name
        head = (
            f"INSERT INTO {quote(model._meta.db_table)} "  # noqa: S608 - the model's own table and columns
            f"({', '.join(quote(str(f.column)) for f in fields)}) VALUES "
        )
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
        size = max(1, connection.ops.bulk_batch_size(fields, objs))
        for start in range(0, len(objs), size):
            chunk = objs[start : start + size]
            if any((obj.pk is not None) != with_pk for obj in chunk):
                raise ValueError(f"some {model.__name__} rows have ids and some do not")
            params = [
                f.get_db_prep_save(f.pre_save(obj, True), connection)
                for obj in chunk
                for f in fields
            ]
            self._statements.append((head + ", ".join([row] * len(chunk)), params))
        for obj in objs:
            obj._state.adding = False
            obj._state.db = connection.alias

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Any other statement, e.g. a database function that appends to the ledger."""
        self._statements.append((sql, params))

    def after_write(self, callback: Callable[[], object]) -> None:
        """Run `callback` once the batch is committed (at once when the batch was its own
        transaction, else when the caller's transaction commits)."""
        if callback not in self._after_write:
            self._after_write.append(callback)

    def write(self) -> None:
        """Send every statement. On PostgreSQL outside a transaction: one round trip, one
        transaction. Raises the database's error (IntegrityError for a duplicate key)
        with nothing of the batch written."""
        if connection.vendor == "postgresql":
            # Inside a caller's transaction, a savepoint of its own; outside, none needed.
            own = transaction.atomic() if connection.in_atomic_block else nullcontext()
            with own, connection.cursor() as cursor:
                cursor.execute(
                    ";\n".join(cursor.mogrify(sql, params) for sql, params in self._statements)
                )
        else:
            with transaction.atomic(), connection.cursor() as cursor:
                for sql, params in self._statements:
                    cursor.execute(sql, params)
        self._statements.clear()
        for callback in self._after_write:
            transaction.on_commit(callback, robust=True)
