"""Helpers for the table-size tests: what a referee types for a random legal hand at any table
size (2마 to 7마), elimination and redistribution included."""

from __future__ import annotations

import random

from evening_script import line_for as five_line_for
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import format_card, format_cards

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy"]


def names(count: int) -> list[str]:
    return NAMES[:count]


def seeded_deal(rules, players, seed: int, number: int) -> dict:
    """The deal the referee's --seed gives hand ``number`` of these players (ghost 4마: the
    ghost's pile too; a drafted 2마: each player keeping the upper card)."""
    from mighty_cli.engine.hand.draft import seeded_deal as engine_deal

    return engine_deal(rules, engine_seed(seed, number), players)


def engine_seed(seed: int, number: int) -> int:
    from mighty_cli.engine.cards.deck import hand_seed

    return hand_seed(seed, number)


def play_out(rules, players, dealer, opener, deal, seed: int = 0):
    """A random legal play of a deal to the end (no deal miss, no redeal), or None."""
    for attempt in range(seed, seed + 300):
        rng = random.Random(attempt)
        state = engine.new_hand(rules, players, dealer, deal, opener=opener)
        while state.phase not in ("done", "deal_miss", "redeal"):
            action = engine.random_legal_action(state, rng)
            if isinstance(action, engine.DeclareDealMiss):
                break
            state = engine.apply(state, action)
        if state.phase == "done":
            return state
    raise AssertionError("no playable line for that deal")


def line_for(action, open_cards: bool, by_player: bool = False) -> str | None:
    """What a referee types for an engine action (None: nothing, open cards' unseen steps):
    the elimination calls and the redistribution here, the rest as at five (evening_script)."""
    if isinstance(action, engine.Eliminate):
        if by_player or action.card is None:
            return action.player
        card = format_card(action.card).lower()
        return f"{card} {action.player or 'kitty'}" if open_cards else card
    if isinstance(action, engine.Redistribute):
        if open_cards:
            return None
        return "; ".join(f"{who} {format_cards(cards).lower()}" for who, cards in action.cards)
    return five_line_for(action, open_cards)


def typed_lines(state, open_cards: bool = False) -> list[str]:
    """The lines a referee types for a finished hand's actions, in order."""
    by_player = state.rules.table.eliminate_by == "player"
    ghost = state.rules.table.ghost and not open_cards  # the referee plays the ghost's cards
    lines = (
        line_for(action, open_cards, by_player)
        for action in state.history
        if not (ghost and getattr(action, "player", None) == engine.GHOST)
    )
    return [line for line in lines if line]
