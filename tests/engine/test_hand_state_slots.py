"""Every HandState slot is set after every kind of action (the play path builds new states field
by field for speed, so a slot added to the class but not to that path would go unset)."""

from __future__ import annotations

import random

import pytest

from mighty_cli.engine import hand as engine
from mighty_cli.engine.hand.draft import seeded_deal
from mighty_cli.engine.ruleset import bundled_names, load_ruleset

PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]


def slots() -> list[str]:
    names: list[str] = []
    for cls in engine.HandState.__mro__:
        names.extend(getattr(cls, "__slots__", ()))
    return names


@pytest.mark.parametrize("ruleset", bundled_names())
@pytest.mark.parametrize("open_cards", [False, True])
def test_every_slot_is_set_after_every_action(ruleset, open_cards):
    rules = load_ruleset(ruleset)
    players = PLAYERS[: rules.table.players]  # table.players: 2 to 7
    for seed in range(3):
        rng = random.Random(seed)
        deal = seeded_deal(rules, seed, players)  # the ghost's pile, a draft: every table
        full = engine.new_hand(rules, players, "Ana", deal)
        state = engine.new_hand(rules, players, "Ana", None if open_cards else deal)
        while full.phase not in ("done", "deal_miss", "redeal"):
            action = engine.random_legal_action(full, rng)
            full = engine.apply(full, action)
            if open_cards and isinstance(action, engine.Discard):
                action = engine.Discard(())
            state = engine.apply(state, action)
            missing = [name for name in slots() if not hasattr(state, name)]
            assert not missing, (type(action).__name__, missing)
