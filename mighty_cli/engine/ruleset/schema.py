"""The ruleset schema: every option of a club's rulebook, with its documentation and source.

A ruleset is a tree of frozen dataclasses, one per TOML table (``ruleset/hand_options.py``: the
hand's
phases; ``ruleset/scoring_options.py``: scoring, session and table; ``ruleset/fields.py``: how an
option
is declared, and ``[meta]``). Each option is a field whose
metadata carries its documentation, its constraints and where the standard value comes from, so
that loading and validation (``ruleset/__init__.py``), ``mighty ruleset show`` and ``diff`` all
read the
same schema. The defaults are the standard game (docs/rules.md §2, seeds 003 and 000 §3.2, §4).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..cards import (
    BLACK_JOKER,
    COPY,
    DECK,
    DECK_57,
    RANK_NAMES,
    SUIT_LETTERS,
    format_card,
    parse_card,
)

# the option tables, re-exported: ``from .ruleset import Cards`` (or from here) keeps working
from .fields import BID_COUNTS, POINT_RANK_KEYS, RANK_KEYS, Meta, option  # noqa: F401
from .hand_options import Cards, DealMiss, Deposit, Election, Exchange, Friend, JokerCall, Play
from .scoring_options import (  # noqa: F401
    FORMULAS,
    BackRun,
    DeclaredRun,
    Doubling,
    Scoring,
    Session,
    Table,
    Tournament,
)


@dataclass(frozen=True)
class Ruleset:
    """A club's whole rulebook."""

    meta: Meta = field(default_factory=Meta)
    election: Election = field(default_factory=Election)
    deal_miss: DealMiss = field(default_factory=DealMiss)
    deposit: Deposit = field(default_factory=Deposit)
    exchange: Exchange = field(default_factory=Exchange)
    friend: Friend = field(default_factory=Friend)
    cards: Cards = field(default_factory=Cards)
    joker_call: JokerCall = field(default_factory=JokerCall)
    play: Play = field(default_factory=Play)
    scoring: Scoring = field(default_factory=Scoring)
    session: Session = field(default_factory=Session)
    table: Table = field(default_factory=Table)
    tournament: Tournament = field(default_factory=Tournament)

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def no_trump_minimum(self) -> int:
        """The lowest number a no-trump bid may name."""
        return self.election.min_bid - self.election.no_trump_discount

    @functools.cached_property  # read for every hand scored; a ruleset never changes
    def point_card_total(self) -> int:
        """Point cards in play: four of each point rank (20) that is not removed from the deck
        (table.removed_cards), plus the joker where it is one."""
        if self.table.decks == 2:  # 8마 Chicago: count the copies in play too
            return sum(
                1
                for card in self.deck_cards  # card & 112 == 64: a joker (either copy)
                if (card & 112 == 64 and self.cards.joker_is_point_card)
                or (card & 112 != 64 and RANK_NAMES[card & 15] in self.cards.point_ranks)
            )
        removed = self.removed_card_names
        count = sum(
            1
            for rank in self.cards.point_ranks
            for suit in SUIT_LETTERS
            if suit + rank not in removed
        )
        return count + (
            self.cards.jokers if self.cards.joker_is_point_card and "JK" not in removed else 0
        )

    @property
    def tricks(self) -> int:
        """Tricks in a hand: one per card of a hand (ten where players were eliminated)."""
        return 10 if self.table.eliminated else self.table.hand_size

    @property
    def count_total(self) -> int:
        """What the ruling party's count runs to: the point cards in play, or the tricks under
        election.bid_counts = "tricks" (변형 2마)."""
        return self.tricks if self.election.bid_counts == "tricks" else self.point_card_total

    @property
    def playing(self) -> int:
        """Players who play the tricks: table.players less the eliminated (6마, 7마: five)."""
        hands = 2 if self.table.partner_hands else 1  # 허니문: each player's friend hand too
        # 시흥 은마 (table.dummy): the dummy's hand, or an eliminated player taking it up
        dummy = 1 if self.table.dummy else 0
        return self.table.players * hands + dummy - self.table.eliminated

    @property
    def elimination_discard(self) -> int:
        """What the declarer discards after an elimination: the eliminated hands and the kitty
        make every other player's hand up to ten, and the declarer takes the rest (6마: 13 - 2 ×
        4 = 5 to him, three to discard; 7마: 18 - 3 × 4 = 6, three to discard)."""
        t = self.table
        pile = t.eliminated * t.hand_size + t.kitty_size
        return pile - (self.playing - 1) * (10 - t.hand_size) - (10 - t.hand_size)

    @property
    def removed_card_names(self) -> set[str]:
        """The cards taken out of the deck (table.removed_ranks and table.removed_cards)."""
        return {suit + rank for rank in self.table.removed_ranks for suit in SUIT_LETTERS} | set(
            self.table.removed_cards.split()
        )

    @property
    def deck_cards(self) -> tuple[int, ...]:
        """The cards in play, in the canonical order (♠2…♠A, ◆, ♥, ♣, the joker, the black
        joker under cards.jokers = 2; 서울과고's 11 between 10 and J under table.rank_eleven),
        without the removed ones (table.removed_cards); with two decks (table.decks = 2, 8마
        Chicago) the first deck's, then the second deck's copies in the same order."""
        removed = {parse_card(name) for name in self.removed_card_names}
        deck = DECK_57 if self.table.rank_eleven else DECK
        if self.cards.jokers == 2:  # the black joker after the (colour) joker
            deck += (BLACK_JOKER,)
        if self.table.decks == 2:  # two decks (8마 Chicago): the copies after the originals
            # a card named once in table.removed_cards loses its second copy, twice both
            names = self.table.removed_cards.split()
            removed = {card | COPY for card in removed} | {
                parse_card(name) for name in names if names.count(name) > 1
            }
            removed |= {
                parse_card(suit + rank) | copy
                for rank in self.table.removed_ranks
                for suit in SUIT_LETTERS
                for copy in (0, COPY)
            }
            deck += tuple(card | COPY for card in deck)
        return tuple(card for card in deck if card not in removed)

    @property
    def bids_descend(self) -> bool:
        """Whether a lower number is the higher bid (election.bid_counts = opposition_limit)."""
        return self.election.bid_counts == "opposition_limit"

    @property
    def full_bid(self) -> int:
        """The number of the highest bid (풀): the maximum, 20 without one, or the minimum where
        bids descend."""
        e = self.election
        if self.bids_descend:
            return e.min_bid
        return e.max_bid or 20

    def contract_target(self, number: int) -> int:
        """The point cards the ruling party must take to make a contract of this number."""
        how = self.election.bid_counts
        if how == "taken" or how == "tricks":
            return number
        if how == "opposition_limit":
            return self.point_card_total - number
        return self.point_card_total - (self.election.opposition_base - number) + 1

    def get(self, key: str) -> Any:
        """The value of a dotted option key, e.g. ``election.min_bid``."""
        value: Any = self
        for part in key.split("."):
            value = getattr(value, part)
        return value

    def to_dict(self) -> dict:
        """The ruleset as nested plain data (cards and suits in notation), for TOML and JSON."""
        return _to_dict(self)


# --- schema walking -----------------------------------------------------------------------------


def _is_table(tp: Any) -> bool:
    return dataclasses.is_dataclass(tp)


def iter_options(cls: type = Ruleset, prefix: str = "") -> Iterator[tuple[str, dataclasses.Field]]:
    """Every leaf option of the schema as ``(dotted key, field)``, in schema order."""
    for f in dataclasses.fields(cls):
        key = f"{prefix}{f.name}"
        sub = table_type(f)
        if sub is not None:
            yield from iter_options(sub, key + ".")
        else:
            yield key, f


def table_type(f: dataclasses.Field[Any]) -> type | None:
    """The dataclass a table field holds, or None for a leaf option."""
    if f.default_factory is not dataclasses.MISSING:
        sample = f.default_factory()
        if dataclasses.is_dataclass(sample):
            return type(sample)
    return None


def option_docs() -> dict[str, dict]:
    """Documentation of every option: ``{key: {"doc", "source", "default", "choices"}}``."""
    default = Ruleset()
    return {
        key: {
            "doc": f.metadata.get("doc", ""),
            "source": f.metadata.get("source", ""),
            "default": plain_value(default.get(key), f),
            "choices": f.metadata.get("choices", ()),
        }
        for key, f in iter_options()
    }


def plain_value(value: Any, f: dataclasses.Field) -> Any:
    kind = f.metadata.get("kind", "")
    if kind == "suits":
        return [SUIT_LETTERS[s] for s in value]
    if kind == "card_weights":
        return {format_card(c): w for c, w in value.items()}
    return value


def _to_dict(obj: Any) -> dict:
    out: dict = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        out[f.name] = _to_dict(value) if dataclasses.is_dataclass(value) else plain_value(value, f)
    return out
