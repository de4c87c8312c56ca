"""The export's text: each hand of a league written as TOML, JSON or CSV.

Two ways to one text. The general writers take a :class:`~.hands.HandView` (the hand with
names, as ``hand show`` sees it): :func:`toml_hand` of :func:`_export_hand`, :func:`hand_json`
and :func:`csv_row`, with :func:`toml_export_hand` and :func:`json_export_hand` writing the same
text directly for a hand recorded by its outcome. The chunk writers (:class:`TomlChunks`,
:class:`JsonChunks`, :class:`CsvChunks`) are what an export runs: they write a chunk of hands
straight from the rows the store reads (:mod:`.exports`), one string per chunk, from pieces
worked out once (a player's name as a TOML, JSON or CSV cell, a contract, a session's number and
date, a seating's player list and its deltas as a format template). A hand they do not cover (a
refereed hand's record, a 6마/7마 hand naming the eliminated, two friends, 허니문's friend
hand, a hand without player rows) is written by the general writers from its view, so every
hand reads the same whichever way it went; ``tests/store/test_export_chunks.py`` holds each
chunk writer to the general ones hand by hand.
"""

from __future__ import annotations

import json
import re
from datetime import date
from functools import lru_cache
from typing import Any, Callable, Optional

from ..engine.record import FORMAT
from .hands import HandView
from .models import League

_JSON = json.JSONEncoder(ensure_ascii=False, default=str)


# --- TOML ---------------------------------------------------------------------------------------


_PLAIN = re.compile(r'[^"\\\x00-\x1f\x7f]*\Z')


@lru_cache(maxsize=4096)  # names, contracts and calls repeat on every hand
def toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's, but DEL must be escaped too)."""
    if _PLAIN.match(text):
        return f'"{text}"'
    quoted = _JSON.encode(text)
    return quoted.replace("\x7f", "\\u007f") if "\x7f" in quoted else quoted


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return "[" + ", ".join(map(toml_string, value)) + "]"
    raise TypeError(type(value).__name__)


#: The key order of an exported hand (HAND_RECORD.md's, with number, session and date first).
TOML_ORDER = ("number", "session", "date", "session_started", "session_ended", "players",
              "dealer", "deal_miss", "declarer", "contract", "friend", "friend2", "friend_call",
              "taken", "opposition", "note")


def toml_hand(hand: dict) -> str:
    """One ``[[hands]]`` table as TOML text; a refereed hand (nested tables, card lists)
    goes through tomli_w."""
    lines = ["\n[[hands]]\n"]
    try:
        for key in TOML_ORDER:
            if key in hand:
                lines.append(f"{key} = {_toml_value(hand[key])}\n")
        for key, value in hand.items():
            if key not in TOML_ORDER:
                lines.append(f"{key} = {_toml_value(value)}\n")
    except TypeError:
        import tomli_w

        ordered = {k: hand[k] for k in TOML_ORDER if k in hand} | hand
        return "\n" + tomli_w.dumps({"hands": [ordered]}, multiline_strings=False)
    return "".join(lines)


def _export_hand(view: HandView, times: Optional[tuple] = None) -> dict:
    hand = {"number": view.number} | view.hand_dict()
    if times:  # the session's first hand: when it started and ended
        hand["session_started"] = times[0]
        if times[1] is not None:
            hand["session_ended"] = times[1]
    return hand


@lru_cache(maxsize=4096)  # a league has few seatings
def _toml_names(names: tuple[str, ...]) -> str:
    return "[" + ", ".join(map(toml_string, names)) + "]"


def toml_export_hand(view: HandView, times: Optional[tuple] = None) -> str:
    """An exported hand as TOML text: what ``toml_hand(_export_hand(view, times))`` writes,
    built directly for a hand recorded by its outcome (a refereed hand, a 6마/7마 hand naming
    the eliminated, or a hand of two friends goes the general way). ``times``: the session's
    start and end, given with its first hand."""
    if view.full and view.record_toml or view.eliminated or view.friend2:
        return toml_hand(_export_hand(view, times))
    text = (f"\n[[hands]]\nnumber = {view.number}\nsession = {view.session}\n"
            f"date = {view.day.isoformat()}\n")
    if times:
        text += f"session_started = {times[0].isoformat()}\n"
        if times[1] is not None:
            text += f"session_ended = {times[1].isoformat()}\n"
    text += f"players = {_toml_names(tuple(view.players))}\n"
    if view.dealer is not None:
        text += f"dealer = {toml_string(view.dealer)}\n"
    if view.status == "deal_miss":
        if view.deal_miss is not None:
            text += f"deal_miss = {toml_string(view.deal_miss)}\n"
    else:
        if view.declarer is not None:
            text += f"declarer = {toml_string(view.declarer)}\n"
        if view.contract is not None:
            text += f"contract = {toml_string(view.contract)}\n"
        text += f"friend = {toml_string(view.friend or 'none')}\n"
        if view.friend_call is not None:
            text += f"friend_call = {toml_string(view.friend_call)}\n"
        if view.taken is not None:
            text += f"taken = {view.taken}\n"
    if view.note:
        text += f"note = {toml_string(view.note)}\n"
    return text


def toml_header(league: League, players: list[str]) -> str:
    import tomli_w

    return tomli_w.dumps({"format": FORMAT, "ruleset": league.ruleset_name, "players": players,
                          "league": league.name, "ruleset_toml": league.ruleset_toml},
                         multiline_strings=False)


# --- JSON ---------------------------------------------------------------------------------------


def hand_json(view: HandView, times: Optional[tuple] = None) -> dict:
    """A hand as JSON: the view's fields (as ``HandView.to_json``), a refereed hand's record,
    and on a session's first hand (``times``) when the session started and ended."""
    base = view.base
    data = {"number": view.number, "session": view.session, "day": view.day.isoformat(),
            "status": view.status, "voided": view.voided, "players": view.players,
            "sitting_out": view.sitting_out, "dealer": view.dealer, "declarer": view.declarer,
            "friend": view.friend, "friend_call": view.friend_call, "contract": view.contract,
            "taken": view.taken, "success": view.success,
            "base": int(base) if base is not None and float(base).is_integer() else base,
            "multiplier": view.multiplier, "doublings": view.doublings,
            "deal_miss": view.deal_miss, "pot_after": view.pot_after, "full": view.full,
            "note": view.note, "deltas": view.deltas}
    if view.eliminated:  # 6마, 7마
        data["eliminated"] = view.eliminated
    if view.friend2:  # 동대전 7마's second friend
        data["friend2"] = view.friend2
    if view.full and view.record_toml:
        import tomllib

        data["record"] = tomllib.loads(view.record_toml)
    if times:
        data["session_started"] = times[0].isoformat()
        data["session_ended"] = times[1] and times[1].isoformat()
    return data


_dumps = _JSON.encode
#: JSON of a value that repeats from hand to hand (typed: True, 1 and 1.0 are not the same).
_json_value = lru_cache(maxsize=8192, typed=True)(_dumps)


@lru_cache(maxsize=4096)
def _json_names(names: tuple[str, ...]) -> str:
    return _dumps(list(names))


def json_export_hand(view: HandView, times: Optional[tuple] = None) -> str:
    """An exported hand as JSON text: what ``_dumps(hand_json(view, times))`` writes, built
    directly for a hand recorded by its outcome (a refereed hand, or a 6마/7마 hand naming the
    eliminated, goes the general way)."""
    if view.full and view.record_toml or view.eliminated or view.friend2:
        return _dumps(hand_json(view, times))
    j = _json_value
    base = view.base
    if base is not None and float(base).is_integer():
        base = int(base)
    deltas = ", ".join([f"{j(name)}: {value}" for name, value in view.deltas.items()])
    return (f'{{"number": {view.number}, "session": {view.session}, '
            f'"day": "{view.day.isoformat()}", "status": {j(view.status)}, '
            f'"voided": {"true" if view.voided else "false"}, '
            f'"players": {_json_names(tuple(view.players))}, '
            f'"sitting_out": {_json_names(tuple(view.sitting_out))}, '
            f'"dealer": {j(view.dealer)}, "declarer": {j(view.declarer)}, '
            f'"friend": {j(view.friend)}, "friend_call": {j(view.friend_call)}, '
            f'"contract": {j(view.contract)}, "taken": {j(view.taken)}, '
            f'"success": {j(view.success)}, "base": {j(base)}, '
            f'"multiplier": {j(view.multiplier)}, '
            f'"doublings": {_json_names(tuple(view.doublings))}, '
            f'"deal_miss": {j(view.deal_miss)}, "pot_after": {view.pot_after}, '
            f'"full": {"true" if view.full else "false"}, "note": {_dumps(view.note)}, '
            f'"deltas": {{{deltas}}}'
            + ("}" if not times else
               f', "session_started": "{times[0].isoformat()}", "session_ended": '
               f'{_dumps(times[1] and times[1].isoformat())}}}'))


# --- CSV ----------------------------------------------------------------------------------------


#: What a spreadsheet reads as the start of a formula (OWASP's CSV injection list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """Every CSV cell is written through here: blank for nothing, whole numbers without
    ``.0``, and text a spreadsheet would run as a formula (a player named ``=HYPERLINK(...)``)
    neutralised by a leading apostrophe (:func:`.formats.csv_value` reads it back); numbers
    stay numbers."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return str(value)


#: :func:`csv_cell` of a text that repeats from hand to hand (names, contracts, seatings).
_csv_text = lru_cache(maxsize=8192, typed=True)(csv_cell)  # typed: True is not 1.0


def csv_row(view: HandView, names: list[str], times: Optional[tuple] = None) -> list[str]:
    """One hand as a CSV row: the fixed columns, then each player's points (blank for a
    player who sat the hand out and paid nothing). Every cell is :func:`csv_cell`'s. The
    session's start and end (``times``) are written on its first hand only."""
    text = _csv_text
    playing = view.players
    deltas = view.deltas
    taken, multiplier = view.taken, view.multiplier
    row = [str(view.number), str(view.session), view.day.isoformat(), text(view.status),
           text(view.dealer), text(view.declarer), text(view.contract),
           text(f"{view.friend}, {view.friend2}" if view.friend2 else view.friend),
           text(view.friend_call), "" if taken is None else str(taken), text(view.success),
           text(view.base), "" if multiplier is None else str(multiplier),
           text(" ".join(view.doublings)), text(view.deal_miss), str(view.pot_after),
           text(", ".join(playing)), csv_cell(view.note),
           csv_cell(view.record_toml) if view.full else "",
           text(", ".join(view.eliminated)) if view.eliminated else "",
           times[0].isoformat(sep=" ") if times else "",
           times[1].isoformat(sep=" ") if times and times[1] is not None else ""]
    for name in names:
        value = deltas.get(name)
        row.append("" if value is None or (not value and name not in playing)
                   else str(value))
    return row


# --- chunk writers: a chunk of hands from the store's rows, one string ---------------------------


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


class _Chunks:
    """What the three chunk writers share: the names and sessions the rows refer to by id, each
    session's start and end (written on its first hand), and the general path: ``view(row,
    member)`` makes a hand's view (:meth:`.exports.HandRows.view`) for the general writer."""

    kind = ""

    def __init__(self, names: dict[int, str], sessions: dict[int, tuple[int, date]],
                 times: dict[int, tuple], view: Callable[[tuple, Any], HandView]) -> None:
        self.names = names
        self.sessions = sessions
        self.times = times
        self.view = view
        self.session: Any = None  # the session of the last hand written

    def _times(self, session_id: int) -> Optional[tuple]:
        """The session's start and end if this hand is its first (else None)."""
        if session_id == self.session:
            return None
        self.session = session_id
        return self.times.get(self.sessions[session_id][0])

    def _name(self, make: Callable[[Optional[str]], str]) -> _Texts:
        """Text of a player id (None for no player) as ``make`` writes his name."""
        return _Texts(lambda player_id: make(self.names.get(player_id)))

    def _seating(self, seating: Any) -> Any:
        """This writer's text of a seating (worked out once, kept with it)."""
        texts = seating.texts.get(self.kind)
        if texts is None:
            texts = seating.texts[self.kind] = self.seating_text(seating)
        return texts

    def seating_text(self, seating: Any) -> Any:
        raise NotImplementedError


def _one_friend(row: tuple, seating: Any) -> bool:
    """Whether the hand has at most its one friend: no second friend (동대전 7마) and no
    허니문 friend hand (a friend stored as the declarer himself)."""
    friend = row[7]
    return (friend is None or friend != row[6]) and seating.friend_ids in ((), (friend,))


def _direct(row: tuple, member: Any) -> bool:
    """Whether the TOML and JSON chunk writers write this hand themselves: it has player rows,
    no refereed record, nobody eliminated and at most its one friend (:func:`_one_friend`);
    the CSV writer also writes the first two."""
    return (member is not None and not (row[17] and row[18]) and not member[0].eliminated
            and _one_friend(row, member[0]))


class TomlChunks(_Chunks):
    """Hands as ``[[hands]]`` tables: :func:`toml_export_hand`'s text."""

    kind = "toml"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        line = self._name
        self.dealer = line(lambda name: "" if name is None else f"dealer = {toml_string(name)}\n")
        self.declarer = line(lambda name: "" if name is None else
                             f"declarer = {toml_string(name)}\n")
        self.deal_miss = line(lambda name: "" if name is None else
                              f"deal_miss = {toml_string(name)}\n")
        self.friend = line(lambda name: f"friend = {toml_string(name or 'none')}\n")
        self.contract = _Texts(lambda text: "" if text is None else
                               f"contract = {toml_string(text)}\n")
        self.friend_call = _Texts(lambda text: "" if text is None else
                                  f"friend_call = {toml_string(text)}\n")
        self.session_text = _Texts(lambda session_id: "session = {}\ndate = {}\n".format(
            self.sessions[session_id][0], self.sessions[session_id][1].isoformat()))

    def seating_text(self, seating: Any) -> str:
        return f"players = {_toml_names(tuple(seating.players))}\n"

    def chunk(self, hands: list[tuple], members: dict) -> str:
        out = []
        append = out.append
        get = members.get
        for row in hands:
            (hand_id, number, session_id, status, _voided, dealer, declarer, friend, miss,
             contract, friend_call, taken, _success, _base, _multiplier, _doublings, _pot,
             _full, _record, note) = row
            member = get(hand_id)
            times = self._times(session_id) if session_id != self.session else None
            if not _direct(row, member):
                append(toml_export_hand(self.view(row, member), times))
                continue
            if times:
                started = f"session_started = {times[0].isoformat()}\n"
                if times[1] is not None:
                    started += f"session_ended = {times[1].isoformat()}\n"
            else:
                started = ""
            if status == "deal_miss":
                outcome = self.deal_miss[miss]
            else:
                outcome = (f"{self.declarer[declarer]}{self.contract[contract]}"
                           f"{self.friend[friend]}{self.friend_call[friend_call]}"
                           + ("" if taken is None else f"taken = {taken}\n"))
            append(f"\n[[hands]]\nnumber = {number}\n{self.session_text[session_id]}{started}"
                   f"{self._seating(member[0])}{self.dealer[dealer]}{outcome}"
                   + (f"note = {toml_string(note)}\n" if note else ""))
        return "".join(out)


def _json_base(base: Any) -> str:
    """The JSON of a hand's base: a whole number without ``.0``."""
    return _json_value(int(base) if base is not None and float(base).is_integer() else base)


class JsonChunks(_Chunks):
    """Hands as JSON objects: :func:`json_export_hand`'s text, each after ``",\\n  "`` (the
    first after ``"\\n  "``)."""

    kind = "json"

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.name = self._name(_json_value)
        self.text = _Texts(_json_value)  # a status, contract or call (None: null)
        self.number = _Texts(_json_value)  # taken, multiplier (None: null)
        self.base = _Texts(_json_base)
        self.doublings = _Texts(lambda text: _json_names(
            tuple(d for d in text.split(",") if d) if text else ()))
        self.session_text = _Texts(lambda session_id: '"session": {}, "day": "{}"'.format(
            self.sessions[session_id][0], self.sessions[session_id][1].isoformat()))
        self.first = True

    def seating_text(self, seating: Any) -> tuple[str, str]:
        """The players and those sitting out, and the deltas as a template of the points."""
        deltas = ", ".join(f"{_braces(_json_value(name))}: {{{index}}}"
                           for name, index in zip(seating.names, seating.order))
        return (f'"players": {_json_names(tuple(seating.players))}, '
                f'"sitting_out": {_json_names(tuple(seating.sitting_out))}',
                '"deltas": {{' + deltas + "}}")

    def chunk(self, hands: list[tuple], members: dict) -> str:
        out = []
        append = out.append
        get = members.get
        name, text, number = self.name, self.text, self.number
        for row in hands:
            (hand_id, hand_number, session_id, status, voided, dealer, declarer, friend, miss,
             contract, friend_call, taken, success, base, multiplier, doublings, pot_after,
             full, _record, note) = row
            member = get(hand_id)
            times = self._times(session_id) if session_id != self.session else None
            if not _direct(row, member):
                append(json_export_hand(self.view(row, member), times))
                continue
            seated, deltas = self._seating(member[0])
            append(f'{{"number": {hand_number}, {self.session_text[session_id]}, '
                   f'"status": {text[status]}, "voided": {"true" if voided else "false"}, '
                   f'{seated}, "dealer": {name[dealer]}, "declarer": {name[declarer]}, '
                   f'"friend": {name[friend]}, "friend_call": {text[friend_call]}, '
                   f'"contract": {text[contract]}, "taken": {number[taken]}, '
                   f'"success": {"null" if success is None else "true" if success else "false"}'
                   f', "base": {self.base[base]}, "multiplier": {number[multiplier]}, '
                   f'"doublings": {self.doublings[doublings]}, "deal_miss": {name[miss]}, '
                   f'"pot_after": {pot_after}, "full": {"true" if full else "false"}, '
                   f'"note": {"null" if note is None else _dumps(note)}, '
                   + deltas.format(*member[1])
                   + ("}" if not times else
                      f', "session_started": "{times[0].isoformat()}", "session_ended": '
                      f'{_dumps(times[1] and times[1].isoformat())}}}'))
        if not out:
            return ""
        text_ = ",\n  ".join(out)
        if self.first:
            self.first = False
            return "\n  " + text_
        return ",\n  " + text_


def csv_quoted(cell: str) -> str:
    """A cell as :mod:`csv`'s writer writes it in a row (``excel`` dialect, lines ending
    ``\\r\\n``): in double quotes, its own doubled, when it holds a comma, a quote or a line
    break."""
    if '"' in cell:
        return '"' + cell.replace('"', '""') + '"'
    if "," in cell or "\n" in cell or "\r" in cell:
        return f'"{cell}"'
    return cell


def _csv_text_cell(value: Any) -> str:
    return csv_quoted(csv_cell(value))


class CsvChunks(_Chunks):
    """Hands as CSV lines: :func:`csv_row`'s cells, written as :mod:`csv`'s writer writes
    them."""

    kind = "csv"

    def __init__(self, names: dict[int, str], sessions: dict, times: dict,
                 view: Callable[[tuple, Any], HandView], columns: list[str]) -> None:
        super().__init__(names, sessions, times, view)
        self.columns = columns  # the players' columns, in order
        self.name = self._name(_csv_text_cell)
        self.text = _Texts(_csv_text_cell)
        self.base = _Texts(_csv_text_cell)
        self.doublings = _Texts(lambda text: _csv_text_cell(" ".join(
            [d for d in text.split(",") if d] if text else [])))
        self.session_text = _Texts(lambda session_id: "{},{}".format(
            self.sessions[session_id][0], self.sessions[session_id][1].isoformat()))
        import csv
        import io

        self.buffer = io.StringIO()
        self.writer = csv.writer(self.buffer, lineterminator="\r\n")

    def seating_text(self, seating: Any) -> tuple[str, str, tuple]:
        """The players cell, the eliminated cell, the points columns as a template of the
        points, and the rows of those sitting out (a zero there is a blank)."""
        where = dict(zip(seating.names, seating.order))
        columns = "".join("," + ("" if name not in where else f"{{{where[name]}}}")
                          for name in self.columns)
        out = tuple(where[name] for name in seating.sitting_out)
        return (_csv_text_cell(", ".join(seating.players)),
                _csv_text_cell(", ".join(seating.eliminated)) if seating.eliminated else "",
                columns + "\r\n", out)

    def chunk(self, hands: list[tuple], members: dict) -> str:
        out = []
        append = out.append
        get = members.get
        name, text = self.name, self.text
        for row in hands:
            (hand_id, number, session_id, status, _voided, dealer, declarer, friend, miss,
             contract, friend_call, taken, success, base, multiplier, doublings, pot_after,
             full, record_toml, note) = row
            member = get(hand_id)
            times = self._times(session_id) if session_id != self.session else None
            if member is None or not _one_friend(row, member[0]):
                append(self._general(row, member, times))
                continue
            playing, eliminated, columns, out_rows = self._seating(member[0])
            points = member[1]
            if out_rows:  # those sitting out: blank unless they paid or got points
                points = list(points)
                for index in out_rows:
                    if not points[index]:
                        points[index] = ""
            append(f"{number},{self.session_text[session_id]},{text[status]},{name[dealer]},"
                   f"{name[declarer]},{text[contract]},{name[friend]},{text[friend_call]},"
                   f"{'' if taken is None else taken},"
                   f"{'' if success is None else 'True' if success else 'False'},"
                   f"{self.base[base]},{'' if multiplier is None else multiplier},"
                   f"{self.doublings[doublings]},{name[miss]},{pot_after},{playing},"
                   f"{'' if note is None else _csv_text_cell(note)},"
                   f"{_csv_text_cell(record_toml) if full else ''},{eliminated},"
                   + (f"{times[0].isoformat(sep=' ')},"
                      f"{'' if times[1] is None else times[1].isoformat(sep=' ')}"
                      if times else ",")
                   + columns.format(*points))
        return "".join(out)

    def _general(self, row: tuple, member: Any, times: Optional[tuple]) -> str:
        """A hand the chunk writer does not cover: :func:`csv_row` through :mod:`csv`."""
        self.writer.writerow(csv_row(self.view(row, member), self.columns, times))
        text = self.buffer.getvalue()
        self.buffer.seek(0)
        self.buffer.truncate()
        return text
