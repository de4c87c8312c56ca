"""The deck as bitmasks, and the deal (RULES.md §1-§2).

Rules held here:

* The deck is 53 cards: four suits of 2-A and one joker (000 §1). A card is an int
  (``suit << 4 | rank``, the joker 64) and a set of cards is an int bitmask (bit ``card``), so a
  hand is one int and "holds a card of a suit" is one ``&``.
* Five players, ten cards each, and three to the kitty (000 §2.1); ten tricks.
* A deal gives every card of the deck to exactly one player or the kitty.
"""

from __future__ import annotations

from random import Random
from typing import Sequence

from .cards import DECK, JOKER, SUIT_SYMBOLS, SUITS, format_card
from .errors import MightyError

PLAYERS = 5
HAND_SIZE = 10
KITTY_SIZE = 3
TRICKS = HAND_SIZE

# --- card masks -------------------------------------------------------------------------------

JOKER_BIT = 1 << JOKER
SUIT_MASKS = tuple(sum(1 << (suit << 4 | rank) for rank in range(2, 15)) for suit in SUITS)
SUITED_MASK = SUIT_MASKS[0] | SUIT_MASKS[1] | SUIT_MASKS[2] | SUIT_MASKS[3]
DECK_MASK = SUITED_MASK | JOKER_BIT
POINT_MASK = sum(1 << card for card in DECK if card != JOKER and card & 15 >= 10)
_VALID_CARDS = frozenset(DECK)
_CHUNKS: list[dict[int, tuple[int, ...]]] = [{} for _ in SUITS]


def _mask(cards) -> int:
    """The bitmask of some cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def _chunk_cards(suit: int, chunk: int) -> tuple[int, ...]:
    """The cards of one suit whose bits are set in a 16-bit chunk (cached: 8192 patterns a suit)."""
    base = suit << 4
    cards = tuple(base | rank for rank in range(2, 15) if chunk >> rank & 1)
    _CHUNKS[suit][chunk] = cards
    return cards


def _cards_of(mask: int) -> list[int]:
    """The cards of a mask, suits S D H C low to high, then the joker."""
    out: list[int] = []
    for suit in (0, 1, 2, 3):
        chunk = mask >> (suit << 4) & 0xFFFF
        if chunk:
            cards = _CHUNKS[suit].get(chunk)
            out.extend(cards if cards is not None else _chunk_cards(suit, chunk))
    if mask & JOKER_BIT:
        out.append(JOKER)
    return out


def _suit_symbol(suit: int) -> str:
    return SUIT_SYMBOLS[suit]


# --- dealing and deal misses --------------------------------------------------------------------


# Each step of the shuffle of a 53-card deck: the slot i, the bound n = i + 1 of the random
# index, and the bits drawn for it (computed once instead of on every deal).
_SHUFFLE_STEPS = tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(DECK) - 1, 0, -1))


def _shuffle_inline(deck: list, rng: Random) -> None:
    """random.shuffle's own algorithm (Fisher-Yates over _randbelow_with_getrandbits), without
    its per-card method calls: the same permutation, a third faster."""
    getrandbits = rng.getrandbits
    steps = _SHUFFLE_STEPS if len(deck) == len(DECK) else \
        tuple((i, i + 1, (i + 1).bit_length()) for i in range(len(deck) - 1, 0, -1))
    for i, n, k in steps:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def _inline_shuffle_matches() -> bool:
    """Whether this Python's random.shuffle is the algorithm _shuffle_inline reproduces."""
    for seed in (0, 1, 12345):
        expected, deck = list(DECK), list(DECK)
        Random(seed).shuffle(expected)
        _shuffle_inline(deck, Random(seed))
        if deck != expected:
            return False
    return True


_SHUFFLE = _shuffle_inline if _inline_shuffle_matches() else lambda deck, rng: rng.shuffle(deck)


def deal_cards(seed: int, players: Sequence[str]) -> dict[str, list[int]]:
    """A reproducible deal: ten cards to each player in order and three to the kitty (the
    permutation of ``random.Random(seed).shuffle`` of DECK)."""
    deck = list(DECK)
    _SHUFFLE(deck, Random(seed))
    deal = {player: deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i, player in enumerate(players)}
    deal["kitty"] = deck[len(players) * HAND_SIZE:]
    return deal


_BIT_OF = {card: 1 << card for card in DECK}


def _check_deal(deal: dict, players: tuple) -> tuple[int, ...]:
    """The masks of the players' hands in a deal (raises naming what is wrong with it)."""
    # The usual case, checked at once: six entries (five hands and the kitty) of the right sizes
    # whose cards' bits add up to the deck. 53 powers of two make the deck's 53 bits only when
    # they are 53 different cards of the deck (a repeated card would carry into another bit).
    try:
        if len(deal) == PLAYERS + 1 and len(deal["kitty"]) == KITTY_SIZE:
            bit_of = _BIT_OF.__getitem__
            masks = []
            for player in players:
                cards = deal[player]
                if len(cards) != HAND_SIZE:
                    break
                masks.append(sum(map(bit_of, cards)))
            else:
                if sum(masks) + sum(map(bit_of, deal["kitty"])) == DECK_MASK:
                    return tuple(masks)
    except (KeyError, TypeError):
        pass  # not a card, or a hand missing: the checks below say which
    expected = set(players) | {"kitty"}
    if set(deal) != expected:
        missing = sorted(expected - set(deal))
        extra = sorted(set(deal) - expected)
        what = f"{missing[0]} has no cards" if missing else f"{extra[0]!r} is not a player"
        raise MightyError(f"deal: {what} (expected the five players and the kitty)")
    out = {who: list(cards) for who, cards in deal.items()}
    everything = [card for cards in out.values() for card in cards]
    if len(everything) == len(DECK) and set(everything) == _VALID_CARDS \
            and all(len(cards) == (KITTY_SIZE if who == "kitty" else HAND_SIZE)
                    for who, cards in out.items()):
        return tuple(_mask(out[player]) for player in players)
    seen: dict[int, str] = {}
    for who, cards in deal.items():
        cards = list(cards)
        size = KITTY_SIZE if who == "kitty" else HAND_SIZE
        if len(cards) != size:
            raise MightyError(f"deal: {who} has {len(cards)} cards; expected {size}")
        for card in cards:
            if card not in _VALID_CARDS:
                raise MightyError(f"deal: {card!r} is not a card")
            if card in seen:
                raise MightyError(f"deal: {format_card(card)} is dealt to both {seen[card]} and "
                                  f"{who}")
            seen[card] = who
        out[who] = cards
    return tuple(_mask(out[player]) for player in players)


def _nth_card(mask: int, index: int) -> int:
    """The index-th card of a mask in _cards_of's order, without listing them: count whole
    suits first, then clear the lowest bit within the suit."""
    for shift in (0, 16, 32, 48, 64):
        chunk = mask >> shift & 0xFFFF
        count = chunk.bit_count()
        if index < count:
            for _ in range(index):
                chunk &= chunk - 1
            return shift + (chunk & -chunk).bit_length() - 1
        index -= count
    raise IndexError(index)
