"""What the referee sees: the table drawn from a hand's state, and actions named in the table's
words ("Cy's ♥Q", "Bo's bid of 14♠").

Pure functions of the hand engine's public state (no click, no printing), so the referee, the
evening loop and the tests share them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..engine import hand as engine
from ..engine.cards import (
    BLACK_JOKER,
    JOKER,
    RANK_NAMES,
    SUIT_SYMBOLS,
    format_bid,
    is_joker,
    sorted_cards,
)
from ..engine.hand.contract import holding_index, joker_calls
from ..engine.hand.honeymoon import controller_of, is_partner_hand, partner_of
from ..engine.records import friend_possible
from ..engine.translation import _

if TYPE_CHECKING:
    from ..engine.cards import Bid, Card
    from ..engine.hand import FriendCall, HandState
    from ..engine.hand.actions import Action


def pretty_card(card: int) -> str:
    """A card as the table says it: ``♥Q``, ``♠10``, ``joker``, ``black joker`` (two-joker
    decks, where the joker is the colour joker); two decks: either copy."""
    card &= 127
    if card == JOKER:
        return _("joker")
    if card == BLACK_JOKER:
        return _("black joker")
    return SUIT_SYMBOLS[card >> 4] + RANK_NAMES[card & 15]


def pretty_play(play: Any, before: Any = None) -> str:
    """A played card with its annotation: ``joker (asks ♥)``, ``♣3 (joker call)``; given the
    state it was played on, a two-joker deck's call says which joker: ``♣3 (calls the black
    joker)``."""
    text = pretty_card(play.card)
    if play.joker_suit is not None:
        text += _(" (asks {suit})").format(suit=SUIT_SYMBOLS[play.joker_suit])
    if play.joker_call:
        called = engine_called_joker(before, play.card) if before is not None else None
        if called == BLACK_JOKER:
            text += _(" (calls the black joker)")
        elif called == JOKER and before.rules.cards.jokers == 2:
            text += _(" (calls the colour joker)")
        else:
            text += _(" (joker call)")
    return text


def engine_called_joker(state: Any, card: int) -> int | None:
    """The joker a lead of ``card`` with the call declared calls under the state's contract
    (None: the card calls no joker, or no contract yet)."""
    if state.contract is None:
        return None
    return joker_calls(state.rules, state.trump).get(card & 127)  # two decks: either copy


def pretty_bid(bid: Bid) -> str:
    """``14♠``, ``16 no-trump``."""
    if bid.trump is None:
        return _("{number} no-trump").format(number=bid.number)
    return f"{bid.number}{SUIT_SYMBOLS[bid.trump]}"


def pretty_cards(cards: Iterable[Card]) -> str:
    return " ".join(pretty_card(c) for c in sorted_cards(cards))


def _called_card_words(card: int) -> str:
    card &= 127  # two decks: either copy
    return (
        _("the joker")
        if card == JOKER
        else _("the black joker")
        if card == BLACK_JOKER
        else pretty_card(card)
    )


def friend_call_words(call: FriendCall) -> str:
    if call.kind == "card":
        if call.card2 is not None:  # two called cards (friend.called_cards = 2, 동대전 7마)
            return _("{first} and {second}").format(
                first=_called_card_words(call.card), second=_called_card_words(call.card2)
            )
        return _called_card_words(call.card)
    if call.kind == "player":
        return call.player
    words = {
        "none": _("no friend (노프렌드)"),
        "first_trick": _("the first trick's winner (초구)"),
        "last_trick": _("the last trick's winner (막구)"),
    }
    return words.get(call.kind, call.kind)


def action_words(before: HandState, action: Action) -> str:
    """One action in the table's words, given the state it was applied to."""
    if isinstance(action, engine.Play):
        return _("{player}'s {card}").format(player=action.player, card=pretty_play(action, before))
    if isinstance(action, engine.BidCall):
        return (
            _("{player}'s pass").format(player=action.player)
            if action.bid is None
            else _("{player}'s bid of {bid}").format(
                player=action.player, bid=pretty_bid(action.bid)
            )
        )
    if isinstance(action, engine.DeclareDealMiss):
        return _("{player}'s deal miss").format(player=action.player)
    if isinstance(action, engine.Discard):
        who = before.declarer if before is not None else _("the declarer")
        if not action.cards:
            return _("{player}'s discard").format(player=who)
        return _("{player}'s discard of {cards}").format(
            player=who, cards=pretty_cards(action.cards)
        )
    if isinstance(action, engine.Eliminate):
        if action.card is None:
            return _("the elimination of {player}").format(player=action.player)
        return _("the elimination call of {card}").format(card=pretty_card(action.card))
    if isinstance(action, engine.Redistribute):
        return _("the redistribution")
    if isinstance(action, engine.ChangeContract):
        return _("the change of contract to {contract}").format(
            contract=pretty_bid(action.contract)
        )
    if isinstance(action, engine.CallFriend):
        return _("the friend call ({call})").format(call=friend_call_words(action.call))
    return _("the last entry")


def led_suit(state: HandState) -> int | None:
    """The suit led to the trick in progress (None before the lead)."""
    trick = state.current_trick
    if not trick:
        return None
    play = trick[0][1]
    if is_joker(play.card) or play.joker_suit is not None:  # a joker (or Mighty) naming one
        return play.joker_suit
    return play.card >> 4 & 7


def winning_so_far(state: HandState) -> tuple[str, Any] | None:
    """Who holds the trick in progress and with what card (None before the lead): the engine's
    own trick rules (two jokers' colours and calls included) on the cards so far."""
    trick = state.current_trick
    if not trick or state.contract is None:
        return None
    index = holding_index(state)
    if index is None:
        return None
    return trick[index][0], trick[index][1]


def ruling_side(state: HandState) -> set:
    """The declarer and, once known, the friend."""
    side = {state.declarer}
    if state.friend_revealed and state.friend:
        side.add(state.friend)
    return side


def points_line(state: HandState) -> str:
    side = ruling_side(state)
    held = sum(v for p, v in state.points_taken.items() if p in side)
    others = sum(v for p, v in state.points_taken.items() if p not in side)
    call = state.friend_call
    if state.friend_revealed or (call is not None and call.kind == "none"):
        return _("points in tricks: ruling side (여당) {held}, others {others}").format(
            held=held, others=others
        )
    return _(
        "points in tricks: ruling side (여당) {held}, others {others} (friend unknown: "
        "counted with others)"
    ).format(held=held, others=others)


def friend_line(state: HandState) -> str:
    call = state.friend_call
    what = friend_call_words(call) if call else "?"
    if state.friend_revealed:
        return _("friend (프렌드) called {call}: {friend}").format(
            call=what, friend=state.friend or _("nobody (declarer alone)")
        )
    if call is not None and call.kind == "none":
        return _("friend (프렌드): none, the declarer plays alone")
    return _("friend (프렌드) called {call}: not known yet").format(call=what)


def standing_text(state: HandState) -> str:
    standing = state.standing_bid
    return (
        _("{bid} by {player}").format(bid=pretty_bid(standing[1]), player=standing[0])
        if standing
        else ""
    )


def prompt_text(state: HandState) -> str:
    """The question put to the referee: whose turn and, in play, the trick at a glance."""
    phase = state.phase
    if phase == "election":
        standing = standing_text(state)
        if standing:
            return _("[election, standing {standing}] {player} bids").format(
                standing=standing, player=state.to_move
            )
        return _("[election] {player} bids").format(player=state.to_move)
    if phase == "elimination":
        return elimination_prompt(state)
    if phase == "redistribution":
        return _("[redistribution] 'deal' (the tool deals), or NAME CARDS; NAME CARDS ...")
    if phase == "exchange":
        return _("[exchange] {declarer} discards {count} (contract {contract})").format(
            declarer=state.declarer, count=discard_count(state), contract=pretty_bid(state.contract)
        )
    if phase == "friend":
        if state.rules.table.partner_hands:  # 허니문: his own friend hand, the only call
            return _(
                "[friend] {declarer}'s friend is his own friend hand {partner} (프렌드 "
                "패), the only call: 'friend' or his first card, or a new contract (now "
                "{contract})"
            ).format(
                declarer=state.declarer,
                partner=partner_of(state.declarer),
                contract=pretty_bid(state.contract),
            )
        if not friend_possible(state.rules):  # 3마, 2마
            return _(
                "[friend] {declarer} plays alone: none, or a new contract (now {contract})"
            ).format(declarer=state.declarer, contract=pretty_bid(state.contract))
        return _(
            "[friend] {declarer} calls a friend, or changes the contract (now {contract})"
        ).format(declarer=state.declarer, contract=pretty_bid(state.contract))
    if phase == "play":
        parts = [_("trick {number}").format(number=state.trick_number)]
        suit = led_suit(state)
        if suit is not None:
            parts.append(_("{suit} led").format(suit=SUIT_SYMBOLS[suit]))
            winning = winning_so_far(state)
            if winning:
                parts.append(
                    _("{player}'s {card} winning").format(
                        player=winning[0], card=pretty_card(winning[1].card)
                    )
                )
        return _("[{trick}] {player} plays").format(trick=", ".join(parts), player=state.to_move)
    return _("[hand over]")


def discard_count(state: HandState) -> int:
    """How many the declarer discards: what he holds beyond the cards he plays (one a trick:
    the kitty's size; in 6마/7마 what the redistribution gave him beyond it)."""
    hands = state.hands
    if hands is not None and state.declarer in hands:
        return len(hands[state.declarer]) - state.rules.tricks
    return state.rules.elimination_discard if state.eliminated else state.rules.table.kitty_size


def elimination_prompt(state: HandState) -> str:
    """6마, 7마: the declarer's elimination call, the k-th of table.eliminated."""
    count = state.rules.table.eliminated
    number = len(state.eliminated) + 1
    if state.rules.table.eliminate_by == "player":
        return _(
            "[elimination {number} of {count}] {declarer} names a player to eliminate (탈락)"
        ).format(number=number, count=count, declarer=state.declarer)
    if state.hands is None:
        return _(
            "[elimination {number} of {count}] {declarer} calls a card; enter it with who "
            "held it (c5 NAME, or c5 kitty)"
        ).format(number=number, count=count, declarer=state.declarer)
    return _(
        "[elimination {number} of {count}] {declarer} calls a card: its holder is eliminated (탈락)"
    ).format(number=number, count=count, declarer=state.declarer)


def elimination_words(before: HandState, after: HandState) -> str:
    """What an elimination call did: who leaves, or why the call is made again."""
    card, holder = after.eliminations[-1]
    if card is None:
        return _("{declarer} eliminates {player} (탈락)").format(
            declarer=after.declarer, player=holder
        )
    said = pretty_card(card)
    if len(after.eliminated) > len(before.eliminated):
        return _("{declarer} calls {card}: {player} is eliminated (탈락)").format(
            declarer=after.declarer, card=said, player=after.eliminated[-1]
        )
    if holder is None:
        return _("{declarer} calls {card}: it is in the kitty; he calls again").format(
            declarer=after.declarer, card=said
        )
    return _("{declarer} calls {card}: {player} is already eliminated; he calls again").format(
        declarer=after.declarer, card=said, player=holder
    )


def redistribution_words(before: HandState, after: HandState) -> str:
    """The eliminated hands and the kitty dealt out: who received what (when seen)."""
    action = after.history[-1]
    if not action.cards:
        return _("the eliminated hands and the kitty are dealt out")
    return _("dealt out: {shares}").format(
        shares="; ".join(f"{player} {pretty_cards(cards)}" for player, cards in action.cards)
    )


def glance_line(state: HandState) -> str:
    """The table in one line, shown before each card: the trick so far, points per side, the
    friend, and the cards the player to move has left (when the deal is known)."""
    if state.phase != "play":
        return ""
    side = ruling_side(state)
    held = sum(v for p, v in state.points_taken.items() if p in side)
    others = sum(v for p, v in state.points_taken.items() if p not in side)
    parts = []
    if state.current_trick:
        parts.append(
            _("on the table {plays}").format(
                plays=", ".join(f"{p} {pretty_play(play)}" for p, play in state.current_trick)
            )
        )
    else:
        parts.append(
            _("{player} to lead trick {number}").format(
                player=state.to_move, number=state.trick_number
            )
        )
    parts.append(_("points 여당 {held} / others {others}").format(held=held, others=others))
    call = state.friend_call
    if state.friend_revealed:
        parts.append(_("friend {friend}").format(friend=state.friend or _("none")))
    elif call is not None and call.kind != "none":
        parts.append(_("friend ({call}) not known").format(call=friend_call_words(call)))
    hands = state.hands
    if hands is not None and state.to_move:
        parts.append(
            _("{player} holds {cards}").format(
                player=state.to_move, cards=pretty_cards(hands[state.to_move])
            )
        )
    return "  · " + " · ".join(parts)


def table_lines(state: HandState, players_line: bool = True) -> list[str]:
    """The table drawn in full: contract, friend, the trick on the table and who is winning it,
    points per side, and the cards each player has left."""
    lines: list[str] = []
    if players_line:
        lines.append(
            _("dealer {dealer}; playing {players}").format(
                dealer=state.dealer, players=", ".join(state.players)
            )
        )
    phase = state.phase
    if phase == "election":
        calls = [f"{p} {_('pass') if b is None else pretty_bid(b)}" for p, b in state.election]
        lines.append(
            _("election: {calls}; {player} to bid").format(
                calls="; ".join(calls) if calls else _("no calls yet"), player=state.to_move
            )
        )
        if state.hands is not None and state.to_move in state.hands:  # what he bids on
            lines.append(
                _("{player} holds {cards}").format(
                    player=state.to_move, cards=pretty_cards(state.hands[state.to_move])
                )
            )
    if state.contract is not None:
        lines.append(
            _("declarer (주공) {declarer}, contract {contract}").format(
                declarer=state.declarer, contract=pretty_bid(state.contract)
            )
        )
    if state.rules.table.partner_hands:
        lines.append(friend_hands_line(state))
    if state.eliminated:
        lines.append(_("eliminated (탈락): {players}").format(players=", ".join(state.eliminated)))
    if phase in ("play", "done"):
        lines.append(friend_line(state))
        lines.append(points_line(state))
    if phase == "play":
        suit = led_suit(state)
        if suit is None:
            lines.append(
                _("trick {number}: {player} to lead").format(
                    number=state.trick_number, player=state.to_move
                )
            )
        else:
            on_table = ", ".join(f"{p} {pretty_play(play)}" for p, play in state.current_trick)
            winning = winning_so_far(state)
            if winning:
                line = _(
                    "trick {number}: {suit} led; on the table {plays}; {winner} winning; "
                    "{player} to play"
                )
            else:
                line = _("trick {number}: {suit} led; on the table {plays}; {player} to play")
            lines.append(
                line.format(
                    number=state.trick_number,
                    suit=SUIT_SYMBOLS[suit],
                    plays=on_table,
                    winner=winning[0] if winning else "",
                    player=state.to_move,
                )
            )
        hands = state.hands
        if hands is not None:
            mover = state.to_move
            lines.append(
                _("{player} holds {cards}").format(player=mover, cards=pretty_cards(hands[mover]))
            )
            other = other_hand(state, mover)
            if other is not None:  # 허니문: he sees the friend hand he plays (or his own)
                lines.append(
                    _("{player} holds {cards}").format(
                        player=other, cards=pretty_cards(hands[other])
                    )
                )
            lines.append(
                _("cards left: {counts}").format(
                    counts=", ".join(f"{p} {len(hands[p])}" for p in state.players)
                )
            )
        else:
            lines.append(_("open cards: the deal is not known"))
    if phase == "elimination" and state.hands is not None:
        lines.append(
            _("{player} holds {cards}").format(
                player=state.declarer, cards=pretty_cards(state.hands[state.declarer])
            )
        )
    if phase == "exchange" and state.hands is not None:
        lines.append(
            _("{player} holds {cards} (kitty included)").format(
                player=state.declarer, cards=pretty_cards(state.hands[state.declarer])
            )
        )
    return lines


def friend_hands_line(state: HandState) -> str:
    """허니문 (table.partner_hands): the friend hands and who plays each."""

    return _("friend hands (프렌드 패): {hands}").format(
        hands=", ".join(
            _("{seat} (played by {player})").format(seat=seat, player=controller_of(seat))
            for seat in state.players
            if is_partner_hand(seat)
        )
    )


def other_hand(state: HandState, seat: str | None) -> str | None:
    """허니문: the other hand of the player who plays ``seat`` (his friend hand, or his own);
    None at other tables."""
    if not seat or not state.rules.table.partner_hands:
        return None

    player = controller_of(seat)
    return partner_of(player) if seat == player else player


def trick_start_index(states: list, trick_number: int) -> int | None:
    """The index in a stack of states (one per action) of the state at the start of a trick."""
    for index, state in enumerate(states):
        if state.phase == "play" and state.trick_number == trick_number and not state.current_trick:
            return index
    return None


__all__ = [
    "pretty_card",
    "pretty_play",
    "pretty_bid",
    "pretty_cards",
    "action_words",
    "led_suit",
    "winning_so_far",
    "points_line",
    "friend_line",
    "prompt_text",
    "glance_line",
    "table_lines",
    "trick_start_index",
    "format_bid",
    "discard_count",
    "elimination_prompt",
    "elimination_words",
    "redistribution_words",
    "friend_hands_line",
    "other_hand",
]
