"""The special cards and the trick rules of a contract, tabled once per ruleset and contract.

Rules held here, each with its ruleset option:

* Mighty is ♠A, or the alternate (◆A) when its suit is trump (``cards.mighty``,
  ``cards.mighty_alternate``); the joker-call card is ♣3, or its alternate when clubs are trump
  (``cards.joker_call``, ``cards.joker_call_alternate``).
* Trick priority: Mighty (if it has power on this trick) > the joker (if effective) > the highest
  trump > the highest card of the led suit. A powerless Mighty is an ordinary card of its suit; a
  powerless joker is the weakest card. If a powerless joker led and nobody followed its suit or
  trumped, the first card after it sets the suit (interpretation: no source covers it).
* Mighty and the joker may lack power on trick 1 / 10 (``cards.mighty_power_first_trick`` …), and
  the joker may be barred from trick 1 / 10 (``cards.joker_playable_first_trick`` …).
* Two decks (8마 Chicago, ``table.decks = 2``, 000 §3.5.3: "두 장의 카드가 같이 플레이 될
  경우, 먼저 나온 카드가 우선순위가 있다"): of two identical cards in a trick the first played
  wins - two Mightys (the first has the power), two jokers (the first effective joker wins),
  two equal trumps or led-suit cards. The contract's masks hold both copies (``mighty_bit``,
  ``joker_mask``, the follow and trump masks), and the trick is settled on the base cards
  (``trick_winner``: the strictly higher card replaces the best, so the first of equals stays).
* Trump leads (``play.trump_lead``): never on trick 1 unless the leader holds only trumps
  (``not_first_trick``), not before trump was played (``after_trump_played``), or never while
  the leader holds another suit (``only_trumps_left``, 인천).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from .cards import JOKER, Bid, parse_card
from .deck import JOKER_BIT, SUIT_MASKS, SUITED_MASK, both
from .ruleset import Ruleset

if TYPE_CHECKING:
    from .actions import FriendCall

# --- special cards ----------------------------------------------------------------------------


def mighty_card(rules: Ruleset, trump: Optional[int]) -> int:
    """The Mighty card under a trump (``cards.mighty``, or ``cards.mighty_alternate`` when the
    Mighty card's suit is trump)."""
    card = parse_card(rules.cards.mighty)
    return parse_card(rules.cards.mighty_alternate) if trump is not None and card >> 4 == trump \
        else card


def joker_call_card(rules: Ruleset, trump: Optional[int]) -> int:
    """The joker-call card under a trump (``cards.joker_call`` or its alternate)."""
    card = parse_card(rules.cards.joker_call)
    return parse_card(rules.cards.joker_call_alternate) \
        if trump is not None and card >> 4 == trump else card


def trick_winner(cards: Sequence[int], led_suit: int, trump: Optional[int], mighty: int,
                 mighty_power: bool = True, joker_power: bool = True) -> int:
    """Index of the winning card in a complete trick: Mighty > effective joker > highest trump >
    highest of the led suit (a powerless joker is the weakest card). Two decks: ``cards`` are the
    base cards (copy bit dropped) and the first of two identical cards wins."""
    if mighty_power and mighty in cards:
        return cards.index(mighty)
    if joker_power and JOKER in cards:
        return cards.index(JOKER)
    best, best_index = 0, -1
    for index, card in enumerate(cards):
        suit = card >> 4
        power = 200 + (card & 15) if suit == trump else 100 + (card & 15) if suit == led_suit \
            else 0
        if power > best:
            best, best_index = power, index
    if best_index < 0:
        # Only a powerless joker lead can leave no card of the led suit and no trump: the first
        # card after it sets the suit (no source settles this).
        others = [card for card in cards if card != JOKER]
        suit = others[0] >> 4
        best_card = max(card for card in others if card >> 4 == suit)
        return cards.index(best_card)
    return best_index


class _Contract:
    """Tables computed once when the contract is fixed (at the friend call)."""

    __slots__ = ("contract", "trump", "mighty", "mighty_bit", "joker_call", "follow_masks",
                 "non_trump_mask", "trump_lead_mask", "trump_mask", "mighty_first",
                 "mighty_last", "joker_first", "joker_last", "joker_play_first",
                 "joker_play_last", "trump_lead", "declaration", "call_first", "defends",
                 "called_powerless", "reveal_on_points", "next_trick_friend", "friend_card", "friend_card2",
                 "lead_suit", "auto_call", "annotated", "mighty_power", "joker_power",
                 "also_bits", "joker_on_trump", "mighty_named", "joker_free", "bar_first",
                 "bar_always", "bar_until_trump", "tricks", "ghost_seat", "copies",
                 "joker_mask")

    def __init__(self, rules: Ruleset, contract: Bid, call: FriendCall):
        c, j = rules.cards, rules.joker_call
        self.friend_card = call.card if call.kind == "card" else None
        # the second called card (friend.called_cards = 2), else no card
        self.friend_card2 = call.card2 if call.kind == "card" and call.card2 is not None else -1
        self.lead_suit = call.lead_suit
        self.contract = contract
        trump = self.trump = contract.trump
        mighty = self.mighty = mighty_card(rules, trump)
        # two decks (table.decks = 2, 8마 Chicago): every mask below holds both copies
        self.copies = copies = rules.table.decks == 2
        widen = both if copies else int
        self.mighty_bit = widen(1 << mighty)  # Mighty's bits (both copies with two decks)
        self.joker_mask = widen(JOKER_BIT)    # the jokers' bits (64, and 192 with two decks)
        self.joker_call = joker_call_card(rules, trump)
        # the card whose lead is a call even without "!" (joker_call.declaration = "always")
        self.auto_call = self.joker_call if j.declaration == "always" else -1
        # Mighty led naming a suit (cards.mighty_lead_names_suit), else no card
        self.mighty_named = mighty if c.mighty_lead_names_suit else -1
        # the cards a lead annotates (JK/H, C3!, SA/H): legal_plays lists them with each one
        self.annotated = widen(JOKER_BIT | (1 << self.joker_call if j.declaration != "never" else 0)) \
            | (self.mighty_bit if c.mighty_lead_names_suit else 0)
        # Mighty counts as its suit for following only under cards.mighty_must_follow_suit.
        not_mighty = ~self.mighty_bit if not c.mighty_must_follow_suit else -1
        self.follow_masks = tuple(widen(mask) & not_mighty for mask in SUIT_MASKS)
        if trump is None:
            self.trump_mask = self.trump_lead_mask = self.non_trump_mask = 0
        else:
            self.trump_mask = widen(SUIT_MASKS[trump])
            self.trump_lead_mask = widen(SUIT_MASKS[trump]) & ~self.mighty_bit
            self.non_trump_mask = widen(SUITED_MASK & ~SUIT_MASKS[trump]) & not_mighty
        self.mighty_first, self.mighty_last = c.mighty_power_first_trick, c.mighty_power_last_trick
        self.joker_first, self.joker_last = c.joker_power_first_trick, c.joker_power_last_trick
        self.joker_play_first = c.joker_playable_first_trick
        self.joker_play_last = c.joker_playable_last_trick
        self.trump_lead = how = rules.play.trump_lead if trump is not None else "any_time"
        # when play.trump_lead bars a trump lead to a leader holding another suit (see
        # _trump_lead_barred): on trick 1, on every trick, until trump has been played
        self.bar_first = how != "any_time"
        self.bar_always = how == "only_trumps_left"
        self.bar_until_trump = how == "after_trump_played"
        # what a follower holding the led suit may play besides it: Mighty, and trump where
        # play.trump_instead_of_following allows it
        self.also_bits = (self.mighty_bit if c.mighty_plays_any_time else 0) \
            | (self.trump_mask if rules.play.trump_instead_of_following else 0)
        # the joker beside the led suit (cards.joker_plays_any_time), else no card
        self.joker_free = self.joker_mask if c.joker_plays_any_time else 0
        self.joker_on_trump = rules.play.joker_on_trump_lead and trump is not None
        self.declaration = j.declaration
        self.call_first = j.first_trick_effect
        self.defends = j.mighty_defends
        self.called_powerless = j.called_joker_powerless
        self.reveal_on_points = rules.friend.reveal_on_points
        self.next_trick_friend = rules.friend.first_trick_declarer_wins == "next_trick"
        # the tricks of a hand, the last one's number: ten, or the hand's size (Mighty Network
        # 4.0's 2마: 13; 동대전 6마, 7마: eight, seven)
        last = self.tricks = rules.tricks
        # ghost 4마: the ghost's seat, after the players' (ghost.py); -1: no ghost
        self.ghost_seat = rules.table.players if rules.table.ghost else -1
        # whether Mighty / the (uncalled) joker win a trick, by trick number (index 0 unused)
        self.mighty_power = tuple((number != 1 or self.mighty_first)
                                  and (number != last or self.mighty_last)
                                  for number in range(last + 1))
        self.joker_power = tuple((number != 1 or self.joker_first)
                                 and (number != last or self.joker_last)
                                 for number in range(last + 1))


def _joker_playable(ci: _Contract, trick_number: int) -> bool:
    return (trick_number != 1 or ci.joker_play_first) and \
        (trick_number != ci.tricks or ci.joker_play_last)


def _trump_lead_barred(ci: _Contract, number: int, trump_played: bool) -> bool:
    """Whether play.trump_lead forbids a trump lead now to a leader holding another suit."""
    # only_trumps_left (000 §7.19): on every trick, until the other suits are gone
    return (number == 1 and ci.bar_first) or ci.bar_always \
        or (ci.bar_until_trump and not trump_played)
