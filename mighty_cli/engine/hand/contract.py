"""The special cards and the trick rules of a contract, tabled once per ruleset and contract.

Rules held here, each with its ruleset option:

* Mighty is ♠A, or the alternate (◆A) when its suit is trump (``cards.mighty``,
  ``cards.mighty_alternate``); the joker-call card is ♣3, or its alternate when clubs are trump
  (``cards.joker_call``, ``cards.joker_call_alternate``).
* Trick priority: Mighty (if it has power on this trick) > the joker (if effective) > the highest
  trump > the highest card of the led suit, by rank order (서울과고's 11 between 10 and J). A powerless Mighty is an ordinary card of its suit; a
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
  the leader holds another suit (``only_trumps_left``, 인천). "Only trumps": the joker has no
  suit; Mighty counts as its suit when it does for following, and as trump under
  ``play.only_trumps_includes_mighty`` (경기 2018: 기루다, 조커, 마이티로만).
* Trump on trick 1 (``play.trump_power_first_trick = false``, 경기 2018: 이 외 경우에 나오는
  기루다는 효력이 없다): unless trump was led, a trump card played to trick 1 wins nothing; it
  is an off-suit card. When trump was led (the declarer's rush), the highest trump wins as the
  led suit. Reading: Mighty and the joker keep their own trick-1 options.

Two jokers (``cards.jokers = 2``; 경기 2018 and 더블 조커 마이티, 000 §7.10-7.11, 002): the colour
joker ``JK`` (컬러 조커, ◆ ♥) and the black joker ``BJ`` (흑조커, ♠ ♣). The engine never tests a
joker by its code: every contract holds the mask of the jokers in its deck (``joker_mask``) and
per-suit tables of them, so one joker costs what it always did and a deck with more jokers (or
a copy of one) only changes the tables.

* Two calls: ``cards.joker_call`` (♣3, ♠3 when clubs are trump) calls the black joker and
  ``cards.colour_joker_call`` (♥3, ◆3 when hearts are trump) the colour joker; the card led
  says which (``C3!``, ``H3!``). With one joker ``cards.joker_call`` calls it, as always.
* Both jokers in one trick, both with power: the first played wins (000 §7.11: 먼저 낸 조커가
  승리한다; 002). The seeds give no other way, so it is the rule of every two-joker deck.
* ``cards.joker_follows_colour`` (000 §7.11: 선이 낸 문양의 색과 같은 색의 조커만 낼 수 있다):
  a joker is played to a trick only when the led suit is of its colour, and then as
  ``cards.joker_plays_any_time`` says (beside the led suit, or only without it). Reading where
  the seeds are silent: a player whose hand holds nothing but jokers of the other colour plays
  one anyway, and it has no power there (it was not allowed as a joker). A joker lead is its own
  colour's by ``joker_leads_colour``, so the joker that led has power whatever it named.
* ``cards.joker_leads_colour`` (000 §7.11: 조커와 같은 색의 문양만 러쉬할 수 있다. 단, 기루다는 두
  조커 모두 러쉬할 수 있다): a joker lead names a suit of its colour, or trump. 2018's "흑조커는
  스페이드 혹은 클로버 혹은 애니러쉬에서만 나올 수 있고" is read the same way: 애니러쉬 is the
  trump rush either joker may make.
* ``cards.off_colour_joker_below_trump`` (2018: 기루다와 같은 색깔이 아닌 조커는 기루다보다
  약하다): under a trump suit, a joker not of trump's colour loses to any trump in the trick
  (Mighty, the joker of trump's colour, then the highest trump win over it); with no trump in
  the trick it wins as a joker. Under no-trump no joker is off colour: both are full jokers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..cards import (
    BLACK_JOKER,
    CLUBS,
    COPY,
    DIAMONDS,
    ELEVEN,
    HEARTS,
    JOKER,
    SPADES,
    SUITS,
    Bid,
    Card,
    CardMask,
    Suit,
    Trump,
    parse_card,
    rank_order,
)
from ..cards.deck import ELEVEN_MASK, FACE_MASK, SUIT_MASKS, SUITED_MASK, both, mask_of
from ..ruleset import Ruleset

if TYPE_CHECKING:
    from .actions import FriendCall
    from .seats import Seat
    from .state import HandState

# --- special cards ----------------------------------------------------------------------------


def mighty_card(rules: Ruleset, trump: Trump) -> Card:
    """The Mighty card under a trump (``cards.mighty``, or ``cards.mighty_alternate`` when the
    Mighty card's suit is trump)."""
    card = parse_card(rules.cards.mighty)
    return (
        parse_card(rules.cards.mighty_alternate)
        if trump is not None and card >> 4 == trump
        else card
    )


def joker_call_card(rules: Ruleset, trump: Trump) -> Card:
    """The joker-call card under a trump (``cards.joker_call`` or its alternate)."""
    card = parse_card(rules.cards.joker_call)
    return (
        parse_card(rules.cards.joker_call_alternate)
        if trump is not None and card >> 4 == trump
        else card
    )


def _bits(mask: CardMask) -> list[Card]:
    """The cards of a mask, any codes (a copy's too), low to high."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: The suits of each joker's colour (cards.jokers = 2): the colour joker ◆ ♥, the black ♠ ♣.
JOKER_COLOURS = {JOKER: (DIAMONDS, HEARTS), BLACK_JOKER: (SPADES, CLUBS)}


def joker_calls(rules: Ruleset, trump: Trump) -> dict[Card, Card]:
    """The joker-call cards under a trump, each with the joker it calls: ``cards.joker_call``
    (or its alternate) the joker, the black joker when there are two, and then
    ``cards.colour_joker_call`` (or its alternate) the colour joker."""
    first = joker_call_card(rules, trump)
    if rules.cards.jokers != 2:
        return {first: JOKER}
    c = rules.cards
    card = parse_card(c.colour_joker_call)
    colour = (
        parse_card(c.colour_joker_call_alternate)
        if trump is not None and card >> 4 == trump
        else card
    )
    return {first: BLACK_JOKER, colour: JOKER}


def trick_winner(
    cards: Sequence[Card],
    led_suit: Suit,
    trump: Trump,
    mighty: Card,
    mighty_power: bool = True,
    joker_power: bool = True,
) -> int:
    """Index of the winning card in a complete trick: Mighty > effective joker > highest trump >
    highest of the led suit (a powerless joker is the weakest card). Two decks: ``cards`` are the
    base cards (copy bit dropped) and the first of two identical cards wins."""
    if mighty_power and mighty in cards:
        return cards.index(mighty)
    if joker_power:
        for index, card in enumerate(cards):
            if card & 112 == 64:  # a joker
                return index  # the first joker played wins (cards.jokers = 2)
    best: float = 0
    best_index = -1
    for index, card in enumerate(cards):
        suit = card >> 4
        rank: float = card & 15
        if rank == ELEVEN:  # 서울과고's 11: between 10 and J (cards.rank_order)
            rank = 10.5
        power = 200 + rank if suit == trump else 100 + rank if suit == led_suit else 0
        if power > best:
            best, best_index = power, index
    if best_index < 0:
        # Only a powerless joker lead can leave no card of the led suit and no trump: the first
        # card after it sets the suit (no source settles this).
        others = [card for card in cards if card & 112 != 64]
        suit = others[0] >> 4
        best_card = max((card for card in others if card >> 4 == suit), key=rank_order)
        return cards.index(best_card)
    return best_index


class ContractTables:
    """Tables computed once when the contract is fixed (at the friend call)."""

    __slots__ = (
        "contract",
        "trump",
        "mighty",
        "mighty_bit",
        "joker_call",
        "follow_masks",
        "non_trump_mask",
        "trump_lead_mask",
        "trump_mask",
        "mighty_first",
        "mighty_last",
        "joker_first",
        "joker_last",
        "joker_play_first",
        "joker_play_last",
        "trump_lead",
        "declaration",
        "call_first",
        "defends",
        "called_powerless",
        "reveal_on_points",
        "next_trick_friend",
        "friend_card",
        "friend_card2",
        "lead_suit",
        "annotated",
        "mighty_power",
        "joker_power",
        "also_bits",
        "joker_on_trump",
        "mighty_named",
        "joker_free",
        "bar_first",
        "bar_always",
        "bar_until_trump",
        "tricks",
        "ghost_seat",
        "joker_mask",
        "call_jokers",
        "auto_calls",
        "joker_barred",
        "joker_lead_suits",
        "weak_jokers",
        "joker_rules",
        "trump_masks",
        "copies",
        "led_masks",
    )

    # (masks are by card; tuples indexed by suit are SUITS long, by trick number tricks + 1)
    contract: Bid
    trump: Trump
    mighty: Card
    mighty_bit: CardMask  # Mighty's bits (both copies with two decks)
    joker_call: Card  # the (black) joker's call card, named in messages
    follow_masks: tuple[CardMask, ...]  # by suit: the cards that follow it
    non_trump_mask: CardMask
    trump_lead_mask: CardMask
    trump_mask: CardMask
    mighty_first: bool
    mighty_last: bool
    joker_first: bool
    joker_last: bool
    joker_play_first: bool
    joker_play_last: bool
    trump_lead: str  # play.trump_lead ("any_time" under no-trump)
    declaration: str  # joker_call.declaration
    call_first: bool
    defends: bool
    called_powerless: bool
    reveal_on_points: bool
    next_trick_friend: bool
    friend_card: Card | None  # the called card (None: no card call)
    friend_card2: Card  # the second called card (-1: none)
    lead_suit: Suit | None  # the lead the declarer asked of his friend
    annotated: CardMask
    mighty_power: tuple[bool, ...]  # by trick number
    joker_power: tuple[bool, ...]  # by trick number
    also_bits: CardMask
    joker_on_trump: bool
    mighty_named: Card  # Mighty, where its lead names a suit (-1: never)
    joker_free: tuple[CardMask, ...]  # by suit
    bar_first: bool
    bar_always: bool
    bar_until_trump: bool
    tricks: int
    ghost_seat: Seat  # -1: no ghost
    joker_mask: CardMask
    call_jokers: dict[Card, CardMask]  # each joker-call card, the jokers it calls
    auto_calls: CardMask
    joker_barred: tuple[CardMask, ...]  # by suit
    joker_lead_suits: dict[Card, tuple[Suit, ...]] | None  # by joker (None: any suit)
    weak_jokers: CardMask
    joker_rules: bool
    trump_masks: tuple[CardMask, ...]  # by trick number
    copies: bool
    led_masks: tuple[CardMask, ...]  # by suit

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
        # the jokers of the deck (cards.jokers; two decks: each joker's copy too): every joker
        # test is against this mask
        joker_mask = self.joker_mask = mask_of(
            card for card in rules.deck_cards if card & 112 == 64
        )
        # the joker-call cards, each with the bit of the joker it calls (two jokers: two calls)
        calls = joker_calls(rules, trump)
        # (the bits of every copy of that joker the deck holds: a two-deck game has two, and
        # either copy of the call card calls both)
        self.call_jokers = {
            card: mask_of(j for j in _bits(joker_mask) if j & 127 == joker)
            for card, joker in calls.items()
        }
        self.joker_call = next(iter(calls))  # the (black) joker's call card, named in messages
        # the cards whose lead is a call even without "!" (joker_call.declaration = "always")
        self.auto_calls = widen(mask_of(calls)) if j.declaration == "always" else 0
        # Mighty led naming a suit (cards.mighty_lead_names_suit), else no card
        self.mighty_named = mighty if c.mighty_lead_names_suit else -1
        # the cards a lead annotates (JK/H, C3!, SA/H): legal_plays lists them with each one
        self.annotated = (
            joker_mask
            | (widen(mask_of(calls)) if j.declaration != "never" else 0)
            | (self.mighty_bit if c.mighty_lead_names_suit else 0)
        )
        # Mighty counts as its suit for following only under cards.mighty_must_follow_suit.
        not_mighty = ~self.mighty_bit if not c.mighty_must_follow_suit else -1
        self.follow_masks = tuple(widen(mask) & not_mighty for mask in SUIT_MASKS)
        if trump is None:
            self.trump_mask = self.trump_lead_mask = self.non_trump_mask = 0
        else:
            self.trump_mask = widen(SUIT_MASKS[trump])
            self.trump_lead_mask = widen(SUIT_MASKS[trump]) & ~self.mighty_bit
            self.non_trump_mask = widen(SUITED_MASK & ~SUIT_MASKS[trump]) & not_mighty
            if rules.play.only_trumps_includes_mighty:
                # Mighty counts as trump for "holds only trumps" (경기 2018)
                self.non_trump_mask &= ~self.mighty_bit
        # each suit's cards as the led suit's (two decks: both copies), for the trick's winner
        self.led_masks = tuple(widen(mask) for mask in SUIT_MASKS)
        self.mighty_first, self.mighty_last = c.mighty_power_first_trick, c.mighty_power_last_trick
        self.joker_first, self.joker_last = c.joker_power_first_trick, c.joker_power_last_trick
        self.joker_play_first = c.joker_playable_first_trick
        self.joker_play_last = c.joker_playable_last_trick
        self.trump_lead = how = rules.play.trump_lead if trump is not None else "any_time"
        # when play.trump_lead bars a trump lead to a leader holding another suit (see
        # trump_lead_barred): on trick 1, on every trick, until trump has been played
        self.bar_first = how != "any_time"
        self.bar_always = how == "only_trumps_left"
        self.bar_until_trump = how == "after_trump_played"
        # what a follower holding the led suit may play besides it: Mighty, and trump where
        # play.trump_instead_of_following allows it
        self.also_bits = (self.mighty_bit if c.mighty_plays_any_time else 0) | (
            self.trump_mask if rules.play.trump_instead_of_following else 0
        )
        # by led suit, the jokers that may not be played to it (cards.joker_follows_colour:
        # those of the other colour), and the jokers that may be played beside it
        # (cards.joker_plays_any_time)
        colour_of = {
            suit: mask_of(
                joker for joker in _bits(joker_mask) if suit in JOKER_COLOURS[joker & 127]
            )
            for suit in SUITS
        }
        self.joker_barred = tuple(
            joker_mask & ~colour_of[suit] if c.joker_follows_colour else 0 for suit in SUITS
        )
        self.joker_free = tuple(
            joker_mask & ~barred if c.joker_plays_any_time else 0 for barred in self.joker_barred
        )
        # the suits a joker lead may name: its colour's and trump (cards.joker_leads_colour);
        # None: any suit
        self.joker_lead_suits = (
            {
                joker: tuple(
                    suit for suit in SUITS if suit in JOKER_COLOURS[joker & 127] or suit == trump
                )
                for joker in _bits(joker_mask)
            }
            if c.joker_leads_colour
            else None
        )
        # the jokers that lose to trump (cards.off_colour_joker_below_trump): those not of
        # trump's colour
        self.weak_jokers = (
            joker_mask & ~colour_of[trump]
            if c.off_colour_joker_below_trump and trump is not None
            else 0
        )
        # whether a trick's jokers need more than "the first one played wins" (play.py)
        self.joker_rules = bool(c.joker_follows_colour or self.weak_jokers)
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
        # ghost 4마: the ghost's seat, after the players' (hand/seats.py); -1: no ghost
        self.ghost_seat = rules.table.players if rules.table.ghost else -1
        # whether Mighty / the (uncalled) joker win a trick, by trick number (index 0 unused)
        self.mighty_power = tuple(
            (number != 1 or self.mighty_first) and (number != last or self.mighty_last)
            for number in range(last + 1)
        )
        self.joker_power = tuple(
            (number != 1 or self.joker_first) and (number != last or self.joker_last)
            for number in range(last + 1)
        )
        # the trumps that win over the led suit, by trick number: none on trick 1 under
        # play.trump_power_first_trick = false (경기 2018; a trump lead still wins as the led
        # suit)
        first = rules.play.trump_power_first_trick
        self.trump_masks = tuple(
            self.trump_mask if number != 1 or first else 0 for number in range(last + 1)
        )


def powered_jokers(
    ci: ContractTables, cards: Sequence[Card], trick_mask: CardMask, new: HandState
) -> CardMask:
    """The jokers of a complete trick that keep their power on a trick where jokers have it:
    not the called one (joker_call.called_joker_powerless; the other joker keeps its power),
    not one of the other colour played to the led suit (cards.joker_follows_colour; the joker
    that led is its own colour's), and not one off trump's colour when the trick holds trump
    (cards.off_colour_joker_below_trump)."""
    jokers = trick_mask & ci.joker_mask
    if ci.called_powerless:
        jokers &= ~new._call
    if not ci.joker_rules:
        return jokers
    barred = jokers & ci.joker_barred[new._led_suit]
    if barred:
        jokers &= ~barred | (1 << cards[0])  # the leader's joker keeps its power
    if jokers & ci.weak_jokers and trick_mask & ci.trump_mask:
        jokers &= ~ci.weak_jokers  # 2018: weaker than trump
    return jokers


def holding_index(state: HandState) -> int | None:
    """The index, in the trick in progress, of the card that holds it so far (None before the
    lead), by the rules settle.finish_trick settles a complete trick with."""
    trick = state._trick
    ci = state._contract
    if not trick or ci is None:
        return None
    cards = tuple(play[1] for _, play in trick)
    return trick_index(ci, cards, state._trick_mask, state, state.trick_number)


#: The bits of one deck's cards (a two-deck mask folded onto them ranks a copy as its original).
_ONE_DECK_BITS = (1 << COPY) - 1


def _first_of(cards: Sequence[Card], card: Card) -> int:
    """The index of the first copy of ``card`` in a trick (two decks: either copy)."""
    return next(index for index, played in enumerate(cards) if played & 127 == card)


def trick_index(
    ci: ContractTables, cards: Sequence[Card], mask: CardMask, state: HandState, number: int
) -> int:
    """The index of the card that holds a trick (complete or not; ``mask``: its cards' bits,
    ``state``: whose ``_call`` and ``_led_suit`` apply): Mighty, a joker with power, the
    highest trump (none on trick 1 under play.trump_power_first_trick = false), the highest of
    the led suit (서울과고's 11 between 10 and J). Two decks (8마 Chicago): a copy ranks as its
    original and of two identical cards the first played wins."""
    copies = ci.copies
    if mask & ci.mighty_bit and ci.mighty_power[number]:
        return _first_of(cards, ci.mighty) if copies else cards.index(ci.mighty)
    if (
        mask & ci.joker_mask
        and ci.joker_power[number]
        and (jokers := powered_jokers(ci, cards, mask, state))
    ):
        # the joker with power; of two, the first played (000 §7.11; 000 §3.5.3)
        return next(index for index, card in enumerate(cards) if jokers >> card & 1)
    # no trump wins on trick 1 under play.trump_power_first_trick = false (경기 2018)
    trump_mask = ci.trump_masks[number]
    top = mask & trump_mask or mask & ci.led_masks[state._led_suit]
    if copies:  # two decks: a copy ranks as its original (the first played is found below)
        top = (top | top >> COPY) & _ONE_DECK_BITS
    if top & ELEVEN_MASK:  # 서울과고's 11 (bit 15) ranks between 10 and J
        top = top & ~ELEVEN_MASK if top & FACE_MASK else top & ELEVEN_MASK
    if top:
        best = top.bit_length() - 1
        return _first_of(cards, best) if copies else cards.index(best)
    if all(card & 112 == 64 for card in cards):
        return 0  # a powerless joker alone on the table
    return trick_winner(
        [card & 127 for card in cards] if copies else cards,
        state._led_suit,
        ci.trump if trump_mask else None,
        ci.mighty,
        False,
        False,
    )


def joker_playable(ci: ContractTables, trick_number: int) -> bool:
    return (trick_number != 1 or ci.joker_play_first) and (
        trick_number != ci.tricks or ci.joker_play_last
    )


def trump_lead_barred(ci: ContractTables, number: int, trump_played: bool) -> bool:
    """Whether play.trump_lead forbids a trump lead now to a leader holding another suit."""
    # only_trumps_left (000 §7.19): on every trick, until the other suits are gone
    return (
        (number == 1 and ci.bar_first) or ci.bar_always or (ci.bar_until_trump and not trump_played)
    )
