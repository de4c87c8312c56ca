"""Backup and restore: every row of every table, streamed as JSON lines.

An export is a league's hands; a backup is the whole database: players (merged ones too),
leagues with their rulesets and settings, sessions open or ended with their seats, every hand
voided or not with its number, the change log, and the running totals. Restoring it into an
empty database reproduces every table row for row, ids included.

The file is JSON lines: a first line naming the format and the tables, then one line per row
(``{"table": "hand", "row": {...}}``) in an order that satisfies the foreign keys. Rows are read
in pages of primary keys and written in batches with Core ``insert()``, so memory stays flat.
Tables are found from the models, so a table added later is backed up without a change here.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import IO, Any, Callable, Iterator, Optional

from sqlalchemy import BigInteger, Date, DateTime, Table, func, insert, select, text, tuple_
from sqlmodel import Session, SQLModel

from ..engine.errors import MightyError, RecordError
from ..engine.inputs import bounded_lines
from ..engine.limits import RECORD_LINE_MAX_BYTES
from . import LeagueError
from ..engine.translation import _, ngettext
from ..engine.records.file import check_hand_shape, read_record
from ..engine.ruleset import ruleset_from_toml
from ..engine.safe_toml import parse

BACKUP_FORMAT = "mighty-backup/1"
PAGE = 5000


def _tables() -> list[Table]:
    from . import models  # noqa: F401  (registers the tables)

    return list(SQLModel.metadata.sorted_tables)


def _python_type(column) -> Any:
    """date or datetime for a column holding one (a TypeDecorator by what it wraps)."""
    kind = getattr(column.type, "impl", column.type)
    if isinstance(kind, DateTime):
        return datetime
    return date if isinstance(kind, Date) else None


def _encoder(table: Table):
    """A row (a mapping) as plain JSON values: dates and times as ISO text."""
    stamps = [c.name for c in table.columns if _python_type(c) in (date, datetime)]

    def encode(row: Any) -> dict:
        data = dict(row)
        for name in stamps:
            if data[name] is not None:
                data[name] = data[name].isoformat()
        return data
    return encode


#: The integers each kind of column holds on every database the store runs on (PostgreSQL's
#: INTEGER is 32 bits, its BIGINT and SQLite's INTEGER 64).
_INT_RANGES = {"big": (-2 ** 63, 2 ** 63 - 1), "int": (-2 ** 31, 2 ** 31 - 1)}


def _column_check(column):
    """A function ``value -> error or None`` for a column's values as a backup holds them:
    the column's Python kind, its integer range on both databases, its length, NULL only where
    the column allows it."""
    kind = getattr(column.type, "impl", column.type)
    kind = kind() if isinstance(kind, type) else kind
    wanted = _python_type(column)
    nullable = column.nullable or (column.primary_key and column.autoincrement is True)
    if wanted is not None:
        expected = str
    else:
        try:
            expected = kind.python_type
        except NotImplementedError:
            expected = str
    low, high = _INT_RANGES["big" if isinstance(kind, BigInteger) else "int"]
    length = getattr(kind, "length", None)

    def check(value):
        if value is None:
            return None if nullable else _("no value (the column needs one)")
        if expected is bool:
            return None if isinstance(value, bool) else _("not true or false")
        if expected is int:
            if isinstance(value, bool) or not isinstance(value, int):
                return _("not a whole number")
            return None if low <= value <= high else _("{value} is beyond what the database "
                                                       "stores ({low} to {high})").format(
                value=value, low=low, high=high)
        if expected is float:
            return None if isinstance(value, (int, float)) and not isinstance(value, bool) \
                else _("not a number")
        if not isinstance(value, str):
            return _("not text")
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate ("\ud800"): no database stores it
                return _("not UTF-8 text (a lone surrogate)")
        if length is not None and len(value) > length:
            return _("longer than {length} characters").format(length=length)
        return None
    return check


def _content_check(table_name: str, column: str):
    """The columns whose text the tool reads back: a ruleset's TOML, a hand's record."""
    if (table_name, column) == ("league", "ruleset_toml"):
        def ruleset(value):

            ruleset_from_toml(value, label="ruleset_toml")
        return ruleset
    if column == "record_toml" and table_name in ("hand", "live_hand"):
        def record(value):

            data = parse(value, "record_toml", RecordError)
            if table_name == "live_hand":
                read_record(value, source="record_toml")
            else:
                players = data.get("players")
                check_hand_shape(data, 0, players if isinstance(players, list) else [],
                                 "record_toml")
        return record
    return None


def _decoder(table: Table):
    times = [c.name for c in table.columns if _python_type(c) is datetime]
    days = [c.name for c in table.columns if _python_type(c) is date]
    names = {c.name for c in table.columns}
    checks = [(c.name, _column_check(c)) for c in table.columns]
    contents = [(c.name, check) for c in table.columns
                if (check := _content_check(table.name, c.name)) is not None]

    def decode(row: dict, where: str) -> dict:
        if not isinstance(row, dict) or set(row) - names:
            unknown = sorted(set(row) - names) if isinstance(row, dict) else []
            raise LeagueError(_("{where}: a {name} row with unknown column {column!r}").format(
                                  where=where, name=table.name,
                                  column=unknown[0] if unknown else "?"))
        data = {name: row.get(name) for name in names}  # uniform rows for executemany
        for name, check in checks:
            problem = check(data[name])
            if problem:
                raise LeagueError(_("{where}: {table}.{column}: {problem}").format(
                    where=where, table=table.name, column=name, problem=problem))
        for name, check in contents:
            if data[name] is not None:
                try:
                    check(data[name])
                except MightyError as exc:
                    raise LeagueError(_("{where}: {table}.{column}: {error}").format(
                        where=where, table=table.name, column=name,
                        error=str(exc).splitlines()[0])) from None
        try:
            for name in times:
                if data[name] is not None:
                    data[name] = datetime.fromisoformat(data[name])
            for name in days:
                if data[name] is not None:
                    data[name] = date.fromisoformat(data[name])
        except (TypeError, ValueError):
            raise LeagueError(_("{where}: a {name} row with a bad date").format(
                                  where=where, name=table.name)) from None
        return data
    return decode


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
            yield "".join(prefix + json.dumps(encode(r), ensure_ascii=False) + "}\n"
                          for r in rows)


def restore(s: Session, stream: IO[str], name: str = "<backup>",
            progress: Optional[Callable[[int, Optional[int]], None]] = None) -> dict[str, int]:
    """Fill an empty database from a backup; the rows restored per table (``progress(done,
    total)`` told as they go). Anything wrong raises before the caller commits, so a failed
    restore leaves the database empty."""
    tables = {t.name: t for t in _tables()}
    for table in tables.values():
        if s.execute(select(func.count()).select_from(table)).scalar_one():
            raise LeagueError(_("the database is not empty (table {name} has rows): restore "
                                "into a new database").format(
                                  name=table.name))
    lines = bounded_lines(stream, name, RecordError, RECORD_LINE_MAX_BYTES)
    try:
        header = json.loads(next(lines))
    except (StopIteration, json.JSONDecodeError):
        raise RecordError(_("{name}: line 1: not a mighty backup").format(name=name)) from None
    if not isinstance(header, dict) or header.get("format") != BACKUP_FORMAT:
        raise RecordError(_("{name}: line 1: not a mighty backup (expected format "
                            "{expected!r})").format(
                              name=name, expected=BACKUP_FORMAT))
    decoders = {t: _decoder(table) for t, table in tables.items()}
    counts = {t: 0 for t in tables}
    told = header.get("tables")
    total = sum(n for n in told.values() if isinstance(n, int)) \
        if isinstance(told, dict) else None
    batch: list[dict] = []
    pending: list = []
    current = None
    number = 1
    for line in lines:
        number += 1
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            table_name, row = item["table"], item["row"]
        except (json.JSONDecodeError, KeyError, TypeError):
            raise RecordError(_("{name}: line {number}: not a backup row").format(
                                  name=name, number=number)) from None
        if not isinstance(table_name, str) or table_name not in tables:
            raise RecordError(_("{name}: line {number}: unknown table {table_name!r}").format(
                                  name=name, number=number, table_name=table_name))
        if table_name != current or len(batch) >= PAGE:
            _insert(s, tables, current, batch, pending)
            batch, current = [], table_name
            if progress is not None:
                progress(sum(counts.values()), total)
        batch.append(decoders[table_name](row, f"{name}: line {number}"))
        counts[table_name] += 1
    _insert(s, tables, current, batch, pending)
    _set_own_references(s, pending)
    expected = header.get("tables", {})
    if not isinstance(expected, dict):
        raise RecordError(_("{name}: line 1: not a mighty backup (its tables are not a "
                            "table of counts)").format(name=name))
    short = [t for t, n in expected.items() if counts.get(t, 0) != n]
    if short:
        found = counts.get(short[0], 0)
        raise RecordError(ngettext("{name}: table {table} has {count} row, the backup's header "
                                   "says {expected} (a cut-off file?)",
                                   "{name}: table {table} has {count} rows, the backup's header "
                                   "says {expected} (a cut-off file?)", found).format(
                              name=name, table=short[0], count=found,
                              expected=expected[short[0]]))
    _reset_sequences(s, tables.values())
    return counts


def _insert(s: Session, tables: dict[str, Table], name: Any, rows: list[dict],
            pending: list) -> None:
    """Insert a batch; a column referring to its own table (a merged player's ``merged_into``)
    is set afterwards, once every row it may point to is there."""
    if not rows:
        return
    table = tables[name]
    own = [c.name for c in table.columns
           if any(fk.column.table is table for fk in c.foreign_keys)]
    later = [(row, {c: row[c] for c in own}) for row in rows if any(row[c] is not None
                                                                     for c in own)]
    if later:
        rows = [dict(row, **{c: None for c in own}) for row in rows]
    s.execute(insert(table), rows)
    if later:
        pending.extend((table, row, values) for row, values in later)


def _set_own_references(s: Session, pending: list) -> None:
    from sqlalchemy import update

    for table, row, values in pending:
        key = list(table.primary_key.columns)
        s.execute(update(table).where(*(c == row[c.name] for c in key)).values(values))


def _reset_sequences(s: Session, tables) -> None:
    """PostgreSQL: move each id sequence past the restored ids (SQLite needs nothing)."""
    if s.get_bind().dialect.name != "postgresql":
        return
    for table in tables:
        key = list(table.primary_key.columns)
        if len(key) != 1 or not key[0].autoincrement or key[0].type.python_type is not int:
            continue
        s.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', "
                       f"'{key[0].name}'), COALESCE((SELECT MAX({key[0].name}) FROM "
                       f"{table.name}), 0) + 1, false)"))
