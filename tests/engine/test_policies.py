"""The simulated players (engine.policies): every choice is a legal action, the heuristic beats
random play, and a skilled player mixes the two."""

from __future__ import annotations

from random import Random

import pytest

from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards.deck import hand_seed
from mighty_cli.engine.hand.draft import seeded_deal
from mighty_cli.engine.hand.seats import arranged_deal
from mighty_cli.engine.policies import (
    ENDED,
    actor,
    heuristic_action,
    play_hand,
    random_action,
    skilled,
)
from mighty_cli.engine.ruleset import load_ruleset

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]


def new_state(rules, seed: int, number: int, dealer: str = "Ana"):
    deal = arranged_deal(
        seeded_deal(rules, hand_seed(seed, number), FIVE, lambda player, card: True)
    )
    return engine.new_hand(rules, FIVE, dealer, deal)


def is_legal(state, action) -> bool:
    legal = engine.legal_actions(state)
    if isinstance(action, engine.Discard):  # the same three cards in any order
        return sorted(action.cards) in [sorted(d.cards) for d in legal]
    return action in legal


@pytest.mark.parametrize("ruleset", ["standard", "gyeonggi-2018", "daegu"])
@pytest.mark.parametrize(
    "policy",
    [random_action, heuristic_action, skilled(0.5)],
    ids=["random", "heuristic", "skilled"],
)
def test_every_choice_is_a_legal_action(policy, ruleset):
    rules = load_ruleset(ruleset)
    rng = Random(7)
    decisions = 0
    for number in range(1, 13):
        state = new_state(rules, 3, number)
        while state.phase not in ENDED:
            assert actor(state) in FIVE
            action = policy(state, rng)
            assert is_legal(state, action), (state, action)
            state = engine.apply(state, action)
            decisions += 1
    assert decisions > 12 * 20  # hands were played, not only redealt


def election_outcomes(hands: int = 200):
    """The contracts of all-heuristic tables over seeded deals, and the hands ended by a deal
    miss or a redeal."""
    rules = load_ruleset("standard")
    rng = Random(1)
    contracts, ended = [], []
    for number in range(1, hands + 1):
        state = play_hand(
            new_state(rules, 11, number, dealer=FIVE[number % 5]),
            dict.fromkeys(FIVE, heuristic_action),
            rng,
        )
        if state.phase == "done":
            contracts.append(state.contract)
        else:
            ended.append(state.phase)
    return contracts, ended


def test_the_heuristic_bids_no_trump_and_high_contracts_as_a_club_does():
    """The election of a club's season (the bundled example's: 15 most often, 13 to 18, one in
    seven at no-trump, a few deal misses): no-trump bid with the top cards, the opening near
    what the hand promises, so the contracts spread."""
    contracts, ended = election_outcomes()
    levels = [c.number for c in contracts]
    no_trump = sum(c.trump is None for c in contracts) / len(contracts)
    assert 0.03 < no_trump < 0.3, no_trump
    assert max(set(levels), key=levels.count) in (14, 15, 16)
    assert len(set(levels)) >= 4 and min(levels) >= 13
    assert "deal_miss" in ended


def test_a_deal_miss_is_declared_with_a_weak_hand_it_may_show():
    rules = load_ruleset("standard")
    for number in range(1, 400):
        state = new_state(rules, 11, number)
        action = heuristic_action(state, Random(1))
        if isinstance(action, engine.DeclareDealMiss):
            assert engine.is_deal_miss_hand(rules, state.hands[action.player])
            return
    pytest.fail("no deal miss declared in 400 deals")


def test_the_heuristic_beats_random_play():
    """Two heuristic players against three random ones, seats turning, 100 seeded deals: the
    heuristic players score more than 5 points a hand above the random ones (a margin far
    below what they make: they average over +10, the random ones below -5)."""
    rules = load_ruleset("standard")
    rng = Random(2)
    score = {"heuristic": 0, "random": 0}
    seats = {"heuristic": 0, "random": 0}
    for number in range(1, 101):
        good = {FIVE[number % 5], FIVE[(number + 2) % 5]}
        policies = {p: heuristic_action if p in good else random_action for p in FIVE}
        state = play_hand(new_state(rules, 5, number, dealer=FIVE[number % 5]), policies, rng)
        deltas = engine.hand_result(state).deltas if state.phase == "done" else {}
        for player in FIVE:
            kind = "heuristic" if player in good else "random"
            score[kind] += deltas.get(player, 0)
            seats[kind] += 1
    heuristic, random = (score[k] / seats[k] for k in ("heuristic", "random"))
    assert heuristic - random > 5, (heuristic, random)


def test_skill_decides_how_often_the_heuristic_is_followed():
    rules = load_ruleset("standard")
    state = new_state(rules, 3, 2)
    rng = Random(4)
    while state.phase != "play":  # the heuristic's election, discard and call
        state = engine.apply(state, heuristic_action(state, rng))
    always, never, half = skilled(1.0), skilled(0.0), skilled(0.5)
    assert {always(state, Random(seed)) for seed in range(20)} == {heuristic_action(state, rng)}
    assert len({never(state, Random(seed)) for seed in range(20)}) > 1  # random: any card
    chosen = [half(state, Random(seed)) == heuristic_action(state, rng) for seed in range(200)]
    assert 0.5 < sum(chosen) / 200 < 0.75  # half the time, plus random's lucky matches
