"""Random legal hands under every bundled ruleset (hypothesis): they never raise, score to zero,
account for every point card, agree with open-cards replay and with the hand-record format, and
every illegal action tried from their states is rejected.

CI tries fewer hands per ruleset than these properties deserve on a change to the engine:
``MIGHTY_TEST_LONG=1`` tries the full numbers (about three times as many)."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_cli.engine.cards import DECK, JOKER, Bid
from mighty_cli.engine.errors import IllegalAction
from mighty_cli.engine.hand import (
    BidCall,
    Discard,
    Play,
    apply,
    hand_result,
    legal_actions,
    legal_plays,
    new_hand,
    random_legal_action,
)
from mighty_cli.engine.hand.derived import rule_tables
from mighty_cli.engine.hand.draft import seeded_deal
from mighty_cli.engine.records import Record, replay, state_to_hand
from mighty_cli.engine.ruleset import bundled_names, load_ruleset
from mighty_cli.engine.scoring import ruling_party_taken, taken_limit

NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal")


def players_of(rules) -> tuple:
    """The players of a ruleset's table (table.players: 5마 five, 4마 four, 3마 three, 2마 two,
    6마 six, 7마 seven)."""
    return NAMES[: rules.table.players]


RULESETS = bundled_names()
ENDED = ("done", "deal_miss", "redeal")
#: MIGHTY_TEST_LONG=1: the full numbers of hands tried.
LONG = bool(os.environ.get("MIGHTY_TEST_LONG"))


def examples(full: int) -> int:
    """Hands tried per ruleset: ``full`` in a long run, a third of it in CI."""
    return full if LONG else max(8, full // 3)


SETTINGS = settings(
    max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def random_hand(name: str, seed: int, choose_from_list: bool = False):
    """Deal with a seed and play random legal actions to the end; the states along the way."""
    rules = load_ruleset(name)
    players = players_of(rules)
    rng = random.Random(seed)
    # ghost 4마 (table.ghost): the ghost's pile is dealt too, after the players; 변형 2마
    # (table.deal = "draft"): the hands are drafted, each choice random
    draft_rng = random.Random(seed + 1)
    deal = seeded_deal(rules, seed, players, lambda player, card: draft_rng.random() < 0.5)
    state = new_hand(rules, players, players[seed % len(players)], deal)
    states = [state]
    # a deal miss a full bid may cancel (deal_miss.full_bid_cancels) is cancelled half the time
    while state.phase not in ENDED or (
        state.phase == "deal_miss" and legal_actions(state) and rng.random() < 0.5
    ):
        # the redistribution (6마, 7마) is a chance event legal_actions does not list
        if choose_from_list and state.phase not in ("exchange", "redistribution"):
            action = rng.choice(legal_actions(state))
        else:
            action = random_legal_action(state, rng)
        state = apply(state, action)
        states.append(state)
    return rules, deal, states


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_hands_score_zero_sum_and_account_for_every_point(name, seed):
    rules, deal, states = random_hand(name, seed, choose_from_list=seed % 2 == 0)
    final = states[-1]
    if final.phase != "done":
        return
    result = hand_result(final)
    assert sum(result.deltas.values()) == 0
    played = sum(trick.points for trick in final.tricks)
    assert played == sum(final.points_taken.values())
    # 변형 2마: the cards the draft put aside (deal.undealt) are out of play, points and all
    aside = set(deal.get("undealt", ()))
    point_mask = rule_tables(rules).point_mask
    assert (
        played + final.discarded_points + sum(point_mask >> card & 1 for card in aside)
        == rules.point_card_total
    )
    cards = [play.card for trick in final.tricks for _, play in trick.plays]
    # 6마, 7마: five play after the eliminations; ghost 4마: the ghost plays its cards as well;
    # 동대전 6마, 7마: all play eight or seven tricks
    assert len(cards) == rules.tricks * (rules.playing + (1 if rules.table.ghost else 0))
    assert set(cards) | set(final.discards) | aside == set(rules.deck_cards)
    # the friends' cards weighted (동대전 6마, 7마: scoring.friend_weight): at most the limit
    assert 0 <= result.taken <= taken_limit(rules)
    if rules.election.bid_counts != "tricks":
        friends = [name for name in (result.friend, result.friend2) if name is not None]
        own = final.points_taken[result.declarer] + (
            final.discarded_points if rules.exchange.discards_count_for_ruling_party else 0
        )
        assert result.taken == ruling_party_taken(
            rules, own, [final.points_taken[name] for name in friends]
        )


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_are_rejected(name, seed):
    rules, deal, states = random_hand(name, seed)
    rng = random.Random(seed)
    for state in rng.sample(states, min(8, len(states))):
        if state.phase == "play":
            player = state.to_move
            # two decks (8마 Chicago): a card is either copy, written alike (card & 127)
            hand = {card & 127 for card in state.hands[player]}
            legal_cards = {play.card for play in legal_plays(state)}
            # every card of the hand is accepted exactly when legal_plays lists it
            for card in hand:
                annotations = [p for p in legal_plays(state) if p.card == card]
                action = (
                    annotations[0]
                    if annotations
                    else Play(
                        player,
                        card,
                        rng.randrange(4) if card == JOKER and not state.current_trick else None,
                    )
                )
                if card in legal_cards:
                    apply(state, action)
                else:
                    with pytest.raises(IllegalAction):
                        apply(state, action)
            outside = [card for card in DECK if card not in hand]
            with pytest.raises(IllegalAction):
                apply(state, Play(player, rng.choice(outside)))
            others = [p for p in state.players if p != player and state.hands[p]]
            if others:
                with pytest.raises(IllegalAction):
                    apply(state, Play(others[0], state.hands[others[0]][0]))
        elif state.phase == "election":
            standing = state.standing_bid
            if standing is not None:
                player, bid = standing
                # a bid one step lower (a higher number where bids descend, as in 이우)
                low = (
                    Bid(bid.number + 1, bid.trump)
                    if rules.bids_descend
                    else Bid(max(1, bid.number - 1), bid.trump)
                )
                with pytest.raises(IllegalAction):
                    apply(state, BidCall(state.to_move, low))
            with pytest.raises(IllegalAction):
                apply(state, Play(state.to_move, DECK[0]))
        elif state.phase == "exchange":
            hand = state.hands[state.to_move]
            outside = [card for card in DECK if card not in {held & 127 for held in hand}]
            size = len(hand) - rules.tricks  # the discard: what he holds beyond his tricks
            with pytest.raises(IllegalAction):
                apply(state, Discard((outside[0],) + tuple(hand[: size - 1])))
            with pytest.raises(IllegalAction):
                apply(state, Discard(tuple(hand[: size - 1])))
        for action in rng.sample(legal_actions(state), min(5, len(legal_actions(state)))):
            apply(state, action)  # every listed action is accepted


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_open_cards_replay_agrees_with_the_full_deal(name, seed):
    rules, deal, states = random_hand(name, seed)
    final = states[-1]
    state = new_hand(
        rules,
        players_of(rules),
        final.dealer,
        None,
        opener=final.election[0][0] if final.election else None,
    )
    for action in final.history:
        if isinstance(action, Discard) and seed % 2:
            action = Discard(())  # the discards were not seen
        state = apply(state, action)
    assert state.phase == final.phase
    if final.phase == "done":
        assert hand_result(state) == hand_result(final)


@pytest.mark.parametrize("name", RULESETS)
@settings(max_examples=examples(25), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_hand_record_round_trip(name, seed):
    rules, deal, states = random_hand(name, seed)
    final = states[-1]
    hand = state_to_hand(final, deal)
    hand.setdefault("opener", final.election[0][0] if final.election else final.dealer)
    record = Record(ruleset=name, players=list(players_of(rules)), hands=[hand])
    (outcome,) = replay(record).hands
    expected = {"done": "scored", "deal_miss": "deal_miss", "redeal": "redeal"}[final.phase]
    assert outcome.status == expected
    if final.phase == "done":
        assert outcome.deltas == hand_result(final).deltas
