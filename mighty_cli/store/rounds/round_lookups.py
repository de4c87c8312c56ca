"""A league's rounds looked up from elsewhere (a table's entry, an evening opened, the site): the
latest round, the session a round's table plays now, and each player's rounds (table and
session), none of which changes anything."""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, select

from ...engine.translation import _
from .. import LeagueError
from ..ledger.lookups import (
    get_league,
    open_round,
    seating,
)
from ..ledger.table_hands import no_such_table
from ..models import League, LeagueRound, LeagueSession
from .round_layout import RoundState
from .round_tables import round_state


def latest_round_state(s: Session, league: League) -> RoundState | None:
    """The league's open round, else its latest, or None for a league with no round."""
    latest = (
        open_round(s, league)
        or s.exec(
            select(LeagueRound)
            .where(LeagueRound.league_id == league.id)
            .order_by(LeagueRound.number.desc())
        ).first()
    )  # type: ignore[union-attr]
    return None if latest is None else round_state(s, league.name, latest.number)


def table_session(s: Session, league_name: str, table: int) -> int:
    """The session number of table ``table`` of the league's open round (``--table T``)."""
    league = get_league(s, league_name)
    found = open_round(s, league)
    if found is None:
        raise LeagueError(
            _("--table {table}: league {league} has no open round").format(
                table=table, league=repr(league.name)
            )
        )
    session = s.exec(
        select(LeagueSession)
        .where(LeagueSession.round_id == found.id, LeagueSession.table_number == table)
        .order_by(LeagueSession.number.desc())
    ).first()  # type: ignore
    if session is None:  # a table whose seating changed mid-round: its latest session
        raise no_such_table(s, found, table)
    return session.number


@dataclass
class PlayerRound:
    """A round one player sat in: the table, its session, and the others at it."""

    round: int
    table: int
    session_id: int
    session: int
    others: list[str]


def rounds_by_player(s: Session, league: League) -> dict[str, list[PlayerRound]]:
    """Per player, the league's rounds they sat in, latest first, with the opponents met."""
    numbers = dict(
        s.exec(
            select(LeagueRound.id, LeagueRound.number).where(LeagueRound.league_id == league.id)
        ).all()
    )
    found: dict[str, list[PlayerRound]] = {}
    for session_id, session, round_id, table in s.exec(
        select(
            LeagueSession.id,
            LeagueSession.number,
            LeagueSession.round_id,
            LeagueSession.table_number,
        )
        .where(LeagueSession.league_id == league.id, LeagueSession.round_id != None)  # noqa
        .order_by(LeagueSession.number.desc())
    ).all():  # type: ignore[union-attr]
        seated = seating(s, session_id)
        for name in seated:
            found.setdefault(name, []).append(
                PlayerRound(
                    numbers[round_id],
                    table or 0,
                    session_id,
                    session,
                    [other for other in seated if other != name],
                )
            )
    return found
