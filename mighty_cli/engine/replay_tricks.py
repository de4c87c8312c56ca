"""The tricks of a recorded hand replayed at once, every card checked by the play rules.

A record gives a hand's tricks as strings of cards (``"H7 H2 SA H10 HK"``); replaying them is
the bulk of ``mighty replay`` and of an import. :func:`replay_tricks` applies them to the state
after the friend call and returns the state after the last card, the same value (every slot,
the history included) as applying each card with :func:`~.hand.apply`, and it raises the same
errors with the same messages.

How it is faster without a second rules implementation: the play rules stay in ``play.py``.
A plain card (no suit named and no joker call; as a lead, not the joker, not a Mighty that
names a suit and not the card that always calls the joker; the deal known) is checked with the
engine's own legal mask (:func:`~.play._legal_mask`; for a follower who holds no joker, its
first case, written out here) and settled by play.py's own helpers
(:func:`~.play._reveal_card_friend`, :func:`~.play._finish_trick`), on one private state that
this function fills in a trick at a time instead of building a new state for every card (the
caller never sees it before it is finished, so it is still a value to him). Those helpers
take the state before and the state after; here both are that one state, which they allow
because they read each field before they write it (keep it so). Every other card, and any
card the mask refuses, goes through :func:`~.hand.apply` itself: a joker lead, a joker call,
a named-suit lead, open cards, a ghost's table, and every error message.

``tests/engine/test_replay_tricks.py`` holds it to apply, card by card, under every bundled
ruleset: the same final state for random legal hands, and the same error for broken records.
"""

from __future__ import annotations

from typing import Optional

from .actions import Play
from .errors import InvalidNotation, RecordError
from .hand import apply
from .play import _finish_trick, _legal_mask, _reveal_card_friend
from .state import HandState
from .translation import _, ngettext

_TOKENS: dict[str, tuple[int, Optional[int], bool]] = {}


def _token(token: str) -> tuple[int, Optional[int], bool]:
    """A played card's notation parsed (cached: a record plays the same few dozen tokens)."""
    parsed = _TOKENS.get(token)
    if parsed is None:
        from .actions import parse_play

        parsed = parse_play(token)  # InvalidNotation for a bad token, as card by card
        if len(_TOKENS) > 4096:  # tokens come from files: keep the cache bounded
            _TOKENS.clear()
            _PLAIN.clear()
        _TOKENS[token] = parsed
        if parsed[1] is None and not parsed[2]:
            _PLAIN[token] = parsed[0]
    return parsed


#: The tokens of _TOKENS that name a card with no annotation (no suit named, no call): the card.
_PLAIN: dict[str, int] = {}


_LEADS: dict[int, tuple] = {}


def _plain_leads(state: HandState) -> frozenset:
    """The cards of this contract whose lead needs none of play.py's special cases (the joker
    and a Mighty that names a suit need their annotation checked; the card that always calls
    the joker needs the call settled). Cached per contract table (contract.py builds one per
    ruleset, contract and call, and keeps it)."""
    ci, valid = state._contract, state._ctx.valid
    cached = _LEADS.get(id(ci))
    if cached is None or cached[0] is not ci or cached[1] is not valid:
        if len(_LEADS) > 1024:
            _LEADS.clear()
        # not the jokers, a Mighty that names a suit, nor the cards that always call a joker
        special = ci.joker_mask | ci.auto_calls | (1 << ci.mighty_named if ci.mighty_named >= 0
                                                   else 0)
        cached = _LEADS[id(ci)] = (ci, valid, frozenset(card for card in valid
                                                        if not special >> card & 1))
    return cached[2]


def replay_tricks(state: HandState, tricks: list, index: int, fast: bool = True) -> HandState:
    """The state after a record's ``tricks`` (strings of cards, one trick each; the last may be
    unfinished) are played from ``state``; ``fast=False`` applies them card by card with
    :func:`~.hand.apply` (the reference this path is tested against). Raises RecordError
    naming the hand (``index``), the trick, the player, the card and the rule."""
    # ghost 4마 goes card by card: the ghost's card is its pile's top (ghost.py), a rule the
    # legal mask of this path does not hold
    # two decks (8마 Chicago) too: a card is the copy its player holds (play.py's _held_play)
    if fast and state.phase == "play" and state._hands is not None \
            and not state.rules.table.ghost and state.rules.table.decks == 1:
        state = state._clone()  # ours to fill in: the caller's state never changes
        fast_trick = _Tricks(state)
    else:
        fast_trick = None
    for number, trick in enumerate(tricks, 1):
        tokens = trick.split()
        position, count = 0, len(tokens)
        while position < count:
            token = tokens[position]
            if state.phase != "play":
                raise RecordError(_("hand {index}, trick {number}: {token} is played after the "
                                    "hand ended").format(index=index, number=number,
                                                         token=token))
            if fast_trick is not None and not state._trick:
                done = fast_trick.play(state, tokens, position)
                if done:
                    position += done
                    continue
            position += 1
            try:
                card, joker_suit, joker_call = _token(token)
            except InvalidNotation as exc:
                raise RecordError(_("hand {index}, trick {number}: {error}").format(
                    index=index, number=number, error=exc)) from None
            # everything else is the engine's own apply (a new state, ours to fill in too)
            state = apply(state, Play(state.to_move, card, joker_suit, joker_call))
        if state.phase == "play" and state.trick_number == number:
            if number < len(tricks):
                raise RecordError(ngettext(
                    "hand {index}, trick {number}: only {count} card was played but trick "
                    "{next} follows",
                    "hand {index}, trick {number}: only {count} cards were played but trick "
                    "{next} follows", len(tokens)).format(
                        index=index, number=number, count=len(tokens), next=number + 1))
            break  # a trick still being played: the hand is in progress
    return state


_PAIRS: dict[tuple, tuple] = {}


def _pairs(players: tuple, play_tables: tuple) -> tuple:
    """For each seat, its ``(player, Play)`` pair of each card, as a trick holds them (cached
    per seating, like the plays themselves)."""
    pairs = _PAIRS.get(players)
    if pairs is None or pairs[0] is not play_tables:
        if len(_PAIRS) > 1024:  # names come from users: keep the cache bounded
            _PAIRS.clear()
        pairs = _PAIRS[players] = (play_tables, tuple(
            [None if play is None else (play[0], play) for play in table]
            for table in play_tables))
    return pairs[1]


class _Tricks:
    """A hand's plain cards played a trick at a time onto one private state (see the module
    docstring); what it does not take, the caller applies with the engine's apply."""

    __slots__ = ("leads", "n", "pairs", "lead_request", "hands", "follow_masks",
                 "also_bits", "friend_card", "valid", "jokers")

    def __init__(self, state: HandState):
        ci, ctx = state._contract, state._ctx
        self.leads = _plain_leads(state)
        self.valid = ctx.valid
        self.n = ctx.n
        self.pairs = _pairs(ctx.players, ctx.play_tables)
        self.lead_request = ci.lead_suit is not None
        self.hands = state._hands
        self.follow_masks = ci.follow_masks
        self.also_bits = ci.also_bits
        self.friend_card = ci.friend_card
        self.jokers = ci.joker_mask  # the deck's jokers (one, or two: cards.jokers)

    def play(self, state: HandState, tokens: list, position: int) -> int:
        """Play the plain cards of a trick from its lead (``tokens[position]``) onto ``state``,
        as play._apply_play would one by one, and settle the trick when it is complete; the
        count of cards played (0: the lead is not plain or not legal, for the engine to
        apply or refuse)."""
        card = _PLAIN.get(tokens[position])
        if card is None or card not in self.leads:
            return 0
        bit = 1 << card
        legal = state._legal
        if legal is None:
            legal = state._legal = _legal_mask(state)
        if not legal & bit:
            return 0
        # the lead: the suit it sets, the friend's requested lead made
        seat = state._to_move
        pairs, friend_card = self.pairs, self.friend_card
        pair = pairs[seat][card]
        play = pair[1]
        led = card >> 4
        state._led_suit = led
        state._call = 0
        if self.lead_request and seat == state._friend:
            state._friend_led = True
        if card == friend_card:
            _reveal_card_friend(state, state, seat, play)
        played = state._played | bit
        history = (play, state._history)
        trick = (pair,)
        trick_mask = bit
        n, hands, valid, jokers = self.n, self.hands, self.valid, self.jokers
        follow_masks, also_bits = self.follow_masks[led], self.also_bits
        seat = seat + 1 if seat + 1 < n else 0
        for token in tokens[position + 1:position + n]:
            card = _PLAIN.get(token)
            if card is None or card not in valid:
                break
            bit = 1 << card
            hand = hands[seat] & ~played
            if hand & jokers:
                # a joker's holder: the joker call, its timing and colour apply (_legal_mask)
                state._played, state._trick, state._to_move = played, trick, seat
                state._legal = None
                if not _legal_mask(state) & bit:
                    break
            else:
                # the first case of play._legal_mask: follow suit when you can; Mighty (and
                # the cards of cards.*_plays_any_time) may always be played
                follow = hand & follow_masks
                if not bit & (follow | (hand & also_bits) if follow else hand):
                    break
            pair = pairs[seat][card]
            if card == friend_card:
                _reveal_card_friend(state, state, seat, pair[1])
            played |= bit
            history = (pair[1], history)
            trick += (pair,)
            trick_mask |= bit
            seat = seat + 1 if seat + 1 < n else 0
        state._played = played
        state._history = history
        state._legal = None
        taken = len(trick)
        if taken < n:
            state._trick = trick
            state._trick_mask = trick_mask
            state._to_move = seat
        else:
            _finish_trick(state, state, trick, trick_mask, seat)
        return taken
