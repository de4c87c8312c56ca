"""Hand records (``mighty-hand-record/1``, docs/record-format.md): read, write, check and score.

A record is what a referee saves, what ``examples/`` holds and what import and export move: the
ruleset, the players in playing order, and a list of hands. A hand is one of three shapes:

* a full hand (``deal``, ``election``, ``discard``, ``contract``, ``friend``, ``tricks``), replayed
  card by card through the hand engine, so every rule is checked; it may stop early (in progress);
* a recorded hand (``declarer``, ``contract``, ``friend``, ``taken`` or ``opposition``): the outcome
  only, validated and scored;
* a deal miss (``deal_miss``), with the ruleset's consequences (deposit pot, next dealer).

Replaying stops at the first violation with a :class:`RecordError` whose message names the hand
(1-based), the trick where there is one, the player, the card or call, and the rule.

The package's modules: ``file`` (the format's keys, reading, shape checks, writing), ``values``
(each hand's values), ``replaying`` (replaying and scoring, hand by hand), ``card_replay`` (a
full hand card by card), ``recorded_hand`` (a recorded outcome or a deal miss checked and
scored), ``summary`` (the recorded-outcome fast path), ``outcome`` (a scored hand's outcome),
``stream`` and ``lines`` (a record read a hand at a time). This ``__init__`` is their public API,
and turns a finished outcome or an engine state back into a record's hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import hand as engine  # the hand engine (its names load on first use: hand/__init__)
from ..cards import format_bid, format_card, format_cards, sorted_cards
from .file import (
    FORMAT,
    FULL_KEYS,
    HAND_KEYS,
    HAND_TYPES,
    NAME_KEYS,
    RECORDED_KEYS,
    STATUSES,
    TOP_KEYS,
    TOP_TYPES,
    Record,
    check_hand_shape,
    checked_players,
    dump_record,
    dump_record_hand,
    dump_record_head,
    load_record,
    read_record,
    record_header,
    record_ruleset,
)
from .outcome import HandOutcome, friend_possible
from .recorded_hand import score_outcome
from .replaying import ReplayResult, iter_replay, replay
from .values import DEAL_MISS_CALL

if TYPE_CHECKING:
    from ..hand import HandState

__all__ = [
    "DEAL_MISS_CALL",
    "FORMAT",
    "FULL_KEYS",
    "HAND_KEYS",
    "HAND_TYPES",
    "NAME_KEYS",
    "RECORDED_KEYS",
    "STATUSES",
    "TOP_KEYS",
    "TOP_TYPES",
    "HandOutcome",
    "Record",
    "ReplayResult",
    "check_hand_shape",
    "checked_players",
    "dump_record",
    "dump_record_hand",
    "dump_record_head",
    "friend_possible",
    "iter_replay",
    "load_record",
    "outcome_to_hand",
    "read_record",
    "record_header",
    "record_ruleset",
    "replay",
    "score_outcome",
    "state_to_hand",
]


def outcome_to_hand(outcome: HandOutcome) -> dict:
    """A recorded-hand dict for an outcome (used by export)."""
    if outcome.status == "deal_miss":
        return {
            "players": outcome.players,
            "dealer": outcome.dealer,
            "deal_miss": outcome.deal_miss_player,
        }
    hand: dict[str, Any] = {
        "players": outcome.players,
        "dealer": outcome.dealer,
        "declarer": outcome.declarer,
        "contract": format_bid(outcome.contract) if outcome.contract else None,
        "friend": outcome.friend or "none",
        "taken": outcome.taken,
    }
    if outcome.friend2:  # the second friend of a two-card call (동대전 7마)
        hand["friend2"] = outcome.friend2
    if outcome.eliminated:
        hand["eliminated"] = list(outcome.eliminated)
    elif outcome.eliminated_hand:  # 시흥 은마: whose own hand left (he played the dummy's)
        hand["eliminated"] = [outcome.eliminated_hand]
    if outcome.friend_call:
        hand["friend_call"] = outcome.friend_call
    return hand


def state_to_hand(state: HandState, deal: dict[str, list[int]] | None = None) -> dict:
    """A full-hand dict (finished or in progress) from a hand engine state, for saving."""
    hand: dict[str, Any] = {"dealer": state.dealer}
    if deal is not None:
        hand["deal"] = {who: format_cards(cards) for who, cards in deal.items()}
    election: list[str] = []
    plays: list[str] = []
    for action in state.history:
        if isinstance(action, engine.BidCall):
            election.append(
                f"{action.player} {'pass' if action.bid is None else format_bid(action.bid)}"
            )
        elif isinstance(action, engine.DeclareDealMiss):
            if state.phase == "deal_miss":
                hand["deal_miss"] = action.player
            else:  # cancelled by a full bid (deal_miss.full_bid_cancels): keep its place
                election.append(f"{action.player} {DEAL_MISS_CALL}")
        elif isinstance(action, engine.Eliminate):  # 6마, 7마: each call with its holder
            card, holder = state.eliminations[len(hand.setdefault("elimination", []))]
            hand["elimination"].append(
                f"player:{holder}" if card is None else f"{format_card(card)} {holder or 'kitty'}"
            )
        elif isinstance(action, engine.Redistribute):
            if action.cards:
                hand["redistribution"] = {
                    who: format_cards(sorted_cards(cards)) for who, cards in action.cards
                }
        elif isinstance(action, engine.Discard):
            if action.cards:
                hand["discard"] = format_cards(action.cards)
        elif isinstance(action, engine.ChangeContract):
            hand["contract"] = format_bid(action.contract)
        elif isinstance(action, engine.CallFriend):
            hand["friend"] = engine.format_friend_call(action.call)
        elif isinstance(action, engine.Play):
            plays.append(engine.format_play(action))
    if election:
        first = next(
            (
                call.rsplit(None, 1)[0]
                for call in election
                if not call.endswith(f" {DEAL_MISS_CALL}")
            ),
            hand["dealer"],
        )
        if first != election[0].rsplit(None, 1)[0]:
            # a deal miss came first and a full bid from anyone cancelled it
            # (deal_miss.full_bid_cancels): the first bidder need not be the opener
            first = state.opener
        if first != hand["dealer"]:
            hand["opener"] = first
        hand["election"] = election
    elif (
        getattr(state, "to_move", None)
        and state.phase == "election"
        and state.to_move != state.dealer
    ):
        hand["opener"] = state.to_move
    if plays:
        n = len(state.players)  # one card from each player a trick (table.players)
        hand["tricks"] = [" ".join(plays[i : i + n]) for i in range(0, len(plays), n)]
    return hand
