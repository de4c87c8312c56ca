"""Nobody sits at two open tables of one league at once: a player is seated at one open
session of a league (a round's table, or a session of its own) at a time.

``session start`` and ``round start`` refuse a player already seated (:func:`.sessions.
refuse_seated_elsewhere`); this module finds whoever breaks the rule in the store as it stands,
for any writer that wants to hold the rows it made to it (a restore checks it before it
commits, a seat, merge or rename can after its change).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from sqlalchemy import func
from sqlmodel import Session, select

from .models import LeagueSession, Player, SessionSeat


@dataclass
class SeatedTwice:
    """A player seated at two or more open sessions of a league: their numbers, in order."""

    league_id: int
    player: str
    sessions: list[int]


def seated_twice(s: Session, league_id: Optional[int] = None) -> Optional[SeatedTwice]:
    """The first player seated at two open sessions of one league (of ``league_id`` only, when
    given), or None when everyone sits at one open table at most."""
    query = (select(LeagueSession.league_id, SessionSeat.player_id)
             .join(LeagueSession, LeagueSession.id == SessionSeat.session_id)
             .where(LeagueSession.ended_at == None)  # noqa: E711
             .group_by(LeagueSession.league_id, SessionSeat.player_id)
             .having(func.count(func.distinct(SessionSeat.session_id)) > 1)
             .order_by(LeagueSession.league_id, SessionSeat.player_id).limit(1))
    if league_id is not None:
        query = query.where(LeagueSession.league_id == league_id)
    found = s.exec(query).first()
    if found is None:
        return None
    league, player_id = found
    numbers = s.exec(select(LeagueSession.number)
                     .join(SessionSeat, SessionSeat.session_id == LeagueSession.id)
                     .where(LeagueSession.league_id == league,
                            LeagueSession.ended_at == None,  # noqa: E711
                            SessionSeat.player_id == player_id)
                     .order_by(LeagueSession.number)).all()
    name = s.exec(select(Player.name).where(Player.id == player_id)).one()
    return SeatedTwice(league, name, list(numbers))
