"""Bulk writing: rows by the hundred thousand, as plain tuples, in the caller's transaction.

An import writes a million hands and six million player rows. SQLAlchemy's ``insert()`` spends
more time turning each row dictionary into parameters than the database spends storing it, so
the bulk path hands the driver prepared tuples itself:

- SQLite: one ``executemany`` per table and batch of an ``INSERT`` of many rows
  (:data:`ROWS_PER_INSERT`) at a time, the last few one at a time;
- PostgreSQL (psycopg): one ``COPY ... FROM STDIN`` per table and batch.

Primary keys are reserved up front (:class:`IdBlock`), so a hand's player rows need no query to
learn the hand's id and sessions are written in batches like hands. Values are made database-
ready by the caller through :func:`bind_value` (timestamps and dates are text on SQLite);
stored points are checked against their range here (:func:`check_points`), so a refusal is the
same one line on both databases. A driver error is raised as SQLAlchemy raises one, so the
commands report it (and roll back) exactly as before.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any

from sqlalchemy import Table, func, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.schema import CreateIndex
from sqlmodel import Session

from ...engine.limits import POINTS_LIMIT
from ..models import StoredPoints


def bind_value(connection: Connection, table: Table, column: str, value: Any) -> Any:
    """``value`` as the driver should receive it for ``table.column`` (what SQLAlchemy's
    bind processing would make of it: on SQLite a timestamp or date becomes text)."""
    kind = table.c[column].type
    processor = kind.dialect_impl(connection.dialect).bind_processor(connection.dialect)
    return processor(value) if processor is not None else value


def check_points(rows: Iterable[Sequence], *indexes: int) -> None:
    """Refuse a row whose stored points (columns ``indexes``) are out of range, with the line
    :class:`..models.StoredPoints` gives (its own)."""
    low, high = -POINTS_LIMIT, POINTS_LIMIT
    if (
        isinstance(rows, list)
        and rows
        and all(
            low <= min(column) and max(column) <= high
            for column in (list(map(itemgetter(index), rows)) for index in indexes)
        )
    ):
        return  # every value in range (the usual batch): no row to name
    for row in rows:
        for index in indexes:
            value = row[index]
            if not low <= value <= high:
                StoredPoints().process_bind_param(value, None)  # raises PointsOutOfRange


class IdBlock:
    """Primary keys for rows about to be written to ``table``, handed out in order.

    SQLite: the next key after the table's largest (the import holds the database's write lock
    from ``BEGIN IMMEDIATE``, so nobody else can take it). PostgreSQL: keys taken from the
    column's sequence ``block`` at a time (a gap is left by a rollback, as with any insert)."""

    def __init__(
        self, connection: Connection, table: Table, block: int = 5000, before: Any | None = None
    ) -> None:
        self.connection, self.table, self.block = connection, table, block
        self.before = before  # called before the connection is used (the import's writer)
        self.postgres = connection.dialect.name == "postgresql"
        self.reserved: list[int] = []
        self.next = 0
        if not self.postgres:
            self.next = (connection.execute(select(func.max(table.c.id))).scalar() or 0) + 1

    def take(self) -> int:
        if not self.postgres:
            self.next += 1
            return self.next - 1
        if not self.reserved:
            if self.before is not None:
                self.before()
            self.reserved = list(
                reversed(
                    self.connection.execute(
                        text(
                            "SELECT nextval(pg_get_serial_sequence(:table, 'id')) "
                            "FROM generate_series(1, :count)"
                        ),
                        {"table": self.table.name, "count": self.block},
                    )
                    .scalars()
                    .all()
                )
            )
        return self.reserved.pop()


def write_rows(
    s: Session | Connection, table: Table, columns: Sequence[str], rows: list[tuple]
) -> None:
    """Tuples (in ``columns`` order, database-ready values) into ``table``: one executemany, or
    on PostgreSQL with psycopg one COPY. ``s``: the transaction's session or its connection
    (a thread writing for the import is given the connection)."""
    if not rows:
        return
    connection = s if isinstance(s, Connection) else s.connection()
    names = ", ".join(f'"{name}"' for name in columns)
    driver = connection.connection.driver_connection  # type: ignore[union-attr]
    dbapi = connection.dialect.dbapi
    if connection.dialect.name == "postgresql" and connection.dialect.driver == "psycopg":
        statement = f'COPY "{table.name}" ({names}) FROM STDIN'
        try:
            with driver.cursor() as cursor, cursor.copy(statement) as copy:
                write = copy.write_row
                for row in rows:
                    write(row)
        except dbapi.Error as exc:
            _raise(statement, exc, dbapi)
        return
    if connection.dialect.name != "sqlite":  # another driver: SQLAlchemy's own executemany
        connection.execute(table.insert(), [dict(zip(columns, row)) for row in rows])
        return
    one = f"({', '.join('?' * len(columns))})"
    statement = f'INSERT INTO "{table.name}" ({names}) VALUES {one}'
    per = _rows_per_insert(driver, len(columns))
    whole = len(rows) - len(rows) % per if per > 1 else 0
    cursor = driver.cursor()
    try:
        if whole:
            # many rows to a statement: SQLite runs one statement's rows in one pass (its
            # cursors and checks set up once), about twice as fast a row as one at a time
            many = f'INSERT INTO "{table.name}" ({names}) VALUES ' + ", ".join([one] * per)
            flat = itertools.chain.from_iterable
            try:
                cursor.executemany(
                    many, (tuple(flat(rows[start : start + per])) for start in range(0, whole, per))
                )
            except dbapi.Error as exc:
                _raise(many, exc, dbapi)
        if whole < len(rows):
            cursor.executemany(statement, rows[whole:] if whole else rows)
    except dbapi.Error as exc:
        _raise(statement, exc, dbapi)
    finally:
        cursor.close()


#: Rows per INSERT statement on SQLite, at most (each row's values are bound variables).
ROWS_PER_INSERT = 200


def _rows_per_insert(driver: Any, width: int) -> int:
    """How many rows of ``width`` columns one SQLite INSERT takes: :data:`ROWS_PER_INSERT`,
    fewer where the library's limit of bound variables is lower (999 before SQLite 3.32)."""
    import sqlite3

    try:
        limit = driver.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    except AttributeError:  # Python before 3.11: the lowest limit SQLite was ever built with
        limit = 999
    return max(1, min(ROWS_PER_INSERT, limit // width))


def _raise(statement: str, exc: Exception, dbapi: Any) -> None:
    """The driver's own error, raised as SQLAlchemy raises one."""
    from sqlalchemy.exc import DBAPIError

    raise DBAPIError.instance(statement, None, exc, dbapi.Error) from None


class DeferredIndexes:
    """Checks set aside while a bulk load writes, and put back at its end.

    SQLite: keeping an index on ``hand_player.player_id`` in order costs more per row than
    writing the row; building it once from the finished table is a sort. So once an import has
    written at least as many hands as the store held before it (and a whole batch), the listed
    tables' plain indexes are dropped, and :meth:`restore` creates them again before the import
    reads anything back.

    PostgreSQL: its foreign keys are checked by a trigger per row (three lookups for each
    player row: most of the time an import takes there), while adding a key back checks the
    whole table in one join; and its plain indexes, kept in order row by row, cost the server
    more than building them once at the end (measured at 100k hands: 0.9 s of writing saved,
    0.5 s of building). Dropping a key or an index locks the tables against every reader until
    the import commits, so this is done only when the store held no hand at all: a league
    brought into a new database (a migration, a restore of an export).

    Either way the change is part of the import's transaction: a failed import rolls it back
    with everything else, and unique constraints stay (they check the rows). After such a load
    PostgreSQL's planner statistics are brought up to date too (``ANALYZE``, a sample), so the
    first export does not plan its chunked reads for the empty tables it last saw."""

    def __init__(self, s: Session, tables: Sequence[Table]) -> None:
        self.s, self.tables = s, tables
        self.dialect = s.connection().dialect.name
        self.before: int | None = None
        self.dropped: list[tuple[str, str]] = []  # (table, statement that puts it back)
        self.bulk = False
        self.done = self.dialect not in ("sqlite", "postgresql")

    def consider(self, written: int, table: Table) -> None:
        """Before a batch that brings the hands written to ``written``: set the checks aside
        if that is as many hands as ``table`` held before (PostgreSQL: if it held none)."""
        if self.done:
            return
        connection = self.s.connection()
        if self.before is None:
            self.before = connection.execute(select(func.count()).select_from(table)).scalar()
        if written < self.before:
            return
        self.done = self.bulk = True
        if self.dialect == "postgresql" and self.before:
            return
        for index in self._indexes():  # (PostgreSQL: into an empty store only, as above)
            connection.exec_driver_sql(f'DROP INDEX IF EXISTS "{index.name}"')
            self.dropped.append(
                (index.table.name, str(CreateIndex(index).compile(dialect=connection.dialect)))
            )
        if self.dialect == "sqlite":
            return
        from sqlalchemy import inspect

        inspector = inspect(connection)
        for table_ in self.tables:
            for key in inspector.get_foreign_keys(table_.name):
                columns = ", ".join(f'"{c}"' for c in key["constrained_columns"])
                referred = ", ".join(f'"{c}"' for c in key["referred_columns"])
                connection.exec_driver_sql(
                    f'ALTER TABLE "{table_.name}" DROP CONSTRAINT "{key["name"]}"'
                )
                options = key.get("options") or {}
                clauses = "".join(
                    f" ON {word.upper()} {options[name]}"
                    for word, name in (("delete", "ondelete"), ("update", "onupdate"))
                    if options.get(name)
                )
                if options.get("deferrable"):
                    clauses += f" DEFERRABLE INITIALLY {options.get('initially') or 'IMMEDIATE'}"
                self.dropped.append(
                    (
                        table_.name,
                        (
                            f'ALTER TABLE "{table_.name}" ADD CONSTRAINT "{key["name"]}" FOREIGN KEY '
                            f'({columns}) REFERENCES "{key["referred_table"]}" ({referred}){clauses}'
                        ),
                    )
                )

    def restore(self) -> None:
        """Put back what was set aside (nothing if nothing was)."""
        connection = self.s.connection()
        for _, statement in self.dropped:
            connection.exec_driver_sql(statement)
        self.dropped = []
        if self.bulk and self.dialect == "postgresql":
            for table in self.tables:
                connection.exec_driver_sql(f'ANALYZE "{table.name}"')
            self.bulk = False

    def _indexes(self) -> list:
        return [
            index
            for table in self.tables
            for index in sorted(table.indexes, key=lambda i: i.name or "")
            if not index.unique
        ]


class Background:
    """One job at a time on a thread (an import's batch of rows written to PostgreSQL while
    the next is built), its error raised in the caller's thread by :meth:`wait`."""

    def __init__(self) -> None:
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def start(self, job) -> None:
        self.wait()

        def run() -> None:
            try:
                job()
            except BaseException as exc:  # handed to the import's thread by wait()
                self.error = exc

        self.thread = threading.Thread(target=run, name="mighty-import-writer", daemon=True)
        self.thread.start()

    def wait(self) -> None:
        if self.thread is not None:
            self.thread.join()
            self.thread = None
        if self.error is not None:
            error, self.error = self.error, None
            raise error

    def abandon(self) -> None:
        if self.thread is not None:
            self.thread.join()
            self.thread = None
        self.error = None
