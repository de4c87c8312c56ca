"""Every legal next action of a hand (random playouts, ``mighty simulate``, the property
tests): a module of its own below the hand's API (:mod:`hand`) and the playout policy
(:mod:`.playout`), which both use it."""

from __future__ import annotations

from itertools import combinations

from ..cards import sorted_cards
from ..cards.deck import cards_of
from .actions import BidCall, CallFriend, ChangeContract, DeclareDealMiss, Discard
from .election import cancelling_bids, legal_bids, may_declare_deal_miss
from .elimination import elimination_calls
from .exchange import legal_contracts
from .friend_call import legal_calls
from .play import legal_plays
from .state import HandState


def legal_actions(state: HandState) -> list:
    """Every legal next action, for random playouts. Election: the bids and the pass of the
    player to move (numbers up to ``election.max_bid``, or up to the point cards in play when
    there is no maximum), then a deal miss for each player allowed to declare one. Exchange: all
    286 discards of 3 from the declarer's 13 (open cards: the unseen discard only). Friend phase:
    every allowed contract change and friend call. Play: legal_plays(). A deal miss under
    ``deal_miss.full_bid_cancels``: the full bids that would cancel it (none: the hand ends)."""
    phase = state.phase
    if phase == "play":
        return legal_plays(state)
    ctx, setup = state._ctx, state._setup
    if phase == "election":
        assert state._to_move is not None  # (someone is to call)
        player = ctx.players[state._to_move]
        actions: list = []
        if setup.calls or ctx.rules.election.opener_may_pass:
            actions.append(BidCall(player, None))
        actions += [BidCall(player, bid) for bid in legal_bids(state)]
        if ctx.rules.deal_miss.allowed and (ctx.miss_hands is None or any(ctx.miss_hands)):
            actions += [
                DeclareDealMiss(p)
                for seat, p in enumerate(ctx.players)
                if may_declare_deal_miss(state, seat)
            ]
        return actions
    if phase == "elimination":
        return elimination_calls(state)
    if phase == "redistribution":
        return []  # a chance event: the table deals (elimination.random_redistribution)
    if phase == "exchange":
        if state._hands is None:
            return [Discard(())]
        assert setup.declarer is not None  # (the election is over)
        cards = sorted_cards(cards_of(state._hands[setup.declarer]))
        return [Discard(combo) for combo in combinations(cards, ctx.kitty_size)]
    if phase == "friend":
        changes = (
            [ChangeContract(c) for c in legal_contracts(state)]
            if setup.contract == setup.bid
            else []
        )
        return changes + [CallFriend(call) for call in legal_calls(state)]
    return cancelling_bids(state)
