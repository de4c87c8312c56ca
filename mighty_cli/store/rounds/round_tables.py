"""Rounds: everyone present seated at one or more tables at once, each table a session.

``round start`` seats the players at tables (:mod:`.round_seating`: the tables' sizes, the
plan of :mod:`mighty_cli.tournament.plan` against every earlier session of the league) and
opens every table together; an open round is planned again before its first hand (:func:`reseat_round`); ``round end`` ends them
all; :func:`round_state` reads a round back (:mod:`.round_layout`). A player already seated at an
open table of the league is refused, here as in ``session start``.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.translation import _, ngettext
from .. import LeagueError
from ..db import lock_league
from ..ledger.lookups import (
    find_round,
    get_league,
    league_rules,
    log_change,
    open_round,
    seating,
)
from ..ledger.sessions import checked_names
from ..ledger.table_entry import hand_in_progress
from ..models import Hand, LeagueRound, LeagueSession, LiveHand, SessionSeat, utc_now
from .duplicate import league_matchpoints
from .planned_rounds import (
    drop_planned,
    keep_planned,
    next_step,
    plan_span,
    planned_rounds,
)
from .round_layout import RoundState, RoundTable, SeatChange
from .round_seating import plan_ahead, round_deal_seed, seat_round
from .substitutes import checked_substitutes, keep_substitutes
from .substitutes import substitutes as round_substitutes


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
        state = seat_round(
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
        tables = step.tables or plan_ahead(
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
        state = seat_round(
            s, league, row, names, seed, apart, day, tables=tables, subs=subs, later=later
        )
        state.ahead = len(later)
        state.plan_round = (number - step.first + 1, step.rounds)
        state.replanned = step.change
    else:
        state = seat_round(s, league, row, names, seed, apart, day, subs=subs)
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
    state = seat_round(s, league, row, names, seed, apart, day, subs=subs)
    keep_substitutes(s, league, row.number, subs, credit)  # a substitute who left goes
    state.substitutes = [(sub, absent, credit) for sub, absent in subs.items()]
    log_change(s, "round reseat", who, league_id=league.id, after=_logged(state, seed))
    s.flush()
    return state


def _logged(state: RoundState, seed: int) -> dict:
    return {
        "round": state.number,
        "seed": seed,
        "tables": [
            {"table": t.table, "session": t.session, "players": t.players} for t in state.tables
        ],
        "repeated_pairs": state.repeated_pairs,
    }


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
        deal_seed=round_deal_seed(found),
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
