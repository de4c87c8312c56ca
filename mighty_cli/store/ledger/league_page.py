"""The league page's data (``standings --html``, the site's index): the standings, every
session's table and the chart of cumulative scores, read in one pass.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func
from sqlmodel import Session, select

from ...league.standings import PlayerStats, Series, Standings, parse_rank_by, rank, thin
from ..models import Hand, HandPlayer, League, LeagueSession, Player
from .lookups import get_league, league_rules, seatings_by_session
from .queries import row_stats, stats_query
from .succession import pot_before


@dataclass
class SessionTable:
    number: int
    day: date
    ended: bool
    players: list[str]
    hands: int
    standings: Standings


@dataclass
class LeaguePage:
    """Everything the standings page shows."""

    league: str
    ruleset: str
    ruleset_title: str
    standings: Standings
    sessions: list[SessionTable]
    hands: int
    chart_x: list[int]
    chart_series: list[Series]
    pot: int


CHART_POINTS = 400


def league_page(s: Session, league_name: str, max_points: int = CHART_POINTS) -> LeaguePage:
    """The league table, each session's table and the cumulative-score series (per hand, at
    most ``max_points`` evenly spaced hands per line)."""
    league = get_league(s, league_name)
    rules = league_rules(league)
    sessions = s.exec(
        select(LeagueSession)
        .where(LeagueSession.league_id == league.id)
        .order_by(LeagueSession.number)
    ).all()
    # One aggregate per (session, player) gives each session's table and, summed, the league's.
    per_session: dict[int, list[PlayerStats]] = {}
    totals: dict[str, PlayerStats] = {}
    for row in s.exec(stats_query(league.id, Hand.session_id)).all():  # type: ignore[arg-type]
        stats = row_stats(row[1:])
        per_session.setdefault(row[0], []).append(stats)
        total = totals.setdefault(stats.name, PlayerStats(stats.name))
        total.add(stats)
    table = rank(totals.values(), league.min_hands, parse_rank_by(league.rank_by))
    counts: dict[int, int] = dict(
        s.exec(
            select(Hand.session_id, func.count(Hand.id))
            .where(Hand.league_id == league.id, Hand.voided == False)  # noqa: E712
            .group_by(Hand.session_id)
        ).all()
    )
    seats = seatings_by_session(s, league.id)  # type: ignore[arg-type]
    tables = [
        SessionTable(
            x.number,
            x.day,
            x.ended_at is not None,
            seats.get(x.id, []),
            counts.get(x.id, 0),
            rank(per_session.get(x.id, []), 0, ("score", "score_per_hand", "name")),
        )
        for x in sessions
    ]
    names = [r.stats.name for r in table.rows if r.stats.hands]
    xs, series = _chart(s, league, names, max_points)
    return LeaguePage(
        league.name,
        rules.name,
        rules.meta.title,
        table,
        tables,
        sum(counts.values()),
        xs,
        series,
        pot_before(s, league.id, None),
    )  # type: ignore[arg-type]


def _chart(
    s: Session, league: League, names: Sequence[str], max_points: int
) -> tuple[list[int], list[Series]]:
    """Cumulative scores by hand number. A long league is thinned evenly in the database:
    hands are summed in equal runs of ``bucket`` hands and each line gets a point at the end
    of every run (the exact running total at that hand), so at most ``max_points`` points
    per line whatever the league's size."""
    last = s.exec(select(func.max(Hand.number)).where(Hand.league_id == league.id)).one() or 0
    if not last or not names:
        return [], [Series(n) for n in names]
    bucket = max(1, -(-last // max_points))
    # Floor division: SQLAlchemy 2's "/" is true division, which would group hand by hand.
    key = (Hand.number - 1) // bucket if bucket > 1 else Hand.number - 1
    rows = s.exec(
        select(key, Player.name, func.sum(HandPlayer.points + HandPlayer.pot))
        .select_from(HandPlayer)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(HandPlayer.league_id == league.id, Hand.voided == False)  # noqa: E712
        .group_by(key, Player.name)
    ).all()
    sums: dict[int, dict[str, int]] = {}
    for index, name, total in rows:
        sums.setdefault(int(index), {})[name] = int(total or 0)
    running = dict.fromkeys(names, 0)
    series_rows: list[tuple[int, dict[str, int]]] = [(0, dict(running))]
    for index in sorted(sums):
        for name, total in sums[index].items():
            if name in running:
                running[name] += total
        series_rows.append((min(last, (index + 1) * bucket), dict(running)))
    return thin(series_rows, names, max_points + 1)
