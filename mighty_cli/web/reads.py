"""What each page of ``mighty serve`` shows, gathered from the store in the caller's (read-only)
transaction: the board, a table, the director's overview, and ``GET /api/round``.

A table is named as the server's addresses name it (:func:`parse_table`): ``2`` is table 2 of
the league's open round (else of its latest), ``s5`` is session 5, a table of its own (``mighty
session start``). Each function raises a project error for what is not there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sqlmodel import Session, select

from ..engine.translation import _
from ..store import LeagueError
from ..store.ledger.change_marker import change_marker, table_marker
from ..store.ledger.corrections import change_log
from ..store.ledger.evening_glance import evening
from ..store.ledger.hand_reads import HandView, list_hands
from ..store.ledger.leagues import league_setting
from ..store.ledger.lookups import find_round, get_league, league_rules, seating
from ..store.models import League, LeagueRound, LeagueSession, LiveHand, Player
from ..store.rounds.round_board import RoundBoard, round_board, tournament_standings
from ..store.rounds.round_clock import RoundClock, round_clock
from ..tournament.ranking import TournamentRow
from .view_cache import changes_with, per_change

#: A table as an address names it: a round's table number, or ``s`` and a session's number.
_TABLE = re.compile(r"(?:s([1-9][0-9]{0,8})|([1-9][0-9]{0,5}))")
#: How many of the league's latest hands and log entries the director's page lists.
DIRECTOR_HANDS = 30
DIRECTOR_LOG = 30


class NotFound(LeagueError):
    """An address naming a table, hand or page the league does not have."""


@dataclass(frozen=True)
class ServedLeague:
    """The league a server serves, as its pages need it."""

    name: str
    id: int
    lang: str | None
    timezone: str | None
    ruleset_title: str
    marker: str


def league_facts(s: Session, name: str) -> ServedLeague:
    league = get_league(s, name)
    return ServedLeague(
        league.name,
        league.id,
        league_setting(s, league, "lang"),  # type: ignore
        league_setting(s, league, "timezone"),
        league_rules(league).meta.title,
        change_marker(s, league.id),
    )  # type: ignore[arg-type]


@dataclass
class LoneTable:
    """An open session outside any round: a table of its own."""

    ref: str
    session: int
    players: list[str]
    hands: int
    code: str | None = None


@dataclass
class BoardView:
    """The board: the round (None: the league has none), the tournament table over the
    league's rounds, the round's clock, and the open tables of their own."""

    board: RoundBoard | None
    tournament: list[TournamentRow]
    clock: RoundClock | None
    lone: list[LoneTable]


@per_change
def board_view(s: Session, league: ServedLeague) -> BoardView:
    row = get_league(s, league.name)
    has_round = s.exec(select(LeagueRound.id).where(LeagueRound.league_id == row.id)).first()
    board = round_board(s, league.name) if has_round is not None else None
    tournament = (tournament_standings(s, league.name) or []) if board is not None else []
    clock = (
        round_clock(s, row, board.round.number)
        if board is not None and not board.round.ended
        else None
    )
    return BoardView(board, tournament, clock, lone_tables(s, row))


def lone_tables(s: Session, league: League) -> list[LoneTable]:
    """The league's open sessions outside any round."""
    found = []
    for session in s.exec(
        select(LeagueSession)
        .where(
            LeagueSession.league_id == league.id,
            LeagueSession.round_id == None,  # noqa: E711
            LeagueSession.ended_at == None,  # noqa: E711
        )
        .order_by(LeagueSession.number)
    ).all():
        hands = len(list_hands(s, league.name, session_number=session.number, include_voided=False))
        found.append(
            LoneTable(
                f"s{session.number}",
                session.number,
                seating(s, session.id),
                hands,  # type: ignore[arg-type]
                session.entry_code,
            )
        )
    return found


@per_change
def api_round(s: Session, league: ServedLeague) -> dict:
    """``GET /api/round``: the league, its round (open, else latest; None: none) and each table
    of it: number, session, players in seat order, live hands, still playing."""
    view = board_view(s, league)
    if view.board is None:
        return {"league": league.name, "round": None, "tables": []}
    return {
        "league": league.name,
        "round": view.board.round.number,
        "tables": [
            {
                "table": t.table,
                "session": t.session,
                "players": t.players,
                "hands": t.hands,
                "playing": t.playing,
            }
            for t in view.board.round.tables
        ],
    }


def parse_table(ref: str) -> tuple[int | None, int | None]:
    """``2`` -> (table 2, None); ``s5`` -> (None, session 5); anything else is not found."""
    found = _TABLE.fullmatch(ref)
    if found is None:
        raise NotFound(
            _(
                "no table {table!r}: a table is a number (2), or s and a session's number (s5)"
            ).format(table=ref[:40])
        )
    return (None, int(found.group(1))) if found.group(1) else (int(found.group(2)), None)


def table_sessions(s: Session, league: League, ref: str) -> list[LeagueSession]:
    """The sessions a table has had (one per seating; the last is its own now)."""
    table, number = parse_table(ref)
    if number is not None:
        session = s.exec(
            select(LeagueSession).where(
                LeagueSession.league_id == league.id, LeagueSession.number == number
            )
        ).first()
        if session is None or session.round_id is not None:
            raise NotFound(
                _("no table s{number}: the league has no session {number} of its own").format(
                    number=number
                )
            )
        return [session]
    try:
        found = find_round(s, league)
    except LeagueError:
        raise NotFound(_("no table {table}: the league has no round").format(table=table)) from None
    sessions = list(
        s.exec(
            select(LeagueSession)
            .where(LeagueSession.round_id == found.id, LeagueSession.table_number == table)
            .order_by(LeagueSession.number)
        ).all()
    )
    if not sessions:
        raise NotFound(
            _("no table {table} in round {number}").format(table=table, number=found.number)
        )
    return sessions


@dataclass
class HandRow:
    """A table's hand as its page lists it, with each player's running total after it."""

    hand: HandView
    local: int  # the table's own number (its first hand is 1)
    totals: dict[str, int] = field(default_factory=dict)


@dataclass
class TableView:
    ref: str
    table: int | None
    round: int | None
    session: int
    players: list[str]
    columns: list[str]
    playing: bool
    hand_in_progress: bool
    next_dealer: str | None
    sitting_out: list[str]
    hands: list[HandRow]
    code: str | None

    @property
    def last(self) -> HandView | None:
        """The table's last hand, which the table may correct (None: none, or voided)."""
        if not self.hands or self.hands[-1].hand.voided:
            return None
        return self.hands[-1].hand

    @property
    def title(self) -> str:
        return (
            _("Table {table}").format(table=self.table)
            if self.table is not None
            else _("Session {number}").format(number=self.session)
        )


def table_scope(s: Session, league: ServedLeague, ref: str) -> str:
    """What a table's page goes by: the change log and the table's own hand in progress
    (:func:`~mighty_cli.store.ledger.change_marker.table_marker`)."""
    current = table_sessions(s, get_league(s, league.name), ref)[-1]
    return table_marker(s, current.id)  # type: ignore[arg-type]


@changes_with(table_scope)
def table_view(s: Session, league: ServedLeague, ref: str) -> TableView:
    row = get_league(s, league.name)
    sessions = table_sessions(s, row, ref)
    current = sessions[-1]
    views: list[HandView] = []
    for session in sessions:
        views += list_hands(s, league.name, session_number=session.number)
    players = seating(s, current.id)  # type: ignore[arg-type]
    columns = players + sorted({name for view in views for name in view.deltas} - set(players))
    totals = dict.fromkeys(columns, 0)
    rows = []
    for local, view in enumerate(views, 1):
        if not view.voided:
            for name, delta in view.deltas.items():
                totals[name] = totals.get(name, 0) + delta
        rows.append(HandRow(view, view.table_hand or local, dict(totals)))
    playing = current.ended_at is None
    dealer, out = None, []
    if playing:
        state = evening(s, league.name, current.number)
        dealer, out = state.proposal.dealer, list(state.proposal.sitting_out)
    round_number = None
    if current.round_id is not None:
        round_number = s.get(LeagueRound, current.round_id).number  # type: ignore[union-attr]
    return TableView(
        ref,
        current.table_number,
        round_number,
        current.number,
        players,
        columns,
        playing,
        s.get(LiveHand, current.id) is not None,
        dealer,
        out,
        rows,
        current.entry_code,
    )


@dataclass
class DirectorView:
    board: BoardView
    hands: list[HandView]
    log: list
    players: list[str]


def director_view(s: Session, league: ServedLeague) -> DirectorView:
    board = board_view(s, league)
    names = list(
        s.exec(
            select(Player.name)
            .where(Player.merged_into_id == None)  # noqa: E711
            .order_by(Player.name)
        ).all()
    )
    return DirectorView(
        board,
        list_hands(s, league.name, last=DIRECTOR_HANDS),
        list(reversed(change_log(s, league.name, DIRECTOR_LOG))),
        names,
    )
