"""Backup and restore: every row of every table, streamed as JSON lines.

An export is a league's hands; a backup is the whole database: players (merged ones too),
leagues with their rulesets and settings, sessions open or ended with their seats, every hand
voided or not with its number, the change log, and the running totals. Restoring it into an
empty database reproduces every table row for row, ids included, once every row has been
checked (:mod:`.restore_rows`, :mod:`.restore_checks`); the running totals are counted again
from the hands.

The file is JSON lines: a first line naming the format and the tables, then one line per row
(``{"table": "hand", "row": {...}}``) in an order that satisfies the foreign keys. Rows are read
in pages of primary keys and written in batches with Core ``insert()``, so memory stays flat.
Tables are found from the models, so a table added later is backed up without a change here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import date, datetime
from typing import IO, Any

from sqlalchemy import Table, UniqueConstraint, exists, func, insert, select, text, tuple_, update
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, SQLModel

from ...engine.errors import RecordError
from ...engine.inputs import bounded_lines
from ...engine.limits import RECORD_LINE_MAX_BYTES
from ...engine.translation import _, ngettext
from .. import (
    LeagueError,
    models,  # noqa: F401  (the tables, registered on SQLModel.metadata)
)
from .restore_checks import check_restored
from .restore_rows import decoder, python_type, row_problem

BACKUP_FORMAT = "mighty-backup/1"
PAGE = 5000


def _tables() -> list[Table]:
    return list(SQLModel.metadata.sorted_tables)


def _encoder(table: Table):
    """A row (a mapping) as plain JSON values: dates and times as ISO text."""
    stamps = [c.name for c in table.columns if python_type(c) in (date, datetime)]

    def encode(row: Any) -> dict:
        data = dict(row)
        for name in stamps:
            if data[name] is not None:
                data[name] = data[name].isoformat()
        return data

    return encode


def _pages(s: Session, table: Table) -> Iterator[list]:
    """The table's rows in pages, by primary key (keyset paging: no OFFSET, no IN list)."""
    key = list(table.primary_key.columns)
    last = None
    while True:
        query = select(table).order_by(*key).limit(PAGE)
        if last is not None:
            query = query.where(tuple_(*key) > tuple_(*last) if len(key) > 1 else key[0] > last[0])
        rows = s.execute(query).mappings().all()
        if not rows:
            return
        yield rows
        last = [rows[-1][c.name] for c in key]


def iter_backup(s: Session) -> Iterator[str]:
    """The whole database as JSON lines, in chunks of text (one consistent snapshot: on
    PostgreSQL the transaction reads at REPEATABLE READ; SQLite's transaction already is)."""
    if s.get_bind().dialect.name == "postgresql":
        s.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
    tables = _tables()
    counts = {t.name: s.execute(select(func.count()).select_from(t)).scalar_one() for t in tables}
    yield json.dumps({"format": BACKUP_FORMAT, "tables": counts}, ensure_ascii=False) + "\n"
    for table in tables:
        encode = _encoder(table)
        prefix = '{"table": ' + json.dumps(table.name) + ', "row": '
        for rows in _pages(s, table):
            yield "".join(prefix + json.dumps(encode(r), ensure_ascii=False) + "}\n" for r in rows)


#: Tables a restore counts again from the hands instead of taking them from the backup: the
#: running totals (:mod:`..ledger.totals`), a cache of what the hands say.
COUNTED_AGAIN = ("player_total", "totals_mark")


def restore(
    s: Session,
    stream: IO[str],
    name: str = "<backup>",
    progress: Callable[[int, int | None], None] | None = None,
) -> dict[str, int]:
    """Fill an empty database from a backup; the rows restored per table (``progress(done,
    total)`` told as they go). Every row is checked as it is read (:mod:`.restore_rows`), and
    the rows together once all are in (:mod:`.restore_checks`), which then counts the running
    totals from the hands. Anything wrong raises one line naming the table, the row and the
    column before the caller commits, so a failed restore leaves the database empty."""
    tables = {t.name: t for t in _tables()}
    for table in tables.values():
        if s.execute(select(func.count()).select_from(table)).scalar_one():
            raise LeagueError(
                _(
                    "the database is not empty (table {name} has rows): restore into a new database"
                ).format(name=table.name)
            )
    lines = bounded_lines(stream, name, RecordError, RECORD_LINE_MAX_BYTES)
    try:
        header = json.loads(next(lines))
    except (StopIteration, json.JSONDecodeError):
        raise RecordError(_("{name}: line 1: not a mighty backup").format(name=name)) from None
    if not isinstance(header, dict) or header.get("format") != BACKUP_FORMAT:
        raise RecordError(
            _("{name}: line 1: not a mighty backup (expected format {expected!r})").format(
                name=name, expected=BACKUP_FORMAT
            )
        )
    expected = header.get("tables", {})
    if not isinstance(expected, dict):
        raise RecordError(
            _("{name}: line 1: not a mighty backup (its tables are not a table of counts)").format(
                name=name
            )
        )
    decoders = {t: decoder(table) for t, table in tables.items()}
    counts = dict.fromkeys(tables, 0)
    total = sum(n for n in expected.values() if isinstance(n, int))
    batch = _Batch(s, name)
    number = 1
    for line in lines:
        number += 1
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            table_name, row = item["table"], item["row"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise RecordError(
                _("{name}: line {number}: not a backup row").format(name=name, number=number)
            ) from None
        if not isinstance(table_name, str) or table_name not in tables:
            raise RecordError(
                _("{name}: line {number}: unknown table {table_name!r}").format(
                    name=name, number=number, table_name=table_name
                )
            )
        if batch.start(tables[table_name]):
            if progress is not None:
                progress(sum(counts.values()), total)
        where = _("{name}: line {number}").format(name=name, number=number)
        decoded = decoders[table_name](row, where)
        if table_name not in COUNTED_AGAIN:
            batch.add(decoded, where)
        counts[table_name] += 1
    batch.write()
    batch.set_own_references()
    short = [t for t, n in expected.items() if counts.get(t, 0) != n]
    if short:
        found = counts.get(short[0], 0)
        raise RecordError(
            ngettext(
                "{name}: table {table} has {count} row, the backup's header "
                "says {expected} (a cut-off file?)",
                "{name}: table {table} has {count} rows, the backup's header "
                "says {expected} (a cut-off file?)",
                found,
            ).format(name=name, table=short[0], count=found, expected=expected[short[0]])
        )
    _reset_sequences(s, tables.values())
    check_restored(s, name)
    return counts


class _Batch:
    """Rows of one table written together with Core ``insert()``, each with where it was read
    (``file: line N``). A batch the database refuses (a reference to no row, a key twice) is
    written again row by row, each in a savepoint, to name the row and the column at fault.
    A column referring to its own table (a merged player's ``merged_into_id``) is set
    afterwards, once every row it may point to is there."""

    def __init__(self, s: Session, name: str):
        self.s, self.name = s, name
        self.table: Table | None = None
        self.rows: list[dict] = []
        self.places: list[str] = []
        self.pending: list[tuple[Table, dict, str]] = []

    def start(self, table: Table) -> bool:
        """Make ready for a row of ``table``: the rows so far are written when they are of
        another table or a page; whether they were."""
        if table is self.table and len(self.rows) < PAGE:
            return False
        self.write()
        self.table = table
        return True

    def add(self, row: dict, where: str) -> None:
        self.rows.append(row)
        self.places.append(where)

    def write(self) -> None:
        table, rows, places = self.table, self.rows, self.places
        self.rows, self.places = [], []
        if rows and table is not None:
            own = [
                c.name
                for c in table.columns
                if any(fk.column.table is table for fk in c.foreign_keys)
            ]
            if own:
                self.pending.extend(
                    (table, row, where)
                    for row, where in zip(rows, places)
                    if any(row[c] is not None for c in own)
                )
                rows = [dict(row, **dict.fromkeys(own)) for row in rows]
            try:
                with self.s.begin_nested():
                    self.s.execute(insert(table), rows)
            except DBAPIError:
                self._refused(table, rows, places)

    def _refused(self, table: Table, rows: list[dict], places: list[str]) -> None:
        for row, where in zip(rows, places):
            try:
                with self.s.begin_nested():
                    self.s.execute(insert(table), [row])
            except DBAPIError as exc:
                raise self._fault(table, row, where, exc) from None
        raise LeagueError(
            _("{name}: the database refused a batch of {table} rows").format(
                name=self.name, table=table.name
            )
        )  # each row alone was taken: not expected

    def _fault(self, table: Table, row: dict, where: str, exc: DBAPIError) -> LeagueError:
        """The column of a row the database refused: a reference to no row, a key another row
        has; else the database's own words."""
        for column in table.columns:
            for key in column.foreign_keys:
                value = row[column.name]
                if (
                    value is not None
                    and not self.s.execute(select(exists().where(key.column == value))).scalar()
                ):
                    return row_problem(
                        where,
                        table,
                        row,
                        column.name,
                        _("{value} names no {target} row").format(
                            value=value, target=key.column.table.name
                        ),
                    )
        unique = [list(table.primary_key.columns)]
        unique += [list(c.columns) for c in table.constraints if isinstance(c, UniqueConstraint)]
        unique += [list(i.columns) for i in table.indexes if i.unique]
        for columns in unique:
            if self.s.execute(
                select(exists().where(*(c == row[c.name] for c in columns)))
            ).scalar():
                return row_problem(
                    where,
                    table,
                    row,
                    ", ".join(c.name for c in columns),
                    _("another row of the backup has the same {columns}").format(
                        columns=", ".join(f"{c.name} {row[c.name]!r}" for c in columns)
                    ),
                )
        said = (str(exc.orig or exc).strip().splitlines() or [type(exc).__name__])[0]
        return row_problem(
            where, table, row, "?", _("the database refused it: {error}").format(error=said)
        )

    def set_own_references(self) -> None:
        for table, row, where in self.pending:
            key = list(table.primary_key.columns)
            values = {
                c.name: row[c.name]
                for c in table.columns
                if any(fk.column.table is table for fk in c.foreign_keys)
            }
            try:
                with self.s.begin_nested():
                    self.s.execute(
                        update(table).where(*(c == row[c.name] for c in key)).values(values)
                    )
            except DBAPIError as exc:
                raise self._fault(table, row, where, exc) from None


def _reset_sequences(s: Session, tables) -> None:
    """PostgreSQL: move each id sequence past the restored ids (SQLite needs nothing)."""
    if s.get_bind().dialect.name != "postgresql":
        return
    for table in tables:
        key = list(table.primary_key.columns)
        if len(key) != 1 or not key[0].autoincrement or key[0].type.python_type is not int:
            continue
        s.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table.name}', "
                f"'{key[0].name}'), COALESCE((SELECT MAX({key[0].name}) FROM "
                f"{table.name}), 0) + 1, false)"
            )
        )
