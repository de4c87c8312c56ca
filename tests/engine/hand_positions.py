"""Positions for the hand-engine tests, written like hand records: deals in card notation, an
election, a discard, a contract change, a friend call and tricks (tests/data/hand_deals.toml)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import tomli_w

from mighty_cli.engine.cards import DECK, parse_bid, parse_cards
from mighty_cli.engine.hand import (
    BidCall,
    CallFriend,
    ChangeContract,
    Discard,
    HandState,
    Play,
    apply,
    format_play,
    legal_plays,
    new_hand,
    parse_friend_call,
    parse_play,
)
from mighty_cli.engine.ruleset import Ruleset, load_ruleset, ruleset_from_toml

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PLAYERS = ("Ana", "Bo", "Cy", "Di", "Ed")
DATA = Path(__file__).resolve().parent.parent / "data"
DEALS = tomllib.loads((DATA / "hand_deals.toml").read_text(encoding="utf-8"))["deals"]


def variant(options: dict | None = None, base: str = "standard") -> Ruleset:
    """A ruleset extending ``base`` with dotted options: ``{"cards.mighty_must_follow_suit": False}``."""
    if not options:
        return load_ruleset(base)
    tables: dict = {"extends": base}
    for key, value in options.items():
        table, _, name = key.rpartition(".")
        node = tables
        for part in table.split("."):
            node = node.setdefault(part, {})
        node[name] = value
    return ruleset_from_toml(tomli_w.dumps(tables), label="test variant").ruleset


def make_deal(hands: dict[str, str]) -> dict[str, list[int]]:
    """A full deal from card strings; players (or the kitty) not given, or given fewer cards, are
    filled with the remaining cards in deck order."""
    deal = {who: parse_cards(hands.get(who, "")) for who in PLAYERS + ("kitty",)}
    used = {card for cards in deal.values() for card in cards}
    assert len(used) == sum(len(cards) for cards in deal.values()), "a card is dealt twice"
    spare = [card for card in DECK if card not in used]
    for who, cards in deal.items():
        size = 3 if who == "kitty" else 10
        while len(cards) < size:
            cards.append(spare.pop(0))
    return deal


def deal_named(name: str) -> dict[str, list[int]]:
    return make_deal(DEALS[name])


def position(
    rules: Ruleset | str = "standard",
    deal: str | dict = "basic",
    *,
    election: Sequence[str] = ("Ana 13H", "Bo pass", "Cy pass", "Di pass", "Ed pass"),
    discard: str | None = None,
    contract: str | None = None,
    friend: str | None = "none",
    tricks: Sequence[str] = (),
    open_cards: bool = False,
) -> HandState:
    """Play a hand up to a point: election calls "<player> <bid|pass>", the discard (default: the
    kitty), an optional contract change, the friend call (None: stop before it), then tricks as
    strings of plays in order (the last one may be partial)."""
    if isinstance(rules, str):
        rules = load_ruleset(rules)
    cards = deal_named(deal) if isinstance(deal, str) else make_deal(deal)
    state = new_hand(rules, PLAYERS, "Ana", None if open_cards else cards)
    for call in election:
        player, what = call.split()
        state = apply(state, BidCall(player, None if what == "pass" else parse_bid(what)))
    if state.phase != "exchange":
        return state
    if open_cards and discard is None:
        state = apply(state, Discard(()))
    else:
        state = apply(state, Discard(tuple(parse_cards(discard) if discard else cards["kitty"])))
    if contract:
        state = apply(state, ChangeContract(parse_bid(contract)))
    if friend is None:
        return state
    state = apply(state, CallFriend(parse_friend_call(friend, state)))
    for trick in tricks:
        for token in trick.split():
            state = play(state, token)
    return state


def play(state: HandState, token: str) -> HandState:
    """The state after the player to move plays a card in record notation (JK/H, C3!)."""
    card, joker_suit, joker_call = parse_play(token)
    return apply(state, Play(state.to_move, card, joker_suit, joker_call))


def legal(state: HandState) -> set[str]:
    """The legal plays of the player to move, in record notation."""
    return {format_play(p) for p in legal_plays(state)}
