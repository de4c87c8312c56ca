"""The random playout policy: a uniformly random legal action, drawn without listing them all.

It draws from exactly the sets :func:`mighty_cli.engine.hand.legal_actions` lists, in the same
order, by index: the k-th set bit of a legal mask for a card, the discard sampled instead of
listing all 286, the election and the friend call by index over their counts.
"""

from __future__ import annotations

from random import Random

from ..cards import SUITS
from ..cards.deck import cards_of, held_copies, nth_card
from .actions import (
    Action,
    BidCall,
    CallFriend,
    ChangeContract,
    DeclareDealMiss,
    Discard,
    FriendCall,
)
from .election import bids_over, may_declare_deal_miss
from .elimination import elimination_calls, random_redistribution
from .exchange import legal_contracts
from .friend_call import CARD_CALLS, call_choices, lead_request_allowed, with_lead
from .legal import legal_actions  # the rare phases (a cancellable deal miss, open cards)
from .play import legal_mask, legal_plays
from .state import HandState, tuple_new

# The policy draws through rng.random() only (public, documented API): an index below n is
# int(rng.random() * n). Playouts need not be stable across Python versions; seeded deals are
# (cards/deck.py), and they use no random module at all.


def _randrange(rng: Random, n: int) -> int:
    """A random index below n (n > 0)."""
    return int(rng.random() * n)


def _sample(rng: Random, cards: list, count: int) -> list:
    """``count`` different cards drawn at random, in the order drawn (a partial Fisher-Yates;
    the list is used as the pool, so pass a fresh one)."""
    n = len(cards)
    random = rng.random
    result = []
    for i in range(count):
        j = int(random() * (n - i))
        result.append(cards[j])
        cards[j] = cards[n - i - 1]
    return result


def random_legal_action(state: HandState, rng: Random) -> Action | None:
    """A uniformly random legal action, the same distribution as
    ``rng.choice(legal_actions(state))`` without building every action: the discard is drawn
    directly instead of listing all 286, the election and friend call pick an index first."""
    phase = state.phase
    ctx = state._ctx
    if phase == "play":
        if state._hands is not None:
            ci, seat = state._contract, state._to_move
            assert ci is not None and seat is not None  # (the play)
            mask = state._legal
            if mask is None:
                mask = state._legal = legal_mask(state)  # memoised for apply's check
            # a lead of the joker or the joker-call card carries annotations: list those plays
            if state._trick or not mask & ci.annotated:
                # The index-th legal card in legal_plays' order (bit order), found by clearing
                # the lowest set bit index times: no list of cards is built (hands differ from
                # hand to hand, so a cache of card lists mostly misses on leads).
                if mask >> 128:  # two decks: each card once, as written (as legal_plays)
                    mask = (mask | mask >> 128) & ((1 << 128) - 1)
                index = int(rng.random() * mask.bit_count())
                for _ in range(index):
                    mask &= mask - 1
                return ctx.play_tables[seat][(mask & -mask).bit_length() - 1]
        plays = legal_plays(state)
        return plays[int(rng.random() * len(plays))]
    setup = state._setup
    if phase == "election":
        # legal_actions' order (the pass, the bids, the deal misses) by index, without lists
        assert state._to_move is not None  # (someone is to call)
        player = ctx.players[state._to_move]
        tables = ctx.tables
        passes = 1 if setup.calls or tables.opener_may_pass else 0
        bids = bids_over(tables, setup.standing)[0]
        misses: list[str] = []
        if tables.miss_allowed and (ctx.miss_hands is None or any(ctx.miss_hands)):
            misses = [p for seat, p in enumerate(ctx.players) if may_declare_deal_miss(state, seat)]
        index = _randrange(rng, passes + len(bids) + len(misses)) - passes
        # tuple.__new__ directly: a NamedTuple's own __new__ is a Python-level call
        if index < 0:
            return tuple_new(BidCall, (player, None))
        if index < len(bids):
            return tuple_new(BidCall, (player, bids[index]))
        return DeclareDealMiss(misses[index - len(bids)])
    if phase == "elimination":
        eliminations = elimination_calls(state)
        return eliminations[_randrange(rng, len(eliminations))]
    if phase == "redistribution":
        return random_redistribution(state, rng)
    if phase == "exchange" and state._hands is not None:
        assert setup.declarer is not None  # (the election is over)
        hand = state._hands[setup.declarer]
        discard = tuple(_sample(rng, cards_of(hand), ctx.kitty_size))
        if ctx.rules.table.decks == 2:
            # two decks: the discard as a record writes it (both copies read alike), each card
            # the copy the engine takes for it (deck.held_copies), so a replay is the same hand
            discard = held_copies([card & 127 for card in discard], hand, state._played)
        return Discard(discard)
    if phase == "friend" and ctx.rules.friend.called_cards == 2:
        # two called cards (동대전 7마, 8마 Chicago): a change, a pair of different cards or
        # another call, then (a full no-trump) each of those but "none" with a lead request,
        # each as likely as in legal_actions, without listing the pairs
        changes = legal_contracts(state) if setup.contract == setup.bid else []
        card_mask, others = call_choices(state)
        count = card_mask.bit_count()
        pairs = count * (count - 1) // 2
        calls = pairs + len(others)
        leads = (
            [call for call in others if call.kind != "none"]
            if lead_request_allowed(state)
            else None
        )
        index = _randrange(
            rng, len(changes) + calls + (4 * (pairs + len(leads)) if leads is not None else 0)
        )
        if index < len(changes):
            return ChangeContract(changes[index])
        index -= len(changes)
        suit = None
        if index >= calls:  # a call with a lead request: calls but "none", four suits each
            index, suit = divmod(index - calls, 4)
            if index >= pairs:
                assert leads is not None  # (drawn only where there are leads)
                return CallFriend(with_lead(leads[index - pairs], SUITS[suit]))
        elif index >= pairs:
            return CallFriend(others[index - pairs])
        first = _randrange(rng, count)
        second = _randrange(rng, count - 1)
        second += second >= first
        first, second = sorted((first, second))
        return CallFriend(
            FriendCall(
                "card",
                nth_card(card_mask, first),
                card2=nth_card(card_mask, second),
                lead_suit=None if suit is None else SUITS[suit],
            )
        )
    if phase == "friend" and ctx.rules.friend.called_cards == 1:  # two cards: legal_actions
        # legal_actions' order by index: the changes, the calls (card calls first, taken from
        # the mask), then each call but "none" with each lead request
        changes = legal_contracts(state) if setup.contract == setup.bid else []
        card_mask, others = call_choices(state)
        card_count = card_mask.bit_count()
        calls = card_count + len(others)
        leads = (
            [call for call in others if call.kind != "none"]
            if lead_request_allowed(state)
            else None
        )
        index = _randrange(
            rng, len(changes) + calls + (4 * (card_count + len(leads)) if leads is not None else 0)
        )
        if index < len(changes):
            return ChangeContract(changes[index])
        index -= len(changes)
        if index < calls:
            return CallFriend(
                CARD_CALLS[nth_card(card_mask, index)]
                if index < card_count
                else others[index - card_count]
            )
        index -= calls
        lead_index, suit = divmod(index, 4)
        assert leads is not None  # (drawn only where there are leads)
        call = (
            CARD_CALLS[nth_card(card_mask, lead_index)]
            if lead_index < card_count
            else leads[lead_index - card_count]
        )
        return CallFriend(with_lead(call, SUITS[suit]))
    actions = legal_actions(state)
    return rng.choice(actions) if actions else None
