"""Open-cards mode (``deal=None``): the hands are unknown, so the engine checks what the cards
shown allow.

Rules held here:

* No card twice (nor a known discard).
* The joker may not be played where the ruleset bars it (tricks 1 / 10).
* A player who showed out of a suit (played another card, not Mighty or the joker, to a lead of
  it) and plays that suit later has revoked; the error names both tricks.
* Mighty-as-its-suit and voids: when Mighty counts as its suit, showing out of ♠ also proves the
  player had no Mighty (he would have had to play it), so a later Mighty from him is a revoke;
  when it does not count, Mighty is outside the void.
* A player who did not play the joker to an effective joker call cannot play it later (with two
  jokers: the joker that call named); nor one who showed out of trump when trump was led under
  ``play.joker_on_trump_lead``.
* Two jokers (``cards.joker_follows_colour``): a joker of the other colour played to a trick is
  accepted only when its player may hold nothing else (no more cards in hand than such jokers
  unseen: his last card, in one deck), and proves he holds no other card.
* A leader who led trump where that needs "only trumps" cannot later play another suit.
* Trump instead of following (``play.trump_instead_of_following``) shows no void.
* The lead request is not checked (the friend is unknown when he leads).
* Two decks (table.decks = 2): a card played is copy 0 until that was played, then copy 1
  (play.py); a void covers both copies, and a joker-call void both jokers.
"""

from __future__ import annotations

from ..cards import CardMask, format_card, is_joker
from ..cards.deck import suit_symbol
from ..errors import IllegalPlay
from ..translation import _
from .actions import Play
from .contract import joker_playable, trump_lead_barred
from .seats import Seat
from .state import HandState

# --- open cards: what the shown cards allow ------------------------------------------------------


def check_open_play(state: HandState, seat: Seat, play: Play) -> None:
    ci = state._contract
    assert ci is not None  # (the play: the contract is known)
    number = state.trick_number
    card = play.card
    bit = 1 << card
    name = format_card(card)
    head = (
        _("trick {number}: {player} played {card}")
        if state._trick
        else _("trick {number}: {player} led {card}")
    ).format(number=number, player=play.player, card=name)
    if state._played & bit:
        setup = state._setup
        if setup.discard_known and setup.discards is not None and card in setup.discards:
            raise IllegalPlay(
                _("{head} but the declarer discarded it (no card twice)").format(head=head)
            )
        for trick in state.tricks:
            for _player, earlier in trick.plays:
                if earlier.card == card:
                    raise IllegalPlay(
                        _(
                            "{head} but it was already played on trick {number} (no card twice)"
                        ).format(head=head, number=state.tricks.index(trick) + 1)
                    )
        raise IllegalPlay(
            _("{head} but it was already played in this trick (no card twice)").format(head=head)
        )
    if ci.joker_mask >> card & 1 and not joker_playable(ci, number):
        which = "first" if number == 1 else "last"
        raise IllegalPlay(
            _(
                "{head}: the joker may not be played on trick {number} "
                "(cards.joker_playable_{which}_trick = false)"
            ).format(head=head, number=number, which=which)
        )
    if _barred_jokers(state, state._ctx.deck_mask & ~state._played) >> card & 1:
        raise IllegalPlay(
            _(
                "{head}, but {card} may be played only to a trick led in a suit "
                "of its colour, and {led} was led (cards.joker_follows_colour)"
            ).format(head=head, card=name, led=suit_symbol(state._led_suit))
        )
    assert state._voids is not None  # (open cards: the voids shown)
    for mask, trick_number, reason, rule in state._voids[seat]:
        if mask & bit:
            error = IllegalPlay(
                _("{head} but {reason} on trick {number} ({rule})").format(
                    head=head, reason=reason, number=trick_number, rule=rule
                )
            )
            error.proving_trick = trick_number  # the trick that showed the void (a revoke)
            raise error


def _add_void(
    new: HandState, seat: Seat, mask: CardMask, trick_number: int, reason: str, rule: str
) -> None:
    assert new._voids is not None  # (open cards)
    voids = list(new._voids)
    voids[seat] = voids[seat] + ((mask, trick_number, reason, rule),)
    new._voids = tuple(voids)


def infer_voids(state: HandState, new: HandState, seat: Seat, play: Play) -> None:
    """A follower who did not follow suit (or ignored a joker call) holds none of what he owed."""
    ci = state._contract
    assert ci is not None  # (the play: the contract is known)
    card = play.card & 127  # two decks: whichever copy
    number = state.trick_number
    called = state._call  # the called joker's bit (two jokers: the one the card led names)
    if (
        called
        and not called >> card & 1
        and not (ci.defends and card == ci.mighty)
        and joker_playable(ci, number)
    ):
        _add_void(
            new,
            seat,
            called,
            number,
            _("did not play the joker when it was called"),
            _("revoke: the holder of a called joker must play it"),
        )
    joker = ci.joker_mask >> card & 1
    if joker and ci.joker_barred[state._led_suit] >> card & 1:
        # a joker of the other colour (cards.joker_follows_colour) is played only by a player
        # left with nothing else: he holds no other card
        _add_void(
            new,
            seat,
            ~ci.joker_barred[state._led_suit],
            number,
            _("played a joker of the other colour, so held nothing else,"),
            _("revoke: cards.joker_follows_colour"),
        )
        return
    if (joker and (ci.joker_free[state._led_suit] or called)) or (
        card == ci.mighty and ci.also_bits & ci.mighty_bit
    ):
        return  # Mighty and the joker may be played at any time (or the joker was called)
    led = state._led_suit
    if card >> 4 != led and ci.also_bits >> play.card & 1:
        return  # trump instead of following (play.trump_instead_of_following): no void shown
    if card >> 4 != led and ci.joker_on_trump and led == ci.trump and joker_playable(ci, number):
        _add_void(
            new,
            seat,
            ci.joker_mask,
            number,
            _("showed out of {suit} without the joker").format(suit=suit_symbol(led)),
            _("revoke: play.joker_on_trump_lead"),
        )
    if card >> 4 != led:
        mask = ci.follow_masks[led]
        rule = _("revoke: must follow suit")
        if mask & ci.mighty_bit:
            rule = _(
                "revoke: must follow suit; Mighty counts as its suit, cards.mighty_must_follow_suit"
            )
        _add_void(
            new, seat, mask, number, _("showed out of {suit}").format(suit=suit_symbol(led)), rule
        )


def infer_trump_lead(state: HandState, new: HandState, seat: Seat, play: Play) -> None:
    """A trump lead that needs "only trumps" proves the leader holds no other suit."""
    ci = state._contract
    assert ci is not None  # (the play: the contract is known)
    card = play.card & 127  # two decks: whichever copy
    trump_lead = (
        play.joker_suit == ci.trump
        if play.joker_suit is not None
        else (not is_joker(card) and card >> 4 == ci.trump and card != ci.mighty)
    )
    number = state.trick_number
    if trump_lead and trump_lead_barred(ci, number, state._trump_played):
        _add_void(
            new,
            seat,
            ci.non_trump_mask,
            number,
            _("led trump, so held only trumps,"),
            _("revoke: play.trump_lead = {value}").format(value=ci.trump_lead),
        )


def open_candidates(state: HandState, seat: Seat) -> CardMask:
    """Cards a player might still hold in open-cards mode (the ghost: any unseen card)."""
    mask = state._ctx.deck_mask & ~state._played
    if seat == state._ctx.ghost_seat:
        return mask
    ci, voids = state._contract, state._voids
    assert ci is not None and voids is not None  # (the play, open cards)
    for void, _number, _reason, _rule in voids[seat]:
        mask &= ~void
    if not joker_playable(ci, state.trick_number):
        mask &= ~ci.joker_mask
    return mask & ~_barred_jokers(state, mask)


def _barred_jokers(state: HandState, possible: CardMask) -> CardMask:
    """The jokers of the other colour (cards.joker_follows_colour) a follower may not play now:
    all of them while he holds more cards than such jokers are among ``possible`` (the cards he
    might hold), since he plays one only when left with nothing else; else none."""
    ci = state._contract
    assert ci is not None  # (the play: the contract is known)
    barred = ci.joker_barred[state._led_suit] if state._trick else 0
    if barred and ci.tricks - state.trick_number + 1 > (barred & possible).bit_count():
        return barred
    return 0
