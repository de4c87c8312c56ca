"""The tricks of a recorded hand replayed at once, every card checked by the play rules.

A record gives a hand's tricks as strings of cards (``"H7 H2 SA H10 HK"``); replaying them is
the bulk of ``mighty replay`` and of an import. :func:`replay_tricks` applies them to the state
after the friend call and returns the state after the last card, the same value (every slot,
the history included) as applying each card with :func:`~.hand.apply`, and it raises the same
errors with the same messages.

How it is faster without a second rules implementation: the play rules stay in ``play.py``
and ``settle.py``, read from the same contract tables, on one private state that this function
fills in instead of building a new state for every card (the caller never sees it before it is
finished, so it is still a value to him; ``owned``: the record replay gives its own state away,
so not even one copy is made). Three passes, each handing what it does not take to the next:

* whole tricks (:meth:`_Tricks.tricks`), one pass a trick: the trick's tokens read as card bits
  at once (a five-player trick written out); every card in its player's hand and not played
  before; a plain lead (not the joker, not a Mighty that names a suit, not the card that always
  calls the joker) checked by :func:`~.play.legal_mask` itself whenever a rule may bar it (a
  joker in the leader's hand, a trump lead, the friend's requested lead); the followers by
  legal_mask's first case as mask expressions (follow suit when you can; Mighty and the cards
  of ``cards.*_plays_any_time`` beside it), a joker's holder by :func:`~.play.follow_mask`;
  the trick, its history and its CompletedTrick built once; the winner from the trick's mask
  for the cases settle.finish_trick decides from the mask (Mighty with power, the one joker
  with power where no colour rule applies, the highest trump, the highest card of the led
  suit), and settle.finish_trick itself for any other joker trick, the 11, or a trick
  deciding a pending friend;
* plain cards from a lead (:meth:`_Tricks.play`) and plain followers after a lead the engine
  applied (:meth:`_Tricks.follow`: a joker lead, a joker call), each checked as
  :func:`~.play.legal_mask` checks it, settled by :func:`~.settle.finish_trick`;
* every other card, and any card these refuse, through :func:`~.hand.apply` itself: a joker
  lead, a joker call, a named-suit lead, open cards, a ghost's table, two decks, and every
  error message.

The settling helpers (:func:`~.settle.reveal_card_friend`, :func:`~.settle.finish_trick`)
take the state before and the state after; here both are that one state, which they allow
because they read each field before they write it (keep it so).

The tables the passes read (tokens parsed, plain leads, each seat's pairs) are made once in
``replay_tables.py``.

``tests/engine/test_replay_tricks.py`` holds it to apply, card by card, under every bundled
ruleset: the same final state for random legal hands, and the same error for broken records.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from ..cards import Card, CardMask
from ..cards.deck import ELEVEN_MASK, SUIT_MASKS
from ..errors import InvalidNotation, RecordError
from ..translation import _, ngettext
from .actions import PENDING, CompletedTrick, Play
from .api import apply
from .play import check_joker_annotation, follow_mask, joker_call_effect, legal_mask
from .replay_tables import (
    BITS_OF,
    PLAIN_CARDS,
    PLAYED_TOKENS,
    plain_lead_mask,
    plain_leads,
    played_token,
    seat_bit_pairs,
    seat_pairs,
)
from .settle import finish_trick, reveal_card_friend, reveal_second_friend
from .state import HandState, Trick, tuple_new

if TYPE_CHECKING:
    from .contract import ContractTables
    from .seats import Seat


def replay_tricks(
    state: HandState, tricks: list, index: int, fast: bool = True, *, owned: bool = False
) -> HandState:
    """The state after a record's ``tricks`` (strings of cards, one trick each; the last may be
    unfinished) are played from ``state``; ``fast=False`` applies them card by card with
    :func:`~.hand.apply` (the reference this path is tested against). ``owned``: the caller
    gives ``state`` away (nobody else holds it), so the fast path fills it in instead of a
    copy. Raises RecordError naming the hand (``index``), the trick, the player, the card and
    the rule."""
    # ghost 4마 goes card by card: the ghost's card is its pile's top (hand/seats.py), a rule the
    # legal mask of this path does not hold
    # two decks (8마 Chicago) too: a card is the copy its player holds (play.py's _held_play)
    if (
        fast
        and state.phase == "play"
        and state._hands is not None
        and not state.rules.table.ghost
        and state.rules.table.decks == 1
    ):
        if not owned:
            state = state._clone()  # ours to fill in: the caller's state never changes
        fast_trick = _tricks_for(state)
    else:
        fast_trick = None
    at, total = 0, len(tricks)
    while at < total:
        if fast_trick is not None and not state._trick and state.phase == "play":
            at += fast_trick.tricks(state, tricks, at)  # whole tricks of plain cards at once
            if at == total:
                break
        trick = tricks[at]
        at += 1
        number = at
        tokens = trick.split()
        position, count = 0, len(tokens)
        while position < count:
            token = tokens[position]
            if state.phase != "play":
                raise RecordError(
                    _(
                        "hand {index}, trick {number}: {token} is played after the hand ended"
                    ).format(index=index, number=number, token=token)
                )
            if fast_trick is not None:
                done = (
                    fast_trick.follow(state, tokens, position)
                    if state._trick
                    else fast_trick.play(state, tokens, position)
                )
                if done:
                    position += done
                    continue
            position += 1
            try:
                card, joker_suit, joker_call = played_token(token)
            except InvalidNotation as exc:
                raise RecordError(
                    _("hand {index}, trick {number}: {error}").format(
                        index=index, number=number, error=exc
                    )
                ) from None
            # everything else is the engine's own apply (a new state, ours to fill in too)
            player = state.to_move
            assert player is not None  # (the play goes on)
            state = apply(state, Play(player, card, joker_suit, joker_call))
        if state.phase == "play" and state.trick_number == number:
            if number < len(tricks):
                raise RecordError(
                    ngettext(
                        "hand {index}, trick {number}: only {count} card was played but trick "
                        "{next} follows",
                        "hand {index}, trick {number}: only {count} cards were played but trick "
                        "{next} follows",
                        len(tokens),
                    ).format(index=index, number=number, count=len(tokens), next=number + 1)
                )
            break  # a trick still being played: the hand is in progress
    return state


_TRICKS: dict[tuple, _Tricks] = {}


def _tricks_for(state: HandState) -> _Tricks:
    """The hand's _Tricks: what the loops read of a contract and a seating, made once (cached
    per contract table and seating, like seat_pairs; a hand's own cards are read from its
    state)."""
    ci, ctx = state._contract, state._ctx
    key = (id(ci), ctx.players)
    tricks = _TRICKS.get(key)
    if (
        tricks is None
        or tricks.ci is not ci
        or tricks.valid is not ctx.valid
        or tricks.play_tables is not ctx.play_tables
    ):
        if len(_TRICKS) > 1024:  # names come from users: keep the cache bounded
            _TRICKS.clear()
        tricks = _TRICKS[key] = _Tricks(state)
    return tricks


class _Tricks:
    """A hand's cards played onto one private state (see the module docstring): whole tricks
    (:meth:`tricks`), a trick from its lead (:meth:`play`, :meth:`lead`) and the followers
    after a lead (:meth:`follow`); what it does not take, the caller applies with the
    engine's apply."""

    __slots__ = (
        "leads",
        "n",
        "pairs",
        "lead_request",
        "also_bits",
        "friend_card",
        "valid",
        "jokers",
        "ci",
        "pairs2",
        "friend_bit",
        "point_mask",
        "players",
        "lead_mask",
        "off_masks",
        "seats_from",
        "play_tables",
    )

    leads: frozenset[Card]  # the cards whose lead needs no special case (plain_leads)
    n: int
    pairs: tuple[list[tuple[str, Play] | None], ...]  # each seat's (player, Play) by card
    lead_request: bool
    also_bits: CardMask
    friend_card: Card | None
    valid: frozenset[Card]
    jokers: CardMask
    ci: ContractTables
    pairs2: tuple[dict[CardMask, tuple[str, Play]], ...]  # by card's bit, the seats twice over
    friend_bit: CardMask
    point_mask: CardMask
    players: tuple[str, ...]
    lead_mask: CardMask
    off_masks: tuple[CardMask, ...]  # by led suit
    seats_from: tuple[tuple[Seat, ...], ...]  # from each leader, the seat of each place
    play_tables: tuple[list[Play | None], ...]

    def __init__(self, state: HandState):
        ci, ctx = state._contract, state._ctx
        assert ci is not None  # (the play)
        self.ci = ci
        self.leads = plain_leads(state)
        self.valid = ctx.valid
        self.n = ctx.n
        self.play_tables = ctx.play_tables
        self.pairs = seat_pairs(ctx.players, ctx.play_tables)
        # the seats' pairs twice over: a trick's, from its leader, is one slice
        bit_pairs = seat_bit_pairs(ctx.players, ctx.play_tables)
        self.pairs2 = bit_pairs + bit_pairs
        self.lead_mask = plain_lead_mask(state)
        self.friend_bit = 1 << ci.friend_card if ci.friend_card is not None else 0
        self.point_mask = ctx.point_mask
        self.players = ctx.players
        self.lead_request = ci.lead_suit is not None
        self.also_bits = ci.also_bits
        self.friend_card = ci.friend_card
        self.jokers = ci.joker_mask  # the deck's jokers (one, or two: cards.jokers)
        # by led suit, the cards a follower may play only without the led suit in hand
        self.off_masks = tuple(~(mask | ci.also_bits) for mask in ci.follow_masks)
        # from each leader's seat, the seat of each place in his trick
        self.seats_from = tuple(
            tuple((seat + place) % self.n for place in range(self.n)) for seat in range(self.n)
        )

    def play(self, state: HandState, tokens: list, position: int) -> int:
        """Play the plain cards of a trick from its lead (``tokens[position]``) onto ``state``,
        as play.apply_play would one by one, and settle the trick when it is complete; the
        count of cards played (0: the lead is not plain or not legal, for the engine to
        apply or refuse)."""
        card = PLAIN_CARDS.get(tokens[position])
        if card is None or card not in self.leads:
            return self.lead(state, tokens, position)
        legal = state._legal
        if legal is None:
            legal = state._legal = legal_mask(state)
        if not legal >> card & 1:
            return 0
        # the lead: the suit it sets, the friend's requested lead made
        seat = state._to_move
        assert seat is not None  # (the play)
        pair = self.pairs[seat][card]
        assert pair is not None  # (a card of the deck)
        state._led_suit = card >> 4
        state._call = 0
        if self.lead_request and seat == state._friend:
            state._friend_led = True
        if card == self.friend_card:
            reveal_card_friend(state, state, seat, pair[1])
        state._played |= 1 << card
        state._history = (pair[1], state._history)
        state._trick = (pair,)
        state._trick_mask = 1 << card
        state._to_move = seat + 1 if seat + 1 < self.n else 0
        state._legal = None
        return 1 + self.follow(state, tokens, position + 1)

    def lead(self, state: HandState, tokens: list, position: int) -> int:
        """A lead play.apply_play checks beyond the legal mask (``tokens[position]``: a joker
        naming a suit, a joker call, a Mighty naming a suit, the card that always calls the
        joker) written onto ``state`` as apply_play writes it, checked by its own functions
        in its order (the legal mask, play.check_joker_annotation, play.joker_call_effect,
        which raise apply's errors before anything is written), then the plain cards that
        follow; 0 where the engine must apply it (a token not read yet, a card not of this
        deck or not legal)."""
        parsed = PLAYED_TOKENS.get(tokens[position])
        if parsed is None:
            return 0
        card, joker_suit, joker_call = parsed
        if card not in self.valid:
            return 0
        legal = state._legal
        if legal is None:
            legal = state._legal = legal_mask(state)
        if not legal >> card & 1:
            return 0
        ci, seat = self.ci, state._to_move
        assert seat is not None  # (the play)
        player = self.players[seat]
        play = Play(player, card, joker_suit, joker_call)
        if joker_suit is not None or card & 112 == 64 or card == ci.mighty_named:
            check_joker_annotation(state, seat, play)
        calling = 0
        if joker_call or ci.auto_calls >> card & 1:
            calling = joker_call_effect(state, play)
        state._led_suit = card >> 4 if joker_suit is None else joker_suit
        state._call = calling
        if seat == state._friend and ci.lead_suit is not None:
            state._friend_led = True
        if card == ci.friend_card:
            reveal_card_friend(state, state, seat, play)
        elif card == ci.friend_card2:  # the second called card (friend.called_cards = 2)
            reveal_second_friend(state, state, seat)
        state._played |= 1 << card
        state._history = (play, state._history)
        state._trick = ((player, play),)
        state._trick_mask = 1 << card
        state._to_move = seat + 1 if seat + 1 < self.n else 0
        state._legal = None
        return 1 + self.follow(state, tokens, position + 1)

    def follow(self, state: HandState, tokens: list, position: int) -> int:
        """Play the plain cards that follow in a trick in progress (``tokens[position]`` on)
        onto ``state``, each checked as play.legal_mask checks a follower (its first case for
        a follower without a joker, play.follow_mask for one with a joker, the joker call of
        the lead included), and settle the trick when it is complete; the count of cards
        played (it stops at a card that is not plain or not legal, for the engine to apply or
        refuse)."""
        trick = state._trick
        n = self.n
        seat, played, history, trick_mask = (
            state._to_move,
            state._played,
            state._history,
            state._trick_mask,
        )
        led, called, number, ci = state._led_suit, state._call, state.trick_number, self.ci
        follow, also_bits, jokers = ci.follow_masks[led], self.also_bits, self.jokers
        pairs, hands, friend_card, valid = self.pairs, state._hands, self.friend_card, self.valid
        assert seat is not None and hands is not None  # (the play, a full deal)
        done = 0
        for token in tokens[position : position + n - len(trick)]:
            card = PLAIN_CARDS.get(token)
            if card is None or card not in valid:
                break
            hand = hands[seat] & ~played
            if hand & jokers:
                # a joker's holder: the joker call, its timing and colour apply
                if not follow_mask(ci, hand, number, called, led) >> card & 1:
                    break
            else:
                # the first case of play.legal_mask: follow suit when you can; Mighty (and
                # the cards of cards.*_plays_any_time) may always be played
                following = hand & follow
                if not (following | hand & also_bits if following else hand) >> card & 1:
                    break
            pair = pairs[seat][card]
            assert pair is not None  # (a card of the deck)
            if card == friend_card:
                reveal_card_friend(state, state, seat, pair[1])
            played |= 1 << card
            history = (pair[1], history)
            trick += (pair,)
            trick_mask |= 1 << card
            seat = seat + 1 if seat + 1 < n else 0
            done += 1
        state._played, state._history, state._legal = played, history, None
        if len(trick) < n:
            state._trick, state._trick_mask, state._to_move = trick, trick_mask, seat
        else:
            finish_trick(state, state, trick, trick_mask, seat)
        return done

    def tricks(self, state: HandState, tricks: list, at: int) -> int:
        """Play the record's whole tricks of plain cards from ``tricks[at]`` onto ``state`` (at
        a trick's start) and settle each, as play.apply_play would card by card; stops at the
        first trick it does not take (not complete, a card not plain or not legal, a trick
        after the last) and returns how many it played, for the caller to play the next card
        by card. Each rule is play.py's, read from the same contract tables: a card must be
        in its player's hand and not played; the lead is checked by play.legal_mask itself
        when a rule may bar it (a joker in the leader's hand, a trump lead, the friend's
        requested lead); a follower follows suit when he can, Mighty and the cards of
        cards.*_plays_any_time beside it (play.legal_mask's first case), and a follower who
        may hold a joker is checked by play.follow_mask; a trick holding two jokers or a joker
        under a colour rule, the 11, or deciding a pending friend, is settled by
        settle.finish_trick itself.

        Written for the interpreter's sake (this loop is most of a replay): the slots the
        rules read in the loop (the led suit, whether trump was played) are written only when
        play.py's functions are called and at the end, and each trick is a few lines."""
        n, ci, jokers = self.n, self.ci, self.jokers
        pairs2, players, hands = self.pairs2, self.players, state._hands
        assert hands is not None  # (a full deal)
        hands2 = hands + hands  # the seats' hands twice over: a trick's is one slice
        friend_bit, lead_request, point_mask = self.friend_bit, self.lead_request, self.point_mask
        follow_masks, mighty_bit = ci.follow_masks, ci.mighty_bit
        mighty_power, trump_masks, trump_mask = ci.mighty_power, ci.trump_masks, ci.trump_mask
        joker_power, joker_rules = ci.joker_power, ci.joker_rules
        reveal_on_points, last, lead_checked = ci.reveal_on_points, ci.tricks, ci.trump_lead_mask
        off_masks, seats_from = self.off_masks, self.seats_from
        # the points taken and the completed tricks kept as lists while the tricks go, written
        # back as tuples
        played, history, points, completed = (
            state._played,
            state._history,
            list(state._points),
            list(state.tricks),
        )
        number, seat = state.trick_number, state._to_move
        assert seat is not None  # (the play)
        start_number, start_played = number, played
        bit_of, lead_mask = BITS_OF, self.lead_mask
        # the seats dealt a joker (one, or two: cards.jokers = 2)
        joker_seats = [seat for seat, hand in enumerate(hands) if hand & jokers]
        unforced = ci.joker_play_last  # jokers never forced out before the last trick
        friend = state._friend
        led_suit = state._led_suit  # the last trick's led suit, written back at the end
        trick: Trick
        for text in tricks[at:] if at else tricks:
            if number > last:
                break  # a trick after the last: card by card says so
            if n == 5:  # five players, written out
                try:
                    # each card's bit (0 for a token not plain, which no hand holds)
                    first, second, third, fourth, fifth = bits = tuple(map(bit_of, text.split()))
                except ValueError:
                    break  # not five cards: card by card says so
                one, two, three, four, five = hands2[seat : seat + 5]
                # each card in its player's hand (hands do not overlap: no card twice), none
                # played before, and a plain lead
                if not (
                    one & first
                    and two & second
                    and three & third
                    and four & fourth
                    and five & fifth
                ):
                    break  # card by card says which
                trick_mask = first | second | third | fourth | fifth
                if trick_mask & played or not first & lead_mask:
                    break
            else:
                bits = tuple(map(bit_of, text.split()))
                if len(bits) != n:
                    break
                first = bits[0]
                trick_mask = sum(bits)
                hands = hands2[seat : seat + n]
                if not first & lead_mask or trick_mask & played or not all(map(_and, hands, bits)):
                    break
                one = hands[0]
            loose = jokers & ~played  # the jokers still out
            if (
                first & lead_checked
                or one & loose
                or lead_request
                and seat == friend
                and not state._friend_led
            ):
                state._played, state.trick_number, state._to_move = played, number, seat
                state._legal = None
                if (played ^ start_played) & trump_mask:
                    state._trump_played = True
                if not legal_mask(state) & first:
                    break
            led = (first.bit_length() - 1) >> 4
            follow = follow_masks[led]
            # the first case of play.legal_mask: a card of the led suit, Mighty or a card
            # played any time is legal; another card only from a hand without the led suit;
            # a follower holding a joker by the rules of a trick in progress (follow_mask)
            checked = trick_mask ^ first
            if loose:
                for holder in joker_seats:
                    if holder != seat and hands2[holder] & loose:
                        place = holder - seat if holder > seat else holder - seat + n
                        bit = bits[place]
                        # a card of the led suit while no joker must be played yet (two
                        # jokers: from trick 8; cards.joker_playable_last_trick) is legal, as
                        # follow_mask has it; any other card is checked by it
                        if (
                            not (bit & follow and (unforced or number < last - 2))
                            and not follow_mask(ci, hands2[holder] & ~played, number, 0, led) & bit
                        ):
                            checked = -1
                            break
                        checked &= ~bit
                if checked < 0:
                    break
            off = checked & off_masks[led]  # the cards neither of the led suit nor free
            if off:
                wanted = follow & ~played  # the led suit's cards still held
                if n == 5:
                    if (
                        second & off
                        and two & wanted
                        or third & off
                        and three & wanted
                        or fourth & off
                        and four & wanted
                        or fifth & off
                        and five & wanted
                    ):
                        break
                elif any(bit & off and hand & wanted for hand, bit in zip(hands[1:], bits[1:])):
                    break
            rows = pairs2[seat : seat + n]
            if trick_mask & friend_bit:
                if friend == PENDING:
                    break  # the called card settles who the friend is: card by card
                # every card is legal from here on: the trick is played
                place = bits.index(friend_bit)
                reveal_card_friend(
                    state, state, seats_from[seat][place], rows[place][friend_bit][1]
                )
            # every card is legal: the trick is played (five players written out)
            if n == 5:
                row1, row2, row3, row4, row5 = rows
                trick = p1, p2, p3, p4, p5 = (
                    row1[first],
                    row2[second],
                    row3[third],
                    row4[fourth],
                    row5[fifth],
                )
                history = (p5[1], (p4[1], (p3[1], (p2[1], (p1[1], history)))))
            else:
                trick = tuple([row[bit] for row, bit in zip(rows, bits)])
                for pair in trick:
                    history = (pair[1], history)
            played |= trick_mask
            led_suit = led
            if seat == friend and lead_request:
                state._friend_led = True
            # the winner as settle.finish_trick settles the cases decided from the mask (a
            # plain lead calls no joker: contract.powered_jokers keeps a joker's power unless
            # a colour rule or a second joker needs it)
            if friend == PENDING:
                winner = -1
            elif trick_mask & mighty_bit and mighty_power[number]:
                winner = mighty_bit
            elif trick_mask & jokers and joker_power[number]:
                winner = trick_mask & jokers
                if joker_rules or winner & (winner - 1):
                    winner = -1
            else:
                top = trick_mask & trump_masks[number] or trick_mask & SUIT_MASKS[led]
                winner = 1 << top.bit_length() - 1 if top and not top & ELEVEN_MASK else -1
            if winner < 0:
                state._played, state._history, state._points, state.tricks = (
                    played,
                    history,
                    tuple(points),
                    tuple(completed),
                )
                state.trick_number, state._trick, state._trick_mask, state._call = (
                    number,
                    trick,
                    trick_mask,
                    0,
                )
                state._led_suit = led
                finish_trick(state, state, trick, trick_mask, seat)
                points, completed, friend = list(state._points), list(state.tricks), state._friend
                if state._to_move is None:  # the last trick: the hand is done
                    number = state.trick_number + 1
                    break
                seat, number = state._to_move, state.trick_number
                continue
            winner = seats_from[seat][bits.index(winner)]
            taken = (trick_mask & point_mask).bit_count()
            if taken:
                points[winner] += taken
                if reveal_on_points and winner == friend and not state.friend_revealed:
                    state.friend_revealed = True  # 수원/성균관: the friend shows when he scores
            completed.append(
                tuple_new(CompletedTrick, (trick[0][0], trick, players[winner], taken))
            )
            number += 1
            seat = winner
        state._played, state._history, state._points, state.tricks = (
            played,
            history,
            tuple(points),
            tuple(completed),
        )
        state._trick, state._trick_mask, state._call, state._legal = (), 0, 0, None
        state._led_suit = led_suit
        if (played ^ start_played) & trump_mask:
            state._trump_played = True
        if number > last:
            state.phase, state._to_move, state.trick_number = "done", None, last
        else:
            state.trick_number, state._to_move = number, seat
        return number - start_number


_and = operator.and_
