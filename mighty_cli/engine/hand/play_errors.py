"""Why a card may not be played: the :class:`~mighty_cli.engine.errors.IllegalPlay` that names
the player, the card and the rule it breaks (following suit, the joker's tricks, a trump lead,
the joker call, the lead a friend was asked for), and a play out of turn. play.py asks for it
once its legal mask has refused a card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import ELEVEN, EXTRA_CARD_NAMES, format_card, trump_name
from ..cards.deck import VALID_CARDS, suit_symbol
from ..errors import IllegalPlay
from ..translation import _
from .actions import Play
from .contract import joker_playable
from .state import HandState

if TYPE_CHECKING:
    from .seats import Seat


def play_error(state: HandState, seat: Seat, play: Play) -> IllegalPlay:
    """The message for a card the player may not play (full deal)."""
    ctx, ci, hands = state._ctx, state._contract, state._hands
    assert ci is not None and hands is not None  # (the play, a full deal)
    number = state.trick_number
    player, card = play.player, play.card
    ident = card & 127  # two decks: which card it is, whichever copy
    hand = hands[seat] & ~state._played
    name = format_card(card)
    head = (
        _("trick {number}: {player} played {card}")
        if state._trick
        else _("trick {number}: {player} led {card}")
    ).format(number=number, player=player, card=name)
    if not hand >> card & 1:
        holder = next(
            (ctx.players[s] for s, mask in enumerate(hands) if (mask & ~state._played) >> card & 1),
            None,
        )
        where = (
            _("{holder} holds it").format(holder=holder)
            if holder
            else _("it was already played")
            if state._played >> card & 1
            else _("it is not in play")
        )
        return IllegalPlay(
            _("{head} but does not hold it ({where})").format(head=head, where=where)
        )
    jokers = hand & ci.joker_mask
    if jokers and number >= ci.tricks - jokers.bit_count() and not ci.joker_play_last:
        return IllegalPlay(
            _(
                "{head} but holds the joker, which may not be played on trick "
                "{last} (must play it now; cards.joker_playable_last_trick = false)"
            ).format(head=head, last=ci.tricks)
        )
    if ci.joker_mask >> card & 1 and number == 1 and not ci.joker_play_first:
        return IllegalPlay(
            _(
                "{head}: the joker may not be played on trick 1 "
                "(cards.joker_playable_first_trick = false)"
            ).format(head=head)
        )
    if not state._trick:
        if ci.trump_lead_mask and ident >> 4 == ci.trump and ident != ci.mighty:
            return IllegalPlay(trump_lead_message(state, head))
        suit = ci.lead_suit  # (nothing else refuses a lead)
        assert suit is not None
        return IllegalPlay(
            _(
                "{head} but the declarer asked his friend to lead {suit} and "
                "{player} holds {suit} (friend.lead_request)"
            ).format(head=head, suit=suit_symbol(suit), player=player)
        )
    if (
        state._trick
        and ci.joker_on_trump
        and jokers
        and state._led_suit == ci.trump
        and not hand & ci.follow_masks[ci.trump]
        and not state._call
        and joker_playable(ci, number)
    ):
        trump = trump_name(ci.trump)
        return IllegalPlay(
            _(
                "{head} but holds no {trump} and holds the joker, and {trump} was "
                "led (must play the joker; play.joker_on_trump_lead)"
            ).format(head=head, trump=trump)
        )
    if state._call & hand:
        if ci.defends and hand & ci.mighty_bit:
            message = _(
                "{head} but holds the joker and the joker was called: he must play the "
                "joker or Mighty (joker call; joker_call.mighty_defends = true)"
            )
        else:
            message = _(
                "{head} but holds the joker and the joker was called: he must play the "
                "joker (joker call; joker_call.mighty_defends = {value})"
            )
        return IllegalPlay(message.format(head=head, value="true" if ci.defends else "false"))
    if ci.joker_barred[state._led_suit] >> card & 1:
        return IllegalPlay(
            _(
                "{head}, but {card} may be played only to a trick led in a suit of "
                "its colour, and {led} was led (cards.joker_follows_colour)"
            ).format(head=head, card=name, led=suit_symbol(state._led_suit))
        )
    led = suit_symbol(state._led_suit)
    only_mighty = hand & ci.follow_masks[state._led_suit] == hand & ci.mighty_bit
    if only_mighty:
        return IllegalPlay(
            _(
                "{head} but holds {led} only in Mighty ({mighty}) and {led} was led "
                "(must follow suit: Mighty counts as its suit; "
                "cards.mighty_must_follow_suit)"
            ).format(head=head, led=led, mighty=format_card(ci.mighty))
        )
    rule = ""
    if ci.joker_mask >> card & 1:
        rule = "; cards.joker_plays_any_time = false"
    elif ident == ci.mighty:
        rule = "; cards.mighty_plays_any_time = false"
    return IllegalPlay(
        _("{head} but holds {led} and {led} was led (must follow suit{rule})").format(
            head=head, led=led, rule=rule
        )
    )


def trump_lead_message(state: HandState, head: str) -> str:
    ci = state._contract
    assert ci is not None
    trump = trump_name(ci.trump)
    if ci.trump_lead == "only_trumps_left":
        rule = _(
            "the leader may not lead trump while he holds a card of another suit; "
            "play.trump_lead = only_trumps_left"
        )
    elif ci.trump_lead == "not_first_trick" or state.trick_number == 1 and not state._trump_played:
        rule = _(
            "the leader may not lead trump on trick 1 unless he holds only trumps; "
            "play.trump_lead = {value}"
        ).format(value=ci.trump_lead)
        if ci.trump_lead == "after_trump_played":
            rule = _(
                "the leader may not lead trump before trump has been played unless he "
                "holds only trumps; play.trump_lead = after_trump_played"
            )
    else:
        rule = _(
            "the leader may not lead trump before trump has been played unless he "
            "holds only trumps; play.trump_lead = after_trump_played"
        )
    return _("{head} but holds cards of other suits and {trump} are trump ({rule})").format(
        head=head, trump=trump, rule=rule
    )


def turn_error(state: HandState, play: Play, seat: Seat | None) -> IllegalPlay:
    number = state.trick_number
    if seat is None:
        return IllegalPlay(
            _("trick {number}: {player} is not one of the players").format(
                number=number, player=repr(play.player)
            )
        )
    if play.card in EXTRA_CARD_NAMES and play.card not in state._ctx.valid:
        # the black joker: a card, but not of a 53-card deck
        return IllegalPlay(
            _("trick {number}: {player} played {card}, which is not in this ruleset's deck").format(
                number=number, player=play.player, card=format_card(play.card)
            )
        )
    if play.card not in VALID_CARDS:
        return IllegalPlay(
            _("trick {number}: {player} played {card}, which is not a card").format(
                number=number, player=play.player, card=repr(play.card)
            )
        )
    if play.card not in state._ctx.valid and play.card & 15 == ELEVEN:  # 서울과고's 11
        return IllegalPlay(
            _(
                "trick {number}: {player} played {card}, which is not in this "
                "ruleset's deck (table.rank_eleven = false)"
            ).format(number=number, player=play.player, card=format_card(play.card))
        )
    if play.card not in state._ctx.valid:
        return IllegalPlay(
            _(
                "trick {number}: {player} played {card}, which is not in play (table.removed_cards)"
            ).format(number=number, player=play.player, card=format_card(play.card))
        )
    return IllegalPlay(
        _("trick {number}: {player} played {card} but it is {other}'s turn").format(
            number=number, player=play.player, card=format_card(play.card), other=state.to_move
        )
    )
