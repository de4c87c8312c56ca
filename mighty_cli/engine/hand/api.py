"""The hand's API gathered in one module: :func:`apply` dispatching each action to its phase,
:func:`hand_result`, and the names the phases export (``mighty_cli.engine.hand`` gives them,
loading this module on first use)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from ..cards.deck import HAND_SIZE, KITTY_SIZE, PLAYERS, TRICKS, deal_cards
from ..errors import IllegalAction, MightyError
from ..scoring import ruling_party_taken, score_hand, seat_deltas, shared_seat_deltas
from ..translation import _
from .actions import (
    FRIEND_KINDS,
    Action,
    BidCall,
    CallFriend,
    ChangeContract,
    CompletedTrick,
    DeclareDealMiss,
    Discard,
    Eliminate,
    FriendCall,
    HandResult,
    Play,
    Redistribute,
    format_friend_call,
    format_play,
    parse_friend_call,
    parse_play,
)
from .contract import joker_call_card, mighty_card, trick_winner
from .derived import deal_miss_value, is_deal_miss_hand
from .election import apply_bid, apply_deal_miss
from .elimination import (
    apply_eliminate,
    apply_redistribute,
    random_redistribution,
    redistribution_sizes,
)
from .exchange import apply_change, apply_discard
from .friend_call import apply_call
from .honeymoon import fold_deltas
from .legal import legal_actions
from .play import apply_play, legal_plays
from .playout import random_legal_action
from .seats import DUMMY, GHOST, ghost_score, seats
from .state import PHASES, HandState, new_hand

__all__ = [
    "HandState",
    "new_hand",
    "apply",
    "legal_plays",
    "legal_actions",
    "deal_cards",
    "DeclareDealMiss",
    "BidCall",
    "Discard",
    "ChangeContract",
    "CallFriend",
    "Play",
    "FriendCall",
    "parse_friend_call",
    "format_friend_call",
    "parse_play",
    "format_play",
    "hand_result",
    "HandResult",
    "CompletedTrick",
    "random_legal_action",
    "deal_miss_value",
    "is_deal_miss_hand",
    "trick_winner",
    "mighty_card",
    "joker_call_card",
    "PHASES",
    "FRIEND_KINDS",
    "PLAYERS",
    "HAND_SIZE",
    "KITTY_SIZE",
    "TRICKS",
    "Eliminate",
    "Redistribute",
    "random_redistribution",
    "redistribution_sizes",
    "GHOST",
    "DUMMY",
    "seats",
]

#: A phase's function applying an action of its kind.
Handler: TypeAlias = Callable[[HandState, Any], HandState]

# --- apply ------------------------------------------------------------------------------------


def apply(state: HandState, action: Action) -> HandState:
    """The state after an action; raises an IllegalAction subclass if a rule forbids it."""
    kind = type(action)
    handler: Handler | None = apply_play if kind is Play else _HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(_("{action!r} is not a hand action").format(action=action))
    new = handler(state, action)  # handlers build on state._clone(): state itself never changes
    if kind is Discard and new._setup.discard_known and new._ctx.rules.table.decks == 2:
        discards = new._setup.discards
        assert discards is not None  # (known)
        action = Discard(discards)  # two decks: the copies the declarer gave up
    new._history = (action, state._history)
    return new


#: Each kind of action and the phase's function that applies it.
_HANDLERS: dict[type, Handler] = {
    Play: apply_play,
    BidCall: apply_bid,
    DeclareDealMiss: apply_deal_miss,
    Discard: apply_discard,
    ChangeContract: apply_change,
    CallFriend: apply_call,
    Eliminate: apply_eliminate,
    Redistribute: apply_redistribute,
}


# --- result -------------------------------------------------------------------------------------


def hand_result(state: HandState) -> HandResult:
    """The scored outcome of a finished hand."""
    if state.phase != "done":
        raise MightyError(
            _("the hand is not finished (phase {phase}): no result yet").format(phase=state.phase)
        )
    ctx, setup = state._ctx, state._setup
    if setup.friend2 is None and ctx.tables.plain_result and not setup.eliminated:
        return _plain_result(state, ctx, setup)
    return _full_result(state, ctx, setup)


def _full_result(state: HandState, ctx: Any, setup: Any) -> HandResult:
    """hand_result in every case (the reference _plain_result is held to by tests)."""
    rules = ctx.rules
    declarer = setup.declarer
    # the friends: one, or two under friend.called_cards = 2 (동대전 7마)
    if setup.friend2 is None:  # one card called (the usual case): the friend, if any
        friends = [state._friend] if state._friend is not None and state._friend >= 0 else []
    else:
        friends = sorted(
            {seat for seat in (state._friend, setup.friend2) if seat is not None and seat >= 0},
            key=lambda seat: seat != state._friend,
        )
    friend = friends[0] if friends else None
    if rules.election.bid_counts == "tricks":  # 변형 2마: the bid counts tricks won
        ruling = {ctx.players[declarer]} | {ctx.players[seat] for seat in friends}
        taken = sum(1 for trick in state.tricks if trick.winner in ruling)
    else:
        own = state._points[declarer]
        if rules.exchange.discards_count_for_ruling_party:
            own += state.discarded_points
        # 동대전 6마, 7마: the friends' cards weighted (scoring.friend_weight)
        taken = ruling_party_taken(rules, own, [state._points[seat] for seat in friends])
    score = score_hand(
        rules,
        setup.contract,
        taken,
        has_friend=friend is not None,
        no_friend_doubling=_no_friend_doubled(rules, setup.friend_call) if friend is None else None,
        friends=max(1, len(friends)),
    )
    declarer_name = ctx.players[declarer]
    friend_name = None if friend is None else ctx.players[friend]
    friend2_name = ctx.players[friends[1]] if len(friends) == 2 else None
    if ctx.ghost_seat >= 0:  # ghost 4마: the ghost is nobody (hand/seats.py)
        score = ghost_score(score, rules, friend_name)
    deltas = seat_deltas(score, ctx.players, declarer_name, friend_name, friend2_name)
    for name in setup.eliminated:  # 6마, 7마: the eliminated score nothing
        if name not in deltas and name != DUMMY:  # 시흥 은마: he plays the dummy's hand
            deltas[name] = 0
    if ctx.ghost_seat >= 0:
        del deltas[GHOST]
    if ctx.partner_hands:  # 허니문: each player takes his two hands' scores (honeymoon.py)
        deltas = fold_deltas(deltas)
    return HandResult(
        declarer_name, friend_name, setup.contract, taken, score, deltas, friend2_name
    )


def _plain_result(state: HandState, ctx: Any, setup: Any) -> HandResult:
    """hand_result's usual case, the same steps written for it: one friend at most, the bid
    counting point cards, a friend's counting one each (so the ruling party's count is the
    declarer's, the discards where they count, and the friend's), nobody eliminated, no ghost,
    no friend hands (tables.plain_result)."""
    rules = ctx.rules
    declarer = setup.declarer
    friend = state._friend
    if friend is not None and friend < 0:
        friend = None
    taken = state._points[declarer]
    if rules.exchange.discards_count_for_ruling_party:
        taken += state.discarded_points
    if friend is None:
        score = score_hand(
            rules,
            setup.contract,
            taken,
            has_friend=False,
            no_friend_doubling=_no_friend_doubled(rules, setup.friend_call),
            friends=1,
        )
        friend_name = None
    else:
        taken += state._points[friend]
        score = score_hand(
            rules, setup.contract, taken, has_friend=True, no_friend_doubling=None, friends=1
        )
        friend_name = ctx.players[friend]
    declarer_name = ctx.players[declarer]
    deltas = shared_seat_deltas(score, ctx.players, declarer_name, friend_name)
    return HandResult(declarer_name, friend_name, setup.contract, taken, score, deltas, None)


def _no_friend_doubled(rules: Any, call: Any) -> bool:
    """Whether a hand that ended with no friend takes the no-friend doubling: always when no
    friend was called, and after a first-/last-trick call that found none only under
    scoring.no_friend_by_trick_call."""
    return rules.scoring.no_friend_by_trick_call or call.kind not in ("first_trick", "last_trick")
