"""The joker and Mighty as annotated plays (docs/rules.md §7): a joker lead's named suit and
Mighty naming one (``SA/H``), the joker call (``C3!``) and what it forces, checked before
play.py plays the card; a joker lead's suit checked against a trump lead's bar."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import JOKER, SUITS, CardMask, format_card, trump_name
from ..cards.deck import suit_symbol
from ..errors import IllegalPlay
from ..translation import _
from .actions import Play
from .contract import JOKER_COLOURS, trump_lead_barred
from .play_errors import trump_lead_message
from .state import HandState

if TYPE_CHECKING:
    from .seats import Seat


def check_joker_annotation(state: HandState, seat: Seat, play: Play) -> None:
    """Only a joker lead names a suit, and it must (and a Mighty lead under
    cards.mighty_lead_names_suit)."""
    ci = state._contract
    assert ci is not None
    number = state.trick_number
    joker_suit = play.joker_suit
    ident = play.card & 127  # two decks: whichever copy
    if ident == ci.mighty_named and not state._trick:
        if joker_suit not in SUITS:
            name = format_card(play.card)
            raise IllegalPlay(
                _(
                    "trick {number}: {player} led Mighty ({card}) without naming a "
                    "suit (write {card}/S, {card}/D, {card}/H or {card}/C; "
                    "cards.mighty_lead_names_suit)"
                ).format(number=number, player=play.player, card=name)
            )
        if state._hands is not None:
            check_joker_lead(state, seat, state._hands[seat] & ~state._played, play)
        return
    if ident == ci.mighty_named and joker_suit is None:
        return  # Mighty played to a trick: an ordinary card of its suit
    if play.card & 112 == 64:  # a joker (either copy)
        if not state._trick:
            if joker_suit not in SUITS:
                if play.card & 127 != JOKER:  # the black joker (either copy)
                    raise IllegalPlay(
                        _(
                            "trick {number}: {player} led {card} without naming a "
                            "suit (write {card}/S, {card}/D, {card}/H or {card}/C)"
                        ).format(number=number, player=play.player, card=format_card(play.card))
                    )
                raise IllegalPlay(
                    _(
                        "trick {number}: {player} led the joker without naming a "
                        "suit (write JK/S, JK/D, JK/H or JK/C)"
                    ).format(number=number, player=play.player)
                )
            allowed = ci.joker_lead_suits
            if allowed is not None and joker_suit not in allowed[play.card]:
                raise IllegalPlay(
                    _(
                        "trick {number}: {player} led {card} naming {suit}, but a "
                        "joker lead names a suit of the joker's colour ({suits}) or "
                        "trump (cards.joker_leads_colour)"
                    ).format(
                        number=number,
                        player=play.player,
                        card=format_card(play.card),
                        suit=suit_symbol(joker_suit),
                        suits=" ".join(map(suit_symbol, JOKER_COLOURS[play.card & 127])),
                    )
                )
            if state._hands is not None:
                check_joker_lead(state, seat, state._hands[seat] & ~state._played, play)
        elif joker_suit is not None:
            raise IllegalPlay(
                _(
                    "trick {number}: {player} played the joker naming {suit} but "
                    "only a joker lead names a suit"
                ).format(number=number, player=play.player, suit=suit_symbol(joker_suit))
            )
    else:
        raise IllegalPlay(
            _(
                "trick {number}: {player} played {card} with a suit annotation; "
                "only a joker lead names a suit"
            ).format(number=number, player=play.player, card=format_card(play.card))
        )


def joker_call_effect(state: HandState, play: Play) -> CardMask:
    """The bit of the joker this play calls out, 0 for none (raises if the call cannot be
    declared at all). With two jokers the card led says which (cards.joker_call: the black
    joker, cards.colour_joker_call: the colour joker)."""
    ci = state._contract
    assert ci is not None
    number = state.trick_number
    called = ci.call_jokers.get(play.card & 127)  # two decks: either copy of the call card
    if called is None:
        raise IllegalPlay(
            _(
                "trick {number}: {player} declared a joker call with {card} but "
                "the joker-call card is {call_card} (cards.joker_call)"
            ).format(
                number=number,
                player=play.player,
                card=format_card(play.card),
                call_card=" / ".join(map(format_card, ci.call_jokers)),
            )
        )
    if ci.declaration == "never":
        raise IllegalPlay(
            _(
                "trick {number}: {player} declared a joker call but this ruleset "
                "has none (joker_call.declaration = never)"
            ).format(number=number, player=play.player)
        )
    # A call has effect only as a lead, from trick 2 (or 1), while the joker is still out
    # (not played, and not discarded: the declarer's _hands no longer has his discards).
    hands = state._hands
    called &= ~state._played  # (a joker's copies not yet played: a two-deck game has two)
    if (
        not state._trick
        and (number != 1 or ci.call_first)
        and called
        and (hands is None or any(mask & called for mask in hands))
    ):
        return called
    return 0


def check_joker_lead(state: HandState, seat: Seat, hand: CardMask, play: Play) -> None:
    """A joker (or suitless Mighty) lead naming trump is a trump lead; a requested lead may not
    be dodged with it."""
    ci = state._contract
    suit = play.joker_suit
    assert ci is not None and suit is not None  # (a lead that names a suit: its callers')
    number = state.trick_number
    what = (
        _("the joker")
        if play.card & 127 == JOKER
        else format_card(play.card)
        if play.card & 112 == 64
        else _("Mighty ({card})").format(card=format_card(play.card))
    )
    if (
        suit == ci.trump
        and hand & ci.non_trump_mask
        and trump_lead_barred(ci, number, state._trump_played)
    ):
        head = _("trick {number}: {player} led {what} naming {suit}").format(
            number=number, player=play.player, what=what, suit=trump_name(suit)
        )
        raise IllegalPlay(trump_lead_message(state, head))
    lead = ci.lead_suit  # the lead the declarer asked of his friend (friend.lead_request)
    if (
        lead is not None
        and seat == state._friend
        and not state._friend_led
        and suit != lead
        and hand & ci.follow_masks[lead]
    ):
        wanted = suit_symbol(lead)
        raise IllegalPlay(
            _(
                "trick {number}: {player} led {what} naming {suit} but the "
                "declarer asked his friend to lead {wanted} and {player} holds "
                "{wanted} (friend.lead_request)"
            ).format(
                number=number, player=play.player, what=what, suit=suit_symbol(suit), wanted=wanted
            )
        )
