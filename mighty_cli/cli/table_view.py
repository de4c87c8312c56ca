"""What the referee sees: the table drawn from a hand's state, and actions named in the table's
words ("Cy's ♥Q", "Bo's bid of 14♠").

Pure functions of the hand engine's public state (no click, no printing), so the referee, the
evening loop and the tests share them.
"""

from __future__ import annotations

from typing import Any, Optional

from ..engine import hand as engine
from ..engine.cards import JOKER, RANK_NAMES, SUIT_SYMBOLS, format_bid, sorted_cards


def pretty_card(card: int) -> str:
    """A card as the table says it: ``♥Q``, ``♠10``, ``joker``."""
    if card == JOKER:
        return "joker"
    return SUIT_SYMBOLS[card >> 4] + RANK_NAMES[card & 15]


def pretty_play(play: Any) -> str:
    """A played card with its annotation: ``joker (asks ♥)``, ``♣3 (joker call)``."""
    text = pretty_card(play.card)
    if play.joker_suit is not None:
        text += f" (asks {SUIT_SYMBOLS[play.joker_suit]})"
    if play.joker_call:
        text += " (joker call)"
    return text


def pretty_bid(bid) -> str:
    """``14♠``, ``16 no-trump``."""
    if bid.trump is None:
        return f"{bid.number} no-trump"
    return f"{bid.number}{SUIT_SYMBOLS[bid.trump]}"


def pretty_cards(cards) -> str:
    return " ".join(pretty_card(c) for c in sorted_cards(cards))


def friend_call_words(call) -> str:
    if call.kind == "card":
        return "the joker" if call.card == JOKER else pretty_card(call.card)
    if call.kind == "player":
        return call.player
    return {"none": "no friend (노프렌드)", "first_trick": "the first trick's winner (초구)",
            "last_trick": "the last trick's winner (막구)"}.get(call.kind, call.kind)


def action_words(before, action) -> str:
    """One action in the table's words, given the state it was applied to."""
    if isinstance(action, engine.Play):
        return f"{action.player}'s {pretty_play(action)}"
    if isinstance(action, engine.BidCall):
        return (f"{action.player}'s pass" if action.bid is None
                else f"{action.player}'s bid of {pretty_bid(action.bid)}")
    if isinstance(action, engine.DeclareDealMiss):
        return f"{action.player}'s deal miss"
    if isinstance(action, engine.Discard):
        who = before.declarer if before is not None else "the declarer"
        if not action.cards:
            return f"{who}'s discard"
        return f"{who}'s discard of {pretty_cards(action.cards)}"
    if isinstance(action, engine.ChangeContract):
        return f"the change of contract to {pretty_bid(action.contract)}"
    if isinstance(action, engine.CallFriend):
        return f"the friend call ({friend_call_words(action.call)})"
    return "the last entry"


def led_suit(state) -> Optional[int]:
    """The suit led to the trick in progress (None before the lead)."""
    trick = state.current_trick
    if not trick:
        return None
    play = trick[0][1]
    if play.card == JOKER:
        return play.joker_suit
    return play.card >> 4


def winning_so_far(state) -> Optional[tuple[str, Any]]:
    """Who holds the trick in progress and with what card (None before the lead)."""
    trick = state.current_trick
    if not trick or state.contract is None:
        return None
    rules, number = state.rules, state.trick_number
    c, j = rules.cards, rules.joker_call
    last = engine.TRICKS
    mighty_power = (number != 1 or c.mighty_power_first_trick) and \
        (number != last or c.mighty_power_last_trick)
    joker_power = (number != 1 or c.joker_power_first_trick) and \
        (number != last or c.joker_power_last_trick)
    lead = trick[0][1]
    call_card = engine.joker_call_card(rules, state.trump)
    called = (lead.card == call_card and (lead.joker_call or j.declaration == "always")
              and (number != 1 or j.first_trick_effect))
    if called and j.called_joker_powerless:
        joker_power = False
    cards = [play.card for _, play in trick]
    suit = led_suit(state)
    if suit is None:
        return None
    if all(card == JOKER for card in cards):
        return trick[0][0], trick[0][1]  # a powerless joker alone on the table
    index = engine.trick_winner(cards, suit, state.trump, state.mighty, mighty_power,
                                joker_power)
    return trick[index][0], trick[index][1]


def ruling_side(state) -> set:
    """The declarer and, once known, the friend."""
    side = {state.declarer}
    if state.friend_revealed and state.friend:
        side.add(state.friend)
    return side


def points_line(state) -> str:
    side = ruling_side(state)
    held = sum(v for p, v in state.points_taken.items() if p in side)
    others = sum(v for p, v in state.points_taken.items() if p not in side)
    return (f"points in tricks: ruling side (여당) {held}, others {others}"
            f"{'' if state.friend_revealed else ' (friend unknown: counted with others)'}")


def friend_line(state) -> str:
    call = state.friend_call
    what = friend_call_words(call) if call else "?"
    if state.friend_revealed:
        return f"friend (프렌드) called {what}: {state.friend or 'nobody (declarer alone)'}"
    if call is not None and call.kind == "none":
        return "friend (프렌드): none, the declarer plays alone"
    return f"friend (프렌드) called {what}: not known yet"


def standing_text(state) -> str:
    standing = state.standing_bid
    return f"{pretty_bid(standing[1])} by {standing[0]}" if standing else ""


def prompt_text(state) -> str:
    """The question put to the referee: whose turn and, in play, the trick at a glance."""
    phase = state.phase
    if phase == "election":
        standing = standing_text(state)
        return f"[election{', standing ' + standing if standing else ''}] {state.to_move} bids"
    if phase == "exchange":
        return f"[exchange] {state.declarer} discards 3 (contract {pretty_bid(state.contract)})"
    if phase == "friend":
        return (f"[friend] {state.declarer} calls a friend, or changes the contract "
                f"(now {pretty_bid(state.contract)})")
    if phase == "play":
        parts = [f"trick {state.trick_number}"]
        suit = led_suit(state)
        if suit is not None:
            parts.append(f"{SUIT_SYMBOLS[suit]} led")
            winning = winning_so_far(state)
            if winning:
                parts.append(f"{winning[0]}'s {pretty_card(winning[1].card)} winning")
        return f"[{', '.join(parts)}] {state.to_move} plays"
    return "[hand over]"


def glance_line(state) -> str:
    """The table in one line, shown before each card: the trick so far, points per side, the
    friend, and the cards the player to move has left (when the deal is known)."""
    if state.phase != "play":
        return ""
    side = ruling_side(state)
    held = sum(v for p, v in state.points_taken.items() if p in side)
    others = sum(v for p, v in state.points_taken.items() if p not in side)
    parts = []
    if state.current_trick:
        parts.append("on the table " + ", ".join(f"{p} {pretty_play(play)}"
                                                 for p, play in state.current_trick))
    else:
        parts.append(f"{state.to_move} to lead trick {state.trick_number}")
    parts.append(f"points 여당 {held} / others {others}")
    call = state.friend_call
    if state.friend_revealed:
        parts.append(f"friend {state.friend or 'none'}")
    elif call is not None and call.kind != "none":
        parts.append(f"friend ({friend_call_words(call)}) not known")
    hands = state.hands
    if hands is not None and state.to_move:
        parts.append(f"{state.to_move} holds {pretty_cards(hands[state.to_move])}")
    return "  · " + " · ".join(parts)


def table_lines(state, players_line: bool = True) -> list[str]:
    """The table drawn in full: contract, friend, the trick on the table and who is winning it,
    points per side, and the cards each player has left."""
    lines: list[str] = []
    if players_line:
        lines.append(f"dealer {state.dealer}; playing {', '.join(state.players)}")
    phase = state.phase
    if phase == "election":
        calls = [f"{p} {'pass' if b is None else pretty_bid(b)}" for p, b in state.election]
        lines.append("election: " + ("; ".join(calls) if calls else "no calls yet")
                     + f"; {state.to_move} to bid")
    if state.contract is not None:
        lines.append(f"declarer (주공) {state.declarer}, contract {pretty_bid(state.contract)}")
    if phase in ("play", "done"):
        lines.append(friend_line(state))
        lines.append(points_line(state))
    if phase == "play":
        suit = led_suit(state)
        if suit is None:
            lines.append(f"trick {state.trick_number}: {state.to_move} to lead")
        else:
            on_table = ", ".join(f"{p} {pretty_play(play)}" for p, play in state.current_trick)
            winning = winning_so_far(state)
            lines.append(f"trick {state.trick_number}: {SUIT_SYMBOLS[suit]} led; on the table "
                         f"{on_table}" + (f"; {winning[0]} winning" if winning else "")
                         + f"; {state.to_move} to play")
        hands = state.hands
        if hands is not None:
            mover = state.to_move
            lines.append(f"{mover} holds {pretty_cards(hands[mover])}")
            lines.append("cards left: " + ", ".join(f"{p} {len(hands[p])}"
                                                     for p in state.players))
        else:
            lines.append("open cards: the deal is not known")
    if phase == "exchange" and state.hands is not None:
        lines.append(f"{state.declarer} holds {pretty_cards(state.hands[state.declarer])} "
                     f"(kitty included)")
    return lines


def trick_start_index(states: list, trick_number: int) -> Optional[int]:
    """The index in a stack of states (one per action) of the state at the start of a trick."""
    for index, state in enumerate(states):
        if state.phase == "play" and state.trick_number == trick_number \
                and not state.current_trick:
            return index
    return None


__all__ = ["pretty_card", "pretty_play", "pretty_bid", "pretty_cards", "action_words",
           "led_suit", "winning_so_far", "points_line", "friend_line", "prompt_text", "glance_line",
           "table_lines", "trick_start_index", "format_bid"]
