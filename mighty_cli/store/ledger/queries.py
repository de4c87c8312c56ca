"""Read-only queries behind the standings table (the league page's are in :mod:`.league_page`).

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, select

from ...league.standings import PlayerStats, Standings, parse_rank_by, rank
from ..models import Hand, HandPlayer, LeagueSession, Player, SessionSeat
from .lookups import get_league
from .totals import current, stat_columns


def stats_query(league_id: int, *group: Any):
    """Each player's counted totals over the league's hands (voided ones left out): one row per
    player and ``group`` (columns put first in each row, before the player's name)."""
    return (
        select(*group, Player.name, *stat_columns())
        .select_from(HandPlayer)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(HandPlayer.league_id == league_id, Hand.voided == False)  # noqa: E712
        .group_by(*group, Player.name)
    )


def row_stats(row: Sequence) -> PlayerStats:
    """A player's totals from a row of :func:`stats_query` (its ``group`` columns taken off)."""
    name, *numbers = row
    return PlayerStats(name, *(int(n or 0) for n in numbers))


def player_stats(s: Session, league_id: int) -> list[PlayerStats]:
    """Every player's totals in one aggregate query (the store's form of
    :func:`mighty_cli.league.standings.accumulate`)."""
    return [row_stats(row) for row in s.exec(stats_query(league_id)).all()]


def standings(s: Session, league_name: str) -> Standings:
    """The league table, read from the running totals (:mod:`.totals`), not from every hand."""

    league = get_league(s, league_name)
    stats = current(s, league.id)  # type: ignore[arg-type]
    listed = {row.name for row in stats}
    seated = s.exec(
        select(Player.name)
        .distinct()
        .join(SessionSeat, SessionSeat.player_id == Player.id)
        .join(LeagueSession, LeagueSession.id == SessionSeat.session_id)
        .where(LeagueSession.league_id == league.id)
    ).all()
    # a player seated at a session who has played no hand yet is listed, with nothing
    if listed:  # (a league with no hand yet says so rather than listing zeros)
        stats += [PlayerStats(name) for name in sorted(seated) if name not in listed]
    return rank(stats, league.min_hands, parse_rank_by(league.rank_by))
