"""A recorded hand's election replayed at once, every call checked by the election's own rules.

A record gives a hand's election as a list of calls (``"Bo 13H"``, ``"Cy pass"``); replaying
them is a fifth of ``mighty replay``'s work. :func:`replay_bids` applies them to the state of
:func:`~.state.new_hand` and returns the state after the last call: the same value (every slot,
the history included) as applying each :class:`~.actions.BidCall` with :func:`~.hand.apply`.

How it is faster without a second rules implementation: each call is checked and written by
election.py's own :func:`~.election.bid_step`, the body of the engine's apply for a bid, on one
private state and one private setup (the caller never sees them before they are finished, so
the result is still a value to him) instead of a new state and a new setup for every call.
The usual calls (the player to move passing, or bidding one of the standing bid's listed
successors) are written by :func:`~.election.bid_run`, which writes what ``bid_step`` would
and hands any other call to it.
``bid_step`` reads every field before it writes it, so "the state before" and "the state
after" may be that one state (keep it so).

What it does not take, it gives back (``None``) for the caller to apply call by call with the
engine's apply, which then also raises the engine's own error, word for word:

* any call the election refuses (the batch stops at the first, and the caller starts over
  with apply from the state it gave);
* a deal miss declared in the election, or a call after the election ended;
* a ruleset with an option this module does not know (see :func:`handles`): an election,
  deal-miss or table option added later with a value other than its default goes through
  apply until it is listed here.

The discard and the friend call that follow go the same way (:func:`discard_in_place`,
:func:`call_in_place`): exchange.py's and friend_call.py's own steps (``discard_step``,
``call_step``, the bodies of apply's handlers) write them onto the election's private state,
with no new state and setup for each, where the ruleset's exchange and friend options are all known here
(:data:`EXCHANGE_OPTIONS`, :func:`handles_exchange`) and one deck is played (two decks
rewrite the discard's history). A refused discard or call raises the step's own error, which
is apply's, word for word; nothing is written before every check has passed.

``tests/engine/test_replay_fast_setup.py`` holds it to apply under every bundled ruleset: the
same final state for random legal hands, the same error for broken records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..errors import IllegalBid
from ..ruleset import Ruleset
from .actions import BidCall, CallFriend, Discard
from .derived import RuleTables, rule_tables
from .election import bid_run, bid_step
from .exchange import discard_step
from .friend_call import call_step
from .state import HandState

#: The options of each section the batch election replays exactly as apply does (it runs apply's
#: own step): any other option of these sections must keep its default for the batch to run.
KNOWN_OPTIONS = {
    "election": frozenset(
        {
            "min_bid",
            "max_bid",
            "no_trump_allowed",
            "no_trump_discount",
            "no_trump_beats_equal_suit",
            "suit_order",
            "min_raise",
            "equal_bid_allowed",
            "opener_may_pass",
            "pass_is_final",
            "opener",
            "bid_counts",
            "opposition_base",
            "full_bid_ends",
            "direction",
        }
    ),
    # the bid path reads none of these but full_bid_cancels, which only acts once a deal miss
    # is declared (a deal miss sends the hand to apply)
    "deal_miss": frozenset(
        {
            "allowed",
            "rank_weights",
            "card_weights",
            "mighty_weight",
            "joker_weight",
            "threshold",
            "comparison",
            "all_point_cards",
            "during_election",
            "after_pass",
            "full_bid_overrides",
            "full_bid_cancels",
            "mighties_cancel",
            "next_dealer",
            "redeal_opener",
        }
    ),
    # who bids and in which order (silent seats; eliminations come after the election)
    "table": frozenset(
        {
            "players",
            "hand_size",
            "eliminated",
            "eliminate_by",
            "removed_ranks",
            "removed_cards",
            "kitty_size",
            "deal",
            "undealt",
            "partner_hands",
            "ghost",
            "ghost_plays",
            # 서울과고's 11 and Chicago's two decks change the deck, not the election; 시흥 은마's
            # dummy is a silent seat, which the shared bid step skips as it does the ghost's
            "rank_eleven",
            "dummy",
            "decks",
        }
    ),
}

#: The options the discard and the friend call read that their steps are known to write in
#: place (exchange.py, friend_call.py): any other option of these sections must keep its default.
EXCHANGE_OPTIONS = {
    "exchange": frozenset(
        {
            "discards_count_for_ruling_party",
            "trump_change_allowed",
            "raise_suit_change",
            "raise_to_no_trump",
            "raise_from_no_trump",
            "free_change_order",
            "voluntary_raise",
        }
    ),
    "friend": frozenset(
        {
            "card",
            "no_friend",
            "fake",
            "joker",
            "mighty",
            "first_trick",
            "first_trick_declarer_wins",
            "last_trick",
            "player",
            "reveal_on_points",
            "lead_request",
            "called_cards",
        }
    ),
}


def _default(spec: dataclasses.Field[Any]) -> Any:
    """An option's default value (``dataclasses.MISSING`` for none)."""
    if spec.default is not dataclasses.MISSING:
        return spec.default
    if spec.default_factory is not dataclasses.MISSING:
        return spec.default_factory()
    return dataclasses.MISSING


def unknown_options(rules: Ruleset, known: dict[str, frozenset]) -> list[str]:
    """The options of the given sections that a fast path does not know and that the ruleset
    sets to something other than their default (``section.option``); a fast path runs only
    when there are none."""
    found = []
    for section, names in known.items():
        options = getattr(rules, section)
        for spec in dataclasses.fields(options):
            if spec.name not in names and getattr(options, spec.name) != _default(spec):
                found.append(f"{section}.{spec.name}")
    return found


def handles(rules: Ruleset) -> bool:
    """Whether the batch election may replay this ruleset's elections (computed once per
    ruleset, kept on its rule tables)."""
    return _handles(rule_tables(rules))


def _handles(tables: RuleTables) -> bool:
    fast = tables.fast_election
    if fast is None:
        fast = tables.fast_election = not unknown_options(tables.rules, KNOWN_OPTIONS)
    return fast


def replay_bids(
    state: HandState, calls: Sequence[BidCall], *, owned: bool = False
) -> HandState | None:
    """The state after ``calls`` (bids and passes, in order) from ``state`` (in the election),
    or None when the batch does not take them: the caller then applies them one by one.
    ``owned``: the caller gives ``state`` and its setup away (new_hand's, held by nobody
    else), so the batch fills them in instead of copies; after None they may have been
    written, and the caller starts from a new hand."""
    if state.phase != "election" or not _handles(state._ctx.tables):
        return None
    if owned:
        new = state
    else:
        new = state._clone()  # ours to fill in: the caller's state never changes
        new._setup = state._setup.copy()
    history = state._history
    # the usual calls at once (election.bid_run), the rest by the step itself
    taken, history = bid_run(new, calls, history)
    for call in calls[taken:]:
        if new.phase != "election" or type(call) is not BidCall:
            return None
        try:
            bid_step(new, new, call.player, call.bid)
        except IllegalBid:
            return None  # apply says why, word for word
        history = (call, history)
    new._history = history
    return new


def handles_exchange(rules: Ruleset) -> bool:
    """Whether the discard and the friend call may be written in place under this ruleset
    (computed once per ruleset, kept on its rule tables): its exchange and friend options all
    known, one deck."""
    return _handles_exchange(rule_tables(rules))


def _handles_exchange(tables: RuleTables) -> bool:
    fast = tables.fast_exchange
    if fast is None:
        rules = tables.rules
        fast = tables.fast_exchange = rules.table.decks == 1 and not unknown_options(
            rules, EXCHANGE_OPTIONS
        )
    return fast


def discard_in_place(state: HandState, action: Discard) -> bool:
    """The declarer's discard written onto ``state``, a private state of the caller's whose
    setup is its own too (replay_bids' result): apply's step, its history entry added; False
    (nothing done) where the caller must apply it (another phase, an unknown option). Raises
    apply's error for a refused discard, ``state`` unchanged."""
    if state.phase != "exchange" or not _handles_exchange(state._ctx.tables):
        return False
    discard_step(state, state, action.cards)
    state._history = (action, state._history)
    state._legal = None
    return True


def call_in_place(state: HandState, action: CallFriend) -> bool:
    """The friend call written onto ``state`` (private, as for :func:`discard_in_place`);
    False where the caller must apply it. Raises apply's error for a refused call, ``state``
    unchanged."""
    if state.phase != "friend" or not _handles_exchange(state._ctx.tables):
        return False
    call_step(state, state, action.call)
    state._history = (action, state._history)
    state._legal = None
    return True
