"""A trick settled (docs/rules.md §2, §6, §7): who wins it, its points, and the friend when a
card or a trick reveals him; split from play.py, which plays the cards (both the engine's apply
and the fast replay, hand/replay_tricks.py, settle with these functions).

* The winner: Mighty with power, else the first joker played with power (000 §7.11: 먼저 낸
  조커가 승리한다; contract.py's powered_jokers says which keep it), else the highest trump,
  else the highest card of the led suit (서울과고's 11 between 10 and J; no trump wins on trick
  1 under play.trump_power_first_trick = false). Two decks: a copy ranks as its original, the
  first of two identical cards wins (contract.trick_index).
* The points of a trick are its point cards; the winner leads the next trick; the last trick
  ends the hand.
* The friend: a called card reveals its holder when played (two decks: the holder other than
  the declarer, the first to play it where two others hold one); a first-/last-trick call
  makes the trick's winner friend (none if the declarer wins it; under
  ``friend.first_trick_declarer_wins = "next_trick"`` the first trick the declarer does not
  win decides); under ``friend.reveal_on_points`` (수원/성균관) the friend shows himself when
  he takes points.

Each function takes the state before the card (or the trick) and the state being built after
it; the fast replay passes one private state as both, so each reads a field before it writes
it (keep it so).
"""

from __future__ import annotations

from ..cards import format_card
from ..cards.deck import ELEVEN_MASK, FACE_MASK, SUIT_MASKS
from ..errors import IllegalPlay
from ..translation import _
from .actions import NO_FRIEND, PENDING, CompletedTrick, Play
from .contract import powered_jokers, trick_index, trick_winner
from .state import HandState, tuple_new


def reveal_card_friend(state: HandState, new: HandState, seat: int, play: Play) -> None:
    """The called card is played: its player is the friend (or the call was fake)."""
    declarer = state._setup.declarer
    if state._friend == PENDING:  # open cards: now we know
        if seat == declarer:
            if not state.rules.friend.fake:
                raise IllegalPlay(
                    _(
                        "trick {number}: {player} played {card}, the card he "
                        "called as friend (friend.fake = false)"
                    ).format(
                        number=state.trick_number, player=play.player, card=format_card(play.card)
                    )
                )
            new._friend = NO_FRIEND
            return
        new._friend = seat
    if new._friend is not None and new._friend >= 0:
        new.friend_revealed = True


def reveal_second_friend(state: HandState, new: HandState, seat: int) -> None:
    """The second called card is played (동대전 7마): in open cards its player is now known to
    be a friend (none if it is the declarer or the first card's friend)."""
    setup = state._setup
    if setup.friend2 != PENDING:
        return
    new_setup = setup.copy()
    new_setup.friend2 = NO_FRIEND if seat in (setup.declarer, state._friend) else seat
    new._setup = new_setup


def reveal_copy_friend(state: HandState, new: HandState, seat: int, first: bool) -> None:
    """Two decks: a copy of a called card is played (``first``: the first called card, else the
    second). Its friend is the holder other than the declarer (friend_call.py); where two others
    held a copy he was pending, and the first of them to play his copy is the friend. A player
    already a friend by the other card stays one friend (up to two partners)."""
    declarer = state._setup.declarer
    if seat == declarer:
        return  # his own copy: the other copy's holder is (or becomes) the friend
    if first:
        if new._friend == PENDING:
            other = state._setup.friend2
            new._friend = NO_FRIEND if other == seat else seat
        if new._friend == seat:
            new.friend_revealed = True
        return
    setup = new._setup
    if setup.friend2 == PENDING:
        new_setup = setup.copy()
        new_setup.friend2 = NO_FRIEND if seat == new._friend else seat
        new._setup = new_setup


def finish_trick(
    state: HandState, new: HandState, trick: tuple, trick_mask: int, leader_seat: int
) -> None:
    """Settle a complete trick: winner, points, the friend when a trick decides him, who leads
    next (``leader_seat``: play passes in seat order, so the seat after the last player)."""
    ctx, ci = state._ctx, state._contract
    assert ci is not None  # (the play: the contract is known)
    number = state.trick_number
    if len(trick) == 5:
        # the five cards in playing order, written out: cheaper than a comprehension
        first, second, third, fourth, fifth = trick
        cards = (first[1][1], second[1][1], third[1][1], fourth[1][1], fifth[1][1])
    else:  # 4마, 3마, 2마 (table.players)
        first = trick[0]
        cards = tuple(play[1] for _, play in trick)
    if ci.copies:  # two decks: a copy ranks as its original, the first of two identical wins
        index = trick_index(ci, cards, trick_mask, new, number)
    elif trick_mask & ci.mighty_bit and ci.mighty_power[number]:
        index = cards.index(ci.mighty)  # the usual cases decided from the mask, without a loop
    elif (
        trick_mask & ci.joker_mask
        and ci.joker_power[number]
        and (jokers := powered_jokers(ci, cards, trick_mask, new))
    ):
        # the joker with power; of two, the first played (000 §7.11: 먼저 낸 조커가 승리한다)
        index = (
            cards.index(jokers.bit_length() - 1)
            if not jokers & (jokers - 1)
            else next(index for index, card in enumerate(cards) if jokers >> card & 1)
        )
    else:
        # the highest trump, else the highest card of the led suit: the top bit of its mask
        # (no trump wins on trick 1 under play.trump_power_first_trick = false)
        trump_mask = ci.trump_masks[number]
        top = trick_mask & trump_mask or trick_mask & SUIT_MASKS[new._led_suit]
        if top & ELEVEN_MASK:  # 서울과고's 11 (bit 15) ranks between 10 and J
            top = top & ~ELEVEN_MASK if top & FACE_MASK else top & ELEVEN_MASK
        index = (
            cards.index(top.bit_length() - 1)
            if top
            else trick_winner(
                cards, new._led_suit, ci.trump if trump_mask else None, ci.mighty, False, False
            )
        )
    winner = (leader_seat + index) % ctx.n
    points = (trick_mask & ctx.point_mask).bit_count()
    if points:
        taken = list(state._points)
        taken[winner] += points
        new._points = tuple(taken)
    # tuple.__new__ directly: a NamedTuple's own __new__ is a Python-level call
    new.tricks = state.tricks + (
        tuple_new(CompletedTrick, (first[0], trick, ctx.players[winner], points)),
    )
    if ci.trump_mask and trick_mask & ci.trump_mask:
        new._trump_played = True
    # the friend, for calls settled by tricks
    if new._friend == PENDING:
        call = state._setup.friend_call
        declarer = state._setup.declarer
        assert call is not None  # (called before the play)
        if call.kind == "first_trick" and (number == 1 or ci.next_trick_friend):
            if winner != declarer:
                new._friend, new.friend_revealed = winner, True
            elif not ci.next_trick_friend:
                new._friend = NO_FRIEND
        elif call.kind == "last_trick" and number == ci.tricks:
            if winner != declarer:
                new._friend, new.friend_revealed = winner, True
            else:
                new._friend = NO_FRIEND
    elif ci.reveal_on_points and points and winner == new._friend and not new.friend_revealed:
        new.friend_revealed = True  # 수원/성균관: the friend shows himself when he scores
    new._trick = ()
    new._trick_mask = 0
    new._call = 0
    if number == ci.tricks:
        new.phase = "done"
        new._to_move = None
        if new._friend == PENDING:  # never seen (open cards): the called card was discarded
            new._friend = NO_FRIEND
    else:
        new.trick_number = number + 1
        new._to_move = winner
