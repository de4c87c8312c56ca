"""A round's table counts its own hands: "table 3, hand 2" is the league's hand 6.

A keeper thinks in tables. Each table of a round numbers its hands 1, 2, 3, ... in the order
they were stored there (voided ones too: a number once said stays), whatever the other tables
store meanwhile; the league numbers every hand once, across tables. A table whose seating
changed mid-round (``round seat``) is one table over each seating it had, each a session of
the round (:attr:`LeagueSession.table_number`), and counts on across them. A hand outside any
round has no table.

Each function reads inside the caller's transaction and raises a project error for bad input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func
from sqlmodel import Session, select

from ...engine.translation import _
from .. import LeagueError
from ..models import Hand, League, LeagueRound, LeagueSession


@dataclass(frozen=True)
class TablePlace:
    """Where a hand was played in its round: the round's number, the table's, and the hand's
    number at that table."""

    round: int
    table: int
    hand: int


def table_session_ids(s: Session, session: LeagueSession) -> list[int]:
    """The sessions a round's table has had up to ``session`` (one per seating), in order; a
    session outside any round is its own."""
    if session.round_id is None or session.table_number is None:
        return [session.id]  # type: ignore[list-item]
    return list(
        s.exec(
            select(LeagueSession.id)
            .where(
                LeagueSession.round_id == session.round_id,
                LeagueSession.table_number == session.table_number,
                LeagueSession.number <= session.number,
            )
            .order_by(LeagueSession.number)
        ).all()
    )


def table_hands_so_far(s: Session, session: LeagueSession) -> int:
    """How many hands the session's table has stored (voided ones too): its next hand is this
    plus one."""
    return int(
        s.exec(
            select(func.count(Hand.id)).where(Hand.session_id.in_(table_session_ids(s, session)))
        ).one()
        or 0
    )  # type: ignore


def hand_places(s: Session, league: League, hands: Sequence[Hand]) -> dict[int, TablePlace]:
    """Where each of ``hands`` was played (by hand id), for those played at a round's table."""
    tables = {
        session_id: (round_id, table)
        for session_id, round_id, table in s.exec(
            select(LeagueSession.id, LeagueSession.round_id, LeagueSession.table_number).where(
                LeagueSession.league_id == league.id,
                LeagueSession.round_id != None,  # noqa: E711
            )
        ).all()
    }
    wanted = {tables[h.session_id] for h in hands if h.session_id in tables}
    if not wanted:
        return {}
    rounds = dict(
        s.exec(
            select(LeagueRound.id, LeagueRound.number).where(LeagueRound.league_id == league.id)
        ).all()
    )
    sessions = [session_id for session_id, key in tables.items() if key in wanted]
    rows: list = []
    for start in range(0, len(sessions), 500):  # bounded IN lists
        rows += s.exec(
            select(Hand.id, Hand.session_id, Hand.number).where(
                Hand.session_id.in_(sessions[start : start + 500])
            )  # type: ignore
        ).all()
    counted: dict[tuple, int] = {}
    places = {}
    for hand_id, session_id, _number in sorted(rows, key=lambda row: row[2]):
        key = tables[session_id]
        counted[key] = counted.get(key, 0) + 1
        places[hand_id] = TablePlace(rounds[key[0]], key[1] or 0, counted[key])
    return places


def table_hand_number(
    s: Session, league: League, table: int, hand: int, round_number: int | None = None
) -> int:
    """The league's number of hand ``hand`` of table ``table`` in round ``round_number`` (the
    open round when None): ``hand show --table 3 2``."""
    if round_number is None:
        found = s.exec(
            select(LeagueRound).where(
                LeagueRound.league_id == league.id,
                LeagueRound.ended_at == None,  # noqa: E711
            )
        ).first()
        if found is None:
            raise LeagueError(
                _(
                    "--table {table}: league {league} has no open round; say which with --round"
                ).format(table=table, league=repr(league.name))
            )
    else:
        found = s.exec(
            select(LeagueRound).where(
                LeagueRound.league_id == league.id, LeagueRound.number == round_number
            )
        ).first()
        if found is None:
            raise LeagueError(
                _("league {league} has no round {number}").format(
                    league=repr(league.name), number=round_number
                )
            )
    sessions = s.exec(
        select(LeagueSession.id).where(
            LeagueSession.round_id == found.id, LeagueSession.table_number == table
        )
    ).all()
    if not sessions:
        raise no_such_table(s, found, table)
    numbers = s.exec(
        select(Hand.number).order_by(Hand.number).where(Hand.session_id.in_(list(sessions)))
    ).all()  # type: ignore[union-attr]
    if not 1 <= hand <= len(numbers):
        raise LeagueError(
            _("table {table} of round {round} has no hand {hand} (its hands: {count})").format(
                table=table, round=found.number, hand=hand, count=len(numbers)
            )
        )
    return numbers[hand - 1]


def no_such_table(s: Session, found: LeagueRound, table: int) -> LeagueError:
    """The refusal of a ``--table`` the round ``found`` does not have: which tables it has."""
    count = s.exec(
        select(func.count(func.distinct(LeagueSession.table_number))).where(
            LeagueSession.round_id == found.id
        )
    ).one()
    return LeagueError(
        _("--table {table}: round {number} has tables 1 to {count}").format(
            table=table, number=found.number, count=count
        )
    )
