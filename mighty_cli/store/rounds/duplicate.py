"""Duplicate rounds' results (``round start --duplicate --seed S``): each seat's points on
each deal at every table (:func:`duplicate_results`), for :mod:`mighty_cli.tournament.matchpoints`
to compare the seats that played the same cards. A hand stored at such a table is checked
against its deal by :mod:`..ledger.duplicate_deals`.

Each function works inside the caller's transaction.
"""

from __future__ import annotations

from sqlmodel import Session, select

from ...tournament.matchpoints import MatchpointRow, SeatResult, matchpoints
from ..ledger.lookups import names_by_id, seating
from ..models import Hand, HandPlayer, LeagueRound, LeagueSession


def league_matchpoints(
    s: Session, league_id: int, number: int | None = None
) -> list[MatchpointRow] | None:
    """The matchpoints of the league's duplicate rounds (or of round ``number`` alone), or None
    where there is no duplicate round."""
    query = select(LeagueRound).where(
        LeagueRound.league_id == league_id,
        LeagueRound.deal_seed != None,  # noqa: E711
    )
    if number is not None:
        query = query.where(LeagueRound.number == number)
    rounds = s.exec(query).all()
    if not rounds:
        return None
    return matchpoints(result for row in rounds for result in duplicate_results(s, row))


def duplicate_results(s: Session, round_row: LeagueRound) -> list[SeatResult]:
    """Each seat's points on each deal at every table of a duplicate round (voided hands and
    players sitting out left out): deal k is the table's hand k, counted on across a seat
    change (``round seat``: the seat is the one in the seating the hand was played in)."""
    sessions = s.exec(
        select(LeagueSession)
        .where(LeagueSession.round_id == round_row.id)
        .order_by(LeagueSession.table_number, LeagueSession.number)
    ).all()
    seats = {session.id: seating(s, session.id) for session in sessions}  # type: ignore
    tables = {session.id: session.table_number or 0 for session in sessions}
    hands = s.exec(
        select(Hand.id, Hand.voided, Hand.session_id)
        .where(Hand.session_id.in_(list(seats)))  # type: ignore[union-attr]
        .order_by(Hand.number)
    ).all()
    dealt: dict[int, int] = {}
    deal_of = {}  # hand id: (deal, its session)
    for hand_id, voided, session_id in hands:
        dealt[tables[session_id]] = dealt.get(tables[session_id], 0) + 1
        if not voided:
            deal_of[hand_id] = (dealt[tables[session_id]], session_id)
    if not deal_of:
        return []
    rows = s.exec(
        select(HandPlayer.hand_id, HandPlayer.player_id, HandPlayer.points).where(
            HandPlayer.hand_id.in_(list(deal_of)),  # type: ignore[attr-defined]
            HandPlayer.seat != None,  # noqa: E711
        )
    ).all()
    names = names_by_id(s, {player_id for _hand, player_id, _points in rows})
    results = []
    for hand_id, player_id, points in rows:
        name, (deal, session_id) = names[player_id], deal_of[hand_id]
        if name in seats[session_id]:
            results.append(
                SeatResult(
                    len(seats[session_id]),
                    deal,
                    seats[session_id].index(name),
                    tables[session_id],
                    name,
                    int(points),
                    round_row.number,
                )
            )
    return results
