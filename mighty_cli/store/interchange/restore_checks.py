"""A restore's checks of the rows together, once every row is in and before anything is
committed: what each row refers to belongs to the same league, every session seats its
players in seats 0, 1, 2, ..., nobody sits at two open tables of a league, a league has one
open round at most, a duplicate round's tables deal from its seed, a plan seats tables the
league's ruleset plays, and every hand, voided or not, replays under its league's ruleset as
``hand amend`` and an import replay it. Then the running totals are counted again from the
hands (a backup's cached totals are never trusted).

Each check is one query that finds the first row breaking its rule (or a pass over a league's
hands in pages), so memory stays flat whatever the backup's size (what a check is:
:mod:`.restore_findings`; the hands' checks: :mod:`.restore_hand_checks`). A problem is one
:class:`~mighty_cli.store.LeagueError` line naming the table, the row and the column.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from sqlalchemy import exists, func, or_
from sqlalchemy.orm import aliased
from sqlmodel import Session, select

from ...engine.session import seats_range
from ...engine.translation import N_, _
from .. import LeagueError
from ..ledger.lookups import league_rules
from ..ledger.open_tables import seated_twice
from ..ledger.totals import fold
from ..models import (
    ChangeLog,
    Hand,
    HandPlayer,
    League,
    LeagueRound,
    LeagueSession,
    LiveHand,
    PlannedTable,
    Player,
    RoundSubstitute,
    SessionSeat,
)
from .restore_findings import Found, first_row
from .restore_hand_checks import hand_members, replay_hands


def check_restored(s: Session, name: str) -> None:
    """Refuse (one line) restored rows that break a rule the commands rely on; then count the
    running totals from the hands."""
    for check in CHECKS:
        found = check(s)
        if found is not None:
            table, key, column, problem = found
            raise LeagueError(
                _("{name}: {table}.{column} ({key}): {problem}").format(
                    name=name, table=table, column=column, key=key, problem=problem
                )
            )
    for league in s.exec(select(League).order_by(League.id)).all():
        replay_hands(s, league, name)
        fold(s, league.id)  # type: ignore[arg-type]  (from nothing: the totals are counted)


# --- sessions, rounds and seats ------------------------------------------------------------------


def _round_of_session(s: Session) -> Found:
    rounds = aliased(LeagueRound)
    row = first_row(
        s,
        select(LeagueSession.id, LeagueSession.round_id)
        .outerjoin(rounds, rounds.id == LeagueSession.round_id)
        .where(
            LeagueSession.round_id != None,  # noqa: E711
            or_(
                rounds.id == None,  # noqa: E711
                rounds.league_id != LeagueSession.league_id,
            ),
        )
        .order_by(LeagueSession.id),
    )
    if row is None:
        return None
    return (
        "league_session",
        f"id {row[0]}",
        "round_id",
        _("{value} names no round of the session's league").format(value=row[1]),
    )


def _table_twice(s: Session) -> Found:
    row = first_row(
        s,
        select(func.max(LeagueSession.id), LeagueSession.table_number)
        .where(LeagueSession.round_id != None)  # noqa: E711
        .group_by(LeagueSession.round_id, LeagueSession.table_number)
        .having(func.count() > 1),
    )
    if row is None:
        return None
    return (
        "league_session",
        f"id {row[0]}",
        "table_number",
        _("its round has another table {table}").format(table=row[1]),
    )


def _open_rounds(s: Session) -> Found:
    row = first_row(
        s,
        select(func.max(LeagueRound.id))
        .where(LeagueRound.ended_at == None)  # noqa: E711
        .group_by(LeagueRound.league_id)
        .having(func.count() > 1),
    )
    if row is None:
        return None
    return (
        "league_round",
        f"id {row[0]}",
        "ended_at",
        _("a second open round of its league (a league plays one round at a time)"),
    )


def _open_table_of_ended_round(s: Session) -> Found:
    row = first_row(
        s,
        select(LeagueSession.id, LeagueRound.number)
        .join(LeagueRound, LeagueRound.id == LeagueSession.round_id)
        .where(
            LeagueSession.ended_at == None,  # noqa: E711
            LeagueRound.ended_at != None,  # noqa: E711
        )
        .order_by(LeagueSession.id),
    )
    if row is None:
        return None
    return (
        "league_session",
        f"id {row[0]}",
        "ended_at",
        _("a table still open in round {number}, which has ended").format(number=row[1]),
    )


def _seats(s: Session) -> Found:
    """Every session seats one player or more, in seats 0 to n-1, each player once."""
    seats = (
        select(
            SessionSeat.session_id,
            func.count().label("n"),
            func.min(SessionSeat.seat).label("low"),
            func.max(SessionSeat.seat).label("high"),
            func.count(func.distinct(SessionSeat.player_id)).label("people"),
        )
        .group_by(SessionSeat.session_id)
        .subquery()
    )
    row = first_row(
        s,
        select(LeagueSession.id, seats.c.n, seats.c.low, seats.c.high, seats.c.people)
        .outerjoin(seats, seats.c.session_id == LeagueSession.id)
        .where(
            or_(
                seats.c.n == None,  # noqa: E711
                seats.c.low != 0,
                seats.c.high != seats.c.n - 1,
                seats.c.people != seats.c.n,
            )
        )
        .order_by(LeagueSession.id),
    )
    if row is None:
        return None
    session, count, _low, high, people = row
    if count is None:
        return (
            "league_session",
            f"id {session}",
            "id",
            _("a session at which nobody is seated (no session_seat row)"),
        )
    if people != count:
        return (
            "session_seat",
            f"session_id {session}",
            "player_id",
            _("a player is seated twice at one session"),
        )
    return (
        "session_seat",
        f"session_id {session}",
        "seat",
        _("the seats are {count} but numbered up to {high} (0 is the first)").format(
            count=count, high=high
        ),
    )


def _open_table_sizes(s: Session) -> Found:
    """An open session seats as many as its league's ruleset plays, or one or two more."""
    for league in s.exec(select(League).order_by(League.id)).all():
        low, high = seats_range(league_rules(league))
        row = first_row(
            s,
            select(LeagueSession.id, func.count())
            .join(SessionSeat, SessionSeat.session_id == LeagueSession.id)
            .where(LeagueSession.league_id == league.id, LeagueSession.ended_at == None)  # noqa: E711
            .group_by(LeagueSession.id)
            .having(or_(func.count() < low, func.count() > high)),
        )
        if row is not None:
            return (
                "session_seat",
                f"session_id {row[0]}",
                "seat",
                _("{count} seated at an open session; {ruleset} seats {low} to {high}").format(
                    count=row[1], ruleset=league_rules(league).name, low=low, high=high
                ),
            )
    return None


def _first_dealer(s: Session) -> Found:
    row = first_row(
        s,
        select(LeagueSession.id, LeagueSession.first_dealer_id)
        .where(
            LeagueSession.first_dealer_id != None,  # noqa: E711
            ~exists().where(
                SessionSeat.session_id == LeagueSession.id,
                SessionSeat.player_id == LeagueSession.first_dealer_id,
            ),
        )
        .order_by(LeagueSession.id),
    )
    if row is None:
        return None
    return (
        "league_session",
        f"id {row[0]}",
        "first_dealer_id",
        _("player {value} is not seated at the session").format(value=row[1]),
    )


def _two_open_tables(s: Session) -> Found:
    """One person, one open table, in any league of the database (:mod:`..ledger.open_tables`)."""
    found = seated_twice(s)
    if not found:
        return None
    first, second = found[0][:2]
    return (
        "session_seat",
        f"league {first.league!r}",
        "player_id",
        _(
            "{name} is seated at {first} and at {second}, both open (one person sits at one "
            "open table)"
        ).format(name=first.player, first=first.where(), second=second.where()),
    )


def _deal_seeds(s: Session) -> Found:
    """A duplicate round's tables deal from its seed (the referee deals from the session's)."""
    row = first_row(
        s,
        select(LeagueSession.id, LeagueRound.deal_seed)
        .join(LeagueRound, LeagueRound.id == LeagueSession.round_id)
        .where(
            LeagueRound.deal_seed != None,  # noqa: E711
            or_(
                LeagueSession.deal_seed == None,  # noqa: E711
                LeagueSession.deal_seed != LeagueRound.deal_seed,
            ),
        )
        .order_by(LeagueSession.id),
    )
    if row is None:
        return None
    return (
        "league_session",
        f"id {row[0]}",
        "deal_seed",
        _("a table of a duplicate round deals from its round's seed, {seed}").format(seed=row[1]),
    )


# --- rows of one league --------------------------------------------------------------------------


def _same_league(table, key, column: str, other, joined, what: str) -> Callable[[Session], Found]:
    """A check that the row's league is that of the row it refers to (``joined``; ``what``: how
    a message names that row, translated when it is shown)."""

    def check(s: Session) -> Found:
        row = first_row(
            s,
            select(key, getattr(table, column))
            .join(other, joined)
            .where(table.league_id != other.league_id)
            .order_by(key),
        )
        if row is None:
            return None
        return (
            table.__tablename__,
            f"{key.key} {row[0]}",
            column,
            _("{value} names {what} of another league").format(value=row[1], what=_(what)),
        )

    return check


def _live_hand_open(s: Session) -> Found:
    row = first_row(
        s,
        select(LiveHand.session_id)
        .join(LeagueSession, LeagueSession.id == LiveHand.session_id)
        .where(LeagueSession.ended_at != None)  # noqa: E711
        .order_by(LiveHand.session_id),
    )
    if row is None:
        return None
    return (
        "live_hand",
        f"session_id {row[0]}",
        "session_id",
        _("a hand in progress at a session that has ended"),
    )


def _change_log_hand(s: Session) -> Found:
    row = first_row(
        s,
        select(ChangeLog.id, ChangeLog.hand_id)
        .join(Hand, Hand.id == ChangeLog.hand_id)
        .where(
            ChangeLog.league_id != None,  # noqa: E711
            Hand.league_id != ChangeLog.league_id,
        )
        .order_by(ChangeLog.id),
    )
    if row is None:
        return None
    return (
        "change_log",
        f"id {row[0]}",
        "hand_id",
        _("{value} names a hand of another league").format(value=row[1]),
    )


def _substitute_round(s: Session) -> Found:
    row = first_row(
        s,
        select(RoundSubstitute.league_id, RoundSubstitute.round_number, RoundSubstitute.player_id)
        .where(
            ~exists().where(
                LeagueRound.league_id == RoundSubstitute.league_id,
                LeagueRound.number == RoundSubstitute.round_number,
            )
        )
        .order_by(RoundSubstitute.league_id, RoundSubstitute.round_number),
    )
    if row is None:
        return None
    return (
        "round_substitute",
        f"league_id {row[0]}, round_number {row[1]}, player_id {row[2]}",
        "round_number",
        _("the league has no round {number}").format(number=row[1]),
    )


def _merged_into(s: Session) -> Found:
    targets = aliased(Player)
    row = first_row(
        s,
        select(Player.id, Player.merged_into_id)
        .join(targets, targets.id == Player.merged_into_id)
        .where(targets.merged_into_id != None)  # noqa: E711
        .order_by(Player.id),
    )
    if row is None:
        return None
    return (
        "player",
        f"id {row[0]}",
        "merged_into_id",
        _("{value} was itself merged into another player (a merge names the player kept)").format(
            value=row[1]
        ),
    )


def _plans(s: Session) -> Found:
    """A plan is for a round still to come, seats tables the league's ruleset plays, and
    names each player once in a round."""
    leagues = {league.id: league for league in s.exec(select(League)).all()}
    last = dict(
        s.exec(
            select(LeagueRound.league_id, func.max(LeagueRound.number)).group_by(
                LeagueRound.league_id
            )
        ).all()
    )
    seen: dict[tuple[int, int], set[str]] = {}
    for row in s.exec(
        select(PlannedTable).order_by(
            PlannedTable.league_id, PlannedTable.round_number, PlannedTable.table_number
        )
    ).all():
        key = (
            f"league_id {row.league_id}, round_number {row.round_number}, "
            f"table_number {row.table_number}"
        )
        if row.round_number <= last.get(row.league_id, 0):
            return (
                "planned_table",
                key,
                "round_number",
                _("round {number} has been played: a plan is for a round to come").format(
                    number=row.round_number
                ),
            )
        players = json.loads(row.players)
        rules = league_rules(leagues[row.league_id])
        low, high = seats_range(rules)
        if not low <= len(players) <= high:
            return (
                "planned_table",
                key,
                "players",
                _("{count} at a table; {ruleset} seats {low} to {high}").format(
                    count=len(players), ruleset=rules.name, low=low, high=high
                ),
            )
        planned = seen.setdefault((row.league_id, row.round_number), set())
        twice = planned & set(players)
        if twice:
            return (
                "planned_table",
                key,
                "players",
                _("{name} is planned at two tables of the round").format(name=sorted(twice)[0]),
            )
        planned |= set(players)
    return None


CHECKS: tuple[Callable[[Session], Found], ...] = (
    _round_of_session,
    _table_twice,
    _open_rounds,
    _open_table_of_ended_round,
    _seats,
    _open_table_sizes,
    _first_dealer,
    _two_open_tables,
    _deal_seeds,
    _same_league(
        Hand,
        Hand.id,
        "session_id",
        LeagueSession,
        LeagueSession.id == Hand.session_id,
        N_("a session"),
    ),
    _same_league(
        HandPlayer, HandPlayer.hand_id, "hand_id", Hand, Hand.id == HandPlayer.hand_id, N_("a hand")
    ),
    _same_league(
        LiveHand,
        LiveHand.session_id,
        "session_id",
        LeagueSession,
        LeagueSession.id == LiveHand.session_id,
        N_("a session"),
    ),
    _live_hand_open,
    _change_log_hand,
    _substitute_round,
    _merged_into,
    _plans,
    hand_members,
)
