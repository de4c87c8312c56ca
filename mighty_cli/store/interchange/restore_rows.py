"""A restore's checks of one row at a time, as it is read from the backup: each value against
its column (kind, range on both databases, length, NULL), the text the tool reads back (a
ruleset's TOML, a hand's record, JSON in a column, a seed, a time zone, a name), and the values
a command would never store (a session numbered 0, a role no hand has). A time written without
its zone is read as UTC, as the store keeps every time.

The rows together (references, seats, open tables, every hand replayed) are checked once all
are in (:mod:`.restore_checks`). A problem is one :class:`~mighty_cli.store.LeagueError` line
naming the file's line, the table, the row's key and the column.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, datetime, timezone
from typing import Any

from sqlalchemy import BigInteger, Date, DateTime, Table

from ...engine.errors import MightyError, RecordError
from ...engine.limits import CLOCK_MAX_MINUTES, POINTS_LIMIT, SEED_MAX_DIGITS
from ...engine.records.file import check_hand_shape, read_record
from ...engine.ruleset import ruleset_from_toml
from ...engine.safe_toml import parse
from ...engine.translation import N_, _
from ...league.standings import parse_rank_by
from .. import LeagueError
from ..ledger.entry_codes import entry_code_problem
from ..ledger.leagues import LEAGUE_SETTINGS, checked_setting
from ..ledger.lookups import check_name
from ..models import StoredPoints

#: What a problem of a row says: the problem, the column it is in.
Problem = tuple[str, str] | None


def python_type(column) -> Any:
    """date or datetime for a column holding one (a TypeDecorator by what it wraps)."""
    kind = getattr(column.type, "impl", column.type)
    if isinstance(kind, DateTime):
        return datetime
    return date if isinstance(kind, Date) else None


def row_key(table: Table, row: Any) -> str:
    """The row's primary key as a message names it: ``id 7``, ``league_id 1, key 'lang'``."""
    if not isinstance(row, dict):
        return "?"
    return ", ".join(f"{c.name} {row.get(c.name)!r}" for c in table.primary_key.columns)


def row_problem(where: str, table: Table, row: Any, column: str, problem: str) -> LeagueError:
    """One line naming the place, the table and column, the row and what is wrong."""
    return LeagueError(
        _("{where}: {table}.{column} ({key}): {problem}").format(
            where=where, table=table.name, column=column, key=row_key(table, row), problem=problem
        )
    )


#: The integers each kind of column holds on every database the store runs on (PostgreSQL's
#: INTEGER is 32 bits, its BIGINT and SQLite's INTEGER 64); a hand's points as a command
#: stores them (:class:`~..models.StoredPoints`).
_INT_RANGES = {
    "big": (-(2**63), 2**63 - 1),
    "int": (-(2**31), 2**31 - 1),
    "points": (-POINTS_LIMIT, POINTS_LIMIT),
}


def _column_check(column) -> Callable[[Any], str | None]:
    """A function ``value -> problem or None`` for a column's values as a backup holds them:
    the column's Python kind, its integer range on both databases, its length, NULL only where
    the column allows it."""
    kind = getattr(column.type, "impl", column.type)
    kind = kind() if isinstance(kind, type) else kind
    wanted = python_type(column)
    nullable = column.nullable or (column.primary_key and column.autoincrement is True)
    if wanted is not None:
        expected: Any = str
    else:
        try:
            expected = kind.python_type
        except NotImplementedError:
            expected = str
    low, high = _INT_RANGES[
        "points"
        if isinstance(column.type, StoredPoints)
        else "big"
        if isinstance(kind, BigInteger)
        else "int"
    ]
    length = getattr(kind, "length", None)

    def check(value):
        if value is None:
            return None if nullable else _("no value (the column needs one)")
        if expected is bool:
            return None if isinstance(value, bool) else _("not true or false")
        if expected is int:
            if isinstance(value, bool) or not isinstance(value, int):
                return _("not a whole number")
            return (
                None
                if low <= value <= high
                else _("{value} is beyond what the database stores ({low} to {high})").format(
                    value=value, low=low, high=high
                )
            )
        if expected is float:
            return (
                None
                if isinstance(value, (int, float)) and not isinstance(value, bool)
                else _("not a number")
            )
        if not isinstance(value, str):
            return _("not text")
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate ("\ud800"): no database stores it
                return _("not UTF-8 text (a lone surrogate)")
        if "\0" in value:  # PostgreSQL stores no NUL in text
            return _("holds a NUL character")
        if length is not None and len(value) > length:
            return _("longer than {length} characters").format(length=length)
        return None

    return check


def _time(value: str) -> datetime:
    """A backup's time: ISO 8601, in UTC when it says no zone (the store's times are UTC)."""
    moment = datetime.fromisoformat(value)
    if moment.utcoffset() is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)  # OverflowError beyond year 9999


# --- what a command would store ------------------------------------------------------------------

_SEED = re.compile(rf"-?[0-9]{{1,{SEED_MAX_DIGITS}}}")
#: A hand's statuses and a player's roles in it (store/ledger/hands.py).
STATUSES = ("scored", "deal_miss", "redeal")
ROLES = ("declarer", "friend", "opponent", "eliminated", "player", "out")


def _error_text(error: Exception) -> str:
    return (str(error).splitlines() or [type(error).__name__])[0]


def seed_problem(value: str) -> str | None:
    """A stored seed (``round start --seed``, a duplicate round's, a referee's): decimal."""
    if _SEED.fullmatch(value):
        return None
    return _("{value!r} is not a seed (a whole number of at most {digits} digits)").format(
        value=value[:50], digits=SEED_MAX_DIGITS
    )


def name_problem(value: str, what: str = N_("player name")) -> str | None:
    """A name as a command stores it: usable (:func:`..ledger.lookups.check_name`) and written as
    the tool writes it (trimmed, NFC)."""
    try:
        clean = check_name(value, what)
    except MightyError as exc:
        return _error_text(exc)
    return (
        None
        if clean == value
        else _(
            "{name!r} is not written as the tool writes a name (trimmed, in Unicode NFC)"
        ).format(name=value[:50])
    )


def _numbered(value: int) -> str | None:
    return None if value >= 1 else _("{value}: numbers start at 1").format(value=value)


def _not_negative(value: int) -> str | None:
    return None if value >= 0 else _("{value}: must be 0 or more").format(value=value)


def _json_text(value: str) -> str | None:
    try:
        json.loads(value)
    except ValueError as exc:
        return _("not JSON text ({error})").format(error=exc)
    return None


def _rank_by(value: str) -> str | None:
    try:
        parse_rank_by(value)
    except MightyError as exc:
        return _error_text(exc)
    return None


def _one_of(*allowed: str) -> Callable[[Any], str | None]:
    def check(value):
        return (
            None
            if value in allowed
            else _("{value!r}: expected one of {allowed}").format(
                value=value, allowed=", ".join(allowed)
            )
        )

    return check


def planned_players(value: str) -> str | None:
    """A planned table's players: a JSON list of distinct names."""
    try:
        players = json.loads(value)
    except ValueError:
        players = None
    if not isinstance(players, list) or not players or not all(isinstance(p, str) for p in players):
        return _("{value!r} is not a JSON list of player names").format(value=value[:50])
    for name in players:
        problem = name_problem(name)
        if problem:
            return problem
    if len(set(players)) != len(players):
        return _("a player is named twice")
    return None


def _setting(row: dict) -> Problem:
    column = "value" if row["key"] in LEAGUE_SETTINGS else "key"
    try:
        checked_setting(row["key"], row["value"])
    except MightyError as exc:
        return column, _error_text(exc)
    return None


def _round_table(row: dict) -> Problem:
    """A session is a table of a round (both given) or a session of its own (neither)."""
    if (row["round_id"] is None) != (row["table_number"] is None):
        column = "table_number" if row["round_id"] is not None else "round_id"
        return column, _(
            "a round's table has both a round_id and a table_number; a session "
            "of its own has neither"
        )
    return None


def _clock_minutes(value: int) -> str | None:
    if not 1 <= value <= CLOCK_MAX_MINUTES:
        return _("a round's clock runs from 1 to {most} minutes, not {minutes}").format(
            most=CLOCK_MAX_MINUTES, minutes=value
        )
    return None


def _clock(row: dict) -> Problem:
    """A round's clock has both its start and its minutes, or neither."""
    if (row["clock_started_at"] is None) != (row["clock_minutes"] is None):
        column = "clock_minutes" if row["clock_started_at"] is not None else "clock_started_at"
        return column, _("a round's clock has both a start and its minutes, or neither")
    return None


def _merged(row: dict) -> Problem:
    if row["merged_into_id"] is not None and row["merged_into_id"] == row["id"]:
        return "merged_into_id", _("a player merged into himself")
    return None


def _substitute(row: dict) -> Problem:
    if row["player_id"] == row["for_player_id"]:
        return "for_player_id", _("a player sits in for himself")
    return None


#: Per (table, column): a check of a value that is there (not NULL).
VALUE_CHECKS: dict[tuple[str, str], Callable[[Any], str | None]] = {
    ("player", "name"): name_problem,
    ("league", "name"): lambda value: name_problem(value, N_("league name")),
    ("league", "min_hands"): _not_negative,
    ("league", "rank_by"): _rank_by,
    ("league_round", "number"): _numbered,
    ("league_round", "seed"): seed_problem,
    ("league_round", "deal_seed"): seed_problem,
    ("league_round", "clock_minutes"): _clock_minutes,
    ("league_session", "number"): _numbered,
    ("league_session", "deal_seed"): seed_problem,
    ("league_session", "table_number"): _numbered,
    ("league_session", "entry_code"): entry_code_problem,
    ("session_seat", "seat"): _not_negative,
    ("planned_table", "round_number"): _numbered,
    ("planned_table", "table_number"): _numbered,
    ("planned_table", "players"): planned_players,
    ("round_substitute", "round_number"): _numbered,
    ("hand", "number"): _numbered,
    ("hand", "status"): _one_of(*STATUSES),
    ("hand", "pot_after"): _not_negative,
    ("hand", "eliminated_seat"): _not_negative,
    ("hand_player", "seat"): _not_negative,
    ("hand_player", "role"): _one_of(*ROLES),
    ("change_log", "before"): _json_text,
    ("change_log", "after"): _json_text,
}
#: Per table: checks of the row's values together.
ROW_CHECKS: dict[str, tuple[Callable[[dict], Problem], ...]] = {
    "player": (_merged,),
    "league_setting": (_setting,),
    "league_session": (_round_table,),
    "league_round": (_clock,),
    "round_substitute": (_substitute,),
}


def _content_check(table_name: str, column: str) -> Callable[[str], None] | None:
    """The columns whose text the tool reads back: a ruleset's TOML, a hand's record (each
    raises a project error)."""
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
                check_hand_shape(
                    data, 0, players if isinstance(players, list) else [], "record_toml"
                )

        return record
    return None


def decoder(table: Table) -> Callable[[Any, str], dict]:
    """A function ``(row as read, where) -> row to insert`` for the table, raising one line for
    the first problem."""
    times = [c.name for c in table.columns if python_type(c) is datetime]
    days = [c.name for c in table.columns if python_type(c) is date]
    names = {c.name for c in table.columns}
    checks = [(c.name, _column_check(c)) for c in table.columns]
    contents = [
        (c.name, check)
        for c in table.columns
        if (check := _content_check(table.name, c.name)) is not None
    ]
    values = [
        (c.name, check)
        for c in table.columns
        if (check := VALUE_CHECKS.get((table.name, c.name))) is not None
    ]
    together = ROW_CHECKS.get(table.name, ())

    def decode(row: Any, where: str) -> dict:
        if not isinstance(row, dict) or set(row) - names:
            unknown = sorted(set(row) - names) if isinstance(row, dict) else []
            raise LeagueError(
                _("{where}: a {name} row with unknown column {column!r}").format(
                    where=where, name=table.name, column=unknown[0] if unknown else "?"
                )
            )
        data = {name: row.get(name) for name in names}  # uniform rows for executemany
        for name, check in checks:
            problem = check(data[name])
            if problem:
                raise row_problem(where, table, data, name, problem)
        for name, content in contents:
            if data[name] is not None:
                try:
                    content(data[name])
                except MightyError as exc:
                    raise row_problem(where, table, data, name, _error_text(exc)) from None
        for name, check in values:
            if data[name] is not None:
                problem = check(data[name])
                if problem:
                    raise row_problem(where, table, data, name, problem)
        for check_row in together:
            found = check_row(data)
            if found:
                raise row_problem(where, table, data, *found)
        for name in times + days:
            if data[name] is None:
                continue
            try:
                data[name] = _time(data[name]) if name in times else date.fromisoformat(data[name])
            except (ValueError, OverflowError):
                shown = data[name][:50]
                raise row_problem(
                    where,
                    table,
                    data,
                    name,
                    _(
                        "{value!r} is not a date and time in ISO 8601 (2024-03-05T19:30:00+00:00)"
                    ).format(value=shown)
                    if name in times
                    else _("{value!r} is not a date in ISO 8601 (2024-03-05)").format(value=shown),
                ) from None
        return data

    return decode
