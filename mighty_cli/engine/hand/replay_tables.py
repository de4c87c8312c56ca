"""The tables the fast trick replay (hand/replay_tricks.py) reads, each made once and cached:
a played card's notation parsed (the plain tokens as their card and its bit), the cards of a
contract whose lead needs no special case, and each seat's ``(player, Play)`` pair of each card.
Every cache is bounded (tokens and names come from files and users)."""

from __future__ import annotations

from .actions import parse_play
from .state import HandState

PLAYED_TOKENS: dict[str, tuple[int, int | None, bool]] = {}


def played_token(token: str) -> tuple[int, int | None, bool]:
    """A played card's notation parsed (cached: a record plays the same few dozen tokens)."""
    parsed = PLAYED_TOKENS.get(token)
    if parsed is None:
        parsed = parse_play(token)  # InvalidNotation for a bad token, as card by card
        if len(PLAYED_TOKENS) > 4096:  # tokens come from files: keep the cache bounded
            PLAYED_TOKENS.clear()
            PLAIN_CARDS.clear()
            PLAIN_BITS.clear()
        PLAYED_TOKENS[token] = parsed
        if parsed[1] is None and not parsed[2]:
            PLAIN_CARDS[token] = parsed[0]
            PLAIN_BITS[token] = 1 << parsed[0]
    return parsed


class _ZeroMissing(dict):
    """A dict whose missing key reads as 0 (map() over its __getitem__ stays in C)."""

    def __missing__(self, key: str) -> int:
        return 0


#: The tokens of PLAYED_TOKENS that name a card with no annotation (no suit named, no call): the card.
PLAIN_CARDS: dict[str, int] = {}


#: The same tokens, each with its card's bit (0 for any other token).
PLAIN_BITS: dict[str, int] = _ZeroMissing()


BITS_OF = PLAIN_BITS.__getitem__


PLAIN_LEADS: dict[int, tuple] = {}


def plain_leads(state: HandState) -> frozenset:
    """The cards of this contract whose lead needs none of play.py's special cases (the joker
    and a Mighty that names a suit need their annotation checked; the card that always calls
    the joker needs the call settled). Cached per contract table (contract.py builds one per
    ruleset, contract and call, and keeps it)."""
    ci, valid = state._contract, state._ctx.valid
    assert ci is not None  # (the play)
    cached = PLAIN_LEADS.get(id(ci))
    if cached is None or cached[0] is not ci or cached[1] is not valid:
        if len(PLAIN_LEADS) > 1024:
            PLAIN_LEADS.clear()
        # not the jokers, a Mighty that names a suit, nor the cards that always call a joker
        special = (
            ci.joker_mask | ci.auto_calls | (1 << ci.mighty_named if ci.mighty_named >= 0 else 0)
        )
        leads = frozenset(card for card in valid if not special >> card & 1)
        cached = PLAIN_LEADS[id(ci)] = (ci, valid, leads, sum(1 << card for card in leads))
    return cached[2]


def plain_lead_mask(state: HandState) -> int:
    """plain_leads as a mask of their bits."""
    plain_leads(state)
    return PLAIN_LEADS[id(state._contract)][3]


SEAT_PAIRS: dict[tuple, tuple] = {}


def seat_pairs(players: tuple, play_tables: tuple) -> tuple:
    """For each seat, its ``(player, Play)`` pair of each card, as a trick holds them (cached
    per seating, like the plays themselves)."""
    pairs = SEAT_PAIRS.get(players)
    if pairs is None or pairs[0] is not play_tables:
        if len(SEAT_PAIRS) > 1024:  # names come from users: keep the cache bounded
            SEAT_PAIRS.clear()
        pairs = SEAT_PAIRS[players] = (
            play_tables,
            tuple(
                [None if play is None else (play[0], play) for play in table]
                for table in play_tables
            ),
        )
    return pairs[1]


SEAT_BIT_PAIRS: dict[tuple, tuple] = {}


def seat_bit_pairs(players: tuple, play_tables: tuple) -> tuple:
    """For each seat, its ``(player, Play)`` pair of each card keyed by the card's bit (cached
    per seating, like seat_pairs)."""
    pairs = SEAT_BIT_PAIRS.get(players)
    if pairs is None or pairs[0] is not play_tables:
        if len(SEAT_BIT_PAIRS) > 1024:  # names come from users: keep the cache bounded
            SEAT_BIT_PAIRS.clear()
        pairs = SEAT_BIT_PAIRS[players] = (
            play_tables,
            tuple(
                {1 << card: (play[0], play) for card, play in enumerate(table) if play is not None}
                for table in play_tables
            ),
        )
    return pairs[1]
