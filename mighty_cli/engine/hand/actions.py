"""The actions of a hand and their notation (docs/record-format.md): a deal miss, a bid or pass, the
discard, a contract change, the friend call and a played card; the completed trick and the
hand's result.

Rules of notation held here:

* A joker lead names the suit to follow (``JK/H``); a Mighty lead does too where the ruleset
  lets it (``SA/H``, 관악 5마); the engine checks who may.
* ``C3!`` is the joker-call card led with the call declared; ``!`` never marks the joker.
* A friend call is a card, ``joker``, ``mighty`` (the contract's Mighty), ``none``,
  ``first-trick`` (초구), ``last-trick`` (막구) or ``player:NAME``, optionally with a 20
  no-trump lead request `` lead:H``.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeAlias

from ..cards import JOKER, SUIT_LETTERS, Bid, format_card, is_joker, parse_card, parse_suit
from ..cards.deck import VALID_CARDS
from ..errors import InvalidNotation
from ..ruleset import Ruleset
from ..scoring import Score
from ..translation import _
from .contract import mighty_card

# --- actions ----------------------------------------------------------------------------------


class DeclareDealMiss(NamedTuple):
    """A player shows a hopeless hand and asks for a redeal (딜 미스)."""

    player: str


class BidCall(NamedTuple):
    """A bid, or a pass when ``bid`` is None."""

    player: str
    bid: Bid | None


class Eliminate(NamedTuple):
    """The declarer eliminates (6마, 7마): by a card (its holder leaves) or, under
    ``table.eliminate_by = "player"``, by naming the player. In open-cards mode a card call
    names who held it too (``player``), or nobody when it was in the kitty."""

    card: int | None = None
    player: str | None = None


class Redistribute(NamedTuple):
    """The eliminated hands and the kitty dealt out (6마: 5 to the declarer, 2 to each other):
    ``cards`` is a tuple of (player, cards) pairs. A chance event: the table deals it."""

    cards: tuple


class Discard(NamedTuple):
    """The declarer's three discards (empty in open-cards mode when they were not seen)."""

    cards: tuple[int, ...]


class ChangeContract(NamedTuple):
    """The declarer's new contract after the discard (trump change and/or raise)."""

    contract: Bid


class FriendCall(NamedTuple):
    """How the declarer chooses his friend: kind in card, none, first_trick, last_trick, player.
    ``card2``: the second called card where two are called (friend.called_cards, 동대전 7마)."""

    kind: str
    card: int | None = None
    player: str | None = None
    lead_suit: int | None = None
    card2: int | None = None


class CallFriend(NamedTuple):
    """The declarer's friend call."""

    call: FriendCall


class Play(NamedTuple):
    """A card played; a joker lead names ``joker_suit``; ``joker_call`` declares the call."""

    player: str
    card: int
    joker_suit: int | None = None
    joker_call: bool = False


class CompletedTrick(NamedTuple):
    """A trick once all five have played."""

    leader: str
    plays: tuple[tuple[str, Play], ...]
    winner: str
    points: int


#: An action of a hand: what :func:`~mighty_cli.engine.hand.apply` takes.
Action: TypeAlias = (
    DeclareDealMiss
    | BidCall
    | Eliminate
    | Redistribute
    | Discard
    | ChangeContract
    | CallFriend
    | Play
)


class HandResult(NamedTuple):
    """A finished hand's outcome and score."""

    declarer: str
    friend: str | None
    contract: Bid
    taken: int
    score: Score
    deltas: dict[str, int]
    friend2: str | None = None  # the second friend of a two-card call (동대전 7마)


FRIEND_KINDS = ("card", "none", "first_trick", "last_trick", "player")
NO_FRIEND = None
PENDING = -1  # a friend still to be determined (card not yet seen, first/last trick)

_PLAY_TABLES: dict[str, list[Play | None]] = {}


def play_table(player: str) -> list[Play | None]:
    """Plain Play objects of a player indexed by card, cached (legal_plays builds many)."""
    table = _PLAY_TABLES.get(player)
    if table is None:
        if len(_PLAY_TABLES) > 4096:  # names come from users: keep the cache bounded
            _PLAY_TABLES.clear()
        # indexed by card: every card the engine knows and (two decks) its copy, 128 above
        table = [
            Play(player, card) if card in VALID_CARDS else None
            for card in range(max(VALID_CARDS) + 1)
        ]
        _PLAY_TABLES[player] = table
    return table


# --- notation ---------------------------------------------------------------------------------


def parse_play(text: str) -> tuple[int, int | None, bool]:
    """Parse a played card with its annotation: ``JK/H`` (joker led naming ♥), ``C3!`` (call),
    ``SA/H`` (Mighty led naming ♥ where the ruleset lets it; the engine checks who may)."""
    raw = text.strip()
    joker_call = raw.endswith("!")
    body = raw[:-1] if joker_call else raw
    joker_suit = None
    if "/" in body:
        name, _slash, suit_text = body.partition("/")
        card = parse_card(name)
        joker_suit = parse_suit(suit_text)
    else:
        card = parse_card(body)
    if joker_call and is_joker(card):  # either joker
        raise InvalidNotation(
            _("{play}: '!' marks the joker-call card led with the call, not the joker").format(
                play=repr(raw)
            )
        )
    return card, joker_suit, joker_call


def format_play(play: Any, joker_suit: int | None = None, joker_call: bool = False) -> str:
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


#: The friend calls by name as the hand record writes them (a card is written as a card), each
#: with the spellings a record may use: the table's spoken words for them (노프렌드, 마이티
#: 프렌드...) are the table's vocabulary (``mighty_cli/table/words.py``), which starts from these.
CALL_SPELLINGS = {
    "joker": ("joker", "jk"),
    "mighty": ("mighty", "마이티"),
    "none": ("none",),
    "first-trick": ("first-trick", "firsttrick", "초구"),
    "last-trick": ("last-trick", "lasttrick", "막구"),
}
#: A trick call's spellings (lowercase, ``_`` read as ``-``), and the friend kind it calls.
TRICK_CALLS = {
    spelling: kind.replace("-", "_")
    for kind in ("first-trick", "last-trick")
    for spelling in CALL_SPELLINGS[kind]
}


def is_trick_call(call: Any) -> bool:
    """Whether a recorded friend call is a trick call (초구, 막구), in any of its spellings."""
    return isinstance(call, str) and call.strip().lower().replace("_", "-") in TRICK_CALLS


def _not_a_friend_call(text: str) -> str:
    return _(
        "{call} is not a friend call: expected a card, joker, mighty, none, first-trick, "
        "last-trick or player:NAME"
    ).format(call=repr(text.strip()))


def parse_friend_call(text: str, context: Any = None, contract: Bid | None = None) -> FriendCall:
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
        raise InvalidNotation(_not_a_friend_call(text))
    key = raw.lower().replace("_", "-")
    if "+" in key and not key.startswith("player:"):  # two called cards: SA+DK
        first, _plus, second = raw.partition("+")
        one = parse_friend_call(first, context, contract)
        two = parse_friend_call(second, context, contract)
        if one.kind != "card" or two.kind != "card" or "+" in second:
            raise InvalidNotation(
                _("{text} is not a friend call: two called cards are written CARD+CARD").format(
                    text=repr(text.strip())
                )
            )
        return FriendCall("card", card=one.card, lead_suit=lead_suit, card2=two.card)
    if key == "none":
        return FriendCall("none", lead_suit=lead_suit)
    if key in TRICK_CALLS:
        return FriendCall(TRICK_CALLS[key], lead_suit=lead_suit)
    if key.startswith("player:"):
        name = raw[7:].strip()
        if not name:
            raise InvalidNotation(
                _("{call}: player: needs a player's name").format(call=repr(text.strip()))
            )
        return FriendCall("player", player=name, lead_suit=lead_suit)
    if key in CALL_SPELLINGS["joker"]:
        return FriendCall("card", card=JOKER, lead_suit=lead_suit)
    if key in CALL_SPELLINGS["mighty"]:
        if context is None or isinstance(context, Ruleset):
            rules = context
        else:  # a HandState: its ruleset and current contract
            rules, contract = context.rules, context.contract
        if rules is None:
            raise InvalidNotation(_("'mighty' needs a ruleset to say which card Mighty is"))
        return FriendCall(
            "card",
            card=mighty_card(rules, contract.trump if contract else None),
            lead_suit=lead_suit,
        )
    try:
        card = parse_card(raw)
    except InvalidNotation:
        raise InvalidNotation(_not_a_friend_call(text)) from None
    return FriendCall("card", card=card, lead_suit=lead_suit)


def format_friend_call(call: FriendCall) -> str:
    """The record notation of a friend call (inverse of parse_friend_call)."""
    if call.kind == "card":
        assert call.card is not None  # (a card call names its card)
        text = "joker" if call.card == JOKER else format_card(call.card)
        if call.card2 is not None:  # two called cards (friend.called_cards): SA+DK
            text += "+" + ("joker" if call.card2 == JOKER else format_card(call.card2))
    elif call.kind == "player":
        text = f"player:{call.player}"
    else:
        text = call.kind.replace("_", "-")
    if call.lead_suit is not None:
        text += f" lead:{SUIT_LETTERS[call.lead_suit]}"
    return text
