"""Reading an export back: a hand record (TOML), the JSON or the CSV that ``mighty export``
writes, each as a :class:`~mighty_cli.engine.records.Record` whose hands come one at a time.

The format is the file's extension (``.toml``, ``.json``, ``.csv``) unless ``--format`` says
otherwise. JSON and CSV hands are turned back into hand-record tables (a refereed hand from its
embedded record), so one import path checks and stores all three.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from ...engine import safe_toml
from ...engine.errors import RecordError
from ...engine.inputs import bounded_lines, open_text
from ...engine.limits import RECORD_LINE_MAX_BYTES, RECORD_MAX_BYTES
from ...engine.records import FORMAT, Record
from ...engine.records.stream import check_hand, stream_record
from ...engine.safe_toml import tomllib
from ...engine.translation import _
from .exports import CSV_COLUMNS, CSV_LAYOUTS, FORMATS


def detect_format(path: str | Path, fmt: str | None = None) -> str:
    """``fmt`` if given, else the extension; anything else is read as a hand record."""
    if fmt:
        if fmt not in FORMATS:
            raise RecordError(_("--format {fmt!r}: expected toml, csv or json").format(fmt=fmt))
        return fmt
    suffix = Path(path).suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else "toml"


def open_record(path: str | Path, fmt: str | None = None) -> Record:
    """The record in a TOML, JSON or CSV file, its hands read as they are used."""
    kind = detect_format(path, fmt)
    if kind == "toml":
        return stream_record(path)
    stream = open_text(path, str(path), RecordError, newline="")
    reader = _json_record if kind == "json" else _csv_record
    try:
        return reader(stream, str(path))
    except UnicodeDecodeError as exc:
        stream.close()
        raise RecordError(
            _("{path}: cannot read: {reason}").format(path=path, reason=exc)
        ) from None


def count_hands(path: str | Path, fmt: str | None = None) -> int | None:
    """About how many hands a file holds, read quickly for a progress line: a hand record's
    ``[[hands]]`` tables, a CSV's rows; None for JSON (or a file that cannot be read)."""
    kind = detect_format(path, fmt)
    try:
        with open(path, encoding="utf-8-sig", errors="replace", newline="") as stream:
            if kind == "toml":
                return sum(1 for line in stream if line.strip() == "[[hands]]")
            if kind == "csv":
                return max(0, sum(1 for _row in csv.reader(stream)) - 1)
    except (OSError, csv.Error):
        return None
    return None


def view_to_hand(view: dict, where: str) -> dict | None:
    """An exported hand (JSON fields) as a hand-record table; None for a voided hand."""
    if not isinstance(view, dict):
        raise RecordError(_("{where}: expected an object").format(where=where))
    if view.get("voided"):
        return None
    record = view.get("record")
    if isinstance(record, dict):
        hand: dict[str, Any] = dict(record)
    elif view.get("status") == "deal_miss":
        hand = {"dealer": view.get("dealer"), "deal_miss": view.get("deal_miss")}
    else:
        hand = {
            "dealer": view.get("dealer"),
            "declarer": view.get("declarer"),
            "contract": view.get("contract"),
            "friend": view.get("friend") or "none",
            "friend2": view.get("friend2"),  # 동대전 7마's second friend
            "friend_call": view.get("friend_call"),
            "taken": view.get("taken"),
            "eliminated": view.get("eliminated"),
        }  # 6마, 7마
    hand = {
        "number": view.get("number"),
        "session": view.get("session"),
        "date": view.get("day"),
        "session_started": view.get("session_started"),
        "session_ended": view.get("session_ended"),
        "players": view.get("players"),
    } | hand
    if view.get("note"):
        hand["note"] = view["note"]
    return {k: v for k, v in hand.items() if v is not None}


# --- JSON ---------------------------------------------------------------------------------------


def _json_record(stream: IO[str], name: str) -> Record:
    """The JSON export streams: its hands are one per line between ``"hands": [`` and ``]``.
    A JSON file laid out otherwise is read whole."""
    head: list[str] = []
    size = 0
    lines = bounded_lines(stream, name, RecordError, RECORD_MAX_BYTES)
    for line in lines:
        if line.strip() == '"hands": [':
            break
        size += len(line)
        if size > RECORD_MAX_BYTES:  # a JSON laid out otherwise is read whole: bounded
            raise RecordError(
                _("{name}: larger than {size} MiB").format(name=name, size=RECORD_MAX_BYTES >> 20)
            )
        head.append(line)
    else:
        stream.close()
        try:
            data = json.loads("".join(head))
        except json.JSONDecodeError as exc:
            raise RecordError(
                _("{name}: not valid JSON: {exc}").format(name=name, exc=exc)
            ) from None
        if not isinstance(data, dict):
            raise RecordError(
                _("{name}: expected a JSON object (a league export)").format(name=name)
            )
        return _json_header(data, name, iter(data.get("hands") or ()))
    text = "".join(head).rstrip().rstrip(",") + "}"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(_("{name}: not valid JSON: {exc}").format(name=name, exc=exc)) from None
    return _json_header(data, name, _json_lines(stream, name, len(head) + 1))


def _json_lines(stream: IO[str], name: str, number: int) -> Iterator[Any]:
    with stream:
        for line in bounded_lines(
            stream, name, RecordError, RECORD_LINE_MAX_BYTES, first=number + 1
        ):
            number += 1
            text = line.strip()
            if text.startswith("]"):
                return
            try:
                yield json.loads(text.rstrip(","))
            except json.JSONDecodeError as exc:
                raise RecordError(
                    _("{name}: line {number}: not valid JSON: {exc}").format(
                        name=name, number=number, exc=exc
                    )
                ) from None
        raise RecordError(
            _("{name}: the hands list is not closed (a cut-off file?)").format(name=name)
        )


def _json_header(data: dict, name: str, views: Iterator[Any]) -> Record:
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise RecordError(
            _("{name}: expected a league export (with players and hands)").format(name=name)
        )
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(
            _("{name}: format = {fmt!r}: expected {expected!r}").format(
                name=name, fmt=fmt, expected=FORMAT
            )
        )
    players = [str(p) for p in data["players"]]
    extra = {k: data[k] for k in ("league", "ruleset_toml") if data.get(k) is not None}
    return Record(
        ruleset=str(data.get("ruleset", "standard")),
        players=players,
        hands=_checked(views, players, name),
        extra=extra,  # type: ignore[arg-type]
        base_dir=Path(name).parent,
    )


def _checked(views: Iterator[Any], players: list[str], name: str) -> Iterator[dict]:
    index = 0
    for view in views:
        hand = view_to_hand(view, f"{name}: hand {index + 1}")
        if hand is None:
            continue
        index += 1
        check_hand(hand, index, players, name)
        yield hand


# --- CSV ----------------------------------------------------------------------------------------


def csv_value(cell: str) -> str:
    """Every CSV cell is read through here: a cell a spreadsheet-safe writer prefixed with
    ``'`` (so ``=``, ``+``, ``-`` or ``@`` is not taken for a formula) is read without it."""
    cell = cell.strip()
    if len(cell) > 1 and cell[0] == "'" and cell[1] in "=+-@\t\r":
        return cell[1:]
    return cell


def _csv_record(stream: IO[str], name: str) -> Record:
    rows = csv.reader(bounded_lines(stream, name, RecordError, RECORD_LINE_MAX_BYTES))
    try:
        header = [csv_value(c) for c in next(rows)]
    except StopIteration:
        stream.close()
        raise RecordError(_("{name}: empty CSV file").format(name=name)) from None
    except csv.Error as exc:
        stream.close()
        raise RecordError(
            _("{name}: line 1: not valid CSV: {exc}").format(name=name, exc=exc)
        ) from None
    # The CSVs exported before (a multi-line TOML record, notes as they are; earlier still, no
    # eliminated and no session times) read too.
    folded = [h.lower() for h in header]
    columns = next(
        (c for c in CSV_LAYOUTS if folded[: len(c)] == [column.lower() for column in c]), None
    )
    if columns is None:
        stream.close()
        raise RecordError(
            _(
                "{name}: line 1: expected the header of a league export "
                "({columns}, then the players)"
            ).format(name=name, columns=", ".join(CSV_COLUMNS))
        )
    players = header[len(columns) :]
    return Record(
        ruleset="standard",
        players=players,
        hands=_checked(
            _csv_views(stream, rows, name, columns),  # type: ignore
            players,
            name,
        ),
        extra={"ruleset_unknown": True},
        base_dir=Path(name).parent,
    )


def _int(value: str, name: str, line: int, column: str) -> int | None:
    if value == "":
        return None
    try:
        return int(value)
    except ValueError:
        raise RecordError(
            _("{name}: line {line}: {column} {value!r}: expected a whole number").format(
                name=name, line=line, column=column, value=value
            )
        ) from None


_NOTE_ESCAPE = re.compile(r"\\([\\nr])")
_NOTE_CHARACTERS = {"\\": "\\", "n": "\n", "r": "\r"}


def csv_note_value(cell: str) -> str:
    """A note cell of the CSV written now (:func:`.export_text.csv_note`): ``\\n`` a line
    break, ``\\r`` a carriage return, ``\\\\`` a backslash; any other backslash is itself."""
    if "\\" not in cell:
        return cell
    return _NOTE_ESCAPE.sub(lambda found: _NOTE_CHARACTERS[found.group(1)], cell)


def _embedded(record: str, name: str, line: int, as_json: bool) -> dict | None:
    """A refereed hand's record cell: one line of JSON as written now (``as_json``), or the
    TOML of the CSVs written before."""

    if not record:
        return None
    if as_json:
        try:
            embedded = json.loads(record)
        except json.JSONDecodeError as exc:
            raise RecordError(
                _("{name}: line {line}: refereed record: not valid JSON: {exc}").format(
                    name=name, line=line, exc=exc
                )
            ) from None
        if not isinstance(embedded, dict):
            raise RecordError(
                _("{name}: line {line}: refereed record: expected a JSON object").format(
                    name=name, line=line
                )
            )
        return embedded
    try:
        return safe_toml.loads(record)
    except tomllib.TOMLDecodeError as exc:
        raise RecordError(
            _("{name}: line {line}: hand record: not valid TOML: {exc}").format(
                name=name, line=line, exc=exc
            )
        ) from None


def _csv_views(stream: IO[str], rows, name: str, columns: tuple) -> Iterator[dict]:
    current = columns == CSV_COLUMNS  # notes escaped, the record one line of JSON
    record_column = "refereed record (JSON)" if current else "hand record (refereed)"
    with stream:
        line = 1
        try:
            for row in rows:
                line = rows.line_num
                if not any(cell.strip() for cell in row):
                    continue
                cells = dict(zip(columns, (csv_value(c) for c in row)))
                embedded = _embedded(cells.get(record_column) or "", name, line, current)
                note = cells.get("note") or None
                if note and current:
                    note = csv_note_value(note)
                # The result column (made/failed, True/False before) is not read: the import
                # works it out from the hand, as it does for every format.
                yield {
                    "number": _int(cells.get("hand", ""), name, line, "hand"),
                    "session": _int(cells.get("session", ""), name, line, "session"),
                    "day": cells.get("date") or None,
                    "status": cells.get("status"),
                    "players": [p.strip() for p in cells.get("players", "").split(",") if p.strip()]
                    or None,
                    "dealer": cells.get("dealer") or None,
                    "declarer": cells.get("declarer") or None,
                    "contract": cells.get("contract") or None,
                    # 동대전 7마: two friends in one cell, as the players cell lists
                    "friend": (cells.get("friend") or "").split(",")[0].strip() or None,
                    "friend2": ",".join((cells.get("friend") or "").split(",")[1:]).strip() or None,
                    "friend_call": cells.get("friend call") or None,
                    "taken": _int(cells.get("taken", ""), name, line, "taken"),
                    "deal_miss": cells.get("deal miss") or None,
                    "eliminated": [
                        p.strip() for p in cells.get("eliminated", "").split(",") if p.strip()
                    ]
                    or None,  # 6마, 7마
                    "session_started": cells.get("session started") or None,
                    "session_ended": cells.get("session ended") or None,
                    "note": note,
                    "record": embedded,
                }
        except csv.Error as exc:
            raise RecordError(
                _("{name}: line {line}: not valid CSV: {exc}").format(name=name, line=line, exc=exc)
            ) from None
