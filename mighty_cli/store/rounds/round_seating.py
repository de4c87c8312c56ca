"""A round's tables seated (``round start``, ``round reseat``): the tables' sizes from the
league's ruleset, the plan against every earlier session of the league (and the rounds planned
ahead), each table's first dealer rotated from the players' first deals, and the tables opened,
each a session of the round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlmodel import Session, select

from ...engine.session import seats_range
from ...engine.translation import _
from ...tournament.plan import (
    PlanError,
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
from ..ledger.lookups import (
    league_rules,
    seatings_by_session,
)
from ..ledger.open_tables import refuse_seated_elsewhere
from ..ledger.sessions import open_session, refuse_near_misses
from ..models import Hand, League, LeagueRound, LeagueSession
from .planned_rounds import (
    keep_planned,
)
from .round_layout import RoundState, RoundTable


def plan_ahead(
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


def seat_round(
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
        deal_seed=round_deal_seed(row),
        facts=facts,
    )


def round_deal_seed(row: LeagueRound) -> int | None:
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
