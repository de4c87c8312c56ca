"""The hand engine: one hand of five-player Mighty, checked action by action (RULES.md §2-§7).

A hand moves through phases: ``election`` (bids and passes; any player may declare a deal miss
while the ruleset allows it) → ``exchange`` (the declarer has taken the kitty and discards three)
→ ``friend`` (he may change the contract, then calls a friend) → ``play`` (ten tricks) → ``done``.
A deal miss ends the hand in ``deal_miss``; an election where everyone passed ends in ``redeal``.
Under ``deal_miss.full_bid_cancels`` (000 §8, 민사) a full bid made after the deal miss cancels
it: the full bidder is declarer at once. Under ``election.full_bid_ends`` a full bid ends the
election at once. Bids compare by their number (``election.bid_counts = "opposition_limit"``,
이우: a lower number is the higher bid), plus the no-trump discount for no-trump.

:func:`apply` is pure: it returns a new :class:`HandState` and raises an :class:`IllegalAction`
subclass naming the trick, the player, the card and the rule broken (with the ruleset option's
key where one applies). :func:`legal_plays` and :func:`legal_actions` list what may come next.

The rules of play, in the order the engine checks them:

* Mighty (♠A, or the ruleset's alternate when its suit is trump) may be played at any time; it
  still counts as its suit for following when ``cards.mighty_must_follow_suit``: a player whose
  only card of the led suit is Mighty must play it (or the joker).
* The joker may be played at any time (except on tricks 1 / 10 when the ruleset forbids it; then
  its holder must play it by trick 9 at the latest, so he is never left holding an unplayable
  card). A joker lead names the suit to follow, also when it is powerless.
* The joker call: leading the joker-call card (♣3, or the alternate when its suit is trump) with the
  call declared (``C3!``; always under ``joker_call.declaration = "always"``) forces the joker's
  holder to play it (or Mighty, under ``joker_call.mighty_defends``); the called joker is powerless
  under ``joker_call.called_joker_powerless``. The call has no effect on trick 1 (unless
  ``joker_call.first_trick_effect``), when the joker was already played or discarded, or when the
  card is not led (a ``!`` on a card played mid-trick is accepted and has no effect).
* Mighty led under ``cards.mighty_lead_names_suit`` (관악 5마) names the suit to follow, like the
  joker (``SA/H``); naming trump makes it a trump lead.
* A follower holding the led suit may also play trump under ``play.trump_instead_of_following``;
  with trump led, one without trump who holds the joker must play it under
  ``play.joker_on_trump_lead`` (이우 5마).
* Trump leads (``play.trump_lead``; ``only_trumps_left``: on every trick, 인천): "holds only
  trumps" means no card of another suit; the joker
  has no suit and Mighty counts as its suit exactly when it does for following. So ten trumps may
  lead trump on trick 1, and nine trumps + Mighty must lead Mighty (000 §4.1). A joker lead naming
  the trump suit is a trump lead. Leading Mighty is never a trump lead.
* Trick priority: Mighty (if it has power on this trick) > the joker (if effective) > the highest
  trump > the highest card of the led suit. A powerless Mighty is an ordinary card of its suit; a
  powerless joker is the weakest card. If a powerless joker led and nobody followed its suit or
  trumped, the first card after it sets the suit (interpretation: no source covers it).
* A 20 no-trump declarer's lead request (``FriendCall.lead_suit``): the friend's first lead must be
  of that suit (or the joker naming it) when he holds a card of it.

Open-cards mode (``deal=None``): hands are unknown, so the engine checks what the cards shown
allow: no card twice (nor a known discard), joker and joker-call effects, trick winners and
points, and inferred voids. A player who showed out of a suit (played another card, not Mighty or
the joker, to a lead of it) and plays that suit later has revoked; the error names both tricks.
Mighty-as-its-suit and voids: when Mighty counts as its suit, showing out of ♠ also proves the
player had no Mighty (he would have had to play it), so a later Mighty from him is a revoke; when
it does not count, Mighty is outside the void. A player who did not play the joker to an effective
joker call cannot play it later; a leader who led trump where that needs "only trumps" cannot later
play another suit. The lead request is not checked in open-cards mode (the friend is unknown when
he leads).

Speed: cards are ints and hands are int bitmasks (bit ``card``); a state is a ``__slots__`` object
copied field by field; the hands are fixed after the exchange (a seat holds ``_hands[seat] &
~_played``), so a play copies no hands; the contract's tables (Mighty, joker-call card, trump
masks, power by trick number) are built once per ruleset, contract and called card; the legal
bids over each standing bid and the contract changes of each bid are cached per ruleset; plays
are cached per player; random actions are drawn by index (the k-th set bit of a legal mask)
without listing them. benchmarks/playout.py measures it.
"""

from __future__ import annotations

from itertools import combinations
from random import Random
from typing import Any, NamedTuple, Optional, Sequence

from .cards import (DECK, JOKER, SUIT_LETTERS, SUIT_SYMBOLS, SUITS, Bid, format_bid, format_card,
                    format_cards, parse_card, parse_suit, sorted_cards, trump_name)
from .errors import (IllegalAction, IllegalBid, IllegalDealMiss, IllegalExchange, IllegalPlay,
                     InvalidNotation, MightyError)
from .ruleset import RANK_KEYS, Ruleset
from .scoring import Score, score_hand, seat_deltas

__all__ = [
    "HandState", "new_hand", "apply", "legal_plays", "legal_actions", "deal_cards",
    "DeclareDealMiss", "BidCall", "Discard", "ChangeContract", "CallFriend", "Play", "FriendCall",
    "parse_friend_call", "format_friend_call", "parse_play", "format_play", "hand_result",
    "HandResult", "CompletedTrick", "random_legal_action", "deal_miss_value",
    "is_deal_miss_hand", "trick_winner", "mighty_card", "joker_call_card", "PHASES",
]

PHASES = ("election", "exchange", "friend", "play", "done", "deal_miss", "redeal")
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


# --- actions ----------------------------------------------------------------------------------


class DeclareDealMiss(NamedTuple):
    """A player shows a hopeless hand and asks for a redeal (딜 미스)."""

    player: str


class BidCall(NamedTuple):
    """A bid, or a pass when ``bid`` is None."""

    player: str
    bid: Optional[Bid]


class Discard(NamedTuple):
    """The declarer's three discards (empty in open-cards mode when they were not seen)."""

    cards: tuple[int, ...]


class ChangeContract(NamedTuple):
    """The declarer's new contract after the discard (trump change and/or raise)."""

    contract: Bid


class FriendCall(NamedTuple):
    """How the declarer chooses his friend: kind in card, none, first_trick, last_trick, player."""

    kind: str
    card: Optional[int] = None
    player: Optional[str] = None
    lead_suit: Optional[int] = None


class CallFriend(NamedTuple):
    """The declarer's friend call."""

    call: FriendCall


class Play(NamedTuple):
    """A card played; a joker lead names ``joker_suit``; ``joker_call`` declares the call."""

    player: str
    card: int
    joker_suit: Optional[int] = None
    joker_call: bool = False


class CompletedTrick(NamedTuple):
    """A trick once all five have played."""

    leader: str
    plays: tuple[tuple[str, Play], ...]
    winner: str
    points: int


class HandResult(NamedTuple):
    """A finished hand's outcome and score."""

    declarer: str
    friend: Optional[str]
    contract: Bid
    taken: int
    score: Score
    deltas: dict[str, int]


FRIEND_KINDS = ("card", "none", "first_trick", "last_trick", "player")
_NO_FRIEND = None
_PENDING = -1          # a friend still to be determined (card not yet seen, first/last trick)

_PLAY_TABLES: dict[str, list[Optional[Play]]] = {}


def _play_table(player: str) -> list:
    """Plain Play objects of a player indexed by card, cached (legal_plays builds many)."""
    table = _PLAY_TABLES.get(player)
    if table is None:
        if len(_PLAY_TABLES) > 4096:  # names come from users: keep the cache bounded
            _PLAY_TABLES.clear()
        table = [Play(player, card) if card in _VALID_CARDS else None for card in range(65)]
        _PLAY_TABLES[player] = table
    return table


# --- notation ---------------------------------------------------------------------------------


def parse_play(text: str) -> tuple[int, Optional[int], bool]:
    """Parse a played card with its annotation: ``JK/H`` (joker led naming ♥), ``C3!`` (call),
    ``SA/H`` (Mighty led naming ♥ where the ruleset lets it; the engine checks who may)."""
    raw = text.strip()
    joker_call = raw.endswith("!")
    body = raw[:-1] if joker_call else raw
    joker_suit = None
    if "/" in body:
        name, _, suit_text = body.partition("/")
        card = parse_card(name)
        joker_suit = parse_suit(suit_text)
    else:
        card = parse_card(body)
    if joker_call and card == JOKER:
        raise InvalidNotation(f"{raw!r}: '!' marks the joker-call card led with the call, not the "
                              f"joker")
    return card, joker_suit, joker_call


def format_play(play: Any, joker_suit: Optional[int] = None, joker_call: bool = False) -> str:
    """The record notation of a play (a Play, or a card with its annotations)."""
    if isinstance(play, Play):
        card, joker_suit, joker_call = play.card, play.joker_suit, play.joker_call
    else:
        card = play
    text = format_card(card)
    if joker_suit is not None:
        text += "/" + SUIT_LETTERS[joker_suit]
    if joker_call:
        text += "!"
    return text


def parse_friend_call(text: str, context: Any = None, contract: Optional[Bid] = None) -> FriendCall:
    """Parse a friend call: ``SA``, ``joker``, ``mighty``, ``none``, ``first-trick``,
    ``last-trick``, ``player:Cy``, optionally followed by `` lead:H`` (a 20 no-trump lead request).

    ``mighty`` resolves to the Mighty card of the contract: ``context`` is a HandState (its
    current contract) or a Ruleset (with ``contract``, or the ruleset's Mighty card)."""
    raw = text.strip()
    lead_suit = None
    parts = raw.split()
    if len(parts) == 2 and parts[1].lower().startswith("lead:"):
        lead_suit = parse_suit(parts[1][5:])
        raw = parts[0]
    elif len(parts) > 1 and not raw.lower().startswith("player:"):
        raise InvalidNotation(f"{text.strip()!r} is not a friend call: expected a card, joker, "
                              f"mighty, none, first-trick, last-trick or player:NAME")
    key = raw.lower().replace("_", "-")
    if key == "none":
        return FriendCall("none", lead_suit=lead_suit)
    if key in ("first-trick", "firsttrick", "초구"):
        return FriendCall("first_trick", lead_suit=lead_suit)
    if key in ("last-trick", "lasttrick", "막구"):
        return FriendCall("last_trick", lead_suit=lead_suit)
    if key.startswith("player:"):
        name = raw[7:].strip()
        if not name:
            raise InvalidNotation(f"{text.strip()!r}: player: needs a player's name")
        return FriendCall("player", player=name, lead_suit=lead_suit)
    if key in ("joker", "jk"):
        return FriendCall("card", card=JOKER, lead_suit=lead_suit)
    if key in ("mighty", "마이티"):
        if isinstance(context, HandState):
            rules, contract = context.rules, context.contract
        else:
            rules = context
        if rules is None:
            raise InvalidNotation("'mighty' needs a ruleset to say which card Mighty is")
        return FriendCall("card", card=mighty_card(rules, contract.trump if contract else None),
                          lead_suit=lead_suit)
    try:
        card = parse_card(raw)
    except InvalidNotation:
        raise InvalidNotation(f"{text.strip()!r} is not a friend call: expected a card, joker, "
                              f"mighty, none, first-trick, last-trick or player:NAME") from None
    return FriendCall("card", card=card, lead_suit=lead_suit)


def format_friend_call(call: FriendCall) -> str:
    """The record notation of a friend call (inverse of parse_friend_call)."""
    if call.kind == "card":
        text = "joker" if call.card == JOKER else format_card(call.card)
    elif call.kind == "player":
        text = f"player:{call.player}"
    else:
        text = call.kind.replace("_", "-")
    if call.lead_suit is not None:
        text += f" lead:{SUIT_LETTERS[call.lead_suit]}"
    return text


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
    highest of the led suit (a powerless joker is the weakest card)."""
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


def _randbelow_inline(rng: Random, n: int) -> int:
    """rng.randrange(n) for n > 0 as random.Random computes it (_randbelow_with_getrandbits),
    without randrange's argument checks and its two Python-level calls."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _sample_inline(rng: Random, cards: list, count: int) -> list:
    """rng.sample(cards, count) as random.Random computes it for a short list (its pool method;
    the list is used as the pool, so pass a fresh one)."""
    n = len(cards)
    result = []
    for i in range(count):
        j = _randbelow_inline(rng, n - i)
        result.append(cards[j])
        cards[j] = cards[n - i - 1]
    return result


def _inline_draws_match() -> bool:
    """Whether this Python's randrange and sample are the algorithms inlined above."""
    for seed in (0, 1, 12345):
        ours, theirs = Random(seed), Random(seed)
        for n in (1, 2, 5, 13, 40, 100, 300):
            if _randbelow_inline(ours, n) != theirs.randrange(n):
                return False
            if _sample_inline(ours, list(range(n, n + 13)), 3) != \
                    theirs.sample(list(range(n, n + 13)), 3):
                return False
    return True


# random.Random itself only: a subclass may draw differently (e.g. one that overrides random())
_INLINE_DRAWS = Random if _inline_draws_match() else None


def _randrange(rng: Random, n: int) -> int:
    """rng.randrange(n), the same number, quicker for a plain random.Random."""
    return _randbelow_inline(rng, n) if type(rng) is _INLINE_DRAWS else rng.randrange(n)


def deal_cards(seed: int, players: Sequence[str]) -> dict[str, list[int]]:
    """A reproducible deal: ten cards to each player in order and three to the kitty (the
    permutation of ``random.Random(seed).shuffle`` of DECK)."""
    deck = list(DECK)
    _SHUFFLE(deck, Random(seed))
    deal = {player: deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i, player in enumerate(players)}
    deal["kitty"] = deck[len(players) * HAND_SIZE:]
    return deal


def _card_weights(rules: Ruleset) -> dict[int, float]:
    """Each card's deal-miss weight (cards not listed weigh 0)."""
    d = rules.deal_miss
    weights: dict[int, float] = {}
    rank_of = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10}
    for key in RANK_KEYS:
        for suit in SUITS:
            weights[suit << 4 | rank_of[key]] = float(d.rank_weights.get(key, 0.0))
    weights[parse_card(rules.cards.mighty)] = d.mighty_weight  # Mighty at deal time: no trump yet
    weights[JOKER] = d.joker_weight
    weights.update(d.card_weights)  # a named card overrides everything (e.g. one-eyed jacks)
    return weights


class _RuleTables:
    """What the engine derives from a ruleset once: deal-miss weights, every bid in order."""

    __slots__ = ("rules", "weights", "weight_list", "bids", "discount", "successors",
                 "point_mask", "full_bid", "opener_after_dealer", "miss_allowed", "bid_set",
                 "opener_may_pass", "changes", "contracts", "descend")

    def __init__(self, rules: Ruleset):
        e = rules.election
        self.rules = rules
        self.weights = _card_weights(rules)
        self.weight_list = [self.weights.get(card, 0.0) for card in range(JOKER + 1)]
        self.discount = e.no_trump_discount
        top = e.max_bid or rules.point_card_total
        trumps: list = list(SUITS) + ([None] if e.no_trump_allowed else [])
        lowest = {trump: e.min_bid - (e.no_trump_discount if trump is None else 0)
                  for trump in trumps}
        numbers = range(top, 0, -1) if rules.bids_descend else range(1, top + 1)
        self.bids = [Bid(number, trump) for number in numbers for trump in trumps
                     if number >= lowest[trump]]
        self.bid_set = frozenset(self.bids)
        # standing bid -> the bids that beat it, as a list (in order) and a set
        self.successors: dict[Bid, tuple[list[Bid], frozenset]] = {}
        self.opener_may_pass = e.opener_may_pass
        self.changes: dict[Bid, list[Bid]] = {}  # winning bid -> the contracts it may become
        # (contract, called card, lead request) -> its _Contract (read-only once built)
        self.contracts: dict[tuple, "_Contract"] = {}
        self.point_mask = _point_mask(rules)
        self.full_bid = rules.full_bid
        self.descend = rules.bids_descend
        self.opener_after_dealer = e.opener == "after_dealer"
        self.miss_allowed = rules.deal_miss.allowed


_RULE_TABLES: dict[int, _RuleTables] = {}


def _point_mask(rules: Ruleset) -> int:
    """The point cards of a ruleset (cards.point_ranks, and the joker where it is one)."""
    ranks = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10}
    mask = sum(1 << (suit << 4 | ranks[key]) for key in rules.cards.point_ranks for suit in SUITS)
    return mask | (JOKER_BIT if rules.cards.joker_is_point_card else 0)


def _tables(rules: Ruleset) -> _RuleTables:
    """The derived tables of a ruleset (cached; the cache keeps the ruleset alive, so ids stay
    unique)."""
    tables = _RULE_TABLES.get(id(rules))
    if tables is None or tables.rules is not rules:
        if len(_RULE_TABLES) > 256:
            _RULE_TABLES.clear()
        tables = _RULE_TABLES[id(rules)] = _RuleTables(rules)
    return tables


def deal_miss_value(rules: Ruleset, cards: Sequence[int]) -> float:
    """The deal-miss sum of a hand under the ruleset's weights."""
    weight_list = _tables(rules).weight_list
    value = sum(map(weight_list.__getitem__, cards))
    if rules.deal_miss.mighties_cancel:
        value -= _mighty_pair_weight(rules, weight_list, _mask(cards))
    return value


def is_deal_miss_hand(rules: Ruleset, cards: Sequence[int]) -> bool:
    """Whether a ten-card hand may be shown for a deal miss (weights and threshold, or ten point
    cards under ``deal_miss.all_point_cards``)."""
    return _is_miss_hand(rules, _tables(rules).weight_list, cards, _mask(cards))


def _is_miss_hand(rules: Ruleset, weight_list: list[float], cards: Sequence[int],
                  mask: int) -> bool:
    """is_deal_miss_hand with the ruleset's tables at hand and the hand's mask."""
    d = rules.deal_miss
    # ten point cards: no bit outside the point cards (the joker is not one here)
    if d.all_point_cards and mask and not mask & ~POINT_MASK:
        return True
    value = sum(map(weight_list.__getitem__, cards))
    if d.mighties_cancel:
        value -= _mighty_pair_weight(rules, weight_list, mask)
    value = round(value, 9)
    return value <= d.threshold if d.comparison == "at_most" else value < d.threshold


def _mighty_pair_weight(rules: Ruleset, weight_list: list[float], mask: int) -> float:
    """000 §8: Mighty and the alternate Mighty held together count 0 (deal_miss.mighties_cancel):
    what to take off a hand's sum for them (0 unless both are held)."""
    mighty, alternate = parse_card(rules.cards.mighty), parse_card(rules.cards.mighty_alternate)
    if mighty != alternate and mask >> mighty & 1 and mask >> alternate & 1:
        return weight_list[mighty] + weight_list[alternate]
    return 0.0


# --- per-hand and per-contract tables -----------------------------------------------------------


class _Seating:
    """What follows from the players alone (cached per players tuple: a league deals many hands
    to the same five): each player's seat and his cached plain plays."""

    __slots__ = ("seat_of", "play_tables")

    def __init__(self, players: tuple):
        self.seat_of = {player: seat for seat, player in enumerate(players)}
        self.play_tables = tuple(_play_table(player) for player in players)


_SEATINGS: dict[tuple, _Seating] = {}


def _seating(players: tuple) -> _Seating:
    """The seating of five players in playing order (checked once: five different names)."""
    seating = _SEATINGS.get(players)
    if seating is None:
        if len(players) != PLAYERS:
            raise MightyError(f"a hand needs {PLAYERS} players in playing order; "
                              f"got {len(players)}")
        if len(set(players)) != len(players):
            raise MightyError(f"players {', '.join(players)}: a player is named twice")
        if len(_SEATINGS) > 1024:  # names come from users: keep the cache bounded
            _SEATINGS.clear()
        seating = _SEATINGS[players] = _Seating(players)
    return seating


class _Context:
    """What does not change during a hand: players, the ruleset's options as plain attributes."""

    __slots__ = ("rules", "players", "seat_of", "dealer", "n", "open", "kitty",
                 "deal_masks", "point_mask", "point_total", "full_bid", "tables", "miss_hands",
                 "play_tables")

    def __init__(self, rules: Ruleset, players: tuple, seating: _Seating, dealer: str,
                 deal: Optional[dict[str, list[int]]], deal_masks: Optional[tuple[int, ...]]):
        tables = _tables(rules)
        self.rules = rules
        self.players = players
        self.seat_of = seating.seat_of
        self.dealer = dealer
        self.n = PLAYERS
        self.open = deal is None
        self.kitty = tuple(deal["kitty"]) if deal is not None else None
        self.deal_masks = deal_masks
        self.point_mask = tables.point_mask
        self.point_total = rules.point_card_total
        self.full_bid = tables.full_bid
        self.tables = tables
        self.play_tables = seating.play_tables
        # which players were dealt a hand that may be shown for a deal miss (None: unknown)
        if deal is None or not tables.miss_allowed:
            self.miss_hands = None
        else:
            weight_list = tables.weight_list
            self.miss_hands = tuple(_is_miss_hand(rules, weight_list, deal[player], mask)
                                    for player, mask in zip(players, deal_masks))


class _Contract:
    """Tables computed once when the contract is fixed (at the friend call)."""

    __slots__ = ("contract", "trump", "mighty", "mighty_bit", "joker_call", "follow_masks",
                 "non_trump_mask", "trump_lead_mask", "trump_mask", "mighty_first",
                 "mighty_last", "joker_first", "joker_last", "joker_play_first",
                 "joker_play_last", "trump_lead", "declaration", "call_first", "defends",
                 "called_powerless", "reveal_on_points", "next_trick_friend", "friend_card",
                 "lead_suit", "auto_call", "annotated", "mighty_power", "joker_power",
                 "also_bits", "joker_on_trump", "mighty_named", "joker_free", "bar_first",
                 "bar_always", "bar_until_trump")

    def __init__(self, rules: Ruleset, contract: Bid, call: FriendCall):
        c, j = rules.cards, rules.joker_call
        self.friend_card = call.card if call.kind == "card" else None
        self.lead_suit = call.lead_suit
        self.contract = contract
        trump = self.trump = contract.trump
        mighty = self.mighty = mighty_card(rules, trump)
        self.mighty_bit = 1 << mighty
        self.joker_call = joker_call_card(rules, trump)
        # the card whose lead is a call even without "!" (joker_call.declaration = "always")
        self.auto_call = self.joker_call if j.declaration == "always" else -1
        # Mighty led naming a suit (cards.mighty_lead_names_suit), else no card
        self.mighty_named = mighty if c.mighty_lead_names_suit else -1
        # the cards a lead annotates (JK/H, C3!, SA/H): legal_plays lists them with each one
        self.annotated = JOKER_BIT | (1 << self.joker_call if j.declaration != "never" else 0) \
            | (self.mighty_bit if c.mighty_lead_names_suit else 0)
        # Mighty counts as its suit for following only under cards.mighty_must_follow_suit.
        not_mighty = ~self.mighty_bit if not c.mighty_must_follow_suit else -1
        self.follow_masks = tuple(mask & not_mighty for mask in SUIT_MASKS)
        if trump is None:
            self.trump_mask = self.trump_lead_mask = self.non_trump_mask = 0
        else:
            self.trump_mask = SUIT_MASKS[trump]
            self.trump_lead_mask = SUIT_MASKS[trump] & ~self.mighty_bit
            self.non_trump_mask = SUITED_MASK & ~SUIT_MASKS[trump] & not_mighty
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
        self.joker_free = JOKER_BIT if c.joker_plays_any_time else 0
        self.joker_on_trump = rules.play.joker_on_trump_lead and trump is not None
        self.declaration = j.declaration
        self.call_first = j.first_trick_effect
        self.defends = j.mighty_defends
        self.called_powerless = j.called_joker_powerless
        self.reveal_on_points = rules.friend.reveal_on_points
        self.next_trick_friend = rules.friend.first_trick_declarer_wins == "next_trick"
        # whether Mighty / the (uncalled) joker win a trick, by trick number (index 0 unused)
        self.mighty_power = tuple((number != 1 or self.mighty_first)
                                  and (number != TRICKS or self.mighty_last)
                                  for number in range(TRICKS + 1))
        self.joker_power = tuple((number != 1 or self.joker_first)
                                 and (number != TRICKS or self.joker_last)
                                 for number in range(TRICKS + 1))


class _Setup:
    """The election and exchange facts, shared unchanged by every state of the play."""

    __slots__ = ("calls", "standing", "standing_seat", "passed", "consecutive", "opener",
                 "deal_miss_seat", "declarer", "bid", "contract", "discards", "discard_known",
                 "friend_call")

    def copy(self) -> "_Setup":
        new = _new_state(_Setup)
        new.calls = self.calls
        new.standing = self.standing
        new.standing_seat = self.standing_seat
        new.passed = self.passed
        new.consecutive = self.consecutive
        new.opener = self.opener
        new.deal_miss_seat = self.deal_miss_seat
        new.declarer = self.declarer
        new.bid = self.bid
        new.contract = self.contract
        new.discards = self.discards
        new.discard_known = self.discard_known
        new.friend_call = self.friend_call
        return new


# --- the state --------------------------------------------------------------------------------


class HandState:
    """A hand at one moment. Immutable from the caller's view: apply() returns a new state.

    ``_hands`` (full deal) is each seat's mask as of the exchange; it does not change during
    the play, because a card leaves a hand only by being played: the cards a seat holds now are
    ``_hands[seat] & ~_played`` (the discards are in ``_played`` too). This spares every play
    a rebuilt tuple of five hands. ``_legal`` memoises the mover's legal mask (full deal)."""

    __slots__ = ("_ctx", "_setup", "_contract", "phase", "_to_move", "_hands", "_trick",
                 "_trick_mask", "_led_suit", "_call", "trick_number", "tricks", "_points",
                 "_played", "_trump_played", "_friend", "friend_revealed", "_friend_led",
                 "_voids", "_history", "_legal")

    def _clone(self) -> "HandState":
        """A field-by-field copy that the engine fills in before handing it out (_apply_play
        builds its own copy: a new slot must be set there too)."""
        new = _new_state(HandState)
        new._ctx = self._ctx
        new._setup = self._setup
        new._contract = self._contract
        new.phase = self.phase
        new._to_move = self._to_move
        new._hands = self._hands
        new._trick = self._trick
        new._trick_mask = self._trick_mask
        new._led_suit = self._led_suit
        new._call = self._call
        new.trick_number = self.trick_number
        new.tricks = self.tricks
        new._points = self._points
        new._played = self._played
        new._trump_played = self._trump_played
        new._friend = self._friend
        new.friend_revealed = self.friend_revealed
        new._friend_led = self._friend_led
        new._voids = self._voids
        new._history = self._history
        new._legal = None
        return new

    # -- read-only views (ENGINE_API.md) --

    @property
    def rules(self) -> Ruleset:
        return self._ctx.rules

    @property
    def players(self) -> tuple[str, ...]:
        return self._ctx.players

    @property
    def dealer(self) -> str:
        return self._ctx.dealer

    @property
    def open_cards(self) -> bool:
        """Whether the deal is unknown (open-cards mode)."""
        return self._ctx.open

    @property
    def to_move(self) -> Optional[str]:
        return None if self._to_move is None else self._ctx.players[self._to_move]

    @property
    def declarer(self) -> Optional[str]:
        seat = self._setup.declarer
        return None if seat is None else self._ctx.players[seat]

    @property
    def bid(self) -> Optional[Bid]:
        return self._setup.bid

    @property
    def contract(self) -> Optional[Bid]:
        return self._setup.contract

    @property
    def friend_call(self) -> Optional[FriendCall]:
        return self._setup.friend_call

    @property
    def friend(self) -> Optional[str]:
        seat = self._friend
        return None if seat is None or seat < 0 else self._ctx.players[seat]

    @property
    def leader(self) -> Optional[str]:
        """Who leads (or led) the current trick."""
        if self.phase != "play":
            return None
        if self._trick:
            return self._trick[0][0]
        return self.to_move

    @property
    def current_trick(self) -> tuple:
        return self._trick

    @property
    def points_taken(self) -> dict[str, int]:
        return dict(zip(self._ctx.players, self._points))

    @property
    def discards(self) -> Optional[tuple[int, ...]]:
        """The declarer's discards (None until discarded or when unseen)."""
        setup = self._setup
        return setup.discards if setup.discard_known else None

    @property
    def discarded_points(self) -> int:
        ctx, setup = self._ctx, self._setup
        if setup.discards is None:
            return 0
        if setup.discard_known:
            return (_mask(setup.discards) & ctx.point_mask).bit_count()
        if self.phase == "done":  # open cards, unseen discards: whatever was never played
            return ctx.point_total - (self._played & ctx.point_mask).bit_count()
        return 0

    @property
    def kitty(self) -> Optional[tuple[int, ...]]:
        return self._ctx.kitty

    @property
    def hands(self) -> Optional[dict[str, tuple[int, ...]]]:
        if self._hands is None:
            return None
        played = self._played
        return {player: tuple(sorted_cards(_cards_of(mask & ~played)))
                for player, mask in zip(self._ctx.players, self._hands)}

    @property
    def election(self) -> tuple[tuple[str, Optional[Bid]], ...]:
        return self._setup.calls

    @property
    def standing_bid(self) -> Optional[tuple[str, Bid]]:
        """The highest bid so far and who made it."""
        setup = self._setup
        return None if setup.standing is None else (self._ctx.players[setup.standing_seat],
                                                    setup.standing)

    @property
    def deal_miss_player(self) -> Optional[str]:
        seat = self._setup.deal_miss_seat
        return None if seat is None else self._ctx.players[seat]

    @property
    def history(self) -> tuple:
        actions = []
        node = self._history
        while node is not None:
            actions.append(node[0])
            node = node[1]
        return tuple(reversed(actions))

    @property
    def trump(self) -> Optional[int]:
        contract = self._setup.contract
        return None if contract is None else contract.trump

    @property
    def mighty(self) -> int:
        """The Mighty card of the current contract (the ruleset's Mighty before one exists)."""
        contract = self._setup.contract
        return mighty_card(self._ctx.rules, contract.trump if contract else None)

    def __repr__(self) -> str:
        return (f"<HandState {self.phase} trick {self.trick_number} to_move={self.to_move} "
                f"contract={format_bid(self.contract) if self.contract else None}>")


_new_state = object.__new__
_tuple_new = tuple.__new__


def _mutable(state: HandState) -> HandState:
    """A copy of a state for apply() to fill in (the caller never sees it change)."""
    return state._clone()


# --- starting a hand ----------------------------------------------------------------------------


def new_hand(rules: Ruleset, players: Sequence[str], dealer: str,
             deal: Optional[dict[str, list[int]]], opener: Optional[str] = None) -> HandState:
    """The state before the first call: players in playing order, the dealer, the deal (None for
    open cards) and the election's opener (default: ``election.opener`` without history).

    With six or seven present the dealer deals and sits the hand out (RULES.md §9): a dealer who
    is not one of the five is accepted when the opener is named."""
    players = tuple(players)
    seating = _seating(players)
    seat_of = seating.seat_of
    if dealer not in seat_of and (opener is None or not isinstance(dealer, str) or not dealer):
        raise MightyError(f"dealer {dealer!r} is not one of the players {', '.join(players)} "
                          f"(a dealer sitting the hand out needs the opener named)")
    deal_masks = _check_deal(deal, players) if deal is not None else None
    ctx = _Context(rules, players, seating, dealer, deal, deal_masks)
    if opener is None:
        seat = seat_of[dealer]
        opener_seat = (seat + 1) % PLAYERS if ctx.tables.opener_after_dealer else seat
    elif opener in seat_of:
        opener_seat = seat_of[opener]
    else:
        raise MightyError(f"opener {opener!r} is not one of the players {', '.join(players)}")
    setup = _new_state(_Setup)
    setup.calls = ()
    setup.standing = None
    setup.standing_seat = None
    setup.passed = 0
    setup.consecutive = 0
    setup.opener = opener_seat
    setup.deal_miss_seat = None
    setup.declarer = None
    setup.bid = None
    setup.contract = None
    setup.discards = None
    setup.discard_known = False
    setup.friend_call = None
    state = _new_state(HandState)
    state._ctx = ctx
    state._setup = setup
    state._contract = None
    state.phase = "election"
    state._to_move = opener_seat
    state._hands = deal_masks
    state._trick = ()
    state._trick_mask = 0
    state._led_suit = None
    state._call = False
    state.trick_number = 1
    state.tricks = ()
    state._points = (0,) * PLAYERS
    state._played = 0
    state._trump_played = False
    state._friend = None
    state.friend_revealed = False
    state._friend_led = False
    state._voids = ((),) * PLAYERS if ctx.open else None
    state._history = None
    state._legal = None
    return state


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


# --- apply ------------------------------------------------------------------------------------


def apply(state: HandState, action: Any) -> HandState:
    """The state after an action; raises an IllegalAction subclass if a rule forbids it."""
    kind = type(action)
    handler = _apply_play if kind is Play else _HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(f"{action!r} is not a hand action")
    new = handler(state, action)  # handlers build on state._clone(): state itself never changes
    new._history = (action, state._history)
    return new


def _phase_error(state: HandState, what: str, error: type) -> IllegalAction:
    where = {"election": "the election", "exchange": "the exchange (discard)",
             "friend": "the friend call", "play": f"trick {state.trick_number}",
             "done": "the end of the hand", "deal_miss": "a deal miss",
             "redeal": "a redeal (everyone passed)"}[state.phase]
    return error(f"{state.phase}: {what} is not possible during {where}")


# --- election ---------------------------------------------------------------------------------


def _bid_key(bid: Bid, e: Any) -> int:
    """A bid's height for comparing bids: its number (negated where a lower number is the higher
    bid, election.bid_counts = opposition_limit), plus the no-trump discount for no-trump."""
    number = -bid.number if e.bid_counts == "opposition_limit" else bid.number
    return number + (e.no_trump_discount if bid.trump is None else 0)


def _bid_problem(rules: Ruleset, player: str, bid: Bid, standing: Optional[Bid],
                 standing_player: Optional[str]) -> Optional[str]:
    """Why a bid is illegal (None if it is legal)."""
    e = rules.election
    if not isinstance(bid, Bid) or not isinstance(bid.number, int) \
            or (bid.trump is not None and bid.trump not in SUITS):
        return f"{player} bid {bid!r}, which is not a bid"
    if standing is not None and bid.number <= (e.max_bid or bid.number) \
            and bid.number >= (e.min_bid - e.no_trump_discount if bid.trump is None
                               else e.min_bid) \
            and (bid.trump is not None or e.no_trump_allowed) and _beats(bid, standing, e):
        return None  # the usual legal raise, decided without building any message
    text = format_bid(bid)
    if bid.trump is None:
        if not e.no_trump_allowed:
            return f"{player} bid {text} but no-trump is not allowed (election.no_trump_allowed)"
        lowest = e.min_bid - e.no_trump_discount
        if bid.number < lowest:
            if e.no_trump_discount:
                return (f"{player} bid {text} below the no-trump minimum {lowest} "
                        f"(election.min_bid − election.no_trump_discount)")
            return f"{player} bid {text} below the minimum {lowest} (election.min_bid)"
    elif bid.number < e.min_bid:
        return f"{player} bid {text} below the minimum {e.min_bid} (election.min_bid)"
    if e.max_bid and bid.number > e.max_bid:
        return f"{player} bid {text} above the maximum {e.max_bid} (election.max_bid)"
    if standing is None:
        return None
    new, old = _bid_key(bid, e), _bid_key(standing, e)
    if new >= old + e.min_raise:
        return None
    against = f"{standing_player}'s {format_bid(standing)} stands"
    if new == old:
        if bid.trump is None and standing.trump is not None and e.no_trump_beats_equal_suit:
            return None
        if bid.trump is not None and standing.trump is not None and e.suit_order \
                and e.suit_order.index(bid.trump) < e.suit_order.index(standing.trump):
            return None
        if e.equal_bid_allowed:
            return None
        return (f"{player} bid {text} but {against} and an equal bid does not beat it "
                f"(election.equal_bid_allowed = false"
                + (", election.suit_order" if e.suit_order else "")
                + (", election.no_trump_beats_equal_suit" if bid.trump is None
                   or standing.trump is None else "") + ")")
    if new > old:
        return (f"{player} bid {text} but {against} and a raise must be at least "
                f"{e.min_raise} (election.min_raise)")
    if e.bid_counts == "opposition_limit":
        return (f"{player} bid {text} but {against} (a bid must beat the standing bid: a lower "
                f"number is a higher bid, election.bid_counts = opposition_limit)")
    return f"{player} bid {text} but {against} (a bid must beat the standing bid)"


def _next_bidder(setup: _Setup, seat: int, pass_is_final: bool) -> int:
    for step in range(1, PLAYERS + 1):
        candidate = (seat + step) % PLAYERS
        if not pass_is_final or not setup.passed >> candidate & 1:
            return candidate
    return seat  # pragma: no cover - the election has ended before this


def _is_full(tables: _RuleTables, bid: Bid) -> bool:
    """Whether a bid names the full number (풀: 20, or the highest number the ruleset has)."""
    return bid.number <= tables.full_bid if tables.descend else bid.number >= tables.full_bid


def _apply_bid(state: HandState, action: BidCall) -> HandState:
    if state.phase == "deal_miss" and state.rules.deal_miss.full_bid_cancels:
        return _apply_cancelling_bid(state, action)
    if state.phase != "election":
        raise _phase_error(state, f"{action.player}'s bid", IllegalBid)
    ctx, setup = state._ctx, state._setup
    e = ctx.rules.election
    player, bid = action.player, action.bid
    seat = ctx.seat_of.get(player)
    if seat is None:
        raise IllegalBid(f"election: {player!r} is not one of the players")
    if (e.pass_is_final and setup.passed >> seat & 1) or seat != state._to_move:
        shown = "pass" if bid is None else format_bid(bid) if isinstance(bid, Bid) else repr(bid)
    if e.pass_is_final and setup.passed >> seat & 1:
        raise IllegalBid(f"election: {player} called {shown} but has passed and may not bid "
                         f"again (election.pass_is_final)")
    if seat != state._to_move:
        raise IllegalBid(f"election: {player} called {shown} but it is "
                         f"{ctx.players[state._to_move]}'s turn")
    new_setup = setup.copy()
    new_setup.calls = setup.calls + ((player, bid),)
    if bid is None:
        if not setup.calls and not e.opener_may_pass:
            raise IllegalBid(f"election: {player} passed but the opener must bid "
                             f"(election.opener_may_pass = false)")
        new_setup.passed = setup.passed | 1 << seat
        new_setup.consecutive = setup.consecutive + 1
    else:
        # The usual legal bid is one of the listed successors of the standing bid (exactly
        # typed: Bid(14.0, 0) == Bid(14, 0) but is no bid); anything else gets the full test.
        if not (type(bid) is Bid and type(bid.number) is int
                and bid in _successors(ctx.tables, setup.standing)[1]):
            standing_player = None if setup.standing_seat is None \
                else ctx.players[setup.standing_seat]
            problem = _bid_problem(ctx.rules, player, bid, setup.standing, standing_player)
            if problem:
                raise IllegalBid(f"election: {problem}")
        new_setup.standing = bid
        new_setup.standing_seat = seat
        new_setup.passed = setup.passed & ~(1 << seat)
        new_setup.consecutive = 0
    new = _mutable(state)
    new._setup = new_setup
    passed_count = new_setup.passed.bit_count()
    if e.pass_is_final:
        ended = new_setup.standing is not None and passed_count >= PLAYERS - 1
        redeal = passed_count == PLAYERS
    else:
        ended = new_setup.standing is not None and new_setup.consecutive >= PLAYERS - 1
        redeal = new_setup.standing is None and new_setup.consecutive >= PLAYERS
    if bid is not None and e.full_bid_ends and _is_full(ctx.tables, bid):
        ended = True  # 000 §8: a full bid ends the election at once (election.full_bid_ends)
    if redeal:
        new.phase = "redeal"
        new._to_move = None
    elif ended:
        _close_election(state, new, new_setup)
    else:
        new._to_move = _next_bidder(new_setup, seat, e.pass_is_final)
    return new


def _close_election(state: HandState, new: HandState, new_setup: _Setup) -> None:
    """The standing bidder is declarer: he takes the kitty and discards next."""
    declarer = new_setup.standing_seat
    new_setup.declarer = declarer
    new_setup.bid = new_setup.contract = new_setup.standing
    new.phase = "exchange"
    new._to_move = declarer
    if state._hands is not None:
        hands = list(state._hands)
        hands[declarer] |= _mask(state._ctx.kitty)
        new._hands = tuple(hands)


def _cancelling_bid_problem(state: HandState, seat: int, bid: Optional[Bid]) -> Optional[str]:
    """Why a call after a declared deal miss does not cancel it (deal_miss.full_bid_cancels)."""
    ctx, setup = state._ctx, state._setup
    player = ctx.players[seat]
    miss = ctx.players[setup.deal_miss_seat]
    if seat == setup.deal_miss_seat:
        return f"{player} declared the deal miss and cannot cancel it with a bid"
    if bid is None:
        return (f"{player} passed after {miss}'s deal miss: only a full bid cancels a deal miss "
                f"(deal_miss.full_bid_cancels)")
    text = format_bid(bid) if isinstance(bid, Bid) else repr(bid)
    if ctx.rules.election.pass_is_final and setup.passed >> seat & 1:
        return (f"{player} called {text} after {miss}'s deal miss but has passed "
                f"(election.pass_is_final)")
    standing_player = None if setup.standing_seat is None else ctx.players[setup.standing_seat]
    problem = _bid_problem(ctx.rules, player, bid, setup.standing, standing_player)
    if problem:
        return problem
    if not _is_full(ctx.tables, bid):
        return (f"{player} bid {text} after {miss}'s deal miss: only a full bid of "
                f"{ctx.full_bid} cancels a deal miss (deal_miss.full_bid_cancels)")
    return None


def _apply_cancelling_bid(state: HandState, action: BidCall) -> HandState:
    """000 §8: a full bid after a declared deal miss cancels it; the full bidder is declarer at
    once (풀 공약이 나오면 그냥 쳐야 한다)."""
    ctx = state._ctx
    seat = ctx.seat_of.get(action.player)
    if seat is None:
        raise IllegalBid(f"election: {action.player!r} is not one of the players")
    problem = _cancelling_bid_problem(state, seat, action.bid)
    if problem:
        raise IllegalBid(f"election: {problem}")
    new = _mutable(state)
    new_setup = state._setup.copy()
    new_setup.calls = state._setup.calls + ((action.player, action.bid),)
    new_setup.standing = action.bid
    new_setup.standing_seat = seat
    new_setup.deal_miss_seat = None
    new._setup = new_setup
    _close_election(state, new, new_setup)
    return new


def _cancelling_bids(state: HandState) -> list:
    """The full bids that may cancel a declared deal miss (deal_miss.full_bid_cancels)."""
    if state.phase != "deal_miss" or not state.rules.deal_miss.full_bid_cancels:
        return []
    ctx = state._ctx
    full = [bid for bid in _successors(ctx.tables, state._setup.standing)[0]
            if _is_full(ctx.tables, bid)]
    return [BidCall(player, bid) for seat, player in enumerate(ctx.players) for bid in full
            if _cancelling_bid_problem(state, seat, bid) is None]


def _may_declare_deal_miss(state: HandState, seat: int) -> bool:
    """Whether a player may declare a deal miss now (the fast test _deal_miss_problem explains)."""
    ctx = state._ctx
    if ctx.miss_hands is not None and not ctx.miss_hands[seat]:
        return False
    return _deal_miss_problem(state, seat) is None


def _deal_miss_problem(state: HandState, seat: int) -> Optional[str]:
    """Why a player may not declare a deal miss now (None if he may)."""
    ctx, setup = state._ctx, state._setup
    d = ctx.rules.deal_miss
    player = ctx.players[seat]
    if not d.allowed:
        return f"{player} declared a deal miss but this ruleset has none (deal_miss.allowed)"
    if setup.calls:
        if not d.during_election:
            return (f"{player} declared a deal miss after the election began "
                    f"(deal_miss.during_election = false)")
        if not d.after_pass and any(who == player and bid is None for who, bid in setup.calls):
            return f"{player} declared a deal miss after passing (deal_miss.after_pass = false)"
        if d.full_bid_overrides and any(bid is not None and _is_full(ctx.tables, bid)
                                        for _, bid in setup.calls):
            return (f"{player} declared a deal miss after a full bid of {ctx.full_bid} "
                    f"(deal_miss.full_bid_overrides)")
    if ctx.miss_hands is not None and not ctx.miss_hands[seat]:
        cards = sorted_cards(_cards_of(ctx.deal_masks[seat]))
        value = deal_miss_value(ctx.rules, cards)
        test = "at most" if d.comparison == "at_most" else "below"
        return (f"{player} declared a deal miss but his hand {format_cards(cards)} counts "
                f"{value:g}, not {test} {d.threshold:g} (deal_miss.threshold, "
                f"deal_miss.comparison" + (", deal_miss.all_point_cards" if d.all_point_cards
                                           else "") + ")")
    return None


def _apply_deal_miss(state: HandState, action: DeclareDealMiss) -> HandState:
    if state.phase != "election":
        raise _phase_error(state, f"{action.player}'s deal miss", IllegalDealMiss)
    seat = state._ctx.seat_of.get(action.player)
    if seat is None:
        raise IllegalDealMiss(f"election: {action.player!r} is not one of the players")
    problem = _deal_miss_problem(state, seat)
    if problem:
        raise IllegalDealMiss(f"election: {problem}")
    new = _mutable(state)
    setup = state._setup.copy()
    setup.deal_miss_seat = seat
    new._setup = setup
    new.phase = "deal_miss"
    new._to_move = None
    return new


# --- exchange and friend call -------------------------------------------------------------------


def _apply_discard(state: HandState, action: Discard) -> HandState:
    if state.phase != "exchange":
        raise _phase_error(state, "a discard", IllegalExchange)
    ctx, setup = state._ctx, state._setup
    declarer = ctx.players[setup.declarer]
    cards = tuple(action.cards)
    for card in cards:
        if card not in _VALID_CARDS:
            raise IllegalExchange(f"exchange: {declarer} discarded {card!r}, which is not a card")
    if len(set(cards)) != len(cards):
        raise IllegalExchange(f"exchange: {declarer} discarded {format_cards(cards)}: a card "
                              f"twice")
    new = _mutable(state)
    new_setup = setup.copy()
    if ctx.open and not cards:
        new_setup.discards = ()
        new_setup.discard_known = False
    else:
        if len(cards) != KITTY_SIZE:
            raise IllegalExchange(f"exchange: {declarer} discarded {len(cards)} cards "
                                  f"({format_cards(cards)}); the discard is exactly {KITTY_SIZE}")
        mask = _mask(cards)
        if state._hands is not None:
            hand = state._hands[setup.declarer]
            missing = [card for card in cards if not hand >> card & 1]
            if missing:
                raise IllegalExchange(f"exchange: {declarer} discarded {format_card(missing[0])} "
                                      f"but does not hold it (his 13 cards: "
                                      f"{format_cards(sorted_cards(_cards_of(hand)))})")
            hands = list(state._hands)
            hands[setup.declarer] = hand & ~mask
            new._hands = tuple(hands)
        new._played = state._played | mask
        new_setup.discards = cards
        new_setup.discard_known = True
    new._setup = new_setup
    new.phase = "friend"
    return new


def _change_problem(rules: Ruleset, bid: Bid, new: Bid) -> Optional[str]:
    """Why the declarer may not change the contract from his bid to ``new`` (None if he may)."""
    e, x = rules.election, rules.exchange
    text = format_bid(new) if isinstance(new, Bid) else repr(new)
    if not isinstance(new, Bid) or not isinstance(new.number, int) \
            or (new.trump is not None and new.trump not in SUITS):
        return f"{text} is not a contract"
    if new.trump is None and not e.no_trump_allowed:
        return f"{text}: no-trump is not allowed (election.no_trump_allowed)"
    if e.max_bid and new.number > e.max_bid:
        return f"{text} is above the maximum {e.max_bid} (election.max_bid)"
    if rules.bids_descend:
        if new.number < e.min_bid:
            return f"{text} is below the minimum {e.min_bid} (election.min_bid)"
    required, why = 0, ""
    if new.trump != bid.trump:
        if not x.trump_change_allowed:
            return (f"changing trump from {trump_name(bid.trump)} to {trump_name(new.trump)} is "
                    f"not allowed (exchange.trump_change_allowed = false)")
        if bid.trump is None:
            required, why = x.raise_from_no_trump, "exchange.raise_from_no_trump"
        elif new.trump is None:
            required, why = x.raise_to_no_trump, "exchange.raise_to_no_trump"
        elif x.free_change_order and x.free_change_order.index(new.trump) \
                < x.free_change_order.index(bid.trump):
            required, why = 0, "exchange.free_change_order"
        else:
            required, why = x.raise_suit_change, "exchange.raise_suit_change"
    # where bids descend (election.bid_counts = opposition_limit) a raise lowers the number
    sign = -1 if rules.bids_descend else 1
    least = bid.number + sign * required
    if sign * new.number < sign * least:
        if required:
            return (f"{text}: changing trump from {trump_name(bid.trump)} to "
                    f"{trump_name(new.trump)} raises the contract by {required} to at least "
                    f"{least} ({why})")
        return f"{text} is below the bid {format_bid(bid)} (a contract never goes down)"
    if new.number != least and not x.voluntary_raise:
        return (f"{text}: the contract may rise only by what the trump change requires, to "
                f"{least} (exchange.voluntary_raise = false)")
    return None


def _apply_change(state: HandState, action: ChangeContract) -> HandState:
    if state.phase == "exchange":
        raise IllegalExchange(f"exchange: {state.declarer} changes the contract after "
                              f"discarding (discard first)")
    if state.phase != "friend":
        raise _phase_error(state, "a contract change", IllegalExchange)
    if state._setup.contract != state._setup.bid:
        raise IllegalExchange(f"exchange: {state.declarer} changed the contract to "
                              f"{format_bid(action.contract)} but already changed it to "
                              f"{format_bid(state.contract)} (one change, after the discard)")
    problem = _change_problem(state.rules, state.bid, action.contract)
    if problem:
        raise IllegalExchange(f"exchange: {state.declarer} changed the contract to {problem}")
    new = _mutable(state)
    setup = state._setup.copy()
    setup.contract = action.contract
    new._setup = setup
    return new


def _friend_problem(state: HandState, call: FriendCall) -> Optional[str]:
    """Why the declarer may not make this friend call (None if he may)."""
    ctx, setup = state._ctx, state._setup
    f = ctx.rules.friend
    if not isinstance(call, FriendCall) or call.kind not in FRIEND_KINDS:
        return f"{call!r} is not a friend call (kinds: {', '.join(FRIEND_KINDS)})"
    contract = setup.contract
    kind = call.kind
    if kind == "card":
        if call.card not in _VALID_CARDS:
            return f"the card friend call names {call.card!r}, which is not a card"
        name = "the joker" if call.card == JOKER else format_card(call.card)
        if not f.card:
            return f"a card friend ({name}) is not allowed (friend.card = false)"
        if call.card == JOKER and not f.joker:
            return "the joker may not be called as friend (friend.joker = false)"
        if not f.fake:
            if setup.discard_known and call.card in setup.discards:
                return f"{name} is one of the declarer's discards (friend.fake = false)"
            if state._hands is not None and state._hands[setup.declarer] >> call.card & 1:
                return f"the declarer holds {name} himself (friend.fake = false)"
    elif kind == "none":
        if not f.no_friend:
            return "playing alone is not allowed (friend.no_friend = false)"
    elif kind == "first_trick":
        if not f.first_trick:
            return "a first-trick friend is not allowed (friend.first_trick = false)"
    elif kind == "last_trick":
        if not f.last_trick:
            return "a last-trick friend is not allowed (friend.last_trick = false)"
    elif kind == "player":
        if not f.player:
            return "a player friend is not allowed (friend.player = false)"
        if call.player not in ctx.seat_of:
            return f"player friend {call.player!r} is not one of the players"
        if ctx.seat_of[call.player] == setup.declarer:
            return f"{call.player} cannot be his own friend (call none to play alone)"
    if kind in ("card", "none", "first_trick", "last_trick", "player") and call.kind != "card" \
            and call.card is not None:
        return f"a {kind} call names no card"
    if call.lead_suit is not None:
        if not f.lead_request:
            return "a lead request is not allowed (friend.lead_request = false)"
        if call.lead_suit not in SUITS:
            return f"lead request {call.lead_suit!r} is not a suit"
        if contract.trump is not None or not _is_full(ctx.tables, contract):
            return (f"only a {ctx.full_bid} no-trump declarer may request a lead (the contract "
                    f"is {format_bid(contract)}; friend.lead_request)")
        if kind == "none":
            return "a declarer playing alone has no friend to request a lead from"
    return None


def _apply_call(state: HandState, action: CallFriend) -> HandState:
    if state.phase == "exchange":
        raise IllegalExchange(f"exchange: {state.declarer} calls a friend before discarding "
                              f"(discard first)")
    if state.phase != "friend":
        raise _phase_error(state, "a friend call", IllegalExchange)
    call = action.call
    problem = _friend_problem(state, call)
    if problem:
        try:
            shown = format_friend_call(call)
        except Exception:  # not a well-formed call: the problem says what it is
            shown = None
        what = f"{shown} as friend" if shown else "a friend"
        raise IllegalExchange(f"exchange: {state.declarer} called {what}: {problem}")
    ctx, setup = state._ctx, state._setup
    new = _mutable(state)
    new_setup = setup.copy()
    new_setup.friend_call = call
    new._setup = new_setup
    key = (setup.contract, call.card if call.kind == "card" else None, call.lead_suit)
    contract = ctx.tables.contracts.get(key)
    if contract is None:  # built once per ruleset and key: a _Contract is never changed
        contract = ctx.tables.contracts[key] = _Contract(ctx.rules, setup.contract, call)
    new._contract = contract
    declarer = setup.declarer
    friend: Optional[int] = _PENDING
    revealed = False
    if call.kind == "none":
        friend = _NO_FRIEND
    elif call.kind == "player":
        friend, revealed = ctx.seat_of[call.player], True
    elif call.kind == "card":
        if setup.discard_known and call.card in setup.discards:
            friend = _NO_FRIEND  # a fake call: the card is buried
        elif state._hands is not None:
            holder = next(seat for seat, mask in enumerate(state._hands) if mask >> call.card & 1)
            friend = _NO_FRIEND if holder == declarer else holder
    new._friend = friend
    new.friend_revealed = revealed
    new.phase = "play"
    new._to_move = declarer
    new.trick_number = 1
    return new


# --- play ---------------------------------------------------------------------------------------


def _joker_playable(ci: _Contract, trick_number: int) -> bool:
    return (trick_number != 1 or ci.joker_play_first) and \
        (trick_number != TRICKS or ci.joker_play_last)


def _legal_now(state: HandState) -> int:
    """The legal cards of the player to move (full deal), memoised on the state."""
    legal = state._legal
    if legal is None:
        legal = state._legal = _legal_mask(state)
    return legal


def _legal_mask(state: HandState) -> int:
    """The cards the player to move may play now (full deal)."""
    ci = state._contract
    seat = state._to_move
    hand = state._hands[seat] & ~state._played
    if state._trick and not hand & JOKER_BIT:
        # the most common case, a follower without the joker (so no joker call or joker timing
        # applies): he follows suit when he can, and Mighty may always be played
        follow = hand & ci.follow_masks[state._led_suit]
        return follow | (hand & ci.also_bits) if follow else hand
    number = state.trick_number
    if hand & JOKER_BIT:
        if number == TRICKS - 1 and not ci.joker_play_last:
            return JOKER_BIT  # the joker cannot wait for trick 10 (cards.joker_playable_last_trick)
        if number == 1 and not ci.joker_play_first:
            hand &= ~JOKER_BIT
    if not state._trick:
        legal = hand
        if ci.trump_lead_mask and hand & ci.non_trump_mask and (
                (number == 1 and ci.bar_first) or ci.bar_always
                or (ci.bar_until_trump and not state._trump_played)):
            legal &= ~ci.trump_lead_mask  # _trump_lead_barred, inlined
        call = state._setup.friend_call
        if call.lead_suit is not None and seat == state._friend and not state._friend_led:
            wanted = hand & ci.follow_masks[call.lead_suit]
            if wanted:
                legal &= wanted | JOKER_BIT
        return legal
    if state._call and hand & JOKER_BIT:
        return JOKER_BIT | (hand & ci.mighty_bit if ci.defends else 0)
    follow = hand & ci.follow_masks[state._led_suit]
    if follow:
        return follow | (hand & (ci.also_bits | ci.joker_free))
    if ci.joker_on_trump and hand & JOKER_BIT and state._led_suit == ci.trump:
        return JOKER_BIT  # trump led, no trump in hand: the joker must answer (이우)
    return hand


def _trump_lead_barred(ci: _Contract, number: int, trump_played: bool) -> bool:
    """Whether play.trump_lead forbids a trump lead now to a leader holding another suit."""
    # only_trumps_left (000 §7.19): on every trick, until the other suits are gone
    return (number == 1 and ci.bar_first) or ci.bar_always \
        or (ci.bar_until_trump and not trump_played)


def _play_error(state: HandState, seat: int, play: Play) -> IllegalPlay:
    """The message for a card the player may not play (full deal)."""
    ctx, ci = state._ctx, state._contract
    number = state.trick_number
    player, card = play.player, play.card
    hand = state._hands[seat] & ~state._played
    name = format_card(card)
    verb = "played" if state._trick else "led"
    head = f"trick {number}: {player} {verb} {name}"
    if not hand >> card & 1:
        holder = next((ctx.players[s] for s, mask in enumerate(state._hands)
                       if (mask & ~state._played) >> card & 1), None)
        where = f"{holder} holds it" if holder else \
            "it was already played" if state._played >> card & 1 else "it is not in play"
        return IllegalPlay(f"{head} but does not hold it ({where})")
    if hand & JOKER_BIT and number == TRICKS - 1 and not ci.joker_play_last:
        return IllegalPlay(f"{head} but holds the joker, which may not be played on trick "
                           f"{TRICKS} (must play it now; cards.joker_playable_last_trick = false)")
    if card == JOKER and number == 1 and not ci.joker_play_first:
        return IllegalPlay(f"{head}: the joker may not be played on trick 1 "
                           f"(cards.joker_playable_first_trick = false)")
    if not state._trick:
        if ci.trump_lead_mask and card >> 4 == ci.trump and card != ci.mighty:
            return IllegalPlay(_trump_lead_message(state, head))
        call = state._setup.friend_call
        suit = call.lead_suit
        return IllegalPlay(f"{head} but the declarer asked his friend to lead "
                           f"{_suit_symbol(suit)} and {player} holds {_suit_symbol(suit)} "
                           f"(friend.lead_request)")
    if state._trick and ci.joker_on_trump and hand & JOKER_BIT and state._led_suit == ci.trump \
            and not hand & ci.follow_masks[ci.trump] and not state._call \
            and _joker_playable(ci, number):
        trump = trump_name(ci.trump)
        return IllegalPlay(f"{head} but holds no {trump} and holds the joker, and {trump} was led "
                           f"(must play the joker; play.joker_on_trump_lead)")
    if state._call and hand & JOKER_BIT:
        also = " or Mighty" if ci.defends and hand & ci.mighty_bit else ""
        return IllegalPlay(f"{head} but holds the joker and the joker was called: he must play "
                           f"the joker{also} (joker call; joker_call.mighty_defends = "
                           f"{'true' if ci.defends else 'false'})")
    led = _suit_symbol(state._led_suit)
    only_mighty = hand & ci.follow_masks[state._led_suit] == hand & ci.mighty_bit
    if only_mighty:
        return IllegalPlay(f"{head} but holds {led} only in Mighty ({format_card(ci.mighty)}) and "
                           f"{led} was led (must follow suit: Mighty counts as its suit; "
                           f"cards.mighty_must_follow_suit)")
    rule = ""
    if card == JOKER:
        rule = "; cards.joker_plays_any_time = false"
    elif card == ci.mighty:
        rule = "; cards.mighty_plays_any_time = false"
    return IllegalPlay(f"{head} but holds {led} and {led} was led (must follow suit{rule})")


def _trump_lead_message(state: HandState, head: str) -> str:
    ci = state._contract
    trump = trump_name(ci.trump)
    if ci.trump_lead == "only_trumps_left":
        rule = ("the leader may not lead trump while he holds a card of another suit; "
                "play.trump_lead = only_trumps_left")
    elif ci.trump_lead == "not_first_trick" or state.trick_number == 1 and not state._trump_played:
        rule = ("the leader may not lead trump on trick 1 unless he holds only trumps; "
                f"play.trump_lead = {ci.trump_lead}")
        if ci.trump_lead == "after_trump_played":
            rule = ("the leader may not lead trump before trump has been played unless he holds "
                    "only trumps; play.trump_lead = after_trump_played")
    else:
        rule = ("the leader may not lead trump before trump has been played unless he holds "
                "only trumps; play.trump_lead = after_trump_played")
    return f"{head} but holds cards of other suits and {trump} are trump ({rule})"


def _apply_play(state: HandState, play: Play) -> HandState:
    # The hot path of random playouts: attributes are read once into locals, and the new state
    # is built here field by field (the fields every play sets are not copied first; keep this
    # in step with HandState.__slots__ and _clone).
    if state.phase != "play":
        raise _phase_error(state, f"{play.player} playing a card", IllegalPlay)
    ctx = state._ctx
    ci = state._contract
    player, card, joker_suit, joker_call = play
    seat = ctx.seat_of.get(player)
    if seat is None or card not in _VALID_CARDS or seat != state._to_move:
        raise _turn_error(state, play, seat)
    bit = 1 << card
    trick = state._trick
    if state._hands is not None:
        legal = state._legal  # usually set by whoever chose this play (legal_plays, random)
        if legal is None:
            legal = state._legal = _legal_mask(state)
        if not legal & bit:
            raise _play_error(state, seat, play)
    else:
        _check_open_play(state, seat, play)
    if joker_suit is not None or card == JOKER or card == ci.mighty_named:
        _check_joker_annotation(state, seat, play)
    calling = False
    if joker_call or card == ci.auto_call:
        calling = _joker_call_effect(state, play)
    new = _new_state(HandState)
    new._ctx = ctx
    new._setup = state._setup
    new._contract = ci
    new.phase = "play"
    new._hands = state._hands
    new.trick_number = state.trick_number
    new.tricks = state.tricks
    new._points = state._points
    new._trump_played = state._trump_played
    new._friend = state._friend
    new.friend_revealed = state.friend_revealed
    new._friend_led = state._friend_led
    new._voids = state._voids
    new._legal = None
    new._played = state._played | bit
    if not trick:
        new._led_suit = card >> 4 if joker_suit is None else joker_suit
        new._call = calling
        if ctx.open and ci.trump_lead_mask:
            _infer_trump_lead(state, new, seat, play)
        if seat == state._friend and ci.lead_suit is not None:
            new._friend_led = True
    else:
        new._led_suit = state._led_suit
        new._call = state._call
        if ctx.open:
            _infer_voids(state, new, seat, play)
    if card == ci.friend_card:
        _reveal_card_friend(state, new, seat, play)
    trick += ((player, play),)
    following = seat + 1 if seat + 1 < PLAYERS else 0
    if len(trick) < PLAYERS:
        new._trick = trick
        new._trick_mask = state._trick_mask | bit
        new._to_move = following
        return new
    _finish_trick(state, new, trick, state._trick_mask | bit, following)
    return new


def _turn_error(state: HandState, play: Play, seat: Optional[int]) -> IllegalPlay:
    number = state.trick_number
    if seat is None:
        return IllegalPlay(f"trick {number}: {play.player!r} is not one of the players")
    if play.card not in _VALID_CARDS:
        return IllegalPlay(f"trick {number}: {play.player} played {play.card!r}, which is not a "
                           f"card")
    return IllegalPlay(f"trick {number}: {play.player} played {format_card(play.card)} but it is "
                       f"{state._ctx.players[state._to_move]}'s turn")


def _check_joker_annotation(state: HandState, seat: int, play: Play) -> None:
    """Only a joker lead names a suit, and it must (and a Mighty lead under
    cards.mighty_lead_names_suit)."""
    number = state.trick_number
    joker_suit = play.joker_suit
    if play.card == state._contract.mighty_named and not state._trick:
        if joker_suit not in SUITS:
            name = format_card(play.card)
            raise IllegalPlay(f"trick {number}: {play.player} led Mighty ({name}) without naming "
                              f"a suit (write {name}/S, {name}/D, {name}/H or {name}/C; "
                              f"cards.mighty_lead_names_suit)")
        if state._hands is not None:
            _check_joker_lead(state, seat, state._hands[seat] & ~state._played, play)
        return
    if play.card == state._contract.mighty_named and joker_suit is None:
        return  # Mighty played to a trick: an ordinary card of its suit
    if play.card == JOKER:
        if not state._trick:
            if joker_suit not in SUITS:
                raise IllegalPlay(f"trick {number}: {play.player} led the joker without naming "
                                  f"a suit (write JK/S, JK/D, JK/H or JK/C)")
            if state._hands is not None:
                _check_joker_lead(state, seat, state._hands[seat] & ~state._played, play)
        elif joker_suit is not None:
            raise IllegalPlay(f"trick {number}: {play.player} played the joker naming "
                              f"{_suit_symbol(joker_suit)} but only a joker lead names a suit")
    else:
        raise IllegalPlay(f"trick {number}: {play.player} played {format_card(play.card)} with a "
                          f"suit annotation; only a joker lead names a suit")


def _joker_call_effect(state: HandState, play: Play) -> bool:
    """Whether this play calls the joker out (raises if the call cannot be declared at all)."""
    ci = state._contract
    number = state.trick_number
    if play.card != ci.joker_call:
        raise IllegalPlay(f"trick {number}: {play.player} declared a joker call with "
                          f"{format_card(play.card)} but the joker-call card is "
                          f"{format_card(ci.joker_call)} (cards.joker_call)")
    if ci.declaration == "never":
        raise IllegalPlay(f"trick {number}: {play.player} declared a joker call but this "
                          f"ruleset has none (joker_call.declaration = never)")
    # A call has effect only as a lead, from trick 2 (or 1), while the joker is still out
    # (not played, and not discarded: the declarer's _hands no longer has his discards).
    hands = state._hands
    return not state._trick and (number != 1 or ci.call_first) \
        and not state._played & JOKER_BIT \
        and (hands is None or any(mask & JOKER_BIT for mask in hands))


def _check_joker_lead(state: HandState, seat: int, hand: int, play: Play) -> None:
    """A joker (or suitless Mighty) lead naming trump is a trump lead; a requested lead may not
    be dodged with it."""
    ci = state._contract
    suit = play.joker_suit
    number = state.trick_number
    what = "the joker" if play.card == JOKER else f"Mighty ({format_card(play.card)})"
    if suit == ci.trump and hand & ci.non_trump_mask \
            and _trump_lead_barred(ci, number, state._trump_played):
        head = f"trick {number}: {play.player} led {what} naming {trump_name(suit)}"
        raise IllegalPlay(_trump_lead_message(state, head))
    call = state._setup.friend_call
    if call.lead_suit is not None and seat == state._friend and not state._friend_led \
            and suit != call.lead_suit and hand & ci.follow_masks[call.lead_suit]:
        wanted = _suit_symbol(call.lead_suit)
        raise IllegalPlay(f"trick {number}: {play.player} led {what} naming "
                          f"{_suit_symbol(suit)} but the declarer asked his friend to lead "
                          f"{wanted} and {play.player} holds {wanted} (friend.lead_request)")


def _reveal_card_friend(state: HandState, new: HandState, seat: int, play: Play) -> None:
    """The called card is played: its player is the friend (or the call was fake)."""
    declarer = state._setup.declarer
    if state._friend == _PENDING:  # open cards: now we know
        if seat == declarer:
            if not state.rules.friend.fake:
                raise IllegalPlay(f"trick {state.trick_number}: {play.player} played "
                                  f"{format_card(play.card)}, the card he called as friend "
                                  f"(friend.fake = false)")
            new._friend = _NO_FRIEND
            return
        new._friend = seat
    if new._friend is not None and new._friend >= 0:
        new.friend_revealed = True


def _finish_trick(state: HandState, new: HandState, trick: tuple, trick_mask: int,
                  leader_seat: int) -> None:
    """Settle a complete trick: winner, points, the friend when a trick decides him, who leads
    next (``leader_seat``: play passes in seat order, so the seat after the last player)."""
    ctx, ci = state._ctx, state._contract
    number = state.trick_number
    # the five cards in playing order, written out: cheaper than a comprehension
    first, second, third, fourth, fifth = trick
    cards = (first[1][1], second[1][1], third[1][1], fourth[1][1], fifth[1][1])
    if trick_mask & ci.mighty_bit and ci.mighty_power[number]:
        index = cards.index(ci.mighty)  # the usual cases decided from the mask, without a loop
    elif trick_mask & JOKER_BIT and ci.joker_power[number] \
            and not (new._call and ci.called_powerless):
        index = cards.index(JOKER)
    else:
        # the highest trump, else the highest card of the led suit: the top bit of its mask
        top = trick_mask & ci.trump_mask or trick_mask & SUIT_MASKS[new._led_suit]
        index = cards.index(top.bit_length() - 1) if top else \
            trick_winner(cards, new._led_suit, ci.trump, ci.mighty, False, False)
    winner = (leader_seat + index) % PLAYERS
    points = (trick_mask & ctx.point_mask).bit_count()
    if points:
        taken = list(state._points)
        taken[winner] += points
        new._points = tuple(taken)
    # tuple.__new__ directly: a NamedTuple's own __new__ is a Python-level call
    new.tricks = state.tricks + (_tuple_new(CompletedTrick, (first[0], trick,
                                                             ctx.players[winner], points)),)
    if ci.trump_mask and trick_mask & ci.trump_mask:
        new._trump_played = True
    # the friend, for calls settled by tricks
    if new._friend == _PENDING:
        call = state._setup.friend_call
        declarer = state._setup.declarer
        if call.kind == "first_trick" and (number == 1 or ci.next_trick_friend):
            if winner != declarer:
                new._friend, new.friend_revealed = winner, True
            elif not ci.next_trick_friend:
                new._friend = _NO_FRIEND
        elif call.kind == "last_trick" and number == TRICKS:
            if winner != declarer:
                new._friend, new.friend_revealed = winner, True
            else:
                new._friend = _NO_FRIEND
    elif ci.reveal_on_points and points and winner == new._friend and not new.friend_revealed:
        new.friend_revealed = True  # 수원/성균관: the friend shows himself when he scores
    new._trick = ()
    new._trick_mask = 0
    new._call = False
    if number == TRICKS:
        new.phase = "done"
        new._to_move = None
        if new._friend == _PENDING:  # never seen (open cards): the called card was discarded
            new._friend = _NO_FRIEND
    else:
        new.trick_number = number + 1
        new._to_move = winner


# --- open cards: what the shown cards allow ------------------------------------------------------


def _check_open_play(state: HandState, seat: int, play: Play) -> None:
    ci = state._contract
    number = state.trick_number
    card = play.card
    bit = 1 << card
    name = format_card(card)
    head = f"trick {number}: {play.player} {'played' if state._trick else 'led'} {name}"
    if state._played & bit:
        setup = state._setup
        if setup.discard_known and card in setup.discards:
            raise IllegalPlay(f"{head} but the declarer discarded it (no card twice)")
        for trick in state.tricks:
            for _, earlier in trick.plays:
                if earlier.card == card:
                    raise IllegalPlay(f"{head} but it was already played on trick "
                                      f"{state.tricks.index(trick) + 1} (no card twice)")
        raise IllegalPlay(f"{head} but it was already played in this trick (no card twice)")
    if card == JOKER and not _joker_playable(ci, number):
        which = "first" if number == 1 else "last"
        raise IllegalPlay(f"{head}: the joker may not be played on trick {number} "
                          f"(cards.joker_playable_{which}_trick = false)")
    for mask, trick_number, reason, rule in state._voids[seat]:
        if mask & bit:
            raise IllegalPlay(f"{head} but {reason} on trick {trick_number} ({rule})")


def _add_void(new: HandState, seat: int, mask: int, trick_number: int, reason: str,
              rule: str) -> None:
    voids = list(new._voids)
    voids[seat] = voids[seat] + ((mask, trick_number, reason, rule),)
    new._voids = tuple(voids)


def _infer_voids(state: HandState, new: HandState, seat: int, play: Play) -> None:
    """A follower who did not follow suit (or ignored a joker call) holds none of what he owed."""
    ci = state._contract
    card = play.card
    number = state.trick_number
    if state._call and card != JOKER and not (ci.defends and card == ci.mighty) \
            and _joker_playable(ci, number):
        _add_void(new, seat, JOKER_BIT, number, "did not play the joker when it was called",
                  "revoke: the holder of a called joker must play it")
    if (card == JOKER and (ci.joker_free or state._call)) \
            or (card == ci.mighty and ci.also_bits & ci.mighty_bit):
        return  # Mighty and the joker may be played at any time (or the joker was called)
    led = state._led_suit
    if card >> 4 != led and ci.also_bits >> card & 1:
        return  # trump instead of following (play.trump_instead_of_following): no void shown
    if card >> 4 != led and ci.joker_on_trump and led == ci.trump \
            and _joker_playable(ci, number):
        _add_void(new, seat, JOKER_BIT, number, f"showed out of {_suit_symbol(led)} without "
                  f"the joker", "revoke: play.joker_on_trump_lead")
    if card >> 4 != led:
        mask = ci.follow_masks[led]
        rule = "revoke: must follow suit"
        if mask & ci.mighty_bit:
            rule += "; Mighty counts as its suit, cards.mighty_must_follow_suit"
        _add_void(new, seat, mask, number, f"showed out of {_suit_symbol(led)}", rule)


def _infer_trump_lead(state: HandState, new: HandState, seat: int, play: Play) -> None:
    """A trump lead that needs "only trumps" proves the leader holds no other suit."""
    ci = state._contract
    card = play.card
    trump_lead = play.joker_suit == ci.trump if play.joker_suit is not None else \
        (card != JOKER and card >> 4 == ci.trump and card != ci.mighty)
    number = state.trick_number
    if trump_lead and _trump_lead_barred(ci, number, state._trump_played):
        _add_void(new, seat, ci.non_trump_mask, number, "led trump, so held only trumps,",
                  f"revoke: play.trump_lead = {ci.trump_lead}")


_HANDLERS = {Play: _apply_play, BidCall: _apply_bid, DeclareDealMiss: _apply_deal_miss,
             Discard: _apply_discard, ChangeContract: _apply_change, CallFriend: _apply_call}


# --- legal moves --------------------------------------------------------------------------------


def _open_candidates(state: HandState, seat: int) -> int:
    """Cards a player might still hold in open-cards mode."""
    mask = DECK_MASK & ~state._played
    for void, _, _, _ in state._voids[seat]:
        mask &= ~void
    if not _joker_playable(state._contract, state.trick_number):
        mask &= ~JOKER_BIT
    return mask


def legal_plays(state: HandState) -> list[Play]:
    """Every legal card for the player to move, with every annotation it may carry (a joker lead
    naming each allowed suit; the joker-call card led with and without the call). In open-cards
    mode: every card the player might still hold that the cards shown so far allow."""
    if state.phase != "play":
        return []
    seat = state._to_move
    player = state._ctx.players[seat]
    hands = state._hands
    if hands is not None:
        hand = hands[seat] & ~state._played
        mask = _legal_now(state)
    else:
        hand = 0
        mask = _open_candidates(state, seat)
    table = _play_table(player)
    cards = _cards_of(mask)
    if state._trick:
        return [table[card] for card in cards]
    ci = state._contract
    plays = []
    for card in cards:
        if card == JOKER or card == ci.mighty_named:
            for play in (_joker_leads(player) if card == JOKER else
                         tuple(Play(player, card, suit) for suit in SUITS)):
                # only a trump lead or a requested lead can forbid a joker lead: test just those
                if hands is None or (play.joker_suit != ci.trump and ci.lead_suit is None):
                    plays.append(play)
                    continue
                try:
                    _check_joker_lead(state, seat, hand, play)
                except IllegalPlay:
                    continue
                plays.append(play)
        elif card == ci.joker_call and ci.declaration != "never":
            if ci.declaration == "optional":
                plays.append(table[card])
            plays.append(_call_play(player, card))
        else:
            plays.append(table[card])
    return plays


_JOKER_LEADS: dict[str, tuple[Play, ...]] = {}
_CALL_PLAYS: dict[tuple[str, int], Play] = {}


def _joker_leads(player: str) -> tuple[Play, ...]:
    """A player's joker leads naming each suit, cached like the plain plays."""
    leads = _JOKER_LEADS.get(player)
    if leads is None:
        if len(_JOKER_LEADS) > 4096:  # names come from users: keep the cache bounded
            _JOKER_LEADS.clear()
        leads = _JOKER_LEADS[player] = tuple(Play(player, JOKER, suit) for suit in SUITS)
    return leads


def _call_play(player: str, card: int) -> Play:
    """A player's lead of the joker-call card with the call declared, cached."""
    play = _CALL_PLAYS.get((player, card))
    if play is None:
        if len(_CALL_PLAYS) > 4096:
            _CALL_PLAYS.clear()
        play = _CALL_PLAYS[player, card] = Play(player, card, None, True)
    return play


def _beats(bid: Bid, standing: Bid, e: Any) -> bool:
    """Whether a bid beats the standing bid (the test _bid_problem explains)."""
    new, old = _bid_key(bid, e), _bid_key(standing, e)
    if new >= old + e.min_raise:
        return True
    if new != old:
        return False
    if bid.trump is None and standing.trump is not None and e.no_trump_beats_equal_suit:
        return True
    if bid.trump is not None and standing.trump is not None and e.suit_order \
            and e.suit_order.index(bid.trump) < e.suit_order.index(standing.trump):
        return True
    return e.equal_bid_allowed


def _successors(tables: _RuleTables, standing: Optional[Bid]) -> tuple[list[Bid], frozenset]:
    """The bids that may be called over the standing bid (every bid when there is none), in
    order and as a set; cached per ruleset. The caller must not change them."""
    if standing is None:
        return tables.bids, tables.bid_set
    successors = tables.successors.get(standing)
    if successors is None:
        e = tables.rules.election
        beating = [bid for bid in tables.bids if _beats(bid, standing, e)]
        successors = tables.successors[standing] = (beating, frozenset(beating))
    return successors


def _legal_bids(state: HandState) -> list[Bid]:
    return list(_successors(state._ctx.tables, state._setup.standing)[0])


def _required_raise(rules: Ruleset, bid: Bid, trump: Optional[int]) -> int:
    """How much the contract must rise when trump changes from the bid's to ``trump``."""
    x = rules.exchange
    if trump == bid.trump:
        return 0
    if bid.trump is None:
        return x.raise_from_no_trump
    if trump is None:
        return x.raise_to_no_trump
    if x.free_change_order and x.free_change_order.index(trump) \
            < x.free_change_order.index(bid.trump):
        return 0
    return x.raise_suit_change


def _legal_contracts(state: HandState) -> list[Bid]:
    """The contracts the winning bid may become (cached per ruleset and bid: do not change)."""
    tables = state._ctx.tables
    bid = state._setup.bid
    changes = tables.changes.get(bid)
    if changes is None:
        changes = tables.changes[bid] = _contract_changes(state, bid)
    return changes


def _contract_changes(state: HandState, bid: Bid) -> list[Bid]:
    rules = state.rules
    e, x = rules.election, rules.exchange
    top = e.max_bid or state._ctx.point_total
    trumps: list = list(SUITS) + ([None] if e.no_trump_allowed else [])
    out = []
    for trump in trumps:
        if trump != bid.trump and not x.trump_change_allowed:
            continue
        if rules.bids_descend:  # a raise lowers the number, down to the minimum
            least = bid.number - _required_raise(rules, bid, trump)
            numbers = range(e.min_bid if x.voluntary_raise else least, least + 1)
        else:
            least = bid.number + _required_raise(rules, bid, trump)
            most = top if x.voluntary_raise else least
            numbers = range(least, min(most, top) + 1)
        out += [Bid(number, trump) for number in numbers
                if number != bid.number or trump != bid.trump]
    return out


_CARD_CALLS = {card: FriendCall("card", card) for card in DECK}
_KIND_CALLS = {kind: FriendCall(kind) for kind in ("none", "first_trick", "last_trick")}


def _call_choices(state: HandState) -> tuple[int, list[FriendCall]]:
    """The friend calls without lead requests: the mask of the cards that may be called (their
    calls come first, in card order) and the other calls in order."""
    ctx, setup = state._ctx, state._setup
    f = ctx.rules.friend
    card_mask = 0
    if f.card:
        excluded = 0 if f.joker else JOKER_BIT
        if not f.fake:
            if setup.discard_known:
                excluded |= _mask(setup.discards)
            if state._hands is not None:
                excluded |= state._hands[setup.declarer]
        card_mask = DECK_MASK & ~excluded
    others = [_KIND_CALLS[kind] for kind, allowed in
              (("none", f.no_friend), ("first_trick", f.first_trick), ("last_trick", f.last_trick))
              if allowed]
    if f.player:
        others += [FriendCall("player", player=p) for p in ctx.players
                   if ctx.seat_of[p] != setup.declarer]
    return card_mask, others


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


def _legal_calls(state: HandState, with_leads: bool = True) -> list[FriendCall]:
    card_mask, others = _call_choices(state)
    calls = [_CARD_CALLS[card] for card in _cards_of(card_mask)] + others
    if with_leads and _lead_request_allowed(state):
        calls += [_with_lead(call, suit) for call in calls if call.kind != "none"
                  for suit in SUITS]
    return calls


def _lead_request_allowed(state: HandState) -> bool:
    contract = state._setup.contract
    return state.rules.friend.lead_request and contract.trump is None \
        and _is_full(state._ctx.tables, contract)


_LEAD_CALLS: dict[tuple, FriendCall] = {}


def _with_lead(call: FriendCall, suit: int) -> FriendCall:
    """A friend call with a lead request (card calls cached: legal_actions lists 200 of them)."""
    if call.kind != "card":
        return call._replace(lead_suit=suit)
    key = (call.card, suit)
    cached = _LEAD_CALLS.get(key)
    if cached is None:
        cached = _LEAD_CALLS[key] = call._replace(lead_suit=suit)
    return cached


def legal_actions(state: HandState) -> list:
    """Every legal next action, for random playouts. Election: the bids and the pass of the
    player to move (numbers up to ``election.max_bid``, or up to the point cards in play when
    there is no maximum), then a deal miss for each player allowed to declare one. Exchange: all
    286 discards of 3 from the declarer's 13 (open cards: the unseen discard only). Friend phase:
    every allowed contract change and friend call. Play: legal_plays(). A deal miss under
    ``deal_miss.full_bid_cancels``: the full bids that would cancel it (none: the hand ends)."""
    phase = state.phase
    if phase == "play":
        return legal_plays(state)
    ctx, setup = state._ctx, state._setup
    if phase == "election":
        player = ctx.players[state._to_move]
        actions: list = []
        if setup.calls or ctx.rules.election.opener_may_pass:
            actions.append(BidCall(player, None))
        actions += [BidCall(player, bid) for bid in _legal_bids(state)]
        if ctx.rules.deal_miss.allowed and (ctx.miss_hands is None or any(ctx.miss_hands)):
            actions += [DeclareDealMiss(p) for seat, p in enumerate(ctx.players)
                        if _may_declare_deal_miss(state, seat)]
        return actions
    if phase == "exchange":
        if state._hands is None:
            return [Discard(())]
        cards = sorted_cards(_cards_of(state._hands[setup.declarer]))
        return [Discard(combo) for combo in combinations(cards, KITTY_SIZE)]
    if phase == "friend":
        changes = [ChangeContract(c) for c in _legal_contracts(state)] \
            if setup.contract == setup.bid else []
        return changes + [CallFriend(call) for call in _legal_calls(state)]
    return _cancelling_bids(state)


def random_legal_action(state: HandState, rng: Random) -> Any:
    """A uniformly random legal action, the same distribution as
    ``rng.choice(legal_actions(state))`` without building every action: the discard is drawn
    directly instead of listing all 286, the election and friend call pick an index first."""
    phase = state.phase
    ctx = state._ctx
    if phase == "play":
        if state._hands is not None:
            mask = state._legal
            if mask is None:
                mask = state._legal = _legal_mask(state)  # memoised for apply's check
            # a lead of the joker or the joker-call card carries annotations: list those plays
            if state._trick or not mask & state._contract.annotated:
                # The index-th legal card in legal_plays' order (bit order), found by clearing
                # the lowest set bit index times: no list of cards is built (hands differ from
                # hand to hand, so a cache of card lists mostly misses on leads).
                index = int(rng.random() * mask.bit_count())
                for _ in range(index):
                    mask &= mask - 1
                return ctx.play_tables[state._to_move][(mask & -mask).bit_length() - 1]
        plays = legal_plays(state)
        return plays[int(rng.random() * len(plays))]
    setup = state._setup
    if phase == "election":
        # legal_actions' order (the pass, the bids, the deal misses) by index, without lists
        player = ctx.players[state._to_move]
        tables = ctx.tables
        passes = 1 if setup.calls or tables.opener_may_pass else 0
        bids = _successors(tables, setup.standing)[0]
        misses = []
        if tables.miss_allowed and (ctx.miss_hands is None or any(ctx.miss_hands)):
            misses = [p for seat, p in enumerate(ctx.players)
                      if _may_declare_deal_miss(state, seat)]
        index = _randrange(rng, passes + len(bids) + len(misses)) - passes
        # tuple.__new__ directly: a NamedTuple's own __new__ is a Python-level call
        if index < 0:
            return _tuple_new(BidCall, (player, None))
        if index < len(bids):
            return _tuple_new(BidCall, (player, bids[index]))
        return DeclareDealMiss(misses[index - len(bids)])
    if phase == "exchange" and state._hands is not None:
        cards = _cards_of(state._hands[setup.declarer])
        if type(rng) is _INLINE_DRAWS and len(cards) <= 21:  # sample's pool method: n <= 21
            return Discard(tuple(_sample_inline(rng, cards, KITTY_SIZE)))
        return Discard(tuple(rng.sample(cards, KITTY_SIZE)))
    if phase == "friend":
        # legal_actions' order by index: the changes, the calls (card calls first, taken from
        # the mask), then each call but "none" with each lead request
        changes = _legal_contracts(state) if setup.contract == setup.bid else []
        card_mask, others = _call_choices(state)
        card_count = card_mask.bit_count()
        calls = card_count + len(others)
        leads = [call for call in others if call.kind != "none"] \
            if _lead_request_allowed(state) else None
        index = _randrange(rng, len(changes) + calls
                           + (4 * (card_count + len(leads)) if leads is not None else 0))
        if index < len(changes):
            return ChangeContract(changes[index])
        index -= len(changes)
        if index < calls:
            return CallFriend(_CARD_CALLS[_nth_card(card_mask, index)] if index < card_count
                              else others[index - card_count])
        index -= calls
        lead_index, suit = divmod(index, 4)
        call = _CARD_CALLS[_nth_card(card_mask, lead_index)] if lead_index < card_count \
            else leads[lead_index - card_count]
        return CallFriend(_with_lead(call, SUITS[suit]))
    actions = legal_actions(state)
    return rng.choice(actions) if actions else None


# --- result -------------------------------------------------------------------------------------


def hand_result(state: HandState) -> HandResult:
    """The scored outcome of a finished hand."""
    if state.phase != "done":
        raise MightyError(f"the hand is not finished (phase {state.phase}): no result yet")
    ctx, setup = state._ctx, state._setup
    rules = ctx.rules
    declarer = setup.declarer
    friend = state._friend if state._friend is not None and state._friend >= 0 else None
    taken = state._points[declarer] + (state._points[friend] if friend is not None else 0)
    if rules.exchange.discards_count_for_ruling_party:
        taken += state.discarded_points
    call = setup.friend_call
    doubled = friend is None and (rules.scoring.no_friend_by_trick_call
                                  or call.kind not in ("first_trick", "last_trick"))
    score = score_hand(rules, setup.contract, taken, has_friend=friend is not None,
                       no_friend_doubling=doubled if friend is None else None)
    declarer_name = ctx.players[declarer]
    friend_name = None if friend is None else ctx.players[friend]
    deltas = seat_deltas(score, ctx.players, declarer_name, friend_name)
    return HandResult(declarer_name, friend_name, setup.contract, taken, score, deltas)
