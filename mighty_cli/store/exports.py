"""Export: a league's hands as a hand record (TOML), JSON or CSV, written as a stream.

Hands are read in chunks of consecutive hand numbers (keyset pages: no ``IN (...)`` list grows
with the league), turned into text one hand at a time and yielded chunk by chunk, so memory
stays flat whatever the league's size. Every format carries what ``mighty import`` needs to
rebuild the league's standings and hand numbers (:mod:`.interchange` reads all three back):
each hand's number, session and date, the five who played, the outcome, the note, and a
refereed hand's full record. Voided hands are left out (a backup keeps them: :mod:`.backup`).

Each session's first hand also carries when the session started and ended
(``session_started``, ``session_ended``: UTC times, ``+00:00``; no end while the session is
open), so an imported league shows when its evenings were played rather than when it was
imported. A 6마/7마 hand names who was eliminated in every format (CSV: the ``eliminated``
column, names separated by commas like ``players``).
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
from datetime import date, datetime, timezone
from functools import lru_cache
from typing import Any, Callable, Iterator, Optional

from sqlmodel import Session, select

from ..engine.record import FORMAT
from . import LeagueError
from .hands import HandView, second_friend
from .lookups import get_league
from .models import HandPlayer, League, LeagueSession, Player, SessionSeat
from ..engine.translation import _

#: Hands read per query: big enough to be quick, small enough to keep memory flat.
CHUNK = 2000
FORMATS = ("toml", "json", "csv")
_JSON = json.JSONEncoder(ensure_ascii=False, default=str)

#: The CSV header's fixed columns (then one column per player, in seating order).
CSV_COLUMNS = ("hand", "session", "date", "status", "dealer", "declarer", "contract", "friend",
               "friend call", "taken", "success", "base", "multiplier", "doublings",
               "deal miss", "pot after", "players", "note", "hand record (refereed)",
               "eliminated", "session started", "session ended")
#: The fixed columns of a CSV written before the last three were added (still read).
CSV_COLUMNS_BEFORE = CSV_COLUMNS[:-3]


# --- reading the league in chunks ---------------------------------------------------------------


def league_players(s: Session, league_id: int) -> list[str]:
    """Everyone who played or paid in the league, in seating order: by session, then seat;
    anyone else (a pot payer never seated) after them, by name."""
    names: dict[str, None] = {}
    for name in s.exec(select(Player.name).select_from(SessionSeat)
                      .join(LeagueSession, LeagueSession.id == SessionSeat.session_id)
                      .join(Player, Player.id == SessionSeat.player_id)
                      .where(LeagueSession.league_id == league_id)
                      .order_by(LeagueSession.number, SessionSeat.seat)).all():
        names.setdefault(name)
    others = s.exec(select(Player.name).where(
        Player.id.in_(select(HandPlayer.player_id).where(HandPlayer.league_id == league_id)
                      .distinct())).order_by(Player.name)).all()
    for name in others:
        names.setdefault(name)
    return list(names)


#: A hand's columns as the export reads them (plain SQL on the driver's own cursor: at a
#: million hands, SQLAlchemy's row objects cost more than the query).
_HAND_SQL = ("SELECT id, number, session_id, status, voided, dealer_id, declarer_id, friend_id, "
             "deal_miss_id, contract, friend_call, taken, success, base, multiplier, doublings, "
             "pot_after, \"full\", record_toml, note FROM hand "
             "WHERE league_id = {0} AND number > {0}{1} ORDER BY number LIMIT {0}")
_MEMBER_SQL = ("SELECT hp.hand_id, hp.seat, hp.points + hp.pot, hp.player_id, hp.role "
               "FROM hand_player hp JOIN hand h ON h.id = hp.hand_id "
               "WHERE h.league_id = {0} AND h.number >= {0} AND h.number <= {0} "
               "ORDER BY hp.hand_id, hp.seat IS NULL, hp.seat")


def utc_time(moment: datetime) -> datetime:
    """A stored time as an aware UTC time (the store keeps UTC; SQLite returns it naive)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def session_times(s: Session, league_id: int) -> dict[int, tuple[datetime, Optional[datetime]]]:
    """Each session's start and end (None while open), as aware UTC times, by number."""
    return {number: (utc_time(started), ended and utc_time(ended))
            for number, started, ended in s.exec(
                select(LeagueSession.number, LeagueSession.started_at, LeagueSession.ended_at)
                .where(LeagueSession.league_id == league_id)).all()}


def _group_members(rows: list[tuple], names: dict[int, str]) -> dict[int, tuple]:
    """A chunk's player rows (hand id, seat, points, player id, role; ordered by hand, then
    seat with the sitting-out last) as each hand's players in seat order, those sitting out
    (by name), its deltas, who was eliminated (6마, 7마) and who was friend (two under 동대전
    7마's two-card call)."""
    grouped: dict[int, tuple] = {}
    current = None
    players: list[str] = []
    sitting_out: list[str] = []
    eliminated: list[str] = []
    friends: list[str] = []
    deltas: dict[str, int] = {}
    for hand_id, seat, points, player_id, role in rows:
        if hand_id != current:
            if len(sitting_out) > 1:
                _by_name(players, sitting_out, deltas)
            current = hand_id
            players, sitting_out, deltas, eliminated, friends = [], [], {}, [], []
            grouped[hand_id] = (players, sitting_out, deltas, eliminated, friends)
        name = names[player_id]
        deltas[name] = points
        if seat is None:
            sitting_out.append(name)
        else:
            players.append(name)
            if role == "eliminated":
                eliminated.append(name)
            elif role == "friend":  # two of them under a two-card call (동대전 7마)
                friends.append(name)
    if len(sitting_out) > 1:
        _by_name(players, sitting_out, deltas)
    return grouped


def _by_name(players: list[str], sitting_out: list[str], deltas: dict[str, int]) -> None:
    """Those sitting out in name order, in the list and in the deltas (after the players)."""
    sitting_out.sort()
    points = dict(deltas)
    deltas.clear()
    for name in players + sitting_out:
        deltas[name] = points[name]


def iter_hand_views(s: Session, league: League, *, include_voided: bool = False,
                    chunk: int = 0) -> Iterator[HandView]:
    """The league's hands in order as views, read ``chunk`` (default :data:`CHUNK`) hands at
    a time (keyset pages on the hand number, on the transaction's own connection)."""
    chunk = chunk or CHUNK
    s.flush()
    connection = s.connection()
    names = dict(connection.execute(select(Player.id, Player.name)).all())
    sessions = {i: (n, d) for i, n, d in connection.execute(
        select(LeagueSession.id, LeagueSession.number, LeagueSession.day)
        .where(LeagueSession.league_id == league.id)).all()}
    mark = "?" if connection.dialect.name == "sqlite" else "%s"
    hand_sql = _HAND_SQL.format(mark, "" if include_voided else " AND NOT voided")
    member_sql = _MEMBER_SQL.format(mark)
    cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
    get = names.get

    def read(after: int) -> tuple[list, list]:
        """The chunk of hands after hand number ``after``, and their player rows."""
        cursor.execute(hand_sql, (league.id, after, chunk))
        hands = cursor.fetchall()
        if not hands:
            return hands, []
        cursor.execute(member_sql, (league.id, hands[0][1], hands[-1][1]))
        return hands, cursor.fetchall()

    # PostgreSQL: the next chunk is read by a thread while this one is turned into text (the
    # server's work and ours overlap; psycopg lets other threads run while it waits). SQLite
    # reads in the same thread (its connection belongs to one).
    ahead = _ReadAhead(read) if connection.dialect.name == "postgresql" else None
    try:
        if ahead is not None:
            ahead.start(0)
        after = 0
        while True:
            hands, rows = ahead.result() if ahead is not None else read(after)
            if not hands:
                return
            after = hands[-1][1]
            if ahead is not None:
                ahead.start(after)
            members = _group_members(rows, names)
            for (hand_id, number, session_id, status, voided, dealer, declarer, friend, miss,
                 contract, friend_call, taken, success, base, multiplier, doublings, pot_after,
                 full, record_toml, note) in hands:
                players, sitting_out, deltas, eliminated, friends = \
                    members.get(hand_id) or ([], [], {}, [], [])
                session_number, day = sessions[session_id]
                yield HandView(
                    number, session_number, day, status, bool(voided), players, sitting_out,
                    get(dealer), get(declarer), get(friend), friend_call, contract, taken,
                    None if success is None else bool(success), base, multiplier,
                    [d for d in doublings.split(",") if d] if doublings else [],
                    get(miss), pot_after, bool(full), note, deltas, record_toml,
                    eliminated, second_friend(get(friend), friends))  # 6마, 7마; 동대전 7마
    finally:
        if ahead is not None:
            ahead.finish()  # the cursor is the thread's until its read is done
        cursor.close()


class _ReadAhead:
    """One read at a time on a thread: :meth:`start` it, take it with :meth:`result` (its
    error raised here), or :meth:`finish` it unread when the export stops early."""

    def __init__(self, read: Callable[[int], tuple]) -> None:
        self.read = read
        self.thread: Optional[threading.Thread] = None
        self.value: Any = None
        self.error: Optional[BaseException] = None

    def start(self, after: int) -> None:
        def run() -> None:
            try:
                self.value = self.read(after)
            except BaseException as exc:  # raised by result(), in the export's thread
                self.error = exc

        self.thread = threading.Thread(target=run, name="mighty-export-reader", daemon=True)
        self.thread.start()

    def result(self) -> Any:
        self.finish()
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        value, self.value = self.value, None
        return value

    def finish(self) -> None:
        if self.thread is not None:
            self.thread.join()
            self.thread = None


def _with_times(views: Iterator[HandView], times: dict) -> Iterator[tuple]:
    """Each view with its session's start and end on the session's first hand (else None)."""
    session = None
    for view in views:
        if view.session != session:
            session = view.session
            yield view, times.get(session)
        else:
            yield view, None


def _batched(views: Iterator[tuple], render: Callable[..., str],
             size: int = 500) -> Iterator[str]:
    """Text of ``size`` hands at a time (fewer, larger writes)."""
    buffer: list[str] = []
    for view, times in views:
        buffer.append(render(view, times))
        if len(buffer) >= size:
            yield "".join(buffer)
            buffer = []
    if buffer:
        yield "".join(buffer)


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


def _toml_header(league: League, players: list[str]) -> str:
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


# --- the export ---------------------------------------------------------------------------------


def iter_export(s: Session, league_name: str, fmt: str = "toml", *,
                bom: bool = False) -> Iterator[str]:
    """The league's export as chunks of text (``bom``: start a CSV with a UTF-8 byte-order
    mark, so spreadsheet programs read Hangul right)."""
    if fmt not in FORMATS:
        raise LeagueError(_("--format {fmt!r}: expected toml, csv or json").format(fmt=fmt))
    league = get_league(s, league_name)
    players = league_players(s, league.id)  # type: ignore[arg-type]
    views = _with_times(iter_hand_views(s, league),
                        session_times(s, league.id))  # type: ignore[arg-type]
    if fmt == "toml":
        yield _toml_header(league, players)
        yield from _batched(views, toml_export_hand)
    elif fmt == "json":
        from .queries import standings

        yield ("{" + ", ".join(f"{_dumps(k)}: {_dumps(v)}" for k, v in (
            ("format", FORMAT), ("league", league.name), ("ruleset", league.ruleset_name),
            ("players", players), ("ruleset_toml", league.ruleset_toml))) + ",\n \"hands\": [")
        first = True
        for text in _batched(views, lambda v, t: ",\n  " + json_export_hand(v, t)):
            yield text[1:] if first else text
            first = False
        yield ("\n ],\n \"standings\": " + _dumps(standings(s, league.name).to_json())
               + "\n}\n")
    else:
        if bom:
            yield "\ufeff"
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow([csv_cell(c) for c in list(CSV_COLUMNS) + players])

        yield _drain(out)
        batch: list[list[str]] = []
        for view, times in views:
            batch.append(csv_row(view, players, times))
            if len(batch) >= 500:
                writer.writerows(batch)
                batch = []
                yield _drain(out)
        writer.writerows(batch)
        yield _drain(out)


def _drain(out: io.StringIO) -> str:
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


def export_league(s: Session, league_name: str, fmt: str = "toml",
                  bom: bool = False) -> str:
    """The whole export as one string (for tests and small leagues; the CLI streams)."""
    return "".join(iter_export(s, league_name, fmt, bom=bom))


def write_export(s: Session, league_name: str, fmt: str, out, bom: bool = False) -> int:
    """Write the export to a text stream chunk by chunk; the characters written."""
    written = 0
    for text in iter_export(s, league_name, fmt, bom=bom):
        out.write(text)
        written += len(text)
    return written
