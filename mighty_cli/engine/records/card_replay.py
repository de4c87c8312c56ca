"""A full hand of a record replayed card by card: the deal, the election, the discard, the
friend's call, the eliminations and the tricks through the hand engine.

The election and the tricks go through the fast paths (hand/replay_setup.py,
hand/replay_tricks.py), which give the same states and errors as the hand engine's apply call by
call (``fast=False``, the reference the tests hold them to); the usual deal is read as masks at
once (record_values.read_plain_deal), checked as the deal check would check it.
tests/engine/test_replay_fast_setup.py and test_replay_fast_hand.py hold each short way to the
general one, good records and broken ones. The first violation is a :class:`RecordError` naming
the hand, the trick, the player and the card.
"""

from __future__ import annotations

from typing import Any

from .. import hand as hand_engine  # (its names load on first use: hand/__init__)
from ..cards import format_bid, parse_card, parse_cards
from ..errors import InvalidNotation, RecordError
from ..hand.derived import rule_tables
from ..ruleset import Ruleset
from ..translation import _
from .outcome import HandOutcome, settle_outcome_pot
from .recorded_hand import deal_miss_outcome
from .values import (
    DEAL_MISS_CALL,
    elimination_parts,
    read_bid,
    read_calls,
    read_cards,
    read_deal,
    read_friend_call,
    read_name,
    read_plain_deal,
    read_taken,
    refuse_later_keys,
)

_ENGINE: Any = None


def _hand_engine() -> tuple:
    """The hand engine and the fast replay modules, imported once on the first full hand (a
    record of recorded outcomes never needs them)."""
    global _ENGINE
    if _ENGINE is None:
        # deferred for start-up time: a record of recorded outcomes never needs them
        from ..hand import replay_setup, replay_tricks

        _ENGINE = hand_engine, replay_setup, replay_tricks
    return _ENGINE


def replay_full(
    rules: Ruleset,
    players: list[str],
    hand: dict,
    index: int,
    opener: str,
    pot: int,
    dealer: str,
    zero: dict[str, int],
    fast: bool = True,
) -> HandOutcome:
    engine, setup, tricks_module = _hand_engine()

    # the usual deal read as masks at once (checked as read_deal and new_hand's deal check would
    # check it); anything else read and refused by them
    plain = read_plain_deal(hand.get("deal"), players, rule_tables(rules)) if fast else None
    deal_masks = None
    if plain is not None:
        deal, deal_masks = plain
    else:
        deal = read_deal(hand["deal"], index) if "deal" in hand else None
    election = hand.get("election", [])
    if not isinstance(election, list) or not all(map(_IS_STR, election)):
        raise RecordError(
            _(
                'hand {index}: election: expected a list of calls such as "Bo 13H" or "Cy pass"'
            ).format(index=index)
        )
    calls, no_miss = read_calls(election, players, index)
    # the calls before any deal miss: a full bid cancelling it (deal_miss.full_bid_cancels) may
    # come from any player, opener or not
    if no_miss:
        miss_at, bids = len(calls), calls
    else:
        kinds = [call[1] for call in calls]
        miss_at = kinds.index(DEAL_MISS_CALL)
        bids = calls[:miss_at]
    if bids and bids[0][0] != opener:
        first = "pass" if bids[0][1] is None else format_bid(bids[0][1])
        raise RecordError(
            _(
                "hand {index}: election: {player} opened with {call} but {opener} "
                "opens this hand (election.opener = {rule})"
            ).format(
                index=index,
                player=bids[0][0],
                call=first,
                opener=opener,
                rule=rules.election.opener,
            )
        )
    state = engine.new_hand(rules, players, dealer, deal, opener=opener, deal_masks=deal_masks)
    # the whole election at once (hand/replay_setup.py) on new_hand's state, which nobody else
    # holds; or call by call from a new hand where it does not take it
    elected = (
        setup.replay_bids(state, calls, owned=True) if fast and miss_at == len(calls) else None
    )
    if elected is not None:
        state = elected
    else:
        if fast and miss_at == len(calls):  # the batch may have written part of it
            state = engine.new_hand(
                rules, players, dealer, deal, opener=opener, deal_masks=deal_masks
            )
        for call in calls:
            if call[1] is DEAL_MISS_CALL:  # "<player> deal-miss": where a full bid may cancel it
                state = engine.apply(state, engine.DeclareDealMiss(call[0]))
            else:
                state = engine.apply(state, call)
    if state.phase == "deal_miss" and "deal_miss" not in hand:
        miss = state.deal_miss_player
        refuse_later_keys(
            hand, index, "discard", _("{player} declared a deal miss").format(player=miss)
        )
        outcome = deal_miss_outcome(rules, players, index, dealer, miss, pot, zero)
        outcome.full, outcome.state = True, state
        return outcome
    if "deal_miss" in hand:
        miss = read_name(hand["deal_miss"], players, index, "deal_miss")
        state = engine.apply(state, engine.DeclareDealMiss(miss))
        outcome = deal_miss_outcome(rules, players, index, dealer, miss, pot, zero)
        outcome.full, outcome.state = True, state
        return outcome
    if state.phase == "redeal":
        refuse_later_keys(hand, index, "discard", _("everyone passed"))
        return HandOutcome(
            index=index,
            status="redeal",
            players=players,
            dealer=dealer,
            deltas=dict(zero),
            pot_after=pot,
            full=True,
            state=state,
        )
    if state.phase == "election":
        refuse_later_keys(hand, index, "discard", _("the election is not over"))
        return _unfinished(index, players, dealer, pot, zero, state)
    if (
        "elimination" in hand
        or "redistribution" in hand
        or state.phase in ("elimination", "redistribution")
    ):  # 6마, 7마 (else nothing to do)
        state = _replay_elimination(engine, state, hand, index)
    if state.phase in ("elimination", "redistribution"):  # 6마, 7마: not over yet
        refuse_later_keys(hand, index, "discard", _("the eliminations are not over"))
        return _unfinished(index, players, dealer, pot, zero, state)
    # the discard and the friend call written onto the election's private state where
    # hand/replay_setup.py takes them (exchange.py's and friend_call.py's own steps), else applied
    if "discard" in hand:
        discard = engine.Discard(tuple(read_cards(hand["discard"], index, "discard")))
        if state is not elected or not setup.discard_in_place(state, discard):
            state = engine.apply(state, discard)
    elif deal is None and state.phase == "exchange":
        state = engine.apply(state, engine.Discard(()))  # open cards: the discards are unseen
    else:
        refuse_later_keys(hand, index, "contract", _("nothing was discarded yet"))
    if "contract" in hand and state.phase == "friend":
        contract = read_bid(hand["contract"], index)
        if contract != state.contract:
            state = engine.apply(state, engine.ChangeContract(contract))
    friend_call = None
    if "friend" in hand:
        if state.phase != "friend":
            raise RecordError(
                _("hand {index}: friend is called after the discard").format(index=index)
            )
        try:
            call = read_friend_call(engine, hand["friend"], state)
        except InvalidNotation as exc:
            raise RecordError(
                _("hand {index}: {key}: {error}").format(index=index, key="friend", error=exc)
            ) from None
        action = engine.CallFriend(call)
        if state is not elected or not setup.call_in_place(state, action):
            state = engine.apply(state, action)
        friend_call = hand["friend"]
    else:
        refuse_later_keys(hand, index, "tricks", _("no friend was called yet"))
    tricks = hand.get("tricks", [])
    if not isinstance(tricks, list) or not all(map(_IS_STR, tricks)):
        raise RecordError(
            _("hand {index}: tricks: expected a list of strings of played cards").format(
                index=index
            )
        )
    # the state is this function's own (new_hand's, apply's or the batch's): no copy needed
    state = tricks_module.replay_tricks(state, tricks, index, fast, owned=True)
    # 시흥 은마: the eliminated player plays the dummy's hand (nobody sits out)
    eliminated_hand = None
    if rules.table.dummy:
        eliminated_hand = state.eliminated[0] if state.eliminated else None
        eliminated = []
    else:
        eliminated = list(state.eliminated)
    if state.phase != "done":
        return HandOutcome(
            index=index,
            status="in_progress",
            players=players,
            dealer=dealer,
            declarer=state.declarer,
            contract=state.contract,
            friend=state.friend if state.friend_revealed else None,
            friend_call=friend_call,
            deltas=dict(zero),
            pot_after=pot,
            full=True,
            state=state,
            eliminated=eliminated,
            eliminated_hand=eliminated_hand,
        )
    result = engine.hand_result(state)
    for key in ("taken", "opposition"):
        if key in hand:
            stated = read_taken(rules, {key: hand[key]}, index)
            if stated != result.taken:
                raise RecordError(
                    _(
                        "hand {index}: {key} = {value} is impossible: the tricks "
                        "give the ruling party {taken}"
                    ).format(index=index, key=key, value=hand[key], taken=result.taken)
                )
    deltas = dict(zero)
    deltas.update(result.deltas)
    # 동대전 7마: friend2, the second called card's holder
    outcome = HandOutcome(
        index=index,
        status="scored",
        players=players,
        dealer=dealer,
        declarer=result.declarer,
        contract=result.contract,
        friend=result.friend,
        friend_call=friend_call,
        taken=result.taken,
        score=result.score,
        deltas=deltas,
        pot_after=pot,
        full=True,
        state=state,
        eliminated=eliminated,
        eliminated_hand=eliminated_hand,
        friend2=result.friend2,
    )
    # an empty pot stays empty after a scored hand (settle_pot moves nothing)
    return settle_outcome_pot(rules, outcome, pot) if pot > 0 else outcome


def _unfinished(
    index: int, players: list[str], dealer: str, pot: int, zero: dict[str, int], state: Any
) -> HandOutcome:
    """A full hand stopped before the discard (the election or the eliminations not over)."""
    return HandOutcome(
        index=index,
        status="in_progress",
        players=players,
        dealer=dealer,
        deltas=dict(zero),
        pot_after=pot,
        full=True,
        state=state,
    )


_IS_STR = str.__instancecheck__  # isinstance(value, str), for map()


def _replay_elimination(engine: Any, state: Any, hand: dict, index: int) -> Any:
    """6마, 7마: the declarer's elimination calls (``elimination = ["JK Bo", "D5 kitty"]``; a
    card alone where the deal is known; ``player:Cy`` under table.eliminate_by = player) and the
    cards dealt out after them (``redistribution = { Ana = "...", ... }``)."""
    calls = hand.get("elimination", [])
    if calls and state.phase != "elimination":
        raise RecordError(
            _("hand {index}: elimination: nobody is eliminated here (table.eliminated)").format(
                index=index
            )
        )
    if not all(isinstance(call, str) for call in calls):
        raise RecordError(
            _('hand {index}: elimination: expected calls such as "JK Bo"').format(index=index)
        )
    for call in calls:
        if state.phase != "elimination":
            raise RecordError(
                _("hand {index}: elimination: {call} comes after the last elimination").format(
                    index=index, call=repr(call)
                )
            )
        card, who = elimination_parts(call)
        try:
            if card is None and who is None:
                raise InvalidNotation(
                    _("{call}: expected a card and who held it").format(call=repr(call))
                )
            action = engine.Eliminate(None if card is None else parse_card(card), who)
        except InvalidNotation as exc:
            raise RecordError(
                _("hand {index}: {key}: {error}").format(index=index, key="elimination", error=exc)
            ) from None
        state = engine.apply(state, action)
    if state.phase == "redistribution" and ("redistribution" in hand or state.open_cards):
        given = hand.get("redistribution", {})
        try:
            cards = tuple((who, tuple(parse_cards(text))) for who, text in given.items())
        except (InvalidNotation, AttributeError, TypeError):
            raise RecordError(
                _('hand {index}: redistribution: expected player = "cards"').format(index=index)
            ) from None
        state = engine.apply(state, engine.Redistribute(cards))
    return state
