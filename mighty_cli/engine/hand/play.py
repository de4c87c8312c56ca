"""The play of the ten tricks (docs/rules.md §2, §7; 000 §4): what may be played, a card played.

The rules of play, in the order :func:`legal_mask` and :func:`apply_play` check them:

* Follow suit when you can. Mighty (♠A, or the ruleset's alternate when its suit is trump) may be
  played at any time (``cards.mighty_plays_any_time``); it still counts as its suit for following
  when ``cards.mighty_must_follow_suit``: a player whose only card of the led suit is Mighty must
  play it (or the joker).
* The joker may be played at any time (``cards.joker_plays_any_time``), except on tricks 1 / 10
  when the ruleset forbids it; then its holder must play it by trick 9 at the latest, so he is
  never left holding an unplayable card. A joker lead names the suit to follow, also when it is
  powerless.
* The joker call: leading the joker-call card (♣3, or the alternate when its suit is trump) with
  the call declared (``C3!``; always under ``joker_call.declaration = "always"``) forces the
  joker's holder to play it (or Mighty, under ``joker_call.mighty_defends``); the called joker is
  powerless under ``joker_call.called_joker_powerless``. The call has no effect on trick 1
  (unless ``joker_call.first_trick_effect``), when the joker was already played or discarded, or
  when the card is not led (a ``!`` on a card played mid-trick is accepted and has no effect).
* Two jokers (``cards.jokers = 2``, contract.py): a joker lead names a suit of its colour or
  trump (``cards.joker_leads_colour``); a joker follows only its colour's suits
  (``cards.joker_follows_colour``), and one left alone in a hand is played without power; two
  calls, each card calling its joker; both jokers must leave by trick 9 where trick 10 bars
  them; in a trick, the first joker played with power wins, and under
  ``cards.off_colour_joker_below_trump`` the joker off trump's colour loses to any trump.
* Mighty led under ``cards.mighty_lead_names_suit`` (관악 5마) names the suit to follow, like the
  joker (``SA/H``); naming trump makes it a trump lead.
* A follower holding the led suit may also play trump under ``play.trump_instead_of_following``;
  with trump led, one without trump who holds the joker must play it under
  ``play.joker_on_trump_lead`` (이우 5마).
* Trump leads (``play.trump_lead``; ``only_trumps_left``: on every trick, 인천): "holds only
  trumps" means no card of another suit; the joker has no suit and Mighty counts as its suit
  exactly when it does for following. So ten trumps may lead trump on trick 1, and nine trumps +
  Mighty must lead Mighty (000 §4.1). A joker lead naming the trump suit is a trump lead. Leading
  Mighty is never a trump lead. Under ``play.only_trumps_includes_mighty`` (경기 2018: 대통령
  손패가 기루다, 조커, 마이티로만 이루어져있으면 러쉬를 할 수 있지만) Mighty counts as trump
  there, so nine trumps + Mighty may lead trump. The declarer leads trick 1, so "the declarer's
  hand" of that rule is the leader's.
* Trump on trick 1 (``play.trump_power_first_trick = false``, 경기 2018: 이 외 경우에 나오는
  기루다는 효력이 없다): a trump played to trick 1 when trump was not led (a follower out of
  the led suit) wins nothing, as an off-suit card; a trump lead (the declarer's rush) is won by
  the highest trump. Nothing about what may be played changes, so the legal mask is untouched:
  only :func:`~.settle.finish_trick` (shared by the fast replay) reads it.
* Trick priority: see contract.py; a complete trick is settled in settle.py. 서울과고's 11 ranks between 10 and J (cards.rank_order),
  though its code is above the ace's. The winner leads the next trick; the points of a trick are its
  point cards.
* The friend: a called card reveals its holder when played; a first-/last-trick call makes the
  trick's winner friend (none if the declarer wins it; under
  ``friend.first_trick_declarer_wins = "next_trick"`` the first trick the declarer does not win
  decides); under ``friend.reveal_on_points`` (수원/성균관) the friend shows himself when he
  takes points.
* Two decks (8마 Chicago, ``table.decks = 2``, 000 §3.5.3): a played or discarded card is
  the copy its player holds (``deck.held_copy``); every identity test (the joker, Mighty, the
  joker-call card, a called card, a card's suit) is made on the base card. Of two identical
  cards in a trick the first played wins (contract.py). Both jokers answer a joker call: each
  player holding a joker must play one (reading: the seed is silent; the call names "the
  joker", and either is it). A called card's friend is the player other than the declarer who
  holds a copy; when two players other than the declarer each hold one, the first of them to
  play it is the friend (reading; friend_call.py).
* A 20 no-trump declarer's lead request (``FriendCall.lead_suit``): the friend's first lead must
  be of that suit (or the joker naming it) when he holds a card of it.

Speed: the hands are fixed after the exchange (a seat holds ``_hands[seat] & ~_played``), so a
play copies no hands; :func:`apply_play` builds the next state field by field; the mover's
legal mask is memoised on the state.

A card refused is explained by play_errors.py (the rule it breaks, named); the joker's and
Mighty's annotations and the joker call are checked in joker_play.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..cards import JOKER, SUITS, CardMask, Suit
from ..cards.deck import VALID_CARDS, cards_of, held_copy
from ..errors import IllegalPlay
from ..translation import _
from .actions import Play, play_table
from .joker_play import check_joker_annotation, check_joker_lead, joker_call_effect
from .open_cards import check_open_play, infer_trump_lead, infer_voids, open_candidates
from .play_errors import play_error, turn_error
from .seats import check_ghost_play, ghost_mask, ghost_play
from .settle import finish_trick, reveal_card_friend, reveal_copy_friend, reveal_second_friend
from .state import HandState, new_object, phase_error

if TYPE_CHECKING:
    from .contract import ContractTables
    from .seats import Seat

# --- play ---------------------------------------------------------------------------------------


def _legal_now(state: HandState) -> CardMask:
    """The legal cards of the player to move (full deal), memoised on the state."""
    legal = state._legal
    if legal is None:
        legal = state._legal = legal_mask(state)
    return legal


def legal_mask(state: HandState, as_player: bool = False) -> CardMask:
    """The cards the player to move may play now (full deal); the ghost's card is its pile's
    (hand/seats.py) unless ``as_player`` asks what the rules would allow a player."""
    ci, seat, hands = state._contract, state._to_move, state._hands
    assert ci is not None and seat is not None  # (the play: a contract, a player to move)
    if seat == ci.ghost_seat and not as_player:
        return ghost_mask(state, legal_mask)  # ghost 4마: the top of its pile (table.ghost)
    assert hands is not None  # (a full deal; open cards: open_cards.open_candidates)
    hand = hands[seat] & ~state._played
    joker_mask = ci.joker_mask  # the jokers of the deck (one, or two: cards.jokers, table.decks)
    if state._trick and not hand & joker_mask:
        # the most common case, a follower without a joker (so no joker call or joker timing
        # applies): he follows suit when he can, and Mighty may always be played
        follow = hand & ci.follow_masks[state._led_suit]
        return follow | (hand & ci.also_bits) if follow else hand
    number = state.trick_number
    if state._trick:
        return follow_mask(ci, hand, number, state._call, state._led_suit)
    jokers = hand & joker_mask
    if jokers:
        if not ci.joker_play_last and number >= ci.tricks - jokers.bit_count():
            # the jokers cannot wait for trick 10 (cards.joker_playable_last_trick): one now
            # (two jokers must both be out by then: one a trick from trick 9 back)
            return jokers
        if number == 1 and not ci.joker_play_first:
            hand &= ~joker_mask
    legal = hand  # the lead
    if (
        ci.trump_lead_mask
        and hand & ci.non_trump_mask
        and (
            (number == 1 and ci.bar_first)
            or ci.bar_always
            or (ci.bar_until_trump and not state._trump_played)
        )
    ):
        legal &= ~ci.trump_lead_mask  # trump_lead_barred, inlined
    lead = ci.lead_suit  # the lead the declarer asked of his friend (friend.lead_request)
    if lead is not None and seat == state._friend and not state._friend_led:
        wanted = hand & ci.follow_masks[lead]
        if wanted:
            legal &= wanted | joker_mask
    return legal


def follow_mask(
    ci: ContractTables, hand: CardMask, number: int, called: CardMask, led: Suit
) -> CardMask:
    """The cards a follower holding ``hand`` (full deal) may play to trick ``number`` led in
    ``led``, ``called`` the bits of the joker called out (0 for none): legal_mask's rules for
    a trick in progress (also the fast replay's, hand/replay_tricks.py)."""
    joker_mask = ci.joker_mask
    jokers = hand & joker_mask
    if jokers:
        if not ci.joker_play_last and number >= ci.tricks - jokers.bit_count():
            # the jokers cannot wait for trick 10 (cards.joker_playable_last_trick): one now
            # (two jokers must both be out by then: one a trick from trick 9 back)
            return jokers
        if number == 1 and not ci.joker_play_first:
            hand &= ~joker_mask
    if called & hand:  # called: the bit of the called joker, 0 without a call
        return hand & called | (hand & ci.mighty_bit if ci.defends else 0)
    follow = hand & ci.follow_masks[led]
    if follow:
        # beside the led suit: Mighty, and the jokers cards.joker_plays_any_time allows (of the
        # led suit's colour under cards.joker_follows_colour)
        return follow | (hand & (ci.also_bits | ci.joker_free[led]))
    if ci.joker_on_trump and hand & joker_mask and led == ci.trump:
        return hand & joker_mask  # trump led, no trump in hand: a joker must answer (이우)
    barred = hand & ci.joker_barred[led]
    if barred:
        # cards.joker_follows_colour: not the joker of the other colour, unless nothing else
        # is left (then it is played without power: _trick_jokers)
        return hand & ~barred or hand
    return hand


def apply_play(state: HandState, play: Play) -> HandState:
    # The hot path of random playouts: attributes are read once into locals, and the new state
    # is built here field by field (the fields every play sets are not copied first; keep this
    # in step with HandState.__slots__ and _clone).
    if state.phase != "play":
        raise phase_error(
            state, _("{player} playing a card").format(player=play.player), IllegalPlay
        )
    ctx = state._ctx
    ci = state._contract
    assert ci is not None  # (the contract is known from the friend call on)
    player, card, joker_suit, joker_call = play
    seat = ctx.seat_of.get(player)
    if ci.copies and seat is not None and card in VALID_CARDS:
        play = _held_play(state, seat, play)  # two decks: the copy he holds (deck.held_copy)
        card = play.card
    ident = card & 127  # which card it is (two decks: whichever copy); the card itself else
    if seat is None or card not in ctx.valid or seat != state._to_move:
        raise turn_error(state, play, seat)
    bit = 1 << card
    trick = state._trick
    ghost = seat == ctx.ghost_seat
    if ghost:
        check_ghost_play(state, play, legal_mask)  # ghost 4마: its pile decides (hand/seats.py)
    elif state._hands is not None:
        legal = state._legal  # usually set by whoever chose this play (legal_plays, random)
        if legal is None:
            legal = state._legal = legal_mask(state)
        if not legal & bit:
            raise play_error(state, seat, play)
    else:
        check_open_play(state, seat, play)
    # card & 112 == 64: a joker (suit bits 4; a copy bit above them keeps it one)
    if (joker_suit is not None or card & 112 == 64 or ident == ci.mighty_named) and not ghost:
        check_joker_annotation(state, seat, play)
    calling = 0  # the bits of the joker this lead calls (two decks: both copies)
    if joker_call or ci.auto_calls >> card & 1:
        calling = joker_call_effect(state, play)
    new = new_object(HandState)
    new._ctx = ctx
    new._setup = state._setup
    new._contract = ci
    new.phase = "play"
    new._hands = state._hands
    new.trick_number = state.trick_number
    new.tricks = state.tricks
    new._points = state._points
    new._trump_played = state._trump_played
    new._friend = state._friend
    new.friend_revealed = state.friend_revealed
    new._friend_led = state._friend_led
    new._voids = state._voids
    new._legal = None
    new._played = state._played | bit
    if not trick:
        new._led_suit = ident >> 4 if joker_suit is None else joker_suit
        new._call = calling
        if ctx.open and ci.trump_lead_mask and not ghost:
            infer_trump_lead(state, new, seat, play)
        if seat == state._friend and ci.lead_suit is not None:
            new._friend_led = True
    else:
        new._led_suit = state._led_suit
        new._call = state._call
        if ctx.open and not ghost:  # the ghost's pile shows nothing about what it holds
            infer_voids(state, new, seat, play)
    if ci.copies and (ident == ci.friend_card or ident == ci.friend_card2):
        reveal_copy_friend(state, new, seat, ident == ci.friend_card)  # two decks
    elif card == ci.friend_card:
        reveal_card_friend(state, new, seat, play)
    elif card == ci.friend_card2:  # the second called card (friend.called_cards = 2)
        reveal_second_friend(state, new, seat)
    trick += ((player, play),)
    n = ctx.n
    following = seat + 1 if seat + 1 < n else 0
    if len(trick) < n:  # every player plays one card to a trick
        new._trick = trick
        new._trick_mask = state._trick_mask | bit
        new._to_move = following
        return new
    finish_trick(state, new, trick, state._trick_mask | bit, following)
    return new


def _held_play(state: HandState, seat: Seat, play: Play) -> Play:
    """Two decks: the play with the copy its player holds (copy 0 when he holds both; with the
    hands unknown, copy 0 unless it was played already). Plays are written without the copy."""
    hands = state._hands
    hand = hands[seat] & ~state._played if hands is not None else -1
    card = held_copy(play.card, hand, state._played)
    return play if card == play.card else play._replace(card=card)


_ONE_DECK = (1 << 128) - 1  # the bits of the first deck's cards


def legal_plays(state: HandState) -> list[Play]:
    """Every legal card for the player to move, with every annotation it may carry (a joker lead
    naming each allowed suit; the joker-call card led with and without the call). In open-cards
    mode: every card the player might still hold that the cards shown so far allow."""
    if state.phase != "play":
        return []
    seat, ci = state._to_move, state._contract
    assert seat is not None and ci is not None
    player = state._ctx.players[seat]
    hands = state._hands
    if seat == state._ctx.ghost_seat:
        if hands is not None:
            return [ghost_play(state, legal_mask)]  # ghost 4마: one card, its pile's (seats.py)
        hands = None  # open cards: any card not yet seen, as the table turns it
    if hands is not None:
        hand = hands[seat] & ~state._played
        mask = _legal_now(state)
    else:
        hand = 0
        mask = open_candidates(state, seat)
    if mask >> 128:  # two decks: each card once, as written (copy 0: apply plays the held copy)
        mask = (mask | mask >> 128) & _ONE_DECK
    # (None only at the codes of no card: a legal card has its Play)
    table = cast("list[Play]", play_table(player))
    cards = cards_of(mask)
    if state._trick:
        return [table[card] for card in cards]
    plays = []
    for card in cards:
        ident = card & 127  # two decks: whichever copy (the engine plays the one he holds)
        if card & 112 == 64 or ident == ci.mighty_named:
            for play in (
                _joker_leads(player, card, ci.joker_lead_suits)
                if card & 112 == 64
                else tuple(Play(player, card, suit) for suit in SUITS)
            ):
                # only a trump lead or a requested lead can forbid a joker lead: test just those
                if hands is None or (play.joker_suit != ci.trump and ci.lead_suit is None):
                    plays.append(play)
                    continue
                try:
                    check_joker_lead(state, seat, hand, play)
                except IllegalPlay:
                    continue
                plays.append(play)
        elif ident in ci.call_jokers and ci.declaration != "never":
            if ci.declaration == "optional":
                plays.append(table[card])
            plays.append(_call_play(player, card))
        else:
            plays.append(table[card])
    return plays


_JOKER_LEADS: dict[tuple, tuple[Play, ...]] = {}
_CALL_PLAYS: dict[tuple[str, int], Play] = {}


def _joker_leads(player: str, card: int = JOKER, allowed: dict | None = None) -> tuple[Play, ...]:
    """A player's leads of a joker naming each suit it may name (``allowed``: the contract's
    joker_lead_suits, None for any suit), cached like the plain plays."""
    suits = SUITS if allowed is None else allowed[card]
    key = (player, card, suits)
    leads = _JOKER_LEADS.get(key)
    if leads is None:
        if len(_JOKER_LEADS) > 4096:  # names come from users: keep the cache bounded
            _JOKER_LEADS.clear()
        leads = _JOKER_LEADS[key] = tuple(Play(player, card, suit) for suit in suits)
    return leads


def _call_play(player: str, card: int) -> Play:
    """A player's lead of the joker-call card with the call declared, cached."""
    play = _CALL_PLAYS.get((player, card))
    if play is None:
        if len(_CALL_PLAYS) > 4096:
            _CALL_PLAYS.clear()
        play = _CALL_PLAYS[player, card] = Play(player, card, None, True)
    return play
