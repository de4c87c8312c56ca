"""The values of one recorded hand, each parsed and checked on its own: who played it, a name,
a bid, the cards taken, a friend call's text, a deal, a card list, an election call and a played
card. Each refusal is one :class:`RecordError` line naming the hand and the key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import DECK, Bid, format_card, parse_bid, parse_cards
from ..errors import InvalidNotation, RecordError
from ..hand.actions import CALL_SPELLINGS, BidCall
from ..ruleset import Ruleset
from ..scoring import taken_limit
from ..translation import _, ngettext
from .file import FULL_KEYS


def hand_players(all_players: Sequence[str], hand: dict, index: int, n: int = 5) -> list[str]:
    """Who played this hand: ``n`` (table.players) of the record's players."""
    players = hand.get("players")
    if players is None:
        if len(all_players) != n:
            count = _("five") if n == 5 else str(n)
            raise RecordError(
                ngettext(
                    "hand {index}: the record lists {listed} player; say which {count} played this "
                    "hand (players = [...])",
                    "hand {index}: the record lists {listed} players; say which {count} played this "
                    "hand (players = [...])",
                    len(all_players),
                ).format(index=index, listed=len(all_players), count=count)
            )
        return list(all_players)
    if (
        not isinstance(players, list)
        or len(players) != n
        or len(set(players)) != n
        or not set(players) <= set(all_players)
    ):
        count = _("five") if n == 5 else str(n)
        raise RecordError(
            _(
                "hand {index}: players: expected {count} distinct names from the record's players"
            ).format(index=index, count=count)
        )
    return list(players)


def read_name(value: Any, players: Sequence[str], index: int, key: str) -> str:
    if not isinstance(value, str) or value not in players:
        raise RecordError(
            _(
                "hand {index}: {key} = {value} is not one of the players of this hand ({players})"
            ).format(index=index, key=key, value=repr(value), players=", ".join(players))
        )
    return value


def read_bid(text: Any, index: int) -> Bid:
    if not isinstance(text, str):
        raise RecordError(
            _('hand {index}: contract: expected a bid such as "15D" or "16NT"').format(index=index)
        )
    try:
        return parse_bid(text)
    except InvalidNotation as exc:
        raise RecordError(
            _("hand {index}: {key}: {error}").format(index=index, key="contract", error=exc)
        ) from None


def read_taken(rules: Ruleset, hand: dict, index: int) -> int:
    taken, opposition = hand.get("taken"), hand.get("opposition")
    total = rules.count_total  # point cards, or tricks (election.bid_counts = "tricks")
    if (taken is None) == (opposition is None):
        raise RecordError(
            _("hand {index}: give exactly one of taken and opposition").format(index=index)
        )
    value = taken if taken is not None else opposition
    key = "taken" if taken is not None else "opposition"
    # 동대전: a friend's cards weighted may count past the total
    limit = taken_limit(rules) if taken is not None else total
    if (
        limit > total
        and isinstance(value, int)
        and not isinstance(value, bool)
        and not 0 <= value <= limit
    ):
        raise RecordError(
            _(
                "hand {index}: taken = {value} is impossible: the ruling party "
                "counts from 0 to {limit} under {ruleset}, the friends' point "
                "cards weighted (scoring.friend_weight)"
            ).format(index=index, value=value, limit=limit, ruleset=rules.name)
        )
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= limit:
        raise RecordError(
            _(
                "hand {index}: {key} = {value} is impossible: from 0 to {total} point "
                "cards are in play under {ruleset}"
            ).format(index=index, key=key, value=repr(value), total=total, ruleset=rules.name)
        )
    return value if taken is not None else total - value


def check_friend_call_text(call: Any, index: int) -> None:
    if not isinstance(call, str):
        raise RecordError(
            _(
                "hand {index}: friend_call: expected a card or a call such as "
                '"mighty", "joker", "first-trick"'
            ).format(index=index)
        )
    if len(call) > 40:  # what a league stores: one card or call
        raise RecordError(
            _(
                "hand {index}: friend_call = {value}...: expected one card or "
                "call (at most 40 characters)"
            ).format(index=index, value=repr(call[:20]))
        )
    if call.lower() in (
        "joker",
        "mighty",
        "none",
        "first-trick",
        "last-trick",
    ) or call.lower().startswith("player:"):
        return
    # two called cards (friend.called_cards = 2, 동대전 7마) are written as the record's
    # friend is: SA+DK, SA+joker
    parts = call.split("+") if call.count("+") == 1 else [call]
    try:
        for part in parts:
            if part.strip().lower() not in ("joker", "mighty"):
                parse_cards(part)
    except InvalidNotation as exc:
        raise RecordError(
            _("hand {index}: {key}: {error}").format(index=index, key="friend_call", error=exc)
        ) from None


_FRIEND_CALLS: dict[str, Any] = {}
#: Friend calls whose card may depend on the ruleset or the contract: never cached.
_CONTEXT_WORDS = (*CALL_SPELLINGS["mighty"], *CALL_SPELLINGS["joker"])


def read_friend_call(engine: Any, text: Any, state: Any) -> Any:
    """The hand engine's parse_friend_call, cached for the calls that name a card or a kind
    outright (not ``mighty`` nor the joker, which the contract or the ruleset may decide): a
    record repeats the same few dozen calls."""
    call = _FRIEND_CALLS.get(text) if type(text) is str else None
    if call is None:
        call = engine.parse_friend_call(text, state)
        lowered = text.lower() if type(text) is str else ""
        if lowered and not any(word in lowered for word in _CONTEXT_WORDS):
            if len(_FRIEND_CALLS) > 4096:  # calls come from files: keep the cache bounded
                _FRIEND_CALLS.clear()
            _FRIEND_CALLS[text] = call
    return call


def refuse_later_keys(hand: dict, index: int, key: str, why: str) -> None:
    later = FULL_KEYS[FULL_KEYS.index(key) :]
    present = [k for k in later if k in hand]
    if present:
        raise RecordError(
            _("hand {index}: {key} is given but {why}").format(index=index, key=present[0], why=why)
        )


def read_deal(deal: Any, index: int) -> dict[str, list[int]]:
    """Parse a deal's card strings; the hand engine checks who holds what (new_hand)."""
    if not isinstance(deal, dict):
        raise RecordError(
            _(
                'hand {index}: deal: expected a table of player = "10 cards" and kitty = "3 cards"'
            ).format(index=index)
        )
    get = _CARD_CODES.get
    cards: dict[str, list[int]] = {}
    for who, text in deal.items():
        # read_cards' fast path inline (canonical names, each once); anything else through it
        # (each card's code, None for a name of no card: then read_cards says which)
        hand: list[Any] = list(map(get, text.split())) if type(text) is str else [None]
        cards[who] = (
            hand
            if None not in hand and len(set(hand)) == len(hand)
            else read_cards(text, index, f"deal.{who}")
        )
    return cards


#: The canonical names of the cards (what an export writes), for the fast path of read_cards.
_CARD_CODES = {format_card(card): card for card in DECK}
#: Each canonical name's bit (1 << card), for the masks of read_plain_deal.
_CARD_BITS = {name: 1 << card for name, card in _CARD_CODES.items()}


class _DealTexts:
    """A deal that read_plain_deal has checked, read as :func:`read_deal` would read it when asked for
    a hand's cards (a replay asks for the kitty, and for the hands only to weigh a deal miss)."""

    __slots__ = ("texts",)

    def __init__(self, texts: dict):
        self.texts = texts

    def __getitem__(self, who: str) -> list[int]:
        return list(map(_CARD_CODES.__getitem__, self.texts[who].split()))


def read_plain_deal(deal: Any, players: Sequence[str], tables: Any) -> Any:
    """The usual deal read at once: ``(deal, masks)``, the deal as new_hand takes it and the
    players' masks in playing order, where every hand and the kitty is one string of canonical
    card names of the right size and their bits add up to the ruleset's deck (its cards each
    dealt once: tables.plain_deal says the sizes make up the deck). None for anything else,
    which :func:`read_deal` and the deal check (new_hand) then read and refuse as ever: a deal
    taken here is one they accept, with the same cards."""
    if type(deal) is not dict or len(deal) != len(players) + 1 or not tables.plain_deal:
        return None
    bit = _CARD_BITS.__getitem__
    size = tables.hand_size
    masks = []
    try:
        for player in players:
            text = deal[player]
            cards = text.split()  # (not a string: AttributeError)
            if len(cards) != size or type(text) is not str:
                return None
            masks.append(sum(map(bit, cards)))
        text = deal["kitty"]
        cards = text.split()
        if len(cards) != tables.kitty_size or type(text) is not str:
            return None
        kitty = sum(map(bit, cards))
    except (KeyError, AttributeError, TypeError):
        return None
    if sum(masks) + kitty != tables.deck_mask:
        return None
    return _DealTexts(deal), tuple(masks)


def read_cards(text: Any, index: int, key: str) -> list[int]:
    if not isinstance(text, str):
        raise RecordError(
            _('hand {index}: {key}: expected cards in one string, such as "SA D10"').format(
                index=index, key=key
            )
        )
    # canonical names, each once: what parse_cards would give (anything else goes through it)
    cards = list(map(_CARD_CODES.get, text.split()))
    if None not in cards and len(set(cards)) == len(cards):
        return cards  # type: ignore[return-value]  # None not in cards: list[int]
    try:  # a card named twice: both copies of two decks (one deck: the deal check refuses it)
        return parse_cards(text, copies=True)
    except InvalidNotation as exc:
        raise RecordError(
            _("hand {index}: {key}: {error}").format(index=index, key=key, error=exc)
        ) from None


#: An election entry "<player> deal-miss": the deal miss declared at that point of the election,
#: written only where a full bid cancelled it (deal_miss.full_bid_cancels, 000 §8); otherwise a
#: deal miss is the hand's ``deal_miss`` key.
DEAL_MISS_CALL: Any = "deal-miss"


_CALLS: dict[str, tuple[str, Any]] = {}


def _call(text: str, players: Sequence[str], index: int) -> tuple[str, Any]:
    """An election entry parsed (cached: a record repeats the same few hundred calls)."""
    call = _CALLS.get(text)
    if call is not None and call[0] in players:
        return call
    call = _parse_call(text, players, index)
    if len(_CALLS) > 4096:  # calls come from files: keep the cache bounded
        _CALLS.clear()
    _CALLS[text] = call
    return call


_SEATED_CALLS: dict[tuple, dict[str, tuple[str, Any]]] = {}


def read_calls(
    election: list[str], players: Sequence[str], index: int
) -> tuple[list[tuple[str, Any]], bool]:
    """A hand's election entries parsed (each a string), as :func:`_call` parses them one by
    one, and whether none of them is a deal miss: bids and passes are remembered per seating,
    so that a call found there is one of its players' and no deal miss (a record repeats the
    same few hundred calls for the same few seatings)."""
    seating = tuple(players)
    known = _SEATED_CALLS.get(seating)
    if known is None:
        if len(_SEATED_CALLS) > 256:  # seatings come from files: keep the cache bounded
            _SEATED_CALLS.clear()
        known = _SEATED_CALLS[seating] = {}
    remembered: list[Any] = list(map(known.get, election))  # (None: a call not seen yet)
    if None not in remembered:
        return remembered, True
    calls = [_call(text, players, index) for text in election]
    if len(known) > 4096:
        known.clear()
    known.update(
        (text, call) for text, call in zip(election, calls) if call[1] is not DEAL_MISS_CALL
    )
    return calls, not any(call[1] is DEAL_MISS_CALL for call in calls)


def _parse_call(text: str, players: Sequence[str], index: int) -> tuple[str, Any]:
    parts = text.rsplit(None, 1)
    if len(parts) != 2:
        raise RecordError(
            _(
                "hand {index}: election: {text} is not a call: expected "
                '"<player> <bid>" or "<player> pass"'
            ).format(index=index, text=repr(text))
        )
    player, what = parts
    read_name(player, players, index, "election")
    # a BidCall, the action itself (a deal miss is a pair of the same shape)
    if what.lower() == "pass":
        return BidCall(player, None)
    if what.lower() == DEAL_MISS_CALL:
        return BidCall(player, DEAL_MISS_CALL)
    try:
        return BidCall(player, parse_bid(what))
    except InvalidNotation as exc:
        raise RecordError(
            _("hand {index}: {key}: {error}").format(index=index, key="election", error=exc)
        ) from None


def elimination_parts(call: str) -> tuple[str | None, str | None]:
    """A 6마/7마 record's elimination call as (the card called, who held it): the card, then
    the rest of the text, since a name may hold spaces (``"D6 Alexander 김-Johnson"``); no
    holder for the kitty (``"HK kitty"``) or a card alone; no card under the naming rule
    (``"player:Ed"``); neither for an empty call."""
    words = call.split(None, 1)
    if not words:
        return None, None
    if words[0].lower().startswith("player:"):
        return None, call.strip()[7:].strip()
    holder = words[1].strip() if len(words) == 2 else None
    return words[0], None if holder == "kitty" else holder
