"""Helpers for the evening tests: what a referee types for a random legal hand."""

from __future__ import annotations

import random
import re

from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import format_bid, format_cards

PROPOSAL = re.compile(
    r"— hand (\d+): dealer (\S+), opener (\S+)(?:, sitting out ([^;]+))?; "
    r"playing ([^\r\n(]+)"
)


def line_for(action, open_cards: bool) -> str | None:
    """What a referee types for an engine action (None: nothing, open cards' unseen discard)."""
    if isinstance(action, engine.BidCall):
        return "pass" if action.bid is None else format_bid(action.bid).lower()
    if isinstance(action, engine.DeclareDealMiss):
        return f"miss {action.player}"
    if isinstance(action, engine.Discard):
        return None if open_cards else format_cards(action.cards).lower()
    if isinstance(action, engine.ChangeContract):
        return format_bid(action.contract).lower()
    if isinstance(action, engine.CallFriend):
        return engine.format_friend_call(action.call)
    return engine.format_play(action).lower()


def play_out(rules, five, dealer, opener, deal, rng):
    """One random legal play of a deal: the finished state, or None when it ended in a deal
    miss or a redeal (no player declares a deal miss here)."""
    state = engine.new_hand(rules, five, dealer, deal, opener=opener)
    while state.phase not in ("done", "deal_miss", "redeal"):
        action = engine.random_legal_action(state, rng)
        if isinstance(action, engine.DeclareDealMiss):
            return None
        state = engine.apply(state, action)
    return state if state.phase == "done" else None


def random_hand(rules, five, dealer, opener, seed: int):
    """A finished random legal hand (not a deal miss or redeal) of these five."""
    while True:
        state = play_out(
            rules, five, dealer, opener, engine.deal_cards(seed, five), random.Random(seed)
        )
        if state is not None:
            return state
        seed += 7919


def typed_lines(state, open_cards: bool = True) -> list[str]:
    return [line for line in (line_for(a, open_cards) for a in state.history) if line]


def parse_proposal(text: str):
    """The last proposal line of the output: number, dealer, opener, sitting out, five."""
    found = PROPOSAL.findall(text)
    number, dealer, opener, out, five = found[-1]
    return (
        int(number),
        dealer,
        opener,
        [n.strip() for n in out.split(",") if n.strip()],
        [n.strip() for n in five.strip().split(",")],
    )
