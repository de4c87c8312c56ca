"""What the engine derives once from a ruleset and from the players: every bid in order, the
deal-miss weights, the point cards, the seating and the per-hand context.

Rules held here:

* Deal miss (딜 미스, 000 §8): a hand whose weights sum to at most (or below) the threshold may
  be shown (``deal_miss.rank_weights``, ``mighty_weight``, ``joker_weight``, ``card_weights``,
  ``threshold``, ``comparison``); ten point cards also qualify under
  ``deal_miss.all_point_cards``; Mighty and the alternate Mighty held together count 0 under
  ``deal_miss.mighties_cancel``.
* The point cards are the ranks of ``cards.point_ranks`` in every suit (서울과고's 11 too,
  where named), and the joker under ``cards.joker_is_point_card``; a hand of point cards only
  (``deal_miss.all_point_cards``) counts an 11 only where it is a point card.
* Bids run from ``election.min_bid`` (less the no-trump discount for no-trump) to
  ``election.max_bid`` or the point cards in play, upward, or downward where a lower number is
  the higher bid (``election.bid_counts = "opposition_limit"``, 이우).
* ``table.players`` players with different names sit in playing order (and the ghost after
  them under ``table.ghost``, hand/seats.py); the deck is the 53
  cards less ``table.removed_cards`` (000 §3.5), dealt ten each and ``table.kitty_size`` to
  the kitty; with two decks (8마 Chicago, ``table.decks = 2``) the 106 and their copies weigh
  and score as their originals (the point mask and the deal-miss weights hold both copies).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..cards import BLACK_JOKER, COPY, ELEVEN, JOKER, SUITS, Bid, Card, CardMask, parse_card
from ..cards.deck import ELEVEN_MASK, JOKERS_MASK, POINT_MASK, Deal, both, mask_of
from ..errors import MightyError
from ..ruleset import RANK_KEYS, Ruleset
from ..scoring import friends_weighed
from ..translation import _
from .actions import Play, play_table

if TYPE_CHECKING:
    from .contract import ContractTables
    from .seats import Seat, SeatMask


def _card_weights(rules: Ruleset) -> dict[Card, float]:
    """Each card's deal-miss weight (cards not listed weigh 0)."""
    d = rules.deal_miss
    weights: dict[Card, float] = {}
    rank_of = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10}
    for key in RANK_KEYS:
        for suit in SUITS:
            weights[suit << 4 | rank_of[key]] = float(d.rank_weights.get(key, 0.0))
    weights[parse_card(rules.cards.mighty)] = d.mighty_weight  # Mighty at deal time: no trump yet
    # each joker (cards.jokers = 2: 더블 조커 −½ each, 000 §7.11; 2018: 0, 000 §7.10)
    weights[JOKER] = weights[BLACK_JOKER] = d.joker_weight
    weights.update(d.card_weights)  # a named card overrides everything (e.g. one-eyed jacks)
    return weights


class RuleTables:
    """What the engine derives from a ruleset once: deal-miss weights, every bid in order."""

    __slots__ = (
        "rules",
        "weights",
        "weight_list",
        "bids",
        "discount",
        "successors",
        "point_mask",
        "full_bid",
        "opener_after_dealer",
        "miss_allowed",
        "bid_set",
        "opener_may_pass",
        "changes",
        "contracts",
        "descend",
        "n",
        "kitty_size",
        "deck",
        "deck_mask",
        "valid",
        "hand_size",
        "eliminated",
        "undealt",
        "ghost_seat",
        "silent",
        "bidders",
        "partner_hands",
        "extra_seats",
        "dummy_seat",
        "plain_deal",
        "plain_result",
        "beats",
        "fast_election",
        "fast_exchange",
    )

    rules: Ruleset
    weights: dict[Card, float]  # each card's deal-miss weight (cards not listed weigh 0)
    weight_list: list[float]  # indexed by card
    bids: list[Bid]  # every bid, lowest first
    bid_set: frozenset[Bid]
    discount: int  # election.no_trump_discount
    successors: dict[Bid, tuple[list[Bid], frozenset[Bid]]]
    beats: dict[Bid | None, frozenset[Bid]]
    point_mask: CardMask
    full_bid: int
    opener_after_dealer: bool
    miss_allowed: bool
    opener_may_pass: bool
    changes: dict[Bid, list[Bid]]
    # (contract, called card, lead request, second called card) -> its tables
    contracts: dict[tuple[Bid, Card | None, int | None, Card | None], ContractTables]
    descend: bool
    n: int  # seats: the players, the ghost's, the friend hands', the dummy's
    kitty_size: int
    deck: tuple[Card, ...]
    deck_mask: CardMask
    valid: frozenset[Card]
    hand_size: int
    eliminated: int
    undealt: int
    ghost_seat: Seat  # -1: no ghost
    silent: SeatMask  # the seats that never bid
    bidders: int
    partner_hands: bool
    extra_seats: bool
    dummy_seat: Seat  # -1: no dummy
    plain_deal: bool
    plain_result: bool
    fast_election: bool | None
    fast_exchange: bool | None

    def __init__(self, rules: Ruleset):
        e = rules.election
        self.rules = rules
        self.weights = _card_weights(rules)
        # indexed by card, copies (two decks) weighing as their originals
        self.weight_list = [
            self.weights.get(card & 127, 0.0)
            for card in range((BLACK_JOKER | COPY if rules.table.decks == 2 else BLACK_JOKER) + 1)
        ]
        self.discount = e.no_trump_discount
        top = e.max_bid or rules.count_total
        trumps: list = list(SUITS) + ([None] if e.no_trump_allowed else [])
        lowest = {
            trump: e.min_bid - (e.no_trump_discount if trump is None else 0) for trump in trumps
        }
        numbers = range(top, 0, -1) if rules.bids_descend else range(1, top + 1)
        self.bids = [
            Bid(number, trump) for number in numbers for trump in trumps if number >= lowest[trump]
        ]
        self.bid_set = frozenset(self.bids)
        # standing bid -> the bids that beat it, as a list (in order) and a set
        self.successors = {}
        # standing bid (None: none yet) -> the set of bids beating it (election.bid_run)
        self.beats = {None: self.bid_set}
        self.opener_may_pass = e.opener_may_pass
        self.changes = {}  # winning bid -> the contracts it may become
        # (contract, called card, lead request) -> its ContractTables (read-only once built)
        self.contracts = {}
        # table.players, table.removed_cards, table.kitty_size (000 §3.5: 4마, 3마, 2마)
        # the ghost's seat (hand/seats.py); 허니문's friend hands (honeymoon.py)
        self.n = rules.table.players * (2 if rules.table.partner_hands else 1) + (
            1 if rules.table.ghost or rules.table.dummy else 0
        )
        self.kitty_size = rules.table.kitty_size
        self.deck = rules.deck_cards
        self.deck_mask = mask_of(self.deck)
        self.valid = frozenset(self.deck)
        self.hand_size = rules.table.hand_size  # dealt (6마: 8, 7마: 7); every hand plays ten
        self.eliminated = rules.table.eliminated
        self.undealt = rules.table.undealt  # 변형 2마: the cards the draft put aside
        # ghost 4마 (hand/seats.py): the last seat is the ghost's (-1: no ghost); 허니문
        # (honeymoon.py): every second seat is a friend hand; the seats that never bid
        self.ghost_seat = self.n - 1 if rules.table.ghost else -1
        self.partner_hands = rules.table.partner_hands
        # 시흥 은마 (table.dummy, elimination.py): the last seat is the dummy's, which never bids
        self.dummy_seat = self.n - 1 if rules.table.dummy else -1
        self.extra_seats = rules.table.ghost or self.partner_hands or rules.table.dummy
        self.silent = (
            (1 << self.ghost_seat if self.ghost_seat >= 0 else 0)
            | (sum(1 << seat for seat in range(1, self.n, 2)) if self.partner_hands else 0)
            | (1 << self.dummy_seat if self.dummy_seat >= 0 else 0)
        )
        self.bidders = self.n - self.silent.bit_count()
        self.point_mask = _point_mask(rules) & self.deck_mask
        self.full_bid = rules.full_bid
        self.descend = rules.bids_descend
        self.opener_after_dealer = e.opener == "after_dealer"
        self.miss_allowed = rules.deal_miss.allowed
        # whether hand/replay_setup.py's batch takes this ruleset's election, and its discard and
        # friend call (None: not asked yet; replay_setup._handles, _handles_exchange)
        self.fast_election = None
        self.fast_exchange = None
        # a result hand.hand_result may take its short way to (_plain_result): the bid counts
        # point cards, a friend's count as one each, no ghost, no friend hands
        self.plain_result = (
            e.bid_counts != "tricks"
            and not friends_weighed(rules)
            and self.ghost_seat < 0
            and not self.partner_hands
        )
        # a deal a record's replay may read as masks at once (record_values.read_plain_deal): one
        # deck, a seat for each player, nothing undealt, and the hands and the kitty making
        # up the whole deck (so that cards adding up to the deck are each dealt once)
        self.plain_deal = (
            rules.table.decks == 1
            and not self.extra_seats
            and not self.undealt
            and self.n * self.hand_size + self.kitty_size
            == self.deck_mask.bit_count()
            == len(self.deck)
        )


_RULE_TABLES: dict[int, RuleTables] = {}


def _point_mask(rules: Ruleset) -> CardMask:
    """The point cards of a ruleset (cards.point_ranks, and the joker where it is one)."""
    ranks = {"A": 14, "K": 13, "Q": 12, "J": 11, "11": ELEVEN, "10": 10}  # 11: 서울과고
    mask = sum(1 << (suit << 4 | ranks[key]) for key in rules.cards.point_ranks for suit in SUITS)
    # & the deck: its own jokers; copies too (two decks)
    return both(mask | (JOKERS_MASK if rules.cards.joker_is_point_card else 0))


def rule_tables(rules: Ruleset) -> RuleTables:
    """The derived tables of a ruleset (cached; the cache keeps the ruleset alive, so ids stay
    unique)."""
    tables = _RULE_TABLES.get(id(rules))
    if tables is None or tables.rules is not rules:
        if len(_RULE_TABLES) > 256:
            _RULE_TABLES.clear()
        tables = _RULE_TABLES[id(rules)] = RuleTables(rules)
    return tables


def deal_miss_value(rules: Ruleset, cards: Sequence[Card]) -> float:
    """The deal-miss sum of a hand under the ruleset's weights."""
    weight_list = rule_tables(rules).weight_list
    value = sum(map(weight_list.__getitem__, cards))
    if rules.deal_miss.mighties_cancel:
        value -= _mighty_pair_weight(rules, weight_list, mask_of(cards))
    return value


def is_deal_miss_hand(rules: Ruleset, cards: Sequence[Card]) -> bool:
    """Whether a ten-card hand may be shown for a deal miss (weights and threshold, or ten point
    cards under ``deal_miss.all_point_cards``)."""
    return _is_miss_hand(rules, rule_tables(rules).weight_list, cards, mask_of(cards))


def _is_miss_hand(
    rules: Ruleset, weight_list: list[float], cards: Sequence[Card], mask: CardMask
) -> bool:
    """is_deal_miss_hand with the ruleset's tables at hand and the hand's mask."""
    d = rules.deal_miss
    # ten point cards: no bit outside the point cards (the joker is not one here)
    if (
        d.all_point_cards
        and mask
        and not mask
        & ~(
            _ALL_POINTS
            | (rule_tables(rules).point_mask & ELEVEN_MASK if rules.table.rank_eleven else 0)
        )
    ):
        return True  # (서울과고's 11s count where they are point cards; two decks: copies)
    value = sum(map(weight_list.__getitem__, cards))
    if d.mighties_cancel:
        value -= _mighty_pair_weight(rules, weight_list, mask)
    value = round(value, 9)
    return value <= d.threshold if d.comparison == "at_most" else value < d.threshold


_ALL_POINTS = both(POINT_MASK)  # the point cards of two decks (a one-deck hand has no copy)


def _mighty_pair_weight(rules: Ruleset, weight_list: list[float], mask: CardMask) -> float:
    """000 §8: Mighty and the alternate Mighty held together count 0 (deal_miss.mighties_cancel):
    what to take off a hand's sum for them (0 unless both are held)."""
    mighty, alternate = parse_card(rules.cards.mighty), parse_card(rules.cards.mighty_alternate)
    if mighty == alternate:
        return 0.0
    # two decks (8마 Chicago): each Mighty held with an alternate Mighty is one pair (copies
    # are the card | COPY); one deck: at most one pair
    pairs = min(
        (mask >> mighty & 1) + (mask >> (mighty | COPY) & 1),
        (mask >> alternate & 1) + (mask >> (alternate | COPY) & 1),
    )
    return pairs * (weight_list[mighty] + weight_list[alternate])


# --- per-hand and per-contract tables -----------------------------------------------------------


class _Seating:
    """What follows from the players alone (cached per players tuple: a league deals many hands
    to the same five): each player's seat and his cached plain plays."""

    __slots__ = ("seat_of", "play_tables")

    seat_of: dict[str, Seat]
    play_tables: tuple[list[Play | None], ...]  # each seat's plain plays, by card

    def __init__(self, players: tuple[str, ...]):
        self.seat_of = {player: seat for seat, player in enumerate(players)}
        self.play_tables = tuple(play_table(player) for player in players)


_SEATINGS: dict[tuple[str, ...], _Seating] = {}


def seating_for(players: tuple[str, ...], n: int) -> _Seating:
    """The seating of the ruleset's n players in playing order (table.players; checked once:
    n different names)."""
    seating = _SEATINGS.get(players)
    if seating is None or len(players) != n:
        if len(players) != n:
            raise MightyError(
                _("a hand needs {n} players in playing order (table.players); got {count}").format(
                    n=n, count=len(players)
                )
            )
        if len(set(players)) != len(players):
            raise MightyError(
                _("players {players}: a player is named twice").format(players=", ".join(players))
            )
        if len(_SEATINGS) > 1024:  # names come from users: keep the cache bounded
            _SEATINGS.clear()
        seating = _SEATINGS[players] = _Seating(players)
    return seating


class HandContext:
    """What does not change during a hand: players, the ruleset's options as plain attributes."""

    __slots__ = (
        "rules",
        "players",
        "seat_of",
        "dealer",
        "n",
        "open",
        "kitty",
        "deal_masks",
        "point_mask",
        "point_total",
        "full_bid",
        "tables",
        "_miss_hands",
        "play_tables",
        "kitty_size",
        "deck_mask",
        "valid",
        "ghost_seat",
        "ghost_pile",
        "bidders",
        "silent",
        "partner_hands",
        "_deal",
    )

    rules: Ruleset
    players: tuple[str, ...]  # the seats in playing order
    seat_of: dict[str, Seat]
    dealer: str
    n: int
    open: bool  # whether the deal is unknown (open cards)
    kitty: tuple[Card, ...] | None
    deal_masks: tuple[CardMask, ...] | None  # each seat's dealt cards (None: open cards)
    point_mask: CardMask
    point_total: int
    full_bid: int
    tables: RuleTables
    _miss_hands: tuple[bool, ...] | None
    play_tables: tuple[list[Play | None], ...]
    kitty_size: int
    deck_mask: CardMask
    valid: frozenset[Card]
    ghost_seat: Seat
    ghost_pile: tuple[Card, ...]  # the ghost's cards in dealt order
    bidders: int
    silent: SeatMask
    partner_hands: bool
    _deal: Deal | None  # the deal as given (a record's texts: read when asked)

    def __init__(
        self,
        rules: Ruleset,
        players: tuple[str, ...],
        seating: _Seating,
        dealer: str,
        deal: Deal | None,
        deal_masks: tuple[CardMask, ...] | None,
        tables: RuleTables | None = None,
    ):
        if tables is None:
            tables = rule_tables(rules)
        self.rules = rules
        self.players = players
        self.seat_of = seating.seat_of
        self.dealer = dealer
        self.n = tables.n
        self.kitty_size = tables.kitty_size
        self.deck_mask = tables.deck_mask
        self.valid = tables.valid
        self.open = deal is None
        self.kitty = tuple(deal["kitty"]) if deal is not None else None
        self.deal_masks = deal_masks
        self.point_mask = tables.point_mask
        self.point_total = rules.point_card_total
        self.full_bid = tables.full_bid
        self.tables = tables
        self.play_tables = seating.play_tables
        # ghost 4마 (hand/seats.py): the ghost's seat and its pile in dealt order; the seats that
        # never bid (the ghost's, 허니문's friend hands)
        self.ghost_seat = tables.ghost_seat
        self.ghost_pile = tuple(deal[players[-1]]) if tables.ghost_seat >= 0 and deal else ()
        self.partner_hands = tables.partner_hands
        self.silent = tables.silent
        self.bidders = tables.bidders
        # the hands that may be shown for a deal miss: worked out when first asked (a replayed
        # record rarely asks)
        self._deal = deal
        self._miss_hands = None if deal is None or not tables.miss_allowed else _UNKNOWN

    @property
    def miss_hands(self) -> tuple[bool, ...] | None:
        """Which players were dealt a hand that may be shown for a deal miss (None: unknown)."""
        miss_hands = self._miss_hands
        if miss_hands is _UNKNOWN:
            tables, silent = self.tables, self.silent
            weight_list = tables.weight_list
            deal, masks = self._deal, self.deal_masks
            assert deal is not None and masks is not None  # (unknown only for a known deal)
            miss_hands = tuple(
                _is_miss_hand(self.rules, weight_list, deal[player], mask)
                for player, mask in zip(self.players, masks)
            )
            if silent:  # the ghost and friend hands never show a hand (election.py)
                miss_hands = tuple(
                    miss and not silent >> seat & 1 for seat, miss in enumerate(miss_hands)
                )
            self._miss_hands = miss_hands
        return miss_hands

    @miss_hands.setter
    def miss_hands(self, value: tuple[bool, ...] | None) -> None:
        self._miss_hands = value


_UNKNOWN: Any = object()  # a HandContext's miss_hands not worked out yet
