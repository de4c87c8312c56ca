"""What comes next in a session: who deals and opens the next hand (after a deal miss too), the
deposit pot carried into it, and a duplicate session's deal; read from the session's hands."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from sqlmodel import Session, select

from ...engine.ruleset import Ruleset
from ...engine.session import (
    PreviousHand,
    Proposal,
    duplicate_proposal,
    opener_for,
    playing_order,
    propose,
)
from ..models import (
    Hand,
    HandPlayer,
    League,
    LeagueRound,
    LeagueSession,
    Player,
)
from .lookups import (
    get_league,
    league_rules,
    names_by_id,
    seating,
)
from .sessions import find_session
from .table_hands import table_hands_so_far


def previous_in_session(
    s: Session, session_id: int, before_number: int | None = None
) -> PreviousHand | None:
    """The session's last live hand (before ``before_number``), as succession needs it; a deal
    miss with who opened it (:func:`_deal_miss_opener`)."""
    query = select(Hand).where(Hand.session_id == session_id, Hand.voided == False)  # noqa: E712
    if before_number is not None:
        query = query.where(Hand.number < before_number)
    hand = s.exec(query.order_by(Hand.number.desc()).limit(1)).first()
    if hand is None:
        return None
    names = names_by_id(s, [hand.dealer_id, hand.declarer_id, hand.friend_id, hand.deal_miss_id])
    five = s.exec(
        select(Player.name)
        .join(HandPlayer, HandPlayer.player_id == Player.id)
        .where(HandPlayer.hand_id == hand.id, HandPlayer.seat != None)  # noqa: E711
        .order_by(HandPlayer.seat)
    ).all()
    dealer = names.get(hand.dealer_id)
    opener = _deal_miss_opener(s, hand, tuple(five), dealer) if hand.status == "deal_miss" else None
    return PreviousHand(
        hand.status,
        tuple(five),
        dealer,
        names.get(hand.declarer_id),
        names.get(hand.friend_id),
        hand.success,
        names.get(hand.deal_miss_id),
        opener,
    )


def _deal_miss_opener(
    s: Session, hand: Hand, five: tuple[str, ...], dealer: str | None
) -> str | None:
    """Who opened a stored deal miss, so its redeal keeps him (``deal_miss.redeal_opener =
    "same"``, club-requirements, 001 §3.2). A league stores no opener column: the store has no
    migration step (``create_all`` adds tables, never columns), so the opener is read where it
    is kept, as ``mighty replay`` reads a record: a refereed hand's record says who opened; a
    recorded deal miss (``record --deal-miss``, which takes no opener) was opened by whom the
    tool proposed, which follows from the hands before it (a run of deal misses back to the
    last played hand)."""
    if hand.record_toml:
        import tomllib

        opener = tomllib.loads(hand.record_toml).get("opener")
        if isinstance(opener, str) and opener in five:
            return opener
    if dealer is None:
        return None
    session = s.get(LeagueSession, hand.session_id)
    rules = league_rules(s.get(League, session.league_id))  # type: ignore[union-attr]
    if rules.deal_miss.redeal_opener != "same":
        return None  # succession does not ask who opened it

    before = previous_in_session(s, hand.session_id, hand.number)
    order = playing_order(seating(s, hand.session_id), rules)
    return opener_for(rules, order, five, dealer, before)


def session_proposal(
    s: Session, league_name: str, number: int | None = None
) -> tuple[LeagueSession, Proposal, int]:
    """The open session, who should deal, open and sit out next, and the deposit pot."""
    league = get_league(s, league_name)
    session = find_session(s, league, number, open_only=False)
    proposal = next_proposal(s, league_rules(league), session)
    return session, proposal, pot_before(s, league.id, None)


@dataclass(frozen=True)
class DuplicateDeal:
    """Where a duplicate round's table stands (``round start --duplicate``): the round's deal
    seed and number, and the deal its next hand must be (1 for the session's first)."""

    seed: int
    round: int
    deal: int


def duplicate_deal(s: Session, session: LeagueSession) -> DuplicateDeal | None:
    """The next deal of a duplicate round's table, else None (one read of the round, one count
    of the session's hands)."""
    if session.round_id is None:
        return None
    row = s.get(LeagueRound, session.round_id)
    if row is None or row.deal_seed is None:
        return None
    return DuplicateDeal(int(row.deal_seed), row.number, table_hands_so_far(s, session) + 1)


def duplicate_seed(s: Session, session: LeagueSession) -> int | None:
    """The deal seed of a duplicate round's table, else None."""
    if session.round_id is None:
        return None
    row = s.get(LeagueRound, session.round_id)
    return int(row.deal_seed) if row is not None and row.deal_seed is not None else None


def next_proposal(
    s: Session,
    rules: Ruleset,
    session: LeagueSession,
    present: Sequence[str] | None = None,
    duplicate: DuplicateDeal | None | Literal["look"] = "look",
) -> Proposal:
    """Who should deal, open and sit out the session's next hand: the ruleset's succession, or
    at a duplicate round's table the next deal's fixed seats (:func:`duplicate_proposal`).
    ``duplicate`` is the table's :func:`duplicate_deal` when the caller has it already."""
    present = list(present) if present is not None else seating(s, session.id)  # type: ignore
    if duplicate == "look":
        duplicate = duplicate_deal(s, session)
    if duplicate is not None:
        return duplicate_proposal(rules, present, duplicate.deal)  # type: ignore[union-attr]
    first = names_by_id(s, [session.first_dealer_id]).get(session.first_dealer_id)
    return propose(
        rules,
        present,
        previous_in_session(s, session.id),  # type: ignore
        first,
    )


def pot_before(s: Session, league_id: int, number: int | None) -> int:
    """The deposit pot before hand ``number`` (after the last hand when None)."""
    query = select(Hand.pot_after).where(Hand.league_id == league_id, Hand.voided == False)  # noqa: E712
    if number is not None:
        query = query.where(Hand.number < number)
    value = s.exec(query.order_by(Hand.number.desc()).limit(1)).first()
    return value or 0
