"""What the tablet referee's page offers for the next entry, read from the hand's state: every
button is a line the terminal referee would read (``13s``, ``pass``, ``miss Cy``, ``c2 d3 h4``,
``sa``, ``jk/h``, ``c3!``, ``undo trick``), so the page and ``mighty referee`` go through the
same :class:`~mighty_cli.table.evening.Evening` and store the same record.

* the election: the seats in playing order, the numbers a bid may name (the ruleset's
  minimum, maximum and raise), the suits and no-trump, pass, and a deal miss by a player;
* the elimination (6마, 7마): the players, or the cards the declarer may call;
* the exchange: the declarer's cards (kitty included) to choose the discards from, when the
  cards are known;
* the friend: the contract changes the ruleset allows, and its friend calls only;
* the play: the cards of the player to move by suit (every card not yet played, with open
  cards), each playable one with the forms it may take (the joker led naming a suit, the
  joker-call card led with the call), each other one greyed with the engine's reason, the
  same words the terminal prints when it is typed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..engine import hand as engine
from ..engine.cards import (
    COPY,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    format_card,
    is_joker,
    sorted_cards,
)
from ..engine.errors import MightyError
from ..engine.hand.honeymoon import partner_of
from ..engine.translation import _
from ..table import view

#: The suits as a bid, a card and a picker name them, in the picker's order (♠ ◆ ♥ ♣).
SUITS = tuple(range(4))


@dataclass
class Choice:
    """A button: the line it enters, its label, and (greyed) why it may not be entered."""

    line: str
    label: str
    reason: str | None = None
    kind: str = ""  # a css class: the suit's colour, "joker"


@dataclass
class CardChoice:
    """A card of the picker: its forms (one button each: the card, or the joker led naming
    each suit, the call), or why it cannot be played."""

    label: str
    kind: str
    forms: list[Choice] = field(default_factory=list)
    reason: str | None = None
    line: str = ""  # the card as typed (a greyed card's, refused with the reason)


@dataclass
class Picker:
    """What the page asks for now (``phase``) and the choices it offers."""

    phase: str
    player: str | None = None  # who is to move
    seats: list[str] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)  # a bid's (or a new contract's) numbers
    number: int | None = None  # the number shown first
    suits: list[Choice] = field(default_factory=list)
    buttons: list[Choice] = field(default_factory=list)
    cards: list[tuple[str, list[CardChoice]]] = field(default_factory=list)  # by suit
    players: list[str] = field(default_factory=list)  # a deal miss's, a player call's
    limits: list[str] = field(default_factory=list)
    discard: int = 0
    open_cards: bool = False
    two_cards: bool = False  # a friend call names two cards (friend.called_cards = 2)


def suit_kind(card: int) -> str:
    return "joker" if is_joker(card) else f"suit-{SUIT_LETTERS[card >> 4 & 7].lower()}"


def play_line(play) -> str:
    return engine.format_play(play).lower()


def picker(state) -> Picker:
    """The choices for the hand's next entry."""
    phase = state.phase
    if phase == "election":
        return _election(state)
    if phase == "elimination":
        return _elimination(state)
    if phase == "redistribution":
        return Picker(phase, state.declarer, buttons=[Choice("deal", _("Deal them out"))])
    if phase == "exchange":
        return _exchange(state)
    if phase == "friend":
        return _friend(state)
    if phase == "play":
        return _play(state)
    return Picker(phase)


def _bid_suits(rules) -> list[Choice]:
    suits = [
        Choice(SUIT_LETTERS[s].lower(), SUIT_SYMBOLS[s], kind=f"suit-{SUIT_LETTERS[s].lower()}")
        for s in SUITS
    ]
    if rules.election.no_trump_allowed:
        suits.append(Choice("nt", _("no-trump (노기루다)"), kind="nt"))
    return suits


def election_limits(rules) -> list[str]:
    """The ruleset's limits on a bid, as the page shows them beside the picker."""
    e = rules.election
    said = [
        _("bids from {low} to {high}").format(low=e.min_bid, high=e.max_bid)
        if e.max_bid
        else _("bids from {low}, no maximum").format(low=e.min_bid)
    ]
    if e.no_trump_allowed and e.no_trump_discount:
        said.append(_("no-trump from {low}").format(low=e.min_bid - e.no_trump_discount))
    if not e.no_trump_allowed:
        said.append(_("no no-trump bids"))
    if e.min_raise > 1:
        said.append(_("a new bid raises by {step} at least").format(step=e.min_raise))
    said.append(
        _("who passes is out of the election") if e.pass_is_final else _("who passed may bid again")
    )
    if not e.opener_may_pass:
        said.append(_("the opener may not pass"))
    return said


def _election(state) -> Picker:
    rules = state.rules
    actions = engine.legal_actions(state)
    bids = [a.bid for a in actions if isinstance(a, engine.BidCall) and a.bid is not None]
    numbers = sorted({bid.number for bid in bids})
    suited = [bid.number for bid in bids if bid.trump is not None]
    buttons = []
    if any(isinstance(a, engine.BidCall) and a.bid is None for a in actions):
        buttons.append(Choice("pass", _("pass")))
    return Picker(
        "election",
        state.to_move,
        seats=list(state.players),
        numbers=numbers,
        number=min(suited) if suited else (numbers[0] if numbers else None),
        suits=_bid_suits(rules),
        buttons=buttons,
        players=list(state.players) if rules.deal_miss.allowed else [],
        limits=election_limits(rules),
        open_cards=state.hands is None,
    )


def _elimination(state) -> Picker:
    calls = engine.legal_actions(state)
    if state.rules.table.eliminate_by == "player":
        return Picker(
            "elimination", state.declarer, buttons=[Choice(a.player, a.player) for a in calls]
        )
    cards = sorted_cards({a.card for a in calls if a.card is not None})
    players = [p for p in state.players if p != state.declarer] if state.hands is None else []
    return Picker(
        "elimination",
        state.declarer,
        cards=_by_suit(
            [
                CardChoice(
                    view.pretty_card(c),
                    suit_kind(c),
                    [Choice(format_card(c).lower(), view.pretty_card(c), kind=suit_kind(c))],
                )
                for c in cards
            ],
            cards,
        ),
        players=players,
        open_cards=state.hands is None,
    )


def _exchange(state) -> Picker:
    hands = state.hands
    if hands is None:
        return Picker("exchange", state.declarer, open_cards=True)
    cards = list(sorted_cards(hands[state.declarer]))
    # two decks: a card held twice is two boxes (its line once, then with ~2: both copies)
    lines = [format_card(c & ~COPY).lower() for c in cards]
    lines = [line + ("~2" if line in lines[:i] else "") for i, line in enumerate(lines)]
    choices = [
        CardChoice(
            view.pretty_card(c),
            suit_kind(c),
            [Choice(line, view.pretty_card(c), kind=suit_kind(c))],
        )
        for c, line in zip(cards, lines, strict=True)
    ]
    return Picker(
        "exchange",
        state.declarer,
        cards=_by_suit(choices, cards),
        discard=view.discard_count(state),
    )


def _friend(state) -> Picker:
    actions = engine.legal_actions(state)
    changes = [a.contract for a in actions if isinstance(a, engine.ChangeContract)]
    numbers = sorted({bid.number for bid in changes})
    suited = [bid.number for bid in changes if bid.trump is not None]
    number = min(suited) if suited else (numbers[0] if numbers else None)
    if state.rules.table.partner_hands:  # 허니문: his own friend hand, the only call
        return Picker(
            "friend",
            state.declarer,
            numbers=numbers,
            number=number,
            suits=_bid_suits(state.rules) if numbers else [],
            buttons=[
                Choice(
                    "friend",
                    _("his own friend hand {partner} (프렌드 패)").format(
                        partner=partner_of(state.declarer)
                    ),
                )
            ],
        )
    calls = [
        a.call for a in actions if isinstance(a, engine.CallFriend) and a.call.lead_suit is None
    ]
    two = state.rules.friend.called_cards == 2  # 동대전 7마, 8마: two cards called at once
    if two:
        singles = {c.card for c in calls if c.kind == "card" and c.card2 is None}
        paired = {
            card
            for c in calls
            if c.kind == "card" and c.card2 is not None
            for card in (c.card, c.card2)
        }
        calls = [c for c in calls if c.kind != "card"] + [
            engine.FriendCall("card", card=card) for card in sorted(singles | paired)
        ]
    else:
        calls = [c for c in calls if c.card2 is None]
    buttons: list[Choice] = []
    players: list[str] = []
    card_calls = []
    for call in calls:
        if call.kind == "card":
            card_calls.append(call.card)
        elif call.kind == "player":
            players.append(call.player)
        else:
            buttons.append(Choice(engine.format_friend_call(call), view.friend_call_words(call)))
    mighty = state.mighty
    named = []
    if mighty in card_calls:
        named.append(
            Choice(
                "mighty",
                _("mighty (마이티) {card}").format(card=view.pretty_card(mighty)),
                kind="mighty",
            )
        )
    joker = [c for c in card_calls if is_joker(c)]
    for card in joker:
        named.append(
            Choice(
                format_card(card).lower() if card != joker[0] else "joker",
                view.pretty_card(card),
                kind="joker",
            )
        )
    plain = [c for c in sorted_cards(set(card_calls)) if not is_joker(c)]
    choices = [
        CardChoice(
            view.pretty_card(c),
            suit_kind(c),
            [Choice(format_card(c).lower(), view.pretty_card(c), kind=suit_kind(c))],
        )
        for c in plain
    ]
    return Picker(
        "friend",
        state.declarer,
        numbers=numbers,
        number=number,
        suits=_bid_suits(state.rules) if numbers else [],
        buttons=buttons if two else named + buttons,
        cards=_by_suit(choices, plain),
        players=players,
        open_cards=state.hands is None,
        two_cards=two,
    )


def _play(state) -> Picker:
    mover = state.to_move
    legal = engine.legal_plays(state)
    forms: dict[int, list] = {}
    for play in legal:
        forms.setdefault(play.card & ~COPY, []).append(play)
    hands = state.hands
    held = hands[mover] if hands is not None else state.rules.deck_cards
    cards = list(dict.fromkeys(card & ~COPY for card in sorted_cards(held)))  # two decks: once
    choices = []
    for card in cards:
        plays = forms.get(card, [])
        label = view.pretty_card(card)
        if plays:
            choices.append(
                CardChoice(
                    label,
                    suit_kind(card),
                    [
                        Choice(play_line(p), _form_label(p, state), kind=suit_kind(card))
                        for p in plays
                    ],
                )
            )
        else:
            choices.append(
                CardChoice(
                    label,
                    suit_kind(card),
                    reason=_why_not(state, mover, card),
                    line=format_card(card).lower(),
                )
            )
    return Picker("play", mover, cards=_by_suit(choices, cards), open_cards=hands is None)


def _form_label(play, state) -> str:
    """A card's button: the card, or what its form adds (the suit the joker asks, the call)."""
    if play.joker_suit is not None:
        return _("{card} asks {suit}").format(
            card=view.pretty_card(play.card), suit=SUIT_SYMBOLS[play.joker_suit]
        )
    if play.joker_call:
        return _("{card} joker call (조커콜)").format(card=view.pretty_card(play.card))
    return view.pretty_card(play.card)


def _why_not(state, mover: str, card: int) -> str:
    """The engine's refusal of the card, as the terminal prints it when it is typed."""
    try:
        engine.apply(state, engine.Play(mover, card))
    except MightyError as exc:
        return str(exc)
    return ""


def _by_suit(choices: list[Any], cards: list[int]) -> list[tuple[str, list[Any]]]:
    """The choices grouped by suit, in the picker's order (♠ ◆ ♥ ♣, then the jokers)."""
    groups: dict[str, list] = {}
    for choice, card in zip(choices, cards, strict=True):
        key = "joker" if is_joker(card) else SUIT_SYMBOLS[card >> 4 & 7]
        groups.setdefault(key, []).append(choice)
    order = [SUIT_SYMBOLS[s] for s in SUITS] + ["joker"]
    return [(key, groups[key]) for key in order if key in groups]


__all__ = ["Picker", "Choice", "CardChoice", "picker", "election_limits", "play_line"]
