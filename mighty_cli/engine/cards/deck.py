"""The deck as bitmasks, and the deal (docs/rules.md §1-§2).

Rules held here:

* The deck is 53 cards: four suits of 2-A and one joker (000 §1), or 54 with the black joker
  (``cards.jokers = 2``: 경기 2018, 더블 조커, 000 §7.10-7.11). A card is an int
  (``suit << 4 | rank``, the joker 64, the black joker 65) and a set of cards is an int bitmask
  (bit ``card``), so a hand is one int and "holds a card of a suit" is one ``&``.
* Five players, ten cards each, and three to the kitty (000 §3.2.1); ten tricks. Other tables
  are ruleset data (``table.players``, ``table.hand_size``, ``table.kitty_size``, the removed
  cards: 000 §3.3-3.5); the constants here are the five-player game's.
* Two decks (8마 Chicago, ``table.decks = 2``, 000 §3.5.3): a copy's bit is its original's
  plus 128 (cards/__init__.py ``COPY``), so a mask of two decks is a 256-bit int and every suit
  mask,
  follow mask and point mask holds both copies (``both``). Which copy a player holds never
  matters to the rules except the order of play (of two identical cards the first played
  wins): a deal read from a record gives the first naming of a card copy 0 and the second copy
  1 (``assign_copies``, players in order then the kitty), and a card a player plays or
  discards is the copy he holds (``held_copy``; copy 0 when he holds both).
* A deal gives every card of the ruleset's deck to exactly one player or the kitty.
* Seeded deals follow mighty-deal/1 (below), the same everywhere and for years.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from hashlib import sha256
from typing import TypeAlias

from ..errors import MightyError
from ..translation import _, ngettext
from . import (
    BLACK_JOKER,
    COPY,
    DECK,
    ELEVEN,
    ELEVENS,
    EXTRA_CARD_NAMES,
    JOKER,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardMask,
    Suit,
    format_card,
)

PLAYERS = 5
HAND_SIZE = 10
KITTY_SIZE = 3
TRICKS = HAND_SIZE

# --- card masks -------------------------------------------------------------------------------

JOKER_BIT = 1 << JOKER
#: The black joker's bit (cards.jokers = 2). The engine never tests a joker by its code: a
#: contract holds the mask of the jokers in its deck (contract.py's ``joker_mask``), so a deck
#: with other jokers (a copy of a card, ``copy << 7 | suit << 4 | rank``) fits it as well.
BLACK_JOKER_BIT = 1 << BLACK_JOKER
#: Every joker the notation knows.
JOKERS_MASK = JOKER_BIT | BLACK_JOKER_BIT
#: 서울과고's four 11s (bit 15 of each suit: cards.ELEVEN); no 53-card hand holds them.
ELEVEN_MASK = sum(1 << card for card in ELEVENS)
#: Each suit's cards, its 11 included (harmless where the deck has none).
SUIT_MASKS = tuple(
    sum(1 << (suit << 4 | rank) for rank in (*range(2, 15), ELEVEN)) for suit in SUITS
)
SUITED_MASK = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]
DECK_MASK = (SUITED_MASK | JOKER_BIT) & ~ELEVEN_MASK  # the 53 cards
POINT_MASK = sum(1 << card for card in DECK if card != JOKER and card & 15 >= 10)
#: J, Q, K and A of every suit: what beats an 11 (play.py's trick winner).
FACE_MASK = sum(1 << (suit << 4 | rank) for suit in SUITS for rank in range(11, 15))
#: Every card the engine knows (the 53, the black joker and 서울과고's 11s), and (two decks, 8마
#: Chicago) each one's copy ``card | COPY``; a ruleset's deck is a subset.
_ONE_DECK_CARDS = frozenset(DECK + (BLACK_JOKER,)) | frozenset(ELEVENS)
VALID_CARDS = _ONE_DECK_CARDS | frozenset(card | COPY for card in _ONE_DECK_CARDS)
_CHUNKS: list[dict[int, tuple[Card, ...]]] = [{} for _ in SUITS]

#: A deal: each player's cards, the kitty's (``"kitty"``) and any put aside (``UNDEALT``).
Deal: TypeAlias = Mapping[str, Sequence[Card]]


def both(mask: CardMask) -> CardMask:
    """A mask of one deck's cards with their copies added (two decks)."""
    return mask | mask << COPY


def assign_copies(deal: Deal) -> dict[str, list[Card]]:
    """A deal read from a record (two decks): each card's first naming, players in the deal's
    order then the kitty, is copy 0 and its second copy 1 (a third is left to the deal check)."""
    seen: set[int] = set()
    out = {}
    for who in sorted(deal, key=lambda key: key == "kitty"):
        cards = []
        for card in deal[who]:
            if isinstance(card, int) and card in VALID_CARDS:
                card &= 127
                if card in seen:
                    card |= COPY
                seen.add(card)
            cards.append(card)
        out[who] = cards
    return out


def held_copy(card: Card, hand: CardMask, played: CardMask = 0) -> Card:
    """The copy of ``card`` a player plays (two decks): the one his hand mask holds, copy 0 when
    he holds both; with the hand unknown (``hand`` < 0: open cards), copy 0 unless it was
    already played (``played``)."""
    first = card & 127
    if hand < 0:
        return first | COPY if played >> first & 1 else first
    return first if hand >> first & 1 or not hand >> (first | COPY) & 1 else first | COPY


def held_copies(cards: Iterable[Card], hand: CardMask, played: CardMask = 0) -> tuple[Card, ...]:
    """Cards a player gives up at once (a discard, two decks): each the copy he still holds
    (``held_copy``), a card named twice being both copies."""
    out = []
    for card in cards:
        card = held_copy(card, hand, played)
        if hand >= 0:
            hand &= ~(1 << card)
        played |= 1 << card
        out.append(card)
    return tuple(out)


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The bitmask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _chunk_cards(suit: Suit, chunk: int) -> tuple[Card, ...]:
    """The cards of one suit whose bits are set in a 16-bit chunk (cached: 8192 patterns a suit)."""
    base = suit << 4
    cards = tuple(base | rank for rank in range(2, 16) if chunk >> rank & 1)  # 15: the 11
    _CHUNKS[suit][chunk] = cards
    return cards


def cards_of(mask: CardMask) -> list[Card]:
    """The cards of a mask, suits S D H C low to high, then the joker, then the black joker."""
    out: list[Card] = []
    for suit in (0, 1, 2, 3):
        chunk = mask >> (suit << 4) & 0xFFFF
        if chunk:
            cards = _CHUNKS[suit].get(chunk)
            out.extend(cards if cards is not None else _chunk_cards(suit, chunk))
    if mask >> JOKER:
        if mask & JOKER_BIT:
            out.append(JOKER)
        if mask & BLACK_JOKER_BIT:
            out.append(BLACK_JOKER)
        if mask >> COPY:  # two decks: the copies, in the same order, after the originals
            out.extend(card | COPY for card in cards_of(mask >> COPY))
    return out


def suit_symbol(suit: Suit) -> str:
    return SUIT_SYMBOLS[suit]


# --- the seeded deal (mighty-deal/1) ----------------------------------------------------------
#
# A seeded deal must give the same cards on every machine and every Python version, for years,
# so tables in different places can play the same deals. It therefore uses nothing of the
# random module: the algorithm is written out here and pinned by golden deals in
# tests/engine/test_seeded_deals.py. Changing it is a format change ("mighty-deal/2").
#
# 1. The stream: SHA-256 of the UTF-8 text "mighty-deal/1:<seed>:<block>" for block = 0, 1, 2,
#    ... (seed and block in decimal, the seed with a leading "-" when negative), the digests
#    concatenated and read as unsigned 32-bit big-endian integers.
# 2. The shuffle: Fisher-Yates over the ruleset's deck in canonical order (spades 2..A, diamonds,
#    hearts, clubs, then the joker; without table.removed_cards; with two decks the first deck's
#    53 then the second's, cards.DECK2): for i from the last index down
#    to 1, draw j uniformly in 0..i by rejection (take the next integer u; if
#    u >= 2**32 - 2**32 % (i + 1), take another; j = u % (i + 1)), and swap the cards at i and j.
# 3. The deal: the first ten cards (table.hand_size: 6마 8, 7마 7) of the shuffled deck to the
#    first player in seating order, the next ten to the second, and so on; the rest is the kitty.
# `mighty deal --seed N` deals its hand k (k = 1, 2, ...) from the seed hand_seed(N, k): the
# first 8 bytes of SHA-256("mighty:<N>:<k>") read as an unsigned big-endian integer.

DEAL_ALGORITHM = "mighty-deal/1"
_WORDS = struct.Struct(">8I")


def _words(prefix: bytes, block: int) -> tuple[int, ...]:
    """The eight 32-bit integers of one block of the stream (step 1 above)."""
    return _WORDS.unpack(sha256(prefix + str(block).encode()).digest())


# Each step of the shuffle: the slot i, the bound i + 1 and the rejection limit (computed once).
_STEPS = tuple((i, i + 1, (1 << 32) - (1 << 32) % (i + 1)) for i in range(len(DECK) - 1, 0, -1))


def shuffled_deck(seed: int, deck: Sequence[int] = DECK) -> list[int]:
    """The deck (canonical order) shuffled by the seed's stream (steps 1-2 above)."""
    cards = list(deck)
    steps = (
        _STEPS
        if len(cards) == len(DECK)
        else tuple(
            (i, i + 1, (1 << 32) - (1 << 32) % (i + 1)) for i in range(len(cards) - 1, 0, -1)
        )
    )
    prefix = f"{DEAL_ALGORITHM}:{int(seed)}:".encode()
    # the blocks one draw per step needs, at once; a rejection (rare) takes more
    blocks = (len(steps) + 7) // 8
    words: list[int] = []
    for block in range(blocks):
        words.extend(_words(prefix, block))
    k = 0
    for i, bound, limit in steps:
        while True:
            if k == len(words):
                words.extend(_words(prefix, blocks))
                blocks += 1
            u = words[k]
            k += 1
            if u < limit:  # rejection keeps every j equally likely
                break
        j = u % bound
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def hand_seed(seed: int, hand_number: int) -> int:
    """The seed of hand ``hand_number`` (1-based) of a dealt set: every table that plays seed N
    gets the same deals (``mighty deal --seed N``, the referee's ``--seed N``)."""
    digest = sha256(f"mighty:{seed}:{hand_number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def deal_cards(
    seed: int, players: Sequence[str], deck: Sequence[Card] = DECK, hand_size: int = HAND_SIZE
) -> dict[str, list[Card]]:
    """A reproducible deal (mighty-deal/1, above): ten cards to each player in seating order and
    the rest to the kitty, the same on every machine and Python version. ``deck`` is the
    ruleset's deck in canonical order (``Ruleset.deck_cards``: 4마 and 3마 remove cards)."""
    deck = shuffled_deck(seed, deck)
    deal = {player: deck[i * hand_size : (i + 1) * hand_size] for i, player in enumerate(players)}
    deal["kitty"] = deck[len(players) * hand_size :]
    return deal


_BIT_OF = {card: 1 << card for card in VALID_CARDS}
#: The key of a deal's cards out of play (table.undealt: 변형 2마's drafted-away cards).
UNDEALT = "undealt"


def check_deal(
    deal: Deal,
    players: Sequence[str],
    kitty_size: int = KITTY_SIZE,
    deck_mask: CardMask = DECK_MASK,
    valid: frozenset[Card] = VALID_CARDS,
    hand_size: int = HAND_SIZE,
    undealt: int = 0,
) -> tuple[CardMask, ...]:
    """The masks of the players' hands in a deal (raises naming what is wrong with it): ten
    cards to each player and ``kitty_size`` to the kitty, every card in play exactly once (and
    ``undealt`` cards out of play under the key ``undealt``: 변형 2마, table.undealt)."""
    # The usual case, checked at once: the hands and the kitty of the right sizes whose cards'
    # bits add up to the deck. Powers of two make the deck's bits only when they are all
    # different cards of the deck (a repeated card would carry into another bit).
    try:
        if not undealt and len(deal) == len(players) + 1 and len(deal["kitty"]) == kitty_size:
            bit_of = _BIT_OF.__getitem__
            masks = []
            for player in players:
                cards = deal[player]
                if len(cards) != hand_size:
                    break
                masks.append(sum(map(bit_of, cards)))
            else:
                if sum(masks) + sum(map(bit_of, deal["kitty"])) == deck_mask:
                    return tuple(masks)
    except (KeyError, TypeError):
        pass  # not a card, or a hand missing: the checks below say which
    expected = set(players) | {"kitty"} | ({UNDEALT} if undealt else set())
    if set(deal) != expected:
        missing = sorted(expected - set(deal))
        extra = sorted(set(deal) - expected)
        what = (
            _("{player} has no cards").format(player=missing[0])
            if missing
            else _("{name} is not a player").format(name=repr(extra[0]))
        )
        raise MightyError(
            _("deal: {problem} (expected the {count} players and the kitty)").format(
                problem=what, count=len(players)
            )
        )
    seen: dict[int, str] = {}
    out = {}
    for who, cards in deal.items():
        cards = list(cards)
        size = kitty_size if who == "kitty" else undealt if who == UNDEALT else hand_size
        if len(cards) != size:
            raise MightyError(
                ngettext(
                    "deal: {who} has {count} card; expected {size}",
                    "deal: {who} has {count} cards; expected {size}",
                    len(cards),
                ).format(who=who, count=len(cards), size=size)
            )
        for card in cards:
            if card in EXTRA_CARD_NAMES and card not in valid:
                raise MightyError(
                    _("deal: {card} is not in this ruleset's deck").format(card=format_card(card))
                )
            if card not in VALID_CARDS:
                raise MightyError(_("deal: {card} is not a card").format(card=repr(card)))
            if card not in valid and card in ELEVENS:  # 서울과고's 11 in a 53-card deck
                raise MightyError(
                    _(
                        "deal: {card} is not in this ruleset's deck (table.rank_eleven = false)"
                    ).format(card=format_card(card))
                )
            if card not in valid and card & COPY and card & 127 in seen:
                if any(other & COPY for other in valid):  # two decks, that copy removed
                    raise MightyError(
                        _(
                            "deal: {card} is dealt twice ({first} and {second}); "
                            "only one is in play (table.removed_cards)"
                        ).format(card=format_card(card), first=seen[card & 127], second=who)
                    )
                raise MightyError(
                    _(
                        "deal: {card} is dealt twice ({first} and {second}; one "
                        "deck, table.decks = 1)"
                    ).format(card=format_card(card), first=seen[card & 127], second=who)
                )
            if card not in valid:
                raise MightyError(
                    _("deal: {card} is not in play (table.removed_cards)").format(
                        card=format_card(card)
                    )
                )
            if card in seen:
                raise MightyError(
                    _("deal: {card} is dealt to both {first} and {second}").format(
                        card=format_card(card), first=seen[card], second=who
                    )
                )
            seen[card] = who
        out[who] = cards
    return tuple(mask_of(out[player]) for player in players)


def nth_card(mask: CardMask, index: int) -> Card:
    """The index-th card of a mask in cards_of's order, without listing them: count whole
    suits first, then clear the lowest bit within the suit."""
    for shift in (0, 16, 32, 48, 64, 128, 144, 160, 176, 192):
        chunk = mask >> shift & 0xFFFF
        count = chunk.bit_count()
        if index < count:
            for _ in range(index):
                chunk &= chunk - 1
            return shift + (chunk & -chunk).bit_length() - 1
        index -= count
    raise IndexError(index)
