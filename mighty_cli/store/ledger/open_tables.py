"""One person, one open table: nobody sits at two open tables (open sessions) at once, in any
league of the database.

A club keeps its leagues in one database, and a person sits at one table at a time, whichever
league it plays for: ``session start``, ``round start``, ``round reseat`` and ``round seat``
refuse a player seated at an open table (:func:`refuse_seated_elsewhere`), ``player merge``
refuses to make one person of two seated at two open tables, and :func:`seated_twice` finds
anyone a store already seats twice (a restore can call it on what it restored).

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlmodel import Session, select

from ...engine.translation import _
from .. import LeagueError
from ..models import League, LeagueRound, LeagueSession, Player, SessionSeat
from .lookups import find_player


@dataclass(frozen=True)
class OpenSeat:
    """Where a player sits at an open table: the league, the session and (a round's table) the
    round and table numbers."""

    player: str
    league: str
    session: int
    round: int | None = None
    table: int | None = None

    def where(self, league: str | None = None) -> str:
        """The table in words (its league named when it is not ``league``)."""
        text = (
            _("table {table} of round {round} (session {session})").format(
                table=self.table, round=self.round, session=self.session
            )
            if self.table
            else _("session {session}").format(session=self.session)
        )
        if self.league != league:
            text = _("{where} of league {league}").format(where=text, league=repr(self.league))
        return text


def open_seats(s: Session, player_ids: Iterable[int] | None = None) -> list[OpenSeat]:
    """Every seat at an open table of the database (of these players only, when given), in the
    order the tables were opened."""
    query = (
        select(
            Player.name,
            League.name,
            LeagueSession.number,
            LeagueRound.number,
            LeagueSession.table_number,
        )
        .join(SessionSeat, SessionSeat.player_id == Player.id)
        .join(LeagueSession, LeagueSession.id == SessionSeat.session_id)
        .join(League, League.id == LeagueSession.league_id)
        .join(
            LeagueRound,
            LeagueRound.id == LeagueSession.round_id,  # type: ignore
            isouter=True,
        )
        .where(LeagueSession.ended_at == None)  # noqa: E711
    )
    if player_ids is not None:
        query = query.where(Player.id.in_(list(player_ids)))  # type: ignore[union-attr]
    return [
        OpenSeat(*row) for row in s.exec(query.order_by(LeagueSession.id, SessionSeat.seat)).all()
    ]


def hold_players(s: Session, player_ids: Iterable[int]) -> None:
    """Lock the players' rows until the transaction ends (PostgreSQL; SQLite has one writer at
    a time already), in one order: two commands seating one person, in any leagues, take turns,
    and the second sees the first's seat (:func:`refuse_seated_elsewhere`)."""
    if s.get_bind().dialect.name == "sqlite":
        return
    s.exec(
        select(Player.id)
        .where(Player.id.in_(sorted(set(player_ids))))  # type: ignore
        .order_by(Player.id)
        .with_for_update()
    ).all()


def seat_checked(
    s: Session, league: League, ids: dict[str, int], option: str = "--players"
) -> None:
    """Before seating these players (name: id, made by ``ensure_players``) at a new or changed
    table: hold them, then refuse any already seated at an open table."""
    hold_players(s, ids.values())
    refuse_seated_elsewhere(s, league, list(ids), option)


def refuse_seated_elsewhere(
    s: Session,
    league: League,
    names: Sequence[str],
    option: str = "--players",
    leaving: Iterable[tuple[str, int]] = (),
) -> None:
    """One line naming the first of ``names`` already seated at an open table, of this league
    or another: nobody sits at two tables at once. ``leaving``: the seats (player, session of
    this league) the same command frees first (``round seat --leave``)."""
    ids = {player.id for player in (find_player(s, n) for n in names) if player}
    freed = set(leaving)
    for seat in open_seats(s, ids):  # type: ignore[arg-type]
        if seat.league == league.name and (seat.player, seat.session) in freed:
            continue
        raise LeagueError(
            _(
                "{option}: {name} is already seated at {where}, which is still "
                "open; one person sits at one open table: end it first ('mighty "
                "session end' or 'mighty round end'), or move him with 'mighty "
                "round seat'"
            ).format(option=option, name=repr(seat.player), where=seat.where(league.name))
        )


def seated_twice(s: Session, names: Iterable[str] | None = None) -> list[list[OpenSeat]]:
    """Everyone seated at two open tables or more (of ``names`` only, when given), each as his
    seats: empty where the store keeps one person, one open table."""
    ids = None
    if names is not None:
        ids = {player.id for player in (find_player(s, n) for n in names) if player}
    seats: dict[str, list[OpenSeat]] = {}
    for seat in open_seats(s, ids):  # type: ignore[arg-type]
        seats.setdefault(seat.player, []).append(seat)
    return [found for found in seats.values() if len(found) > 1]


def refuse_seated_twice(s: Session, names: Iterable[str] | None = None) -> None:
    """One line when someone (of ``names``) is seated at two open tables."""
    twice = seated_twice(s, names)
    if twice:
        seats = twice[0]
        raise LeagueError(
            _(
                "{name} sits at {first} and at {second}, both open; one person sits "
                "at one open table"
            ).format(name=repr(seats[0].player), first=seats[0].where(), second=seats[1].where())
        )
