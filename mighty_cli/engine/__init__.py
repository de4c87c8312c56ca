"""The rules engine: cards, notation, rulesets, bidding, play, scoring and hand records.

Standard library only. Nothing here imports click, SQLModel or Jinja2, so every layer above can
use it and a test can check that in a subprocess.

The engine is four packages by concept over a few leaf modules, and imports point one way, from
each layer to the ones before it (``tests/test_imports.py`` holds the order):

1. leaves: ``errors``, ``translation``, ``limits``, ``inputs``, ``outputs``, ``safe_toml``,
   ``names`` (player and league names);
2. ``cards``: notation, Korean readings, the deck as bitmasks and the seeded deal;
3. ``ruleset``: the schema and its options, loading and ``extends``, bounds, formulas;
4. ``scoring`` (a hand's scores from its outcome) and ``session`` (dealer, opener, sitting out);
5. ``hand``: one hand checked action by action, a module per phase;
6. ``records``: hand records read, written, replayed and summed up;
7. ``simulation``: random legal hands written as a record; ``policies``: a random, a heuristic
   and a skilled player's choices, for seasons of players of known skill.

This package names the public API, as ``import chess`` gives ``Board`` and ``Move``::

    from mighty_cli import engine
    rules = engine.load_ruleset("standard")
    players = ["A", "B", "C", "D", "E"]
    state = engine.new_hand(rules, players, "A", engine.deal_cards(1, players, rules.deck_cards))
    engine.legal_actions(state)  # A's bids and pass, and a deal miss where A's hand allows one

The names load on first use (:func:`__getattr__`), so a command that needs only the errors or
the translations does not pay at start-up for the hand engine and the records.
"""

from __future__ import annotations

import importlib
from typing import Any

#: Each public name and the module that defines it.
_API = {
    "errors": (
        "MightyError",
        "InvalidNotation",
        "RulesetError",
        "ScoringError",
        "IllegalAction",
        "IllegalBid",
        "IllegalDealMiss",
        "IllegalExchange",
        "IllegalPlay",
        "RecordError",
    ),
    "cards": (
        "Bid",
        "parse_card",
        "format_card",
        "parse_cards",
        "format_cards",
        "parse_bid",
        "format_bid",
        "parse_trump",
        "format_trump",
    ),
    "ruleset": ("Ruleset", "load_ruleset", "ruleset_from_toml", "bundled_names"),
    "scoring": ("Score", "score_hand"),
    "hand": (
        "HandState",
        "new_hand",
        "apply",
        "legal_plays",
        "legal_actions",
        "deal_cards",
        "hand_result",
        "HandResult",
        "random_legal_action",
        "DeclareDealMiss",
        "BidCall",
        "Discard",
        "ChangeContract",
        "CallFriend",
        "Play",
        "FriendCall",
        "Eliminate",
        "Redistribute",
    ),
    "records": (
        "Record",
        "HandOutcome",
        "ReplayResult",
        "read_record",
        "load_record",
        "dump_record",
        "replay",
        "iter_replay",
        "score_outcome",
    ),
}
_HOME = {name: module for module, names in _API.items() for name in names}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (PEP 562)."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
