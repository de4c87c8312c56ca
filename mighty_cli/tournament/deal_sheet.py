"""A duplicate round's deal sheet: each deal laid out by seat, for a club that plays the round
with real cards (``mighty round deals``).

In a duplicate round (``round start --duplicate --seed S``) every table of one size plays deal
k with the same cards in the same seats: the deck of hand k of seed S (``mighty deal --seed
S``), dealt in playing order to the players of the deal (those not sitting it out), from the
seat that deals it (:func:`mighty_cli.engine.session.duplicate_proposal`). The referee deals it
so (``table/evening.py``) and ``record`` checks a hand against it
(:func:`mighty_cli.store.duplicate.expected_deal`); this module deals it the same way, seat by
seat, for every table size of the round, so that a tournament director can lay out each deal's
stacks and carry them to the tables (``tests/tournament/test_deal_sheet.py`` holds the three
equal for every table shape).

A seat is its place at the table, 1 for the first seat (clockwise from the table's first
dealer, as ``round start`` lists a table's players). Each hand is sorted as a director lays it
out: by suit, ♠ ♥ ◆ ♣, then the joker (the colour joker, then the black joker of a two-joker
deck), each suit from its highest rank down (서울과고's 11 between J and 10; two decks: both
copies of a card together); the mighty (cards.mighty) is marked, so that the director sees
it at once. What else a table shape deals is laid out beside the hands: the
kitty (sorted), the ghost's pile (ghost 4마: in its dealt order, its top card first, since the
ghost plays from the top), the dummy's hand (시흥 은마), each player's friend hand (허니문). At
6마 and 7마 the eliminated hands and the kitty are dealt out after the election, at the table:
the sheet gives the kitty and how many cards each player then receives (:class:`Shape`).

Pure: no click, no database (:mod:`mighty_cli.store.round_deals` reads the round).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    NO_SUIT,
    SPADES,
    SUIT_SYMBOLS,
    base,
    format_card,
    format_cards,
    parse_card,
    rank_order,
    suit_of,
)
from ..engine.cards.deck import UNDEALT, hand_seed
from ..engine.hand.draft import seeded_deal
from ..engine.hand.honeymoon import partner_of
from ..engine.hand.seats import DUMMY, GHOST, arranged_deal
from ..engine.ruleset import Ruleset
from ..engine.session import duplicate_proposal

#: The suits in the order a director lays a hand out (♠ ♥ ◆ ♣), the jokers after them.
DIRECTOR_SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)
_SUIT_PLACE = {suit: place for place, suit in enumerate(DIRECTOR_SUITS)}

#: The stacks of a deal besides the seats' hands, in the order the sheet lays them out.
EXTRA_PILES = ("dummy", "ghost", "kitty", "undealt")
_PILE_KEYS = {"dummy": DUMMY, "ghost": GHOST, "kitty": "kitty", "undealt": UNDEALT}


def director_key(card: int) -> tuple[int, float]:
    """A card's place in a hand laid out by a director: ♠ ♥ ◆ ♣, each from its highest rank
    down, then the joker and the black joker; a copy beside its original (two decks)."""
    card = base(card)
    suit = suit_of(card)
    if suit == NO_SUIT:
        return (len(DIRECTOR_SUITS), card & 15)  # the joker (rank 0), then the black joker
    return (_SUIT_PLACE[suit], -rank_order(card))


def director_order(cards: Iterable[int]) -> tuple[int, ...]:
    """Cards in the order a director lays them out (:func:`director_key`)."""
    return tuple(sorted(cards, key=director_key))


#: The columns of a laid-out hand: each suit's symbol in director order, then the jokers'
#: column (no symbol: a joker is named JK, BJ).
COLUMN_SYMBOLS = tuple(SUIT_SYMBOLS[suit] for suit in DIRECTOR_SUITS) + ("",)


@dataclass(frozen=True)
class Face:
    """A card as the sheet prints it in its suit's column: its rank (``A``, ``10``), or a
    joker's name (``JK``, ``BJ``); whether it is the mighty (the ruleset's cards.mighty)."""

    text: str
    mighty: bool = False


def columns(cards: Sequence[int], mighty: int) -> tuple[tuple[Face, ...], ...]:
    """A hand in director order as its :data:`COLUMN_SYMBOLS` columns: each suit's cards
    (none where it holds none), then the jokers."""
    laid: list[list[Face]] = [[] for _column in COLUMN_SYMBOLS]
    for card in director_order(cards):
        suit = suit_of(card)
        if suit == NO_SUIT:
            laid[-1].append(Face(format_card(card)))
        else:
            laid[_SUIT_PLACE[suit]].append(Face(format_card(card)[1:], base(card) == mighty))
    return tuple(tuple(column) for column in laid)


def card_label(card: int) -> str:
    """A card as the sheet names it in a sentence: its suit's symbol and rank (♠A), a joker
    by name (JK)."""
    name = format_card(card)
    return name if suit_of(card) == NO_SUIT else SUIT_SYMBOLS[suit_of(card)] + name[1:]


def in_order(cards: Sequence[int], mighty: int) -> tuple[tuple[str, Face], ...]:
    """A stack kept in its dealt order (the ghost's pile, its top card first): each card's
    suit symbol (none for a joker) and :class:`Face`."""
    return tuple(("", Face(format_card(card))) if suit_of(card) == NO_SUIT else
                 (SUIT_SYMBOLS[suit_of(card)], Face(format_card(card)[1:], base(card) == mighty))
                 for card in cards)


@dataclass(frozen=True)
class Shape:
    """What the ruleset's table deals besides five hands and a kitty, as the sheet says it."""

    hand_size: int
    kitty_size: int
    jokers: int = 1
    decks: int = 1
    ghost: bool = False
    dummy: bool = False
    partner_hands: bool = False
    #: 6마, 7마: the players the declarer eliminates after the election; their hands and the
    #: kitty are then dealt out, ``each`` to every other player and ``declarer`` to him
    eliminated: int = 0
    each: int = 0
    declarer: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"hand_size": self.hand_size, "kitty_size": self.kitty_size,
                                "jokers": self.jokers, "decks": self.decks,
                                "ghost": self.ghost, "dummy": self.dummy,
                                "friend_hands": self.partner_hands}
        if self.eliminated:
            data["eliminated"] = {"players": self.eliminated, "each": self.each,
                                  "declarer": self.declarer}
        return data


def table_shape(rules: Ruleset) -> Shape:
    """The sheet's :class:`Shape` of a ruleset's table."""
    t = rules.table
    each = 10 - t.hand_size if t.eliminated else 0
    return Shape(t.hand_size, t.kitty_size, rules.cards.jokers, t.decks, t.ghost, t.dummy,
                 t.partner_hands, t.eliminated, each,
                 each + rules.elimination_discard if t.eliminated else 0)


@dataclass(frozen=True)
class SeatDeal:
    """One seat's part in a deal: its hand in director order (None: it sits the deal out),
    and under 허니문 its friend hand."""

    seat: int
    cards: tuple[int, ...] | None
    friend_hand: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "sits_out": self.cards is None,
                                "cards": None if self.cards is None else format_cards(self.cards)}
        if self.friend_hand is not None:
            data["friend_hand"] = format_cards(self.friend_hand)
        return data


@dataclass(frozen=True)
class SheetDeal:
    """Deal ``number`` at every table of one size: the seat that deals it, the seat that opens
    the election, the seats sitting it out, each seat's cards, and the other stacks
    (:data:`EXTRA_PILES` that the table deals: name and cards)."""

    number: int
    dealer: int
    opener: int
    sitting_out: tuple[int, ...]
    seats: tuple[SeatDeal, ...]
    piles: tuple[tuple[str, tuple[int, ...]], ...]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"deal": self.number, "dealer": self.dealer,
                                "opener": self.opener, "sitting_out": list(self.sitting_out),
                                "seats": [seat.to_json() for seat in self.seats]}
        data.update({name: format_cards(cards) for name, cards in self.piles})
        return data


@dataclass(frozen=True)
class SheetTable:
    """A table of the round and its players by seat (the first seat first)."""

    table: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class SheetSize:
    """The deals of the round's tables of one size (players seated)."""

    size: int
    tables: tuple[SheetTable, ...]
    deals: tuple[SheetDeal, ...]

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size,
                "tables": [{"table": t.table, "players": list(t.players)} for t in self.tables],
                "deals": [deal.to_json() for deal in self.deals]}


@dataclass(frozen=True)
class DealSheet:
    """A duplicate round's deal sheet: deals 1 to ``deals`` for each table size it has."""

    league: str
    round: int
    seed: int
    ruleset: str
    title: str
    deals: int
    shape: Shape
    sizes: tuple[SheetSize, ...]
    #: the ruleset's mighty (cards.mighty) and the mighty when its suit is trump
    #: (cards.mighty_alternate)
    mighty: int = 0
    mighty_alternate: int = 0

    def columns(self, cards: Sequence[int]) -> tuple[tuple[Face, ...], ...]:
        """A hand of the sheet laid out in columns, the mighty marked (:func:`columns`)."""
        return columns(cards, self.mighty)

    @property
    def mighty_label(self) -> str:
        """The mighty as a sentence names it (♠A)."""
        return card_label(self.mighty)

    @property
    def alternate_label(self) -> str | None:
        """The mighty when its suit is trump (◆A), None where it never changes; and the suit
        is :attr:`mighty_suit`."""
        return None if self.mighty_alternate == self.mighty else card_label(self.mighty_alternate)

    @property
    def mighty_suit(self) -> str:
        return SUIT_SYMBOLS[suit_of(self.mighty)]

    def in_order(self, cards: Sequence[int]) -> tuple[tuple[str, Face], ...]:
        """A stack of the sheet in its dealt order, the mighty marked (:func:`in_order`)."""
        return in_order(cards, self.mighty)

    def to_json(self) -> dict[str, Any]:
        return {"league": self.league, "round": self.round, "seed": self.seed,
                "ruleset": self.ruleset, "deals": self.deals,
                "mighty": format_card(self.mighty),
                "mighty_alternate": format_card(self.mighty_alternate),
                "table": self.shape.to_json(),
                "sizes": [size.to_json() for size in self.sizes]}


def seat_labels(size: int) -> tuple[str, ...]:
    """The names the sheet deals to at a table of ``size``: positions only (a deal depends on
    the seats, not on who sits in them); none is a name the engine reserves."""
    return tuple(f"#{seat}" for seat in range(1, size + 1))


def sheet_deal(rules: Ruleset, seed: int, size: int, number: int) -> SheetDeal:
    """Deal ``number`` of a duplicate round of seed ``seed`` at a table of ``size``, seat by
    seat: who deals, opens and sits out (:func:`duplicate_proposal`) and each stack of the
    deal (hand ``number`` of the seed dealt to the deal's players, as the referee deals it)."""
    labels = seat_labels(size)
    seat = {label: index for index, label in enumerate(labels, start=1)}
    proposal = duplicate_proposal(rules, labels, number)
    dealt = arranged_deal(seeded_deal(rules, hand_seed(seed, number), list(proposal.players)))
    seats = []
    for label in labels:
        cards = dealt.get(label)
        friend = dealt.get(partner_of(label)) if rules.table.partner_hands else None
        seats.append(SeatDeal(seat[label], None if cards is None else director_order(cards),
                              None if friend is None else director_order(friend)))
    piles = tuple((name, tuple(dealt[key]) if name == "ghost" else director_order(dealt[key]))
                  for name, key in _PILE_KEYS.items() if key in dealt)
    return SheetDeal(number, seat[proposal.dealer], seat[proposal.opener],
                     tuple(seat[label] for label in proposal.sitting_out), tuple(seats), piles)


def deal_sheet(rules: Ruleset, seed: int, tables: Iterable[tuple[int, Sequence[str]]],
               deals: int, *, league: str = "", round_number: int = 0) -> DealSheet:
    """The deal sheet of a duplicate round of seed ``seed`` whose ``tables`` are (table
    number, players by seat): deals 1 to ``deals`` for each table size, smallest first."""
    by_size: dict[int, list[SheetTable]] = {}
    for number, players in sorted(tables, key=lambda table: table[0]):
        by_size.setdefault(len(players), []).append(SheetTable(number, tuple(players)))
    sizes = tuple(SheetSize(size, tuple(found),
                            tuple(sheet_deal(rules, seed, size, number)
                                  for number in range(1, deals + 1)))
                  for size, found in sorted(by_size.items()))
    return DealSheet(league, round_number, seed, rules.name, rules.meta.title, deals,
                     table_shape(rules), sizes, parse_card(rules.cards.mighty),
                     parse_card(rules.cards.mighty_alternate))
