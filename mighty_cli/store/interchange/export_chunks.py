"""The export's chunk writers: a chunk of hands written as one string, straight from the rows
the store reads (:class:`.exports.HandRows`), in TOML, JSON or CSV.

A hand is its ``hand`` row (:data:`.exports._HAND_SQL`'s columns), its :class:`Seating` and its
points. Everything that repeats is worked out once: a player's name as a TOML line, a JSON
string or a CSV cell (by id), a contract, a call, a session's number and date, and each
seating's player list with its points as a ``str.format`` template. A hand is then one
f-string. A hand these writers do not cover (a refereed hand's record in TOML and JSON,
two friends, 허니문's friend hand, a hand without player rows) is written by
the general writers of :mod:`.export_text` from its view, so each hand reads the same whichever
way it went (``tests/store/test_export_chunks.py`` holds each writer to the general ones, hand
by hand). Nothing here grows with the league: caches are emptied when full.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import date
from typing import Any, NamedTuple

from ..ledger.hand_reads import HandView, eliminated_names
from .export_text import (
    csv_cell,
    csv_note,
    csv_row,
    json_dumps,
    json_export_hand,
    json_names,
    json_value,
    record_json,
    toml_export_hand,
    toml_names,
    toml_string,
)


class HandRow(NamedTuple):
    """A ``hand`` row as the export reads it: these columns, in this order, are what
    :data:`.exports._HAND_SQL` selects (the one place they are listed)."""

    id: int
    number: int
    session_id: int
    status: str
    voided: bool
    dealer_id: int | None
    declarer_id: int | None
    friend_id: int | None
    deal_miss_id: int | None
    contract: str | None
    friend_call: str | None
    taken: int | None
    success: bool | None
    base: int | None
    multiplier: int | None
    doublings: str | None
    pot_after: int
    full: bool
    record_toml: str | None
    note: str | None
    eliminated_seat: int | None


#: The columns' list in SQL (``full`` is quoted: a keyword in some databases).
HAND_COLUMNS_SQL = ", ".join(f'"{name}"' if name == "full" else name for name in HandRow._fields)


class Seating:
    """A hand's table as its player rows give it (rows in player order): who played, in seat
    order; who sat out, by name; where each row's points go in that order (``order``: row
    indexes, players then those sitting out, ``names`` in that order); who was eliminated
    (6마, 7마) and the friends' ids in seat order (two under 동대전 7마's two-card call). Hands
    of a session share a few seatings: each is worked out once, and each writer keeps its text
    of it here (``toml``, ``json``, ``csv``)."""

    __slots__ = (
        "players",
        "sitting_out",
        "order",
        "names",
        "eliminated",
        "friend_ids",
        "friend_id",
        "toml",
        "json",
        "csv",
    )

    def __init__(self, ids: tuple, seats: tuple, roles: tuple, names: dict[int, str]) -> None:
        rows = range(len(ids))
        seated = sorted((i for i in rows if seats[i] is not None), key=lambda i: (seats[i], ids[i]))
        out = [i for i in rows if seats[i] is None]
        if len(out) > 1:
            out.sort(key=lambda i: names[ids[i]])
        self.players = [names[ids[i]] for i in seated]
        self.sitting_out = [names[ids[i]] for i in out]
        self.order = tuple(seated + out)
        self.names = tuple(self.players + self.sitting_out)
        self.eliminated = [names[ids[i]] for i in seated if roles[i] == 1]
        self.friend_ids = tuple(ids[i] for i in seated if roles[i] == 2)
        #: the one friend's id (None: none, or two)
        self.friend_id = self.friend_ids[0] if len(self.friend_ids) == 1 else None
        self.toml: tuple[str, str] | None = None
        self.json: tuple[str, str] | None = None
        self.csv: tuple | None = None

    def out(self, seat: int) -> tuple[str, ...]:
        """시흥 은마: whose own hand left, from ``hand.eliminated_seat`` (a player's seat, or
        the one after the players: the dummy's)."""
        return tuple(eliminated_names(seat, self.players))

    def friends(self, names: dict[int, str]) -> list[str]:
        return [names[i] for i in self.friend_ids]

    def deltas(self, points: tuple) -> dict[str, int]:
        """Each name's points, players first (``points``: in the rows' own order)."""
        return dict(zip(self.names, map(points.__getitem__, self.order)))

    def one_friend(self, friend: int | None, declarer: int | None) -> bool:
        """Whether the hand has at most its one friend, ``friend``: no second friend and no
        허니문 friend hand (a friend stored as the declarer himself)."""
        return (
            len(self.friend_ids) <= 1
            and (friend is None or friend != declarer)
            and (self.friend_id is None or self.friend_id == friend)
        )


class _Texts(dict):
    """Text worked out once per key (a player id, a contract, a session id...) by ``make``;
    emptied when it holds ``limit`` keys, so memory stays flat whatever the league."""

    def __init__(self, make: Callable[[Any], str], limit: int = 8192) -> None:
        super().__init__()
        self.make = make
        self.limit = limit

    def __missing__(self, key: Any) -> str:
        if len(self) >= self.limit:
            self.clear()
        text = self[key] = self.make(key)
        return text


def _braces(text: str) -> str:
    """Text kept as it is inside a ``str.format`` template."""
    return text.replace("{", "{{").replace("}", "}}")


View = Callable[[tuple, Seating | None, tuple | None], HandView]


class _Chunks:
    """What the three writers share: the names and sessions the rows refer to by id, each
    session's start and end (``times``, by session number: written on its first hand), and
    ``view(row, seating, points)``, a hand's view for the general writers."""

    def __init__(
        self,
        names: dict[int, str],
        sessions: dict[int, tuple[int, date]],
        times: dict[int, tuple],
        view: View,
    ) -> None:
        self.names = names
        self.sessions = sessions
        self.times = times
        self.view = view
        self.session: Any = None  # the session of the last hand written

    def _times(self, session_id: int) -> tuple | None:
        """The session's start and end, on its first hand (call it when the session changes)."""
        self.session = session_id
        return self.times.get(self.sessions[session_id][0])

    def _name(self, make: Callable[[str | None], str]) -> _Texts:
        """Text of a player id (None: no player) as ``make`` writes his name (None: none)."""
        return _Texts(lambda player_id: make(self.names.get(player_id)))

    def _session(self, template: str) -> _Texts:
        """A session's number and date by session id, as ``template`` writes them."""
        return _Texts(
            lambda session_id: template.format(
                self.sessions[session_id][0], self.sessions[session_id][1].isoformat()
            )
        )


class TomlChunks(_Chunks):
    """Hands as ``[[hands]]`` tables: :func:`.export_text.toml_export_hand`'s text."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        line = self._name
        self.dealer = line(lambda name: "" if name is None else f"dealer = {toml_string(name)}\n")
        self.declarer = line(
            lambda name: "" if name is None else f"declarer = {toml_string(name)}\n"
        )
        self.deal_miss = line(
            lambda name: "" if name is None else f"deal_miss = {toml_string(name)}\n"
        )
        self.friend = line(lambda name: f"friend = {toml_string(name or 'none')}\n")
        self.contract = _Texts(
            lambda text: "" if text is None else f"contract = {toml_string(text)}\n"
        )
        self.friend_call = _Texts(
            lambda text: "" if text is None else f"friend_call = {toml_string(text)}\n"
        )
        self.session_text = self._session("session = {}\ndate = {}\n")

    @staticmethod
    def seating_text(seating: Seating) -> tuple[str, str]:
        """The players line, and the eliminated line (6마, 7마: the hand's last)."""
        seating.toml = (
            f"players = {toml_names(tuple(seating.players))}\n",
            f"eliminated = {toml_names(tuple(seating.eliminated))}\n" if seating.eliminated else "",
        )
        return seating.toml

    def chunk(
        self, hands: list[tuple], seatings: dict[int, Seating], points: dict[int, tuple]
    ) -> str:
        out = []
        append = out.append
        seating_of = seatings.get
        dealer_line, declarer_line, miss_line = self.dealer, self.declarer, self.deal_miss
        friend_line, contract_line, call_line = self.friend, self.contract, self.friend_call
        session_text = self.session_text
        for row in map(HandRow._make, hands):
            seating, session_id = seating_of(row.id), row.session_id
            times = self._times(session_id) if session_id != self.session else None
            if (
                seating is None
                or row.full
                and row.record_toml
                or not seating.one_friend(row.friend_id, row.declarer_id)
            ):
                append(toml_export_hand(self.view(row, seating, points.get(row.id)), times))
                continue
            if times:
                started = f"session_started = {times[0].isoformat()}\n"
                if times[1] is not None:
                    started += f"session_ended = {times[1].isoformat()}\n"
            else:
                started = ""
            players, eliminated = seating.toml or self.seating_text(seating)
            out_seat, taken, note = row.eliminated_seat, row.taken, row.note
            if row.status == "deal_miss":
                outcome, eliminated = miss_line[row.deal_miss_id], ""
            else:
                if out_seat is not None:  # 시흥 은마: whose own hand left (hand.eliminated_seat)
                    eliminated = f"eliminated = {toml_names(seating.out(out_seat))}\n"
                outcome = (
                    f"{declarer_line[row.declarer_id]}{contract_line[row.contract]}"
                    f"{friend_line[row.friend_id]}{call_line[row.friend_call]}"
                    f"{'' if taken is None else f'taken = {taken}{NL}'}"
                )
            append(
                f"\n[[hands]]\nnumber = {row.number}\n{session_text[session_id]}{started}"
                f"{players}{dealer_line[row.dealer_id]}{outcome}"
                f"{f'note = {toml_string(note)}{NL}' if note else ''}{eliminated}"
            )
        return "".join(out)


NL = "\n"


def _json_base(base: Any) -> str:
    """The JSON of a hand's base: a whole number without ``.0``."""
    return json_value(int(base) if base is not None and float(base).is_integer() else base)


class JsonChunks(_Chunks):
    """Hands as JSON objects: :func:`.export_text.json_export_hand`'s text, each after
    ``",\\n  "`` (the first after ``"\\n  "``)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.name = self._name(json_value)
        self.text = _Texts(json_value)  # a status, contract or call (None: null)
        self.number = _Texts(json_value)  # taken, multiplier (None: null)
        self.base = _Texts(_json_base)
        self.doublings = _Texts(
            lambda text: json_names(tuple(d for d in text.split(",") if d) if text else ())
        )
        self.session_text = self._session('"session": {}, "day": "{}"')
        self.first = True

    @staticmethod
    def seating_text(seating: Seating) -> tuple[str, str]:
        """The players and those sitting out; the deltas as a template of the points, and the
        eliminated after them (6마, 7마)."""
        deltas = ", ".join(
            f"{_braces(json_value(name))}: {{{index}}}"
            for name, index in zip(seating.names, seating.order)
        )
        eliminated = (
            f', "eliminated": {_braces(json_names(tuple(seating.eliminated)))}'
            if seating.eliminated
            else ""
        )
        seating.json = (
            f'"players": {json_names(tuple(seating.players))}, '
            f'"sitting_out": {json_names(tuple(seating.sitting_out))}',
            '"deltas": {{' + deltas + "}}" + eliminated,
        )
        return seating.json

    def chunk(
        self, hands: list[tuple], seatings: dict[int, Seating], points: dict[int, tuple]
    ) -> str:
        out = []
        append = out.append
        seating_of = seatings.get
        name, text, number, base_text = self.name, self.text, self.number, self.base
        doublings_text, session_text = self.doublings, self.session_text
        for row in map(HandRow._make, hands):
            seating, session_id = seating_of(row.id), row.session_id
            times = self._times(session_id) if session_id != self.session else None
            if (
                seating is None
                or row.full
                and row.record_toml
                or not seating.one_friend(row.friend_id, row.declarer_id)
            ):
                append(json_export_hand(self.view(row, seating, points.get(row.id)), times))
                continue
            seated, deltas = seating.json or self.seating_text(seating)
            success, note, out_seat = row.success, row.note, row.eliminated_seat
            append(
                f'{{"number": {row.number}, {session_text[session_id]}, '
                f'"status": {text[row.status]}, '
                f'"voided": {"true" if row.voided else "false"}, '
                f'{seated}, "dealer": {name[row.dealer_id]}, '
                f'"declarer": {name[row.declarer_id]}, '
                f'"friend": {name[row.friend_id]}, "friend_call": {text[row.friend_call]}, '
                f'"contract": {text[row.contract]}, "taken": {number[row.taken]}, '
                f'"success": {"null" if success is None else "true" if success else "false"}'
                f', "base": {base_text[row.base]}, "multiplier": {number[row.multiplier]}, '
                f'"doublings": {doublings_text[row.doublings]}, '
                f'"deal_miss": {name[row.deal_miss_id]}, '
                f'"pot_after": {row.pot_after}, "full": {"true" if row.full else "false"}, '
                f'"note": {"null" if note is None else json_dumps(note)}, '
                f"{deltas.format(*points[row.id])}"
                + (
                    ""
                    if out_seat is None
                    # 시흥 은마: whose own hand left
                    else f', "eliminated": {json_names(seating.out(out_seat))}'
                )
                + (
                    "}"
                    if not times
                    else f', "session_started": "{times[0].isoformat()}", "session_ended": '
                    f"{json_dumps(times[1] and times[1].isoformat())}}}"
                )
            )
        if not out:
            return ""
        joined = ",\n  ".join(out)
        if self.first:
            self.first = False
            return "\n  " + joined
        return ",\n  " + joined


def csv_quoted(cell: str) -> str:
    """A cell as :mod:`csv`'s writer writes it in a row (``excel`` dialect, lines ending
    ``\\r\\n``): in double quotes, its own doubled, when it holds a comma, a quote or a line
    break."""
    if '"' in cell:
        return '"' + cell.replace('"', '""') + '"'
    if "," in cell or "\n" in cell or "\r" in cell:
        return f'"{cell}"'
    return cell


def csv_text(value: Any) -> str:
    """:func:`.export_text.csv_cell` as a cell of a written row."""
    return csv_quoted(csv_cell(value))


def record_cell(record_toml: str) -> str:
    """A refereed hand's record (:func:`.export_text.record_json`) as a cell of a written row."""
    return csv_quoted(csv_cell(record_json(record_toml)))


class CsvChunks(_Chunks):
    """Hands as CSV lines: :func:`.export_text.csv_row`'s cells, as :mod:`csv`'s writer
    writes them (``columns``: the players' columns, in order; ``times``: each session's start and
    end as :func:`.exports.csv_session_times` gives them). A refereed hand's record and the
    eliminated are written here too."""

    def __init__(
        self, names: dict[int, str], sessions: dict, times: dict, view: View, columns: list[str]
    ) -> None:
        super().__init__(names, sessions, times, view)
        self.columns = columns
        self.name = self._name(csv_text)
        self.text = _Texts(csv_text)  # a status, contract, call or base (None: blank)
        self.doublings = _Texts(
            lambda text: csv_text(" ".join([d for d in text.split(",") if d] if text else []))
        )
        self.session_text = self._session("{},{}")
        self.buffer = io.StringIO()
        self.writer = csv.writer(self.buffer, lineterminator="\r\n")

    def seating_text(self, seating: Seating) -> tuple[str, str, str, tuple]:
        """The players cell, the eliminated cell, the points columns as a template of the
        points, and the rows of those sitting out (a zero there is a blank)."""
        where = dict(zip(seating.names, seating.order))
        columns = "".join(
            "," + ("" if name not in where else f"{{{where[name]}}}") for name in self.columns
        )
        seating.csv = (
            csv_text(", ".join(seating.players)),
            csv_text(", ".join(seating.eliminated)) if seating.eliminated else "",
            columns + "\r\n",
            tuple(where[name] for name in seating.sitting_out),
        )
        return seating.csv

    def chunk(
        self, hands: list[tuple], seatings: dict[int, Seating], points: dict[int, tuple]
    ) -> str:
        out = []
        append = out.append
        seating_of = seatings.get
        name, text, doublings_text = self.name, self.text, self.doublings
        session_text = self.session_text
        for row in map(HandRow._make, hands):
            seating, session_id = seating_of(row.id), row.session_id
            times = self._times(session_id) if session_id != self.session else None
            if seating is None or not seating.one_friend(row.friend_id, row.declarer_id):
                append(self._general(row, seating, points.get(row.id), times))
                continue
            playing, eliminated, columns, out_rows = seating.csv or self.seating_text(seating)
            if row.eliminated_seat is not None:  # 시흥 은마: whose own hand left
                eliminated = csv_text(", ".join(seating.out(row.eliminated_seat)))
            values = points[row.id]
            if out_rows:  # those sitting out: blank unless they paid or got points
                values = list(values)
                for index in out_rows:
                    if not values[index]:
                        values[index] = ""
            taken, success, multiplier, note = row.taken, row.success, row.multiplier, row.note
            append(
                f"{row.number},{session_text[session_id]},{text[row.status]},"
                f"{name[row.dealer_id]},{name[row.declarer_id]},{text[row.contract]},"
                f"{name[row.friend_id]},{text[row.friend_call]},"
                f"{'' if taken is None else taken},"
                f"{'' if success is None else 'made' if success else 'failed'},"
                f"{text[row.base]},{'' if multiplier is None else multiplier},"
                f"{doublings_text[row.doublings]},{name[row.deal_miss_id]},{row.pot_after},"
                f"{playing},{eliminated},{'' if not note else csv_quoted(csv_note(note))},"
                f"{times[0].isoformat(sep=' ') if times else ''},"
                f"{times[1].isoformat(sep=' ') if times and times[1] is not None else ''},"
                f"{record_cell(row.record_toml) if row.full and row.record_toml else ''}"
                f"{columns.format(*values)}"
            )
        return "".join(out)

    def _general(
        self, row: tuple, seating: Seating | None, points: tuple | None, times: tuple | None
    ) -> str:
        """A hand the chunk writer does not cover: :func:`.export_text.csv_row` through
        :mod:`csv`."""
        self.writer.writerow(csv_row(self.view(row, seating, points), self.columns, times))
        text = self.buffer.getvalue()
        self.buffer.seek(0)
        self.buffer.truncate()
        return text
