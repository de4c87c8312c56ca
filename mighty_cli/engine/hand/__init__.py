"""The hand engine: one hand of Mighty, checked action by action (docs/rules.md §2-§7, §10).

The table is the ruleset's (``[table]``): five players by default, two to eight for 2마 to 8마,
over the 53 cards (54 with two jokers, 57 with 서울과고's 11s, 106 with Chicago's two decks) less
the removed ones; 6마 and 7마 eliminate players after the election.

This package is one hand: its ``__init__`` is the hand's API (``__all__``, gathered in ``api``
and loaded on first use, so a module that needs one phase does not load them all), and the
rules live in one module per phase and idea beside it, each stating its rules in its docstring:

* ``actions`` — the actions of a hand and their notation (``JK/H``, ``C3!``, friend calls);
* ``contract`` — Mighty, the joker-call card, trick priority and the per-contract tables;
* ``derived`` — what is derived once per ruleset (bids, deal-miss weights, point cards) and per
  seating;
* ``state`` — :class:`HandState`, a value, and :func:`new_hand`;
* ``election`` — bids, passes, the deal miss;
* ``elimination`` — 6마 and 7마: the declarer eliminates, the pile is dealt out;
* ``exchange`` — the discard and the contract change; ``friend_call`` — the friend call;
* ``play`` — following suit, the joker and its call, trump leads, a card played (``joker_play``:
  the joker's and Mighty's annotations, the call; ``play_errors``: why a card is refused);
* ``settle`` — a trick settled: its winner and points, the friend revealed;
* ``open_cards`` — what the cards shown allow when the deal is unknown;
* ``seats`` — who sits where for every table shape, and ghost 4마 (고마): the ghost's hand,
  played from the top of its pile;
* ``honeymoon`` — 허니문: two players, each with a friend hand;
* ``draft`` — the drafted deal of 변형 2마;
* ``legal`` and ``playout`` — every legal next action, and the random playout policy;
* ``replay_setup`` and ``replay_tricks`` — a record's election and its tricks replayed at once
  with the phases' own steps, held to :func:`apply` by tests (``records.card_replay`` uses them);
  ``replay_tables``: what the fast trick replay reads, made once (tokens, plain leads, pairs).

The cards and the deck as bitmasks are :mod:`mighty_cli.engine.cards`, the options
:mod:`mighty_cli.engine.ruleset`; a hand record above the hand is :mod:`mighty_cli.engine.records`.

:func:`apply` is pure: it returns a new :class:`HandState` and raises an :class:`IllegalAction`
subclass naming the trick, the player, the card and the rule broken (with the ruleset option's
key where one applies). :func:`legal_plays` and :func:`legal_actions` list what may come next.

Speed: cards are ints and hands are int bitmasks (bit ``card``); a state is a ``__slots__`` object
copied field by field; the hands are fixed after the exchange (a seat holds ``_hands[seat] &
~_played``), so a play copies no hands; the contract's tables (Mighty, joker-call card, trump
masks, power by trick number) are built once per ruleset, contract and called card; the legal
bids over each standing bid and the contract changes of each bid are cached per ruleset; plays
are cached per player; random actions are drawn by index (the k-th set bit of a legal mask)
without listing them. benchmarks/playout.py measures it.
"""

from __future__ import annotations

import importlib
from typing import Any

# The seats function takes its module's name: bound here, so the package's ``seats`` is the
# function whichever is imported first (the module stays ``hand.seats`` in sys.modules).
from .seats import seats

__all__ = [
    "HandState",
    "new_hand",
    "apply",
    "legal_plays",
    "legal_actions",
    "deal_cards",
    "DeclareDealMiss",
    "BidCall",
    "Discard",
    "ChangeContract",
    "CallFriend",
    "Play",
    "FriendCall",
    "parse_friend_call",
    "format_friend_call",
    "parse_play",
    "format_play",
    "hand_result",
    "HandResult",
    "CompletedTrick",
    "random_legal_action",
    "deal_miss_value",
    "is_deal_miss_hand",
    "trick_winner",
    "mighty_card",
    "joker_call_card",
    "PHASES",
    "FRIEND_KINDS",
    "PLAYERS",
    "HAND_SIZE",
    "KITTY_SIZE",
    "TRICKS",
    "Eliminate",
    "Redistribute",
    "random_redistribution",
    "redistribution_sizes",
    "GHOST",
    "DUMMY",
    "seats",
]


def __getattr__(name: str) -> Any:
    """A name of the hand's API, from :mod:`.api` on first use (PEP 562): importing one phase
    (``hand.actions``, ``hand.seats``) does not load every phase and the playouts."""
    api = importlib.import_module(f"{__name__}.api") if not name.startswith("__") else None
    if api is None or not hasattr(api, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(api, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
