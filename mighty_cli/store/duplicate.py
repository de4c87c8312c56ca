"""Duplicate rounds in the league (``round start --duplicate --seed S``).

Every table of the round deals its hand k from the round's seed, so every table of one size
gets the same cards in the same seats; deal k is dealt from a fixed seat (:func:`duplicate_
proposal`), so the same players sit out and the same one opens. A hand stored at such a table
is checked against its deal: its dealer and the players who played it, a refereed hand's cards,
and a recorded hand's friend (the player holding the called card). :func:`duplicate_results`
gathers each seat's result for :mod:`mighty_cli.tournament.matchpoints`.

Each function works inside the caller's transaction and raises a project error for bad input,
so the caller's rollback leaves the database exactly as it was.
"""

from __future__ import annotations

from typing import Optional, Sequence

from sqlmodel import Session, select

from ..engine.cards import parse_card, parse_cards
from ..engine.cards.deck import UNDEALT, hand_seed
from ..engine.errors import MightyError
from ..engine.hand.draft import seeded_deal
from ..engine.hand.seats import arranged_deal
from ..engine.ruleset import Ruleset
from ..engine.session import Proposal
from ..engine.translation import _
from ..tournament.matchpoints import MatchpointRow, SeatResult, matchpoints
from . import LeagueError
from .lookups import _names
from .models import Hand, HandPlayer, LeagueRound, LeagueSession
from .sessions import DuplicateDeal, seating


def expected_deal(rules: Ruleset, seed: int, deal: int,
                  players: Sequence[str]) -> dict[str, list[int]]:
    """Deal ``deal`` of a duplicate round, dealt to ``players`` (those playing it, in playing
    order) as the referee deals it (``mighty deal --seed S`` hand k)."""
    return arranged_deal(seeded_deal(rules, hand_seed(seed, deal), list(players)))


def check_duplicate_hand(rules: Ruleset, session: LeagueSession, duplicate: DuplicateDeal,
                         proposal: Proposal, five: Sequence[str], dealer: str,
                         hand: dict, refereed: bool) -> None:
    """Refuse a hand that is not the deal every table of the round plays: another dealer,
    other players, other cards (a refereed hand), or a friend who does not hold the called card
    (a recorded hand)."""
    deal = duplicate.deal
    where = _("table {table}, deal {deal} of duplicate round {round}").format(
        table=session.table_number, deal=deal, round=duplicate.round)
    if dealer != proposal.dealer:
        raise LeagueError(_("{where}: {dealer} deals it at every table, not {given}").format(
            where=where, dealer=proposal.dealer, given=dealer))
    if set(five) != set(proposal.players):
        raise LeagueError(_("{where}: {players} play it at every table").format(
            where=where, players=", ".join(proposal.players)))
    cards = expected_deal(rules, duplicate.seed, deal, proposal.players)
    if refereed and "deal" in hand:
        copies = rules.table.decks == 2
        for who, dealt in cards.items():
            given = hand["deal"].get(who)
            held = parse_cards(given, copies=copies) if isinstance(given, str) else given
            if held is None or sorted(held) != sorted(dealt):
                raise LeagueError(_("{where}: these are not the round's cards ({who} was dealt "
                                    "others); referee it with the round's deal").format(
                                        where=where, who=who))
    elif not refereed:
        _check_friend(rules, cards, hand, where)


def deal_decides_friend(rules: Ruleset) -> bool:
    """Whether a called card stays with whoever was dealt it, so a duplicate deal decides who
    the friend is (a friend is entered with the card called): one deck, nobody eliminated
    (whose cards go round again), no ghost, dummy or friend hands."""
    t = rules.table
    return (t.decks == 1 and not t.eliminated and not t.ghost and not t.dummy
            and not t.partner_hands and rules.friend.called_cards == 1)


def _check_friend(rules: Ruleset, cards: dict[str, list[int]], hand: dict, where: str) -> None:
    call, declarer = hand.get("friend_call"), hand.get("declarer")
    if not declarer or not deal_decides_friend(rules):
        return
    if not call:
        if hand.get("friend") not in (None, "", "none"):  # the deal says who holds the card
            raise LeagueError(_("{where}: the deal decides who the friend is: give the card "
                                "the declarer called (--friend-call, e.g. --friend-call "
                                "SK)").format(where=where))
        return
    try:
        card = parse_card(str(call))
    except (MightyError, ValueError):
        return  # a call that is not a card (the first trick's winner, "mighty"): not checked
    holder: Optional[str] = next((who for who, held in cards.items()
                                  if who not in ("kitty", UNDEALT) and card in held), None)
    friend = hand.get("friend")
    friend = None if friend in (None, "", "none") else friend
    expected = holder if holder != declarer else None
    if friend != expected:
        raise LeagueError(_("{where}: {card} was dealt to {holder}, so the friend is "
                            "{friend}").format(
                                where=where, card=call,
                                holder=holder or _("the kitty"),
                                friend=expected or _("none (the declarer played alone)")))


def league_matchpoints(s: Session, league_id: int,
                       number: Optional[int] = None) -> Optional[list[MatchpointRow]]:
    """The matchpoints of the league's duplicate rounds (or of round ``number`` alone), or None
    where there is no duplicate round."""
    query = select(LeagueRound).where(LeagueRound.league_id == league_id,
                                      LeagueRound.deal_seed != None)  # noqa: E711
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
    sessions = s.exec(select(LeagueSession).where(LeagueSession.round_id == round_row.id)
                      .order_by(LeagueSession.table_number, LeagueSession.number)).all()
    seats = {session.id: seating(s, session.id) for session in sessions}  # type: ignore
    tables = {session.id: session.table_number or 0 for session in sessions}
    hands = s.exec(select(Hand.id, Hand.voided, Hand.session_id)
                   .where(Hand.session_id.in_(list(seats)))  # type: ignore[union-attr]
                   .order_by(Hand.number)).all()
    dealt: dict[int, int] = {}
    deal_of = {}  # hand id: (deal, its session)
    for hand_id, voided, session_id in hands:
        dealt[tables[session_id]] = dealt.get(tables[session_id], 0) + 1
        if not voided:
            deal_of[hand_id] = (dealt[tables[session_id]], session_id)
    if not deal_of:
        return []
    rows = s.exec(select(HandPlayer.hand_id, HandPlayer.player_id, HandPlayer.points)
                  .where(HandPlayer.hand_id.in_(list(deal_of)),  # type: ignore[attr-defined]
                         HandPlayer.seat != None)).all()  # noqa: E711
    names = _names(s, {player_id for _hand, player_id, _points in rows})
    results = []
    for hand_id, player_id, points in rows:
        name, (deal, session_id) = names[player_id], deal_of[hand_id]
        if name in seats[session_id]:
            results.append(SeatResult(len(seats[session_id]), deal,
                                      seats[session_id].index(name), tables[session_id], name,
                                      int(points), round_row.number))
    return results
