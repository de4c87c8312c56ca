"""What the pages show of a tournament (``standings --html``, the site's index and its
tournament page): the league's tournament table under its ruleset's ``[tournament]`` options,
the matchpoints of its duplicate rounds, and each round's own table, matchpoints and
substitutes, as ``mighty standings`` and ``standings --round R`` print them.

A credited substitute's results count for the player he sat in for (his line is that
player's); one kept apart has his own line (:mod:`.substitutes`). Read in a few queries
whatever the number of rounds: the tables' results once, each round's table made from them.

Each function reads inside the caller's session.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import Session, select

from ...tournament.matchpoints import MatchpointRow, matchpoints, places
from ...tournament.ranking import TournamentRow, tournament_table
from ..ledger.lookups import league_rules, seatings_by_session
from ..models import League, LeagueRound, LeagueSession
from .duplicate import duplicate_results
from .round_board import tournament_results
from .substitutes import Substitution, seated_substitutions
from .substitutes import substitutes as round_substitutes

#: Matchpoints with each row's place (None: nothing compared yet).
PlacedMatchpoints = list[tuple[int | None, MatchpointRow]]


@dataclass
class RoundView:
    """One round as the tournament page shows it: its own tournament table, its matchpoints
    (a duplicate round; None otherwise) and who sat in for whom."""

    number: int
    ended: bool
    rows: list[TournamentRow]
    matchpoints: PlacedMatchpoints | None = None
    substitutions: list[Substitution] = field(default_factory=list)


@dataclass
class TournamentView:
    """The tournament over the league's rounds: how it is scored (the ruleset's
    ``[tournament] score``: raw, per_hand or place), its table, the matchpoints of every
    duplicate round together (None: no duplicate round), each round, latest first, and every
    round's substitutions with the round's number, earliest first."""

    score: str
    rows: list[TournamentRow]
    matchpoints: PlacedMatchpoints | None
    rounds: list[RoundView]
    substitutions: list[tuple[int, Substitution]] = field(default_factory=list)


def placed(rows: list[MatchpointRow]) -> PlacedMatchpoints:
    return list(zip(places(rows), rows))


def tournament_view(s: Session, league: League) -> TournamentView | None:
    """The league's tournament as the pages show it; None for a league with no round."""
    found = tournament_results(s, league)
    if found is None:
        return None
    numbers, results = found
    options = league_rules(league).tournament
    rounds = s.exec(
        select(LeagueRound)
        .where(LeagueRound.league_id == league.id)
        .order_by(LeagueRound.number.desc())
    ).all()  # type: ignore[union-attr]
    seats = seatings_by_session(s, league.id)  # type: ignore[arg-type]
    tables: dict[int, list[tuple[int, list[str]]]] = {}
    for session_id, round_id, table in s.exec(
        select(LeagueSession.id, LeagueSession.round_id, LeagueSession.table_number).where(
            LeagueSession.league_id == league.id,
            LeagueSession.round_id != None,  # noqa: E711
        )
    ).all():
        tables.setdefault(round_id, []).append((table or 0, seats.get(session_id, [])))
    subs: dict[int, list[tuple[str, str, bool]]] = {}
    for (number, sub), (absent, credited) in round_substitutes(s, league.id).items():  # type: ignore[arg-type]
        subs.setdefault(number, []).append((sub, absent, credited))
    views, compared = [], []
    for row in rounds:
        duplicate = duplicate_results(s, row) if row.deal_seed is not None else None
        compared += duplicate or []
        views.append(
            RoundView(
                row.number,
                row.ended_at is not None,
                tournament_table(
                    [x for x in results if x.round == row.number], options, [row.number]
                ),
                placed(matchpoints(duplicate)) if duplicate is not None else None,
                seated_substitutions(
                    tables.get(row.id, []),  # type: ignore[arg-type]
                    subs.get(row.number, []),
                ),
            )
        )
    duplicates = any(row.deal_seed is not None for row in rounds)
    return TournamentView(
        options.score,
        tournament_table(results, options, numbers),
        placed(matchpoints(compared)) if duplicates else None,
        views,
        [(view.number, sub) for view in reversed(views) for sub in view.substitutions],
    )
