"""Export: a league's hands as a hand record (TOML), JSON or CSV, written as a stream.

Hands are read in chunks of consecutive hand numbers (keyset pages: no ``IN (...)`` list grows
with the league) as the driver's plain rows (:class:`HandRows`), and each chunk is written as
one string by the format's chunk writer (:mod:`.export_chunks`, which sends the hands it does
not cover to the general writers of :mod:`.export_text`), so memory stays flat whatever the
league's size. On PostgreSQL the next chunk is read while this one is written. Every format carries what ``mighty import`` needs to
rebuild the league's standings and hand numbers (:mod:`.imports` reads all three back):
each hand's number, session and date, the five who played, the outcome, the note, and a
refereed hand's full record. Voided hands are left out (a backup keeps them: :mod:`.backup`).

Each session's first hand also carries when the session started and ended
(``session_started``, ``session_ended``: UTC times, ``+00:00``; no end while the session is
open), so an imported league shows when its evenings were played rather than when it was
imported. A 6마/7마 hand names who was eliminated in every format (CSV: the ``eliminated``
column, names separated by commas like ``players``).

The CSV is for people too: every hand one line a spreadsheet shows as one row (a refereed hand's
record one line of JSON, a note's line breaks escaped), ``made``/``failed``, and the session
times as local times to the second in the league's time zone (:func:`csv_session_times`). It
reads back to the second; TOML and JSON keep the stored times to the microsecond.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import date, datetime, tzinfo
from itertools import groupby
from operator import itemgetter
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.records import FORMAT, Record
from ...engine.translation import _
from .. import LeagueError
from ..ledger.hand_reads import HandView, eliminated_names, second_friend
from ..ledger.leagues import league_setting
from ..ledger.lookups import get_league
from ..ledger.queries import standings
from ..models import Hand, HandPlayer, League, LeagueSession, Player, SessionSeat, utc_time
from .export_chunks import (
    HAND_COLUMNS_SQL,
    CsvChunks,
    HandRow,
    JsonChunks,
    Seating,
    TomlChunks,
    csv_text,
)
from .export_text import json_dumps, toml_header

#: Hands read per query: big enough to be quick, small enough to keep memory flat.
CHUNK = 2000
FORMATS = ("toml", "json", "csv")

#: The CSV header's fixed columns (then one column per player, in seating order): a row a
#: spreadsheet shows on one line. ``result`` is ``made`` or ``failed`` in every language (the
#: file is read back; the import works the result out from the hand again); a note's line
#: breaks and backslashes are written ``\n``, ``\r`` and ``\\``; the session times are local
#: times to the second in the league's time zone, with their offset; a refereed hand's record
#: is one line of JSON (the JSON export's ``record``), last, out of the way of the rest.
CSV_COLUMNS = (
    "hand",
    "session",
    "date",
    "status",
    "dealer",
    "declarer",
    "contract",
    "friend",
    "friend call",
    "taken",
    "result",
    "base",
    "multiplier",
    "doublings",
    "deal miss",
    "pot after",
    "players",
    "eliminated",
    "note",
    "session started",
    "session ended",
    "refereed record (JSON)",
)
#: The fixed columns of the CSVs written before, still read: a result of ``True``/``False``
#: or ``made``/``failed``, the record as multi-line TOML, notes as they are, times in UTC to
#: the microsecond; the first of them had no eliminated and no session times (the last three).
CSV_COLUMNS_TOML_RECORD = (
    "hand",
    "session",
    "date",
    "status",
    "dealer",
    "declarer",
    "contract",
    "friend",
    "friend call",
    "taken",
    "success",
    "base",
    "multiplier",
    "doublings",
    "deal miss",
    "pot after",
    "players",
    "note",
    "hand record (refereed)",
    "eliminated",
    "session started",
    "session ended",
)
CSV_LAYOUTS = (CSV_COLUMNS, CSV_COLUMNS_TOML_RECORD, CSV_COLUMNS_TOML_RECORD[:-3])


# --- reading the league in chunks ---------------------------------------------------------------


def league_players(s: Session, league_id: int) -> list[str]:
    """Everyone who played or paid in the league, in seating order: by session, then seat;
    anyone else (a pot payer never seated) after them, by name."""
    names: dict[str, None] = {}
    for name in s.exec(
        select(Player.name)
        .select_from(SessionSeat)
        .join(LeagueSession, LeagueSession.id == SessionSeat.session_id)
        .join(Player, Player.id == SessionSeat.player_id)
        .where(LeagueSession.league_id == league_id)
        .order_by(LeagueSession.number, SessionSeat.seat)
    ).all():
        names.setdefault(name)
    others = s.exec(
        select(Player.name)
        .where(
            Player.id.in_(
                select(HandPlayer.player_id).where(HandPlayer.league_id == league_id).distinct()
            )
        )
        .order_by(Player.name)
    ).all()
    for name in others:
        names.setdefault(name)
    return list(names)


#: A hand's columns as the export reads them (plain SQL on the driver's own cursor: at a
#: million hands, SQLAlchemy's row objects cost more than the query).
_HAND_SQL = (
    f"SELECT {HAND_COLUMNS_SQL} FROM hand "
    "WHERE league_id = {0} AND number > {0}{1} ORDER BY number LIMIT {0}"
)
#: The chunk's player rows: hand, player, seat, role (1 eliminated, 2 friend, 0 any other: the
#: only roles an export names) and points, each hand's rows together in player order (each
#: seating is put in seat order once: :class:`.export_chunks.Seating`). SQLite reads them by
#: the chunk's hand numbers, in the order of the tables' own keys, so it sorts nothing.
_MEMBER_SQL = (
    "SELECT hp.hand_id, hp.player_id, hp.seat, "
    "CASE hp.role WHEN 'eliminated' THEN 1 WHEN 'friend' THEN 2 ELSE 0 END, "
    "hp.points + hp.pot FROM hand_player hp JOIN hand h ON h.id = hp.hand_id "
    "WHERE h.league_id = ? AND h.number >= ? AND h.number <= ? "
    "ORDER BY h.number, hp.player_id"
)
#: PostgreSQL reads them by the range of the chunk's hand ids, from the key's index: joined to
#: the hands' numbers it plans a parallel scan and a sort (at a million hands ~20 ms a chunk
#: against ~2). Rows of the league's other hands in that range (a voided one) come too, and
#: are not used.
_MEMBER_SQL_POSTGRES = (
    "SELECT hand_id, player_id, seat, "
    "CASE role WHEN 'eliminated' THEN 1 WHEN 'friend' THEN 2 ELSE 0 END, "
    "points + pot FROM hand_player "
    "WHERE league_id = %s AND hand_id >= %s AND hand_id <= %s "
    "ORDER BY hand_id, player_id"
)
_FIRST = itemgetter(0)
#: Seatings kept at once (a league has few; a federation's are dropped and worked out again).
SEATINGS = 4096


def session_times(s: Session, league_id: int) -> dict[int, tuple[datetime, datetime | None]]:
    """Each session's start and end (None while open), as aware UTC times, by number."""
    return {
        number: (utc_time(started), ended and utc_time(ended))
        for number, started, ended in s.exec(
            select(LeagueSession.number, LeagueSession.started_at, LeagueSession.ended_at).where(
                LeagueSession.league_id == league_id
            )
        ).all()
    }


def csv_session_times(
    times: dict[int, tuple[datetime, datetime | None]], zone_name: str | None
) -> dict[int, tuple[datetime, datetime | None]]:
    """Each session's start and end as the CSV shows them: local times to the second, with
    their offset (``2026-11-25 03:47:12+09:00``), in ``zone_name`` (an IANA zone, the league's
    ``timezone`` setting). A league without one, or with one this machine does not know, gets
    the machine's own zone (each moment its own offset, summer time included); the offset
    keeps every time exact to the second whichever it is."""
    zone: tzinfo | None = None
    if zone_name:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            zone = ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            zone = None

    def local(moment: datetime) -> datetime:
        return moment.astimezone(zone).replace(microsecond=0)

    return {
        number: (local(started), ended and local(ended))
        for number, (started, ended) in times.items()
    }


class HandRows:
    """A league's hands read ``chunk`` hands at a time as the driver's plain rows (keyset pages
    on the hand number, on the transaction's own connection): :meth:`chunks` gives each chunk's
    hand rows (:data:`_HAND_SQL`'s columns) and each hand's seating and points by hand id;
    :meth:`view` makes a hand's view from them."""

    def __init__(
        self, s: Session, league: League, *, include_voided: bool = False, chunk: int = 0
    ) -> None:
        s.flush()
        self.league = league
        self.chunk = chunk or CHUNK
        self.connection = s.connection()
        self.names: dict[int, str] = dict(
            self.connection.execute(select(Player.id, Player.name)).all()
        )
        self.sessions: dict[int, tuple[int, date]] = {
            i: (n, d)
            for i, n, d in self.connection.execute(
                select(LeagueSession.id, LeagueSession.number, LeagueSession.day).where(
                    LeagueSession.league_id == league.id
                )
            ).all()
        }
        self.sqlite = self.connection.dialect.name == "sqlite"
        self.hand_sql = _HAND_SQL.format(
            "?" if self.sqlite else "%s", "" if include_voided else " AND NOT voided"
        )
        self.member_sql = _MEMBER_SQL if self.sqlite else _MEMBER_SQL_POSTGRES
        self.seatings: dict[tuple, Seating] = {}

    def chunks(self) -> Iterator[tuple[list[tuple], dict[int, Seating], dict[int, tuple]]]:
        connection = self.connection
        cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        league_id, chunk = self.league.id, self.chunk

        def read(after: int) -> tuple[list, list]:
            """The chunk of hands after hand number ``after``, and their player rows."""
            cursor.execute(self.hand_sql, (league_id, after, chunk))
            hands = cursor.fetchall()
            if not hands:
                return hands, []
            if self.sqlite:
                cursor.execute(self.member_sql, (league_id, hands[0][1], hands[-1][1]))
            else:
                ids = list(map(_FIRST, hands))
                cursor.execute(self.member_sql, (league_id, min(ids), max(ids)))
            return hands, cursor.fetchall()

        # PostgreSQL: the next chunk is read by a thread while this one is turned into text
        # (the server's work and ours overlap; psycopg lets other threads run while it waits).
        # SQLite reads in the same thread (its connection belongs to one).
        ahead = None if self.sqlite else _ReadAhead(read)
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
                yield (hands, *self._members(rows))
        finally:
            if ahead is not None:
                ahead.finish()  # the cursor is the thread's until its read is done
            cursor.close()

    def _members(self, rows: list[tuple]) -> tuple[dict[int, Seating], dict[int, tuple]]:
        """Each hand's seating, and its points in its rows' order, by hand id (two
        dictionaries, no container per hand: a chunk leaves little for the garbage collector's
        full passes to walk, which at 100k hands took from 7 passes to 2)."""
        known, names = self.seatings, self.names
        seatings, points = {}, {}
        for hand_id, group in groupby(rows, _FIRST):
            _ids, ids, seats, roles, points[hand_id] = zip(*group)
            key = (ids, seats, roles)
            seating = known.get(key)
            if seating is None:
                if len(known) >= SEATINGS:
                    known.clear()
                seating = known[key] = Seating(ids, seats, roles, names)
            seatings[hand_id] = seating
        return seatings, points

    def view(self, row: HandRow, seating: Seating | None, points: tuple | None) -> HandView:
        """A hand's view from its row, its seating and its points."""
        get = self.names.get
        if seating is None or points is None:
            players, sitting_out, deltas, eliminated, friends = [], [], {}, [], []
        else:
            players, sitting_out = list(seating.players), list(seating.sitting_out)
            deltas, eliminated = seating.deltas(points), list(seating.eliminated)
            friends = seating.friends(self.names)
            if row.eliminated_seat is not None:  # 시흥 은마: whose own hand left, or the dummy
                eliminated = eliminated_names(row.eliminated_seat, players)
        session_number, day = self.sessions[row.session_id]
        success, doublings = row.success, row.doublings
        return HandView(
            row.number,
            session_number,
            day,
            row.status,
            bool(row.voided),
            players,
            sitting_out,
            get(row.dealer_id),
            get(row.declarer_id),
            get(row.friend_id),
            row.friend_call,
            row.contract,
            row.taken,
            None if success is None else bool(success),
            row.base,
            row.multiplier,
            [d for d in doublings.split(",") if d] if doublings else [],
            get(row.deal_miss_id),
            row.pot_after,
            bool(row.full),
            row.note,
            deltas,
            row.record_toml,
            eliminated,
            second_friend(get(row.friend_id), friends),
        )  # 6마, 7마; 동대전 7마


def iter_hand_views(
    s: Session, league: League, *, include_voided: bool = False, chunk: int = 0
) -> Iterator[HandView]:
    """The league's hands in order as views, read ``chunk`` (default :data:`CHUNK`) hands at
    a time (:class:`HandRows`)."""
    rows = HandRows(s, league, include_voided=include_voided, chunk=chunk)
    for hands, seatings, points in rows.chunks():
        for row in map(HandRow._make, hands):
            yield rows.view(row, seatings.get(row.id), points.get(row.id))


class _ReadAhead:
    """One read at a time on a thread: :meth:`start` it, take it with :meth:`result` (its
    error raised here), or :meth:`finish` it unread when the export stops early."""

    def __init__(self, read: Callable[[int], tuple]) -> None:
        self.read = read
        self.thread: threading.Thread | None = None
        self.value: Any = None
        self.error: BaseException | None = None

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


# --- the export ---------------------------------------------------------------------------------


def iter_export(
    s: Session,
    league_name: str,
    fmt: str = "toml",
    *,
    bom: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[str]:
    """The league's export as chunks of text, one per chunk of hands read (``bom``: start a
    CSV with a UTF-8 byte-order mark, so spreadsheet programs read Hangul right;
    ``progress(done, total)`` told after each chunk)."""
    if fmt not in FORMATS:
        raise LeagueError(_("--format {fmt!r}: expected toml, csv or json").format(fmt=fmt))
    league = get_league(s, league_name)
    players = league_players(s, league.id)  # type: ignore[arg-type]
    rows = HandRows(s, league)
    times = session_times(s, league.id)  # type: ignore[arg-type]
    if fmt == "csv":  # for people: local times to the second (TOML and JSON keep UTC to the µs)
        times = csv_session_times(times, league_setting(s, league, "timezone"))
    shared = (rows.names, rows.sessions, times, rows.view)
    writer: TomlChunks | JsonChunks | CsvChunks
    if fmt == "toml":
        yield toml_header(league, players)
        writer = TomlChunks(*shared)
    elif fmt == "json":
        yield (
            "{"
            + ", ".join(
                f"{json_dumps(k)}: {json_dumps(v)}"
                for k, v in (
                    ("format", FORMAT),
                    ("league", league.name),
                    ("ruleset", league.ruleset_name),
                    ("players", players),
                    ("ruleset_toml", league.ruleset_toml),
                )
            )
            + ',\n "hands": ['
        )
        writer = JsonChunks(*shared)
    else:
        header = ",".join(csv_text(c) for c in list(CSV_COLUMNS) + players)
        yield ("\ufeff" if bom else "") + header + "\r\n"
        writer = CsvChunks(*shared, players)
    total = done = 0
    if progress is not None:
        total = s.exec(
            select(func.count(Hand.id)).where(Hand.league_id == league.id, Hand.voided == False)  # noqa: E712
        ).one()
    for hands, seatings, points in rows.chunks():
        yield writer.chunk(hands, seatings, points)
        if progress is not None:
            done += len(hands)
            progress(done, total)
    if fmt == "json":
        yield ('\n ],\n "standings": ' + json_dumps(standings(s, league.name).to_json()) + "\n}\n")


def export_league(s: Session, league_name: str, fmt: str = "toml", bom: bool = False) -> str:
    """The whole export as one string (for tests and small leagues; the CLI streams)."""
    return "".join(iter_export(s, league_name, fmt, bom=bom))


def write_export(
    s: Session,
    league_name: str,
    fmt: str,
    out,
    bom: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the export to a text stream chunk by chunk; the characters written."""
    written = 0
    for text in iter_export(s, league_name, fmt, bom=bom, progress=progress):
        out.write(text)
        written += len(text)
    return written


def export_record(s: Session, league_name: str) -> Record:
    """The league as a hand record in memory (voided hands left out), ruleset embedded; the
    CLI streams instead (:func:`iter_export`)."""
    league = get_league(s, league_name)
    return Record(
        ruleset=league.ruleset_name,
        players=league_players(s, league.id),  # type: ignore[arg-type]
        hands=[{"number": v.number} | v.hand_dict() for v in iter_hand_views(s, league)],
        extra={"league": league.name, "ruleset_toml": league.ruleset_toml},
    )
