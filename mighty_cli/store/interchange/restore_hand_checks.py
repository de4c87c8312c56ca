"""A restore's checks of the hands, once every row is in: a hand's seats are 0 to n-1, each once,
its dealer, declarer, friend and deal-miss player among its players; and every hand, voided or
not, is checked and scored again under its league's ruleset as ``hand amend`` and an import
replay it, a league's hands read in pages so that memory stays flat."""

from __future__ import annotations

from collections.abc import Iterator

from sqlalchemy import exists, func, or_
from sqlmodel import Session, select

from ...engine.errors import MightyError
from ...engine.translation import _
from .. import LeagueError
from ..ledger.hand_reads import hand_views
from ..ledger.hands import evaluate_hand
from ..ledger.lookups import league_rules
from ..models import Hand, HandPlayer, League
from .restore_findings import Found, first_row

#: Hands replayed at a time, and recorded outcomes remembered as replayed (memory stays flat).
PAGE = 5000
REMEMBERED = 50_000


def hand_members(s: Session) -> Found:
    """A hand's seats are 0 to n-1, each once; its dealer, declarer, friend and deal-miss
    player are among its players."""
    seats = (
        select(
            HandPlayer.hand_id,
            func.count(HandPlayer.seat).label("n"),
            func.min(HandPlayer.seat).label("low"),
            func.max(HandPlayer.seat).label("high"),
            func.count(func.distinct(HandPlayer.seat)).label("distinct"),
        )
        .group_by(HandPlayer.hand_id)
        .subquery()
    )
    row = first_row(
        s,
        select(Hand.id, seats.c.n, seats.c.high)
        .outerjoin(seats, seats.c.hand_id == Hand.id)
        .where(
            or_(
                seats.c.n == None,  # noqa: E711
                seats.c.n == 0,
                seats.c.low != 0,
                seats.c.high != seats.c.n - 1,
                seats.c.distinct != seats.c.n,
            )
        )
        .order_by(Hand.id),
    )
    if row is not None:
        if not row[1]:
            return (
                "hand",
                f"id {row[0]}",
                "id",
                _("a hand nobody played (no hand_player row with a seat)"),
            )
        return (
            "hand_player",
            f"hand_id {row[0]}",
            "seat",
            _("the hand's seats are not 0 to {last}, each once").format(last=row[1] - 1),
        )
    for column in (Hand.dealer_id, Hand.declarer_id, Hand.friend_id, Hand.deal_miss_id):
        row = first_row(
            s,
            select(Hand.id, column)
            .where(
                column != None,  # noqa: E711
                ~exists().where(HandPlayer.hand_id == Hand.id, HandPlayer.player_id == column),
            )
            .order_by(Hand.id),
        )
        if row is not None:
            return (
                "hand",
                f"id {row[0]}",
                column.key,
                _("player {value} has no hand_player row in the hand").format(value=row[1]),
            )
    return None


def _pages(s: Session, league: League) -> Iterator[list]:
    """The league's hands in pages by number, as rows (not ORM objects: nothing to track)."""
    hands = Hand.__table__  # type: ignore[attr-defined]
    last = 0
    while True:
        page = s.execute(
            select(hands)
            .where(hands.c.league_id == league.id, hands.c.number > last)
            .order_by(hands.c.number)
            .limit(PAGE)
        ).all()
        if not page:
            return
        yield page
        last = page[-1].number


def replay_hands(s: Session, league: League, name: str) -> None:
    """Every hand of the league, voided too (it may be unvoided), checked and scored again
    under the league's ruleset, as ``hand amend`` reads it; its status as stored."""
    rules = league_rules(league)
    replayed: set[tuple] = set()  # recorded outcomes that replayed: the same replays the same
    for hands in _pages(s, league):
        for hand, view in zip(hands, hand_views(s, league, hands)):
            key = (
                None
                if view.full
                else (
                    tuple(view.players),
                    view.status,
                    view.declarer,
                    view.contract,
                    view.friend,
                    view.friend2,
                    view.friend_call,
                    view.taken,
                    tuple(view.eliminated),
                    view.deal_miss,
                )
            )
            if key in replayed:
                continue
            try:
                outcome = evaluate_hand(rules, view.players, view.hand_dict(), view.number)
            except MightyError as exc:
                problem = (str(exc).splitlines() or [type(exc).__name__])[0]
            else:
                if outcome.status == hand.status:
                    if key is not None:
                        if len(replayed) >= REMEMBERED:
                            replayed.clear()
                        replayed.add(key)
                    continue
                problem = _("stored as {stored}, the hand replays as {status}").format(
                    stored=hand.status, status=outcome.status
                )
            raise LeagueError(
                _(
                    "{name}: hand (id {id}): hand {number} of league {league} "
                    "does not replay under its ruleset: {problem}"
                ).format(
                    name=name,
                    id=hand.id,
                    number=hand.number,
                    league=repr(league.name),
                    problem=problem,
                )
            )
