"""Rounds: everyone present seated at one or more tables at once, each table a session.

``round start`` splits the players into tables of the sizes the league's ruleset plays (its
``table.players``, and one or two more taking turns to sit out: :func:`seats_range`), seats them
by the plan of :mod:`mighty_cli.tournament.plan` (fewest pairs meeting again, against every
earlier session of the league), and opens every table together; ``round end`` ends them all.
A player already seated at an open table of the league is refused, here as in ``session
start``.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.session import seats_range
from ...engine.translation import _, ngettext
from ...tournament.matchpoints import MatchpointRow
from ...tournament.plan import (
    PlanError,
    PlanFacts,
    RoundPlan,
    lower_bound,
    pair,
    plan_facts,
    plan_round,
    plan_rounds,
    repeated_pairs,
    table_sizes,
)
from .. import LeagueError
from ..db import lock_league
from ..ledger.lookups import (
    find_round,
    get_league,
    league_rules,
    log_change,
    open_round,
    seating,
    seatings_by_session,
)
from ..ledger.open_tables import refuse_seated_elsewhere
from ..ledger.sessions import checked_names, open_session, refuse_near_misses
from ..ledger.table_entry import hand_in_progress
from ..models import Hand, League, LeagueRound, LeagueSession, LiveHand, SessionSeat, utc_now
from .duplicate import league_matchpoints
from .planned_rounds import (
    PlanChange,
    drop_planned,
    keep_planned,
    next_step,
    plan_span,
    planned_rounds,
)
from .substitutes import checked_substitutes, keep_substitutes
from .substitutes import substitutes as round_substitutes


@dataclass
class SeatChange:
    """A table's seating changed mid-round (``round seat``): from the table's hand
    ``from_hand`` on it is session ``session``, without ``left`` and with ``joined``."""

    from_hand: int
    session: int
    left: list[str]
    joined: list[str]

    def to_json(self) -> dict:
        return {
            "from_hand": self.from_hand,
            "session": self.session,
            "left": self.left,
            "joined": self.joined,
        }


@dataclass
class RoundTable:
    """One table of a round: its number, its session (the latest, where its seating changed
    mid-round), its players in seat order (the first dealer first), its live hands over every
    seating it had, whether it is still playing, and how its seating changed."""

    table: int
    session: int
    players: list[str]
    hands: int = 0
    playing: bool = True
    hand_in_progress: bool = False
    changes: list[SeatChange] = field(default_factory=list)
    #: the table's entry code (:mod:`.entry_codes`): for those who run the night, never for a
    #: page anyone may read
    code: str | None = None

    def to_json(self) -> dict:
        return {
            "table": self.table,
            "session": self.session,
            "players": self.players,
            "hands": self.hands,
            "playing": self.playing,
            "hand_in_progress": self.hand_in_progress,
            "seat_changes": [change.to_json() for change in self.changes],
            "code": self.code,
        }


@dataclass
class RoundState:
    """A round: its number, its tables, and (when just planned) the plan's repeated pairs,
    their proven lower bound and the kept-apart pairs that could not be kept apart."""

    number: int
    tables: list[RoundTable]
    ended: bool = False
    repeated_pairs: int | None = None
    lower_bound: int | None = None
    broken_apart: list[tuple[str, str]] = field(default_factory=list)
    ahead: int = 0  # rounds planned together with this one and kept for later
    deal_seed: int | None = None  # a duplicate round's deals (round start --duplicate)
    matchpoints: list[MatchpointRow] = field(default_factory=list)  # a duplicate round's
    #: who sits in for whom (S, X, credited): :mod:`.substitutes`
    substitutes: list[tuple[str, str, bool]] = field(default_factory=list)
    #: when just planned: what the plan could not avoid (this round and those planned after)
    facts: PlanFacts | None = None
    #: a round of a plan of several: its place in the plan and the plan's length (None:
    #: unknown), and why the rounds ahead were planned again
    plan_round: tuple[int, int | None] | None = None
    replanned: PlanChange | None = None
    dropped: int = 0  # rounds planned ahead that seating by strength dropped

    def to_json(self) -> dict:
        data: dict[str, Any] = {"round": self.number, "tables": [t.to_json() for t in self.tables]}
        if self.substitutes:
            data["substitutes"] = [
                {"player": sub, "for": absent, "credited": credited}
                for sub, absent, credited in self.substitutes
            ]
        if self.deal_seed is not None:
            data["duplicate"] = {
                "seed": self.deal_seed,
                "matchpoints": [row.to_json() for row in self.matchpoints],
            }
        if self.repeated_pairs is not None:
            data["repeated_pairs"] = self.repeated_pairs
            data["lower_bound"] = self.lower_bound
            data["broken_apart"] = [list(p) for p in self.broken_apart]
            data["planned_ahead"] = self.ahead
            if self.facts is not None:
                data.update(self.facts.to_json())
            if self.plan_round is not None:
                data["plan"] = {"round": self.plan_round[0], "rounds": self.plan_round[1]}
            if self.replanned:
                data["planned_again"] = self.replanned.to_json()
            if self.dropped:
                data["dropped_ahead"] = self.dropped
        else:
            data["ended"] = self.ended
        return data


def start_round(
    s: Session,
    league_name: str,
    players: Sequence[str],
    *,
    seed: int = 0,
    apart: Sequence[tuple[str, str]] = (),
    day: Any = None,
    rounds: int | None = None,
    duplicate: bool = False,
    substitutes: Sequence[tuple[str, str]] = (),
    credit: bool = False,
    who: str = "",
    standing: dict[str, float] | None = None,
    strict: bool = False,
) -> RoundState:
    """Plan and open a round: every table a session of the league, opened together. With
    ``rounds`` above 1, the plan's rounds are planned together and the later ones kept
    (:mod:`.planned_rounds`); a round planned ahead is taken as planned when nothing changed
    (the same players, the same ``rounds`` or none), and the rounds still ahead are planned
    again, saying why, when something did. ``standing`` (a number per player, higher
    better): each table seats its band of that order, first of all where ``strict``, after
    the repeats otherwise (Swiss); the rounds planned ahead are dropped.
    ``duplicate``: every table deals its hands from ``seed`` (:mod:`.duplicate`);
    ``substitutes`` (S, X): S sits in for X, planned as X, credited to X where ``credit``
    (:mod:`.substitutes`)."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    names = checked_names(players)
    if duplicate and league_rules(league).table.deal == "draft":
        raise LeagueError(
            _(
                "--duplicate: under {ruleset} the players draft their hands at the "
                "table (table.deal = draft), so no two tables can be given the same "
                "cards"
            ).format(ruleset=league_rules(league).name)
        )
    running = open_round(s, league)
    if running is not None:
        raise LeagueError(
            _(
                "round {number} of league {league} is still open; end it first "
                "with 'mighty round end --league {name}'"
            ).format(number=running.number, league=repr(league.name), name=league.name)
        )
    subs = checked_substitutes(s, names, substitutes)
    names = [subs.get(name, name) for name in names]  # as planned
    apart = [(subs.get(a, a), subs.get(b, b)) for a, b in apart]
    number = (
        s.exec(select(func.max(LeagueRound.number)).where(LeagueRound.league_id == league.id)).one()
        or 0
    ) + 1
    row = LeagueRound(
        league_id=league.id,
        number=number,
        seed=str(seed),  # type: ignore
        deal_seed=str(seed) if duplicate else None,
    )
    ahead = planned_rounds(s, league.id, number)  # type: ignore[arg-type]
    if standing is not None:  # seated by strength: not a plan's round
        dropped = drop_planned(s, league.id, number)  # type: ignore[arg-type]
        state = _seat(
            s, league, row, names, seed, apart, day, subs=subs, standing=standing, strict=strict
        )
        state.dropped = dropped
    elif (rounds or 1) > 1 or ahead:
        step = next_step(
            ahead,
            plan_span(s, league.id, number),  # type: ignore[arg-type]
            names,
            rounds,
            apart,
            number,
        )
        tables = step.tables or _plan_ahead(
            s, league, names, number, step.count, seed, apart, step.first, step.rounds
        )
        later = planned_rounds(s, league.id, number + 1)  # type: ignore[arg-type]
        keep_planned(
            s,
            league.id,
            number,
            later,
            step.first,  # type: ignore[arg-type]
            step.rounds,
        )
        state = _seat(
            s, league, row, names, seed, apart, day, tables=tables, subs=subs, later=later
        )
        state.ahead = len(later)
        state.plan_round = (number - step.first + 1, step.rounds)
        state.replanned = step.change
    else:
        state = _seat(s, league, row, names, seed, apart, day, subs=subs)
    keep_substitutes(s, league, number, subs, credit)
    state.substitutes = [(sub, absent, credit) for sub, absent in subs.items()]
    log_change(s, "round start", who, league_id=league.id, after=_logged(state, seed))
    s.flush()
    return state


def reseat_round(
    s: Session,
    league_name: str,
    players: Sequence[str] | None = None,
    *,
    seed: int = 0,
    apart: Sequence[tuple[str, str]] = (),
    who: str = "",
) -> RoundState:
    """Plan the open round again before its first hand (with the players given, or those it
    seats): its tables' sessions are replaced by the new plan's. Refused once any table has a
    hand, stored or in progress."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    row = open_round(s, league)
    if row is None:
        raise LeagueError(_("league {league} has no open round").format(league=repr(league.name)))
    sessions = s.exec(
        select(LeagueSession)
        .where(LeagueSession.round_id == row.id)
        .order_by(LeagueSession.table_number)
    ).all()
    for session in sessions:
        played = s.exec(select(func.count(Hand.id)).where(Hand.session_id == session.id)).one()
        if played or hand_in_progress(s, session.id):  # type: ignore[arg-type]
            raise LeagueError(
                _(
                    "round {number} has begun (table {table} has a hand): its "
                    "plan can no longer change; seat who leaves or arrives with "
                    "'mighty round seat --league {name} --table T --leave X --join "
                    "Y'"
                ).format(number=row.number, table=session.table_number, name=league.name)
            )
    seated = [name for session in sessions for name in seating(s, session.id)]  # type: ignore
    names = checked_names(players) if players else seated
    kept = round_substitutes(s, league.id, row.number)  # type: ignore[arg-type]
    subs = {sub: absent for (_round, sub), (absent, _credit) in kept.items() if sub in names}
    for sub, absent in subs.items():
        if absent in names:
            raise LeagueError(
                _(
                    "--players: {sub} sits in for {absent} this round (round start "
                    "--substitute {sub}/{absent}), so {absent} cannot be seated "
                    "too; leave {sub} out to seat {absent} in his own place"
                ).format(sub=sub, absent=absent)
            )
    credit = any(credited for _absent, credited in kept.values())
    names = [subs.get(name, name) for name in names]  # as planned
    day = sessions[0].day if sessions else None
    for session in sessions:
        for seat in s.exec(select(SessionSeat).where(SessionSeat.session_id == session.id)):
            s.delete(seat)
    s.flush()  # the seats first: they point at their sessions
    for session in sessions:
        s.delete(session)
    s.flush()
    row.seed = str(seed)
    state = _seat(s, league, row, names, seed, apart, day, subs=subs)
    keep_substitutes(s, league, row.number, subs, credit)  # a substitute who left goes
    state.substitutes = [(sub, absent, credit) for sub, absent in subs.items()]
    log_change(s, "round reseat", who, league_id=league.id, after=_logged(state, seed))
    s.flush()
    return state


def _plan_ahead(
    s: Session,
    league: League,
    names: list[str],
    number: int,
    count: int,
    seed: int,
    apart: Sequence[tuple[str, str]],
    first: int,
    rounds: int | None,
) -> list[tuple[str, ...]]:
    """Plan ``count`` rounds from round ``number`` together for these players (against the
    league's history), keep the later ones (the plan began at ``first`` and has ``rounds``),
    and give the first one's tables."""
    sizes = _table_sizes(league, len(names))
    plans = plan_rounds(
        names,
        sizes,
        count,
        seed=seed,
        history=earlier_rounds(s, league),
        seated=league_rules(league).table.players,
        apart=apart,
    )
    keep_planned(
        s,
        league.id,
        number,
        [plan.tables for plan in plans[1:]],  # type: ignore
        first,
        rounds,
    )
    return list(plans[0].tables)


def _table_sizes(league: League, count: int) -> list[int]:
    """How ``count`` players sit at tables of the sizes the league's ruleset plays."""
    rules = league_rules(league)
    low, high = seats_range(rules)
    try:
        return table_sizes(count, range(low, high + 1))
    except PlanError as exc:
        raise LeagueError(
            _("--players: {problem} ({ruleset} seats {low} to {high} at a table)").format(
                problem=exc, ruleset=rules.name, low=low, high=high
            )
        ) from None


def _logged(state: RoundState, seed: int) -> dict:
    return {
        "round": state.number,
        "seed": seed,
        "tables": [
            {"table": t.table, "session": t.session, "players": t.players} for t in state.tables
        ],
        "repeated_pairs": state.repeated_pairs,
    }


def _seat(
    s: Session,
    league: League,
    row: LeagueRound,
    names: list[str],
    seed: int,
    apart: Sequence[tuple[str, str]],
    day: Any,
    tables: list[tuple[str, ...]] | None = None,
    subs: dict[str, str] | None = None,
    later: Sequence[list[tuple[str, ...]]] = (),
    standing: dict[str, float] | None = None,
    strict: bool = False,
) -> RoundState:
    """Plan a round of these players (or take ``tables``, planned ahead) and open its tables,
    each a session of the round; say what the plan (with the rounds planned ``later``) could
    not avoid. ``names`` are as planned: a substitute under the name of the player he sits in
    for (``subs``: {S: X}), who is seated in X's place. ``standing``: seated by that order
    (:func:`start_round`)."""
    subs = subs or {}
    back = {absent: sub for sub, absent in subs.items()}
    present = [back.get(name, name) for name in names]  # who really sits
    apart = [(subs.get(a, a), subs.get(b, b)) for a, b in apart]
    for a, b in apart:
        for name in (a, b):
            if name not in names:
                raise LeagueError(
                    _("--apart {a}/{b}: {name} is not one of the players present").format(
                        a=a, b=b, name=repr(name)
                    )
                )
    refuse_seated_elsewhere(s, league, present)
    sizes = _table_sizes(league, len(names))
    refuse_near_misses(s, present)
    history = earlier_rounds(s, league)
    seated = league_rules(league).table.players
    if tables is None:
        plan = plan_round(
            names,
            sizes,
            history,
            seed=seed,
            apart=apart,
            seated=seated,
            standing=standing,
            strict=strict,
        )
    else:
        plan = RoundPlan(
            list(tables),
            repeated_pairs(tables, history),
            lower_bound(len(tables), history, set(names)),
            sorted(pair(a, b) for a, b in apart if any(a in t and b in t for t in tables)),
        )
    facts = plan_facts(history, [plan.tables, *later], seated)
    facts.every_round = [(back.get(a, a), back.get(b, b), n) for a, b, n in facts.every_round]
    facts.thrice = [(back.get(a, a), back.get(b, b), n) for a, b, n in facts.thrice]
    dealt = _first_deals(s, league)  # read once for every table
    plan.tables = [
        first_dealer_rotated(tuple(back.get(name, name) for name in table), dealt)
        for table in plan.tables
    ]
    plan.broken_apart = [(back.get(a, a), back.get(b, b)) for a, b in plan.broken_apart]
    s.add(row)
    s.flush()
    tables = []
    for index, table in enumerate(plan.tables, start=1):
        session = open_session(s, league, list(table), day=day, round_id=row.id, table_number=index)
        if row.deal_seed is not None:  # a duplicate round: the referee deals from its seed
            session.deal_seed = row.deal_seed
            s.add(session)
        tables.append(RoundTable(index, session.number, list(table), code=session.entry_code))
    return RoundState(
        row.number,
        tables,
        repeated_pairs=plan.repeated_pairs,
        lower_bound=plan.lower_bound,
        broken_apart=plan.broken_apart,
        deal_seed=_deal_seed(row),
        facts=facts,
    )


def _deal_seed(row: LeagueRound) -> int | None:
    return int(row.deal_seed) if row.deal_seed is not None else None


def _first_deals(s: Session, league: League) -> dict[str, int]:
    """How often each player has dealt first at a table of the league's rounds (a round's
    table deals first from its first seat: round start names no other dealer; a seating
    changed mid-round goes on from where the table was). A table that never played a hand
    dealt nothing."""
    played = played_sessions(s, league)
    firsts: dict[tuple[int, int], int] = {}  # each table's first session with a hand played
    for session_id, round_id, table in s.exec(
        select(LeagueSession.id, LeagueSession.round_id, LeagueSession.table_number)
        .where(LeagueSession.league_id == league.id, LeagueSession.round_id != None)  # noqa: E711
        .order_by(LeagueSession.number)
    ).all():
        if session_id in played:
            firsts.setdefault((round_id, table or 0), session_id)  # type: ignore[arg-type]
    counts: dict[str, int] = {}
    seats = seatings_by_session(s, league.id)  # type: ignore[arg-type]
    for session_id in firsts.values():
        name = seats[session_id][0]
        counts[name] = counts.get(name, 0) + 1
    return counts


def played_sessions(s: Session, league: League) -> set[int]:
    """The league's sessions with a hand played (a voided hand is not played): a session or a
    round's table that never played is no meeting, no sit at a large table and no first deal
    in a plan."""
    return set(
        s.exec(
            select(Hand.session_id)
            .where(Hand.league_id == league.id, Hand.voided == False)  # noqa: E712
            .distinct()
        ).all()
    )


def first_dealer_rotated(table: Sequence[str], first_deals: dict[str, int]) -> tuple[str, ...]:
    """A table's seats turned round (neighbours kept) so that the player who has dealt first
    least often in earlier rounds deals first now (the plan's own order between equals): the
    first deal, and at six or seven the first hand sat out, go round the players."""
    seats = list(table)
    start = min(range(len(seats)), key=lambda i: (first_deals.get(seats[i], 0), i))
    return tuple(seats[start:] + seats[:start])


def earlier_rounds(s: Session, league: League) -> list[list[tuple[str, ...]]]:
    """The league's seatings so far as rounds, oldest first: a round's tables together, and
    each session started on its own as a round of one table (what a plan is scored against).
    Only a seating that played a hand counts (:func:`played_sessions`): a false start, a
    session or round ended before its first hand, met nobody; a table whose seating changed
    mid-round is there as each seating it had."""
    played = played_sessions(s, league)
    seats = seatings_by_session(s, league.id)  # type: ignore[arg-type]
    rounds: dict[Any, list[tuple[str, ...]]] = {}
    for session_id, round_id in s.exec(
        select(LeagueSession.id, LeagueSession.round_id)
        .where(LeagueSession.league_id == league.id)
        .order_by(LeagueSession.number)
    ).all():
        if session_id in played:
            key = ("round", round_id) if round_id else ("session", session_id)
            rounds.setdefault(key, []).append(tuple(seats.get(session_id, ())))
    return list(rounds.values())


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


def round_state(s: Session, league_name: str, number: int | None = None) -> RoundState:
    """A round's tables: players, hands played, whether each is still playing, and the
    seatings a table changed mid-round (one session each)."""
    league = get_league(s, league_name)
    found = find_round(s, league, number)
    by_table: dict[int, list[LeagueSession]] = {}
    for session in s.exec(
        select(LeagueSession)
        .where(LeagueSession.round_id == found.id)
        .order_by(LeagueSession.table_number, LeagueSession.number)
    ).all():
        by_table.setdefault(session.table_number or 0, []).append(session)
    tables = []
    for table, sessions in by_table.items():
        counts = dict(
            s.exec(
                select(Hand.session_id, func.count(Hand.id))
                .where(Hand.session_id.in_([x.id for x in sessions]))  # type: ignore
                .group_by(Hand.session_id)
            ).all()
        )
        live = s.exec(
            select(func.count(Hand.id)).where(
                Hand.session_id.in_([x.id for x in sessions]),  # type: ignore[union-attr]
                Hand.voided == False,  # noqa: E712
            )
        ).one()
        seatings = [seating(s, x.id) for x in sessions]  # type: ignore[arg-type]
        changes, before = [], 0  # each later seating: who left and joined, from which hand
        for index in range(1, len(sessions)):
            before += counts.get(sessions[index - 1].id, 0)
            earlier, later = seatings[index - 1], seatings[index]
            changes.append(
                SeatChange(
                    before + 1,
                    sessions[index].number,
                    [name for name in earlier if name not in later],
                    [name for name in later if name not in earlier],
                )
            )
        current = sessions[-1]
        tables.append(
            RoundTable(
                table,
                current.number,
                seatings[-1],
                live,
                current.ended_at is None,
                hand_in_progress(s, current.id),  # type: ignore[arg-type]
                changes,
                current.entry_code,
            )
        )
    state = RoundState(
        found.number,
        tables,
        ended=found.ended_at is not None,
        deal_seed=_deal_seed(found),
        substitutes=[
            (sub, absent, credited)
            for (_round, sub), (absent, credited) in round_substitutes(
                s,
                league.id,  # type: ignore[arg-type]
                found.number,
            ).items()
        ],
    )
    if found.deal_seed is not None:
        state.matchpoints = league_matchpoints(s, league.id, found.number) or []
    return state


def end_round(s: Session, league_name: str, *, force: bool = False, who: str = "") -> RoundState:
    """End the open round: every table still playing ends with it. A table with a hand in
    progress (a referee's, kept in the database) is refused unless ``force``."""
    league = get_league(s, league_name)
    lock_league(s, league.id)  # type: ignore[arg-type]
    found = open_round(s, league)
    if found is None:
        raise LeagueError(_("league {league} has no open round").format(league=repr(league.name)))
    state = round_state(s, league_name, found.number)
    busy = [t for t in state.tables if t.playing and t.hand_in_progress]
    if busy and not force:
        raise LeagueError(
            ngettext(
                "round {number}: table {tables} has a hand in progress; finish it, or end the round "
                "anyway with --force (the hand is dropped)",
                "round {number}: tables {tables} have a hand in progress; finish them, or end the "
                "round anyway with --force (the hands are dropped)",
                len(busy),
            ).format(number=found.number, tables=", ".join(str(t.table) for t in busy))
        )
    now = utc_now()
    for session in s.exec(
        select(LeagueSession).where(
            LeagueSession.round_id == found.id,
            LeagueSession.ended_at == None,  # noqa: E711
        )
    ).all():
        session.ended_at = now
        s.add(session)
        live = s.get(LiveHand, session.id)
        if live is not None:
            s.delete(live)
    found.ended_at = now
    s.add(found)
    log_change(
        s,
        "round end",
        who,
        league_id=league.id,
        after={"round": found.number, "dropped": [t.table for t in busy]},
    )
    s.flush()
    return round_state(s, league_name, found.number)


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
        count = s.exec(
            select(func.count(func.distinct(LeagueSession.table_number))).where(
                LeagueSession.round_id == found.id
            )
        ).one()
        raise LeagueError(
            _("--table {table}: round {number} has tables 1 to {count}").format(
                table=table, number=found.number, count=count
            )
        )
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
