"""What a round shows: its own standings, the tournament table over the league's rounds under
the ruleset's ``[tournament]`` options, and the projector board with its score slips (``round
show --html``).

Each function reads inside the caller's session and raises a project error for bad input.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlmodel import Session, select

from ...engine.session import duplicate_proposal
from ...league.standings import PlayerStats, Standings, parse_rank_by, rank
from ...tournament.matchpoints import MatchpointRow, places
from ...tournament.ranking import TableResult, TournamentRow, tournament_table
from ..ledger.lookups import find_round, get_league, league_rules, seating
from ..ledger.queries import row_stats, stats_query
from ..models import Hand, League, LeagueRound, LeagueSession
from .round_layout import RoundState
from .round_tables import round_state
from .substitutes import Substitution, seated_substitutions
from .substitutes import substitutes as round_substitutes


def round_standings(s: Session, league_name: str, number: int) -> Standings:
    """The table of round ``number`` alone: its tables' live hands, every player seated in it
    listed, ranked by the league's keys (no minimum of hands: a round is short)."""
    league = get_league(s, league_name)
    found = find_round(s, league, number)
    sessions = s.exec(select(LeagueSession.id).where(LeagueSession.round_id == found.id)).all()
    query = stats_query(league.id).where(Hand.session_id.in_(list(sessions)))  # type: ignore
    stats = [row_stats(row) for row in s.exec(query).all()]
    listed = {row.name for row in stats}
    for session_id in sessions:
        stats += [PlayerStats(name) for name in seating(s, session_id) if name not in listed]
        listed.update(seating(s, session_id))
    return rank(stats, 0, parse_rank_by(league.rank_by))


def tournament_standings(
    s: Session, league_name: str, number: int | None = None
) -> list[TournamentRow] | None:
    """The tournament table over the league's rounds (or round ``number`` alone) under its
    ruleset's ``[tournament]`` options; None for a league with no round."""
    league = get_league(s, league_name)
    found = tournament_results(s, league, number)
    if found is None:
        return None
    rounds, results = found
    return tournament_table(results, league_rules(league).tournament, rounds)


def tournament_results(
    s: Session, league: League, number: int | None = None
) -> tuple[list[int], list[TableResult]] | None:
    """The numbers of the league's rounds (or of round ``number`` alone) and every seated
    player's result at each of their tables, a credited substitute's under the name of the
    player he sat in for; None for a league with no round."""
    query = select(LeagueRound.id, LeagueRound.number).where(LeagueRound.league_id == league.id)
    if number is not None:
        query = query.where(LeagueRound.id == find_round(s, league, number).id)
    rounds = dict(s.exec(query).all())
    if not rounds:
        return None
    tables = {
        session_id: (rounds[round_id], table)
        for session_id, round_id, table in s.exec(
            select(LeagueSession.id, LeagueSession.round_id, LeagueSession.table_number).where(
                LeagueSession.round_id.in_(list(rounds))
            )
        ).all()
    }  # type: ignore
    counted = {}
    for row in s.exec(
        stats_query(league.id, Hand.session_id).where(Hand.session_id.in_(list(tables)))  # type: ignore[arg-type]
    ).all():  # type: ignore
        stats = row_stats(row[1:])
        counted[row[0], stats.name] = stats
    credited = {
        key: absent
        for key, (absent, credit) in round_substitutes(s, league.id, number).items()
        if credit
    }  # type: ignore[arg-type]
    sat: dict[tuple[int, int, str], list[int]] = {}  # score, hands, declarer_success
    for session_id, (round_number, table) in tables.items():  # everyone seated has a place
        for name in seating(s, session_id):  # once a table, over every seating it had
            stats = counted.get((session_id, name)) or PlayerStats(name)
            total = sat.setdefault(
                (round_number, table or 0, credited.get((round_number, name), name)), [0, 0, 0]
            )
            total[0] += stats.score
            total[1] += stats.hands
            total[2] += stats.declarer_success
    results = [
        TableResult(round_number, table, name, *total)
        for (round_number, table, name), total in sat.items()
    ]
    return sorted(rounds.values()), results


#: How often an open round's board reloads in the browser (seconds), and the lines of a score
#: slip when the ruleset does not fix a session's hands (session.hands_per_session).
BOARD_REFRESH_SECONDS = 60
SLIP_LINES = 12


@dataclass
class BoardSeat:
    name: str
    table: int
    seat: int


@dataclass
class BoardRow:
    rank: int | None
    name: str
    table: int
    hands: int
    score: int
    tournament: str = ""


@dataclass
class RoundBoard:
    """What the projector board of a round shows (``round show --html``)."""

    league: str
    ruleset_title: str
    round: RoundState
    seats: list[BoardSeat]
    rows: list[BoardRow]
    tournament: bool
    slip_lines: int
    refresh: int = BOARD_REFRESH_SECONDS
    #: a duplicate round's matchpoints with their places, and each table's dealer of each
    #: deal (the slips print them: they are the round's, not the table's to choose)
    matchpoints: list[tuple[int | None, MatchpointRow]] = field(default_factory=list)
    dealers: dict[int, list[str]] = field(default_factory=dict)
    #: who sits in for whom, at which table, from which of its hands
    substitutions: list[Substitution] = field(default_factory=list)


def round_board(s: Session, league_name: str, number: int | None = None) -> RoundBoard:
    """A round's board: its tables, where each player sits (by name), the round's standings
    (with the tournament score where the ruleset's [tournament] does not score raw points)."""
    league = get_league(s, league_name)
    rules = league_rules(league)
    state = round_state(s, league_name, number)
    where = {
        name: (table.table, seat)
        for table in state.tables
        for seat, name in enumerate(table.players, start=1)
    }
    seats = sorted(
        (BoardSeat(name, table, seat) for name, (table, seat) in where.items()),
        key=lambda seat: (seat.name.casefold(), seat.name),
    )
    for table in state.tables:  # who left a table mid-round is listed at it
        for change in table.changes:
            for name in change.left:
                where.setdefault(name, (table.table, 0))
    standings = round_standings(s, league_name, state.number)
    by_tournament = rules.tournament.score != "raw"
    tournament = (
        {row.name: row for row in tournament_standings(s, league_name, state.number) or []}
        if by_tournament
        else {}
    )
    credit = {sub: absent for sub, absent, credited in state.substitutes if credited}
    scored = {
        name: f"{tournament[credit.get(name, name)].score:g}"
        for name in where
        if credit.get(name, name) in tournament
    }
    rows = [
        BoardRow(
            row.rank,
            row.stats.name,
            where.get(row.stats.name, (0, 0))[0],
            row.stats.hands,
            row.stats.score,
            scored.get(row.stats.name, ""),
        )
        for row in standings.rows
    ]
    lines = min(rules.session.hands_per_session or SLIP_LINES, 40)
    board = RoundBoard(league.name, rules.meta.title, state, seats, rows, by_tournament, lines)
    board.substitutions = seated_substitutions(
        ((table.table, table.players) for table in state.tables), state.substitutes
    )
    if state.deal_seed is not None:
        board.matchpoints = list(zip(places(state.matchpoints), state.matchpoints))
        board.dealers = {
            table.table: [
                duplicate_proposal(rules, table.players, deal).dealer
                for deal in range(1, lines + 1)
            ]
            for table in state.tables
        }
    return board
