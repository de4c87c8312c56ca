"""The friend call that ends the exchange (docs/rules.md §6; 000 §3.2.1, §4.2): what the
declarer may call, the call checked and made, and who the friend is.

Rules held here:

* The friend call: a card (``friend.card``; the joker under ``friend.joker``; a card he holds or
  discarded only under ``friend.fake``), nobody (``friend.no_friend``), the first trick's winner
  (``friend.first_trick``), the last trick's (``friend.last_trick``) or a named player
  (``friend.player``; the ghost of ghost 4마 may always be named, 000 §3.5.2). A full
  no-trump declarer may ask his friend to lead a suit (``friend.lead_request``).
* A card call's friend is whoever holds the card (none when the declarer holds or buried it).
* Two called cards (``friend.called_cards = 2``, 동대전 7마, 000 §7.5.3): two different cards;
  their holders are the friends - two, one holding both, or none when the declarer holds or
  buried both.
* Two decks (8마 Chicago, ``table.decks = 2``; 000 §3.5.3 "출마자는 2명의 파트너를 지목할 수
  있다": two called cards, one partner each). Every card but the removed ones is there twice,
  so (reading; the seed is silent) a called card names the player other than the declarer who
  holds a copy of it: when the declarer holds (or buried) one copy, the other copy's holder;
  when one player holds both, him; when two others hold one each, the first of them to play
  his copy (pending until then). A call is "fake" (``friend.fake``) only when the declarer
  holds or buried every copy. A player named by both cards is one partner.
"""

from __future__ import annotations

from typing import Any

from ..cards import (
    COPY,
    EXTRA_CARD_NAMES,
    JOKER,
    SUITS,
    format_bid,
    format_card,
    is_joker,
)
from ..cards.deck import JOKERS_MASK, VALID_CARDS, both, cards_of, mask_of
from ..errors import IllegalExchange
from ..translation import _
from .actions import (
    FRIEND_KINDS,
    NO_FRIEND,
    PENDING,
    CallFriend,
    FriendCall,
    format_friend_call,
)
from .contract import ContractTables, mighty_card
from .election import is_full_bid
from .seats import GHOST
from .state import HandState, mutable_copy, phase_error


def _card_name(card: int) -> str:
    """A called card as a refusal names it (the joker by name; BJ as written)."""
    return _("the joker") if card == JOKER else format_card(card)


def _friend_problem(state: HandState, call: FriendCall, single: bool = False) -> str | None:
    """Why the declarer may not make this friend call (None if he may); ``single``: check one
    card of a two-card call."""
    ctx, setup = state._ctx, state._setup
    assert setup.declarer is not None and setup.contract is not None  # (the election is over)
    f = ctx.rules.friend
    if not isinstance(call, FriendCall) or call.kind not in FRIEND_KINDS:
        return _("{call} is not a friend call (kinds: {kinds})").format(
            call=repr(call), kinds=", ".join(FRIEND_KINDS)
        )
    contract = setup.contract
    kind = call.kind
    if ctx.partner_hands:  # 허니문: the declarer's friend is his own friend hand (honeymoon.py)
        partner = ctx.players[setup.declarer + 1]
        if call != FriendCall("player", player=partner):
            return _(
                "the declarer's friend is his friend hand {partner} (table.partner_hands)"
            ).format(partner=partner)
        return None
    if kind == "card" and not single:
        # 동대전 7마: two different cards (friend.called_cards); 8마: one or two, his choice
        two = f.called_cards == 2 and (call.card2 is not None or not f.called_cards_up_to)
        if two != (call.card2 is not None):
            return _(
                "a card call names {count} different cards here (friend.called_cards = {count})"
            ).format(count=f.called_cards)
        if two and call.card2 == call.card:
            return _("the two called cards must differ (friend.called_cards = 2)")
        if two:
            problem = _friend_problem(
                state, FriendCall("card", call.card2)._replace(card2=None), single=True
            )
            if problem:
                return problem
    elif call.card2 is not None:
        return _("only a card call names a second card")
    if kind == "card":
        if call.card not in VALID_CARDS:
            return _("the card friend call names {card}, which is not a card").format(
                card=repr(call.card)
            )
        if call.card not in ctx.valid and call.card in EXTRA_CARD_NAMES:  # BJ, one joker
            return _(
                "the card friend call names {card}, which is not in this ruleset's deck"
            ).format(card=format_card(call.card))
        if call.card not in ctx.valid:  # removed from the deck (table.removed_cards)
            return _(
                "the card friend call names {card}, which is not in play (table.removed_cards)"
            ).format(card=format_card(call.card))
        if not f.card:
            return _("a card friend ({card}) is not allowed (friend.card = false)").format(
                card=_card_name(call.card)
            )
        if is_joker(call.card) and not f.joker:  # either joker (cards.jokers = 2)
            return _("the joker may not be called as friend (friend.joker = false)")
        # 4마 (000 §3.5): no Mighty friend (friend.mighty)
        if not f.mighty and call.card == mighty_card(ctx.rules, contract.trump):
            return _("Mighty ({card}) may not be called as friend (friend.mighty = false)").format(
                card=_card_name(call.card)
            )
        if not f.fake and ctx.rules.table.decks == 2:  # two decks: fake when he has every copy
            if not _copy_holders(state, call.card) - {setup.declarer}:
                return _(
                    "the declarer holds or discarded every copy of {card} (friend.fake = false)"
                ).format(card=_card_name(call.card))
        elif not f.fake:
            if setup.discard_known and setup.discards is not None and call.card in setup.discards:
                return _("{card} is one of the declarer's discards (friend.fake = false)").format(
                    card=_card_name(call.card)
                )
            if state._hands is not None and state._hands[setup.declarer] >> call.card & 1:
                return _("the declarer holds {card} himself (friend.fake = false)").format(
                    card=_card_name(call.card)
                )
    elif kind == "none":
        if not f.no_friend:
            return _("playing alone is not allowed (friend.no_friend = false)")
    elif kind == "first_trick":
        if not f.first_trick:
            return _("a first-trick friend is not allowed (friend.first_trick = false)")
    elif kind == "last_trick":
        if not f.last_trick:
            return _("a last-trick friend is not allowed (friend.last_trick = false)")
    elif kind == "player":
        if call.player == GHOST and ctx.ghost_seat >= 0:
            pass  # 000 §3.5.2: the ghost may be called by name (고스트 프렌드), whatever friend.player
        elif not f.player:
            return _("a player friend is not allowed (friend.player = false)")
        if call.player not in ctx.seat_of:
            return _("player friend {player} is not one of the players").format(
                player=repr(call.player)
            )
        if ctx.seat_of[call.player] == setup.declarer:
            return _("{player} cannot be his own friend (call none to play alone)").format(
                player=call.player
            )
    if (
        kind in ("card", "none", "first_trick", "last_trick", "player")
        and call.kind != "card"
        and call.card is not None
    ):
        return _("a {kind} call names no card").format(kind=kind)
    if call.lead_suit is not None:
        if not f.lead_request:
            return _("a lead request is not allowed (friend.lead_request = false)")
        if call.lead_suit not in SUITS:
            return _("lead request {suit} is not a suit").format(suit=repr(call.lead_suit))
        if contract.trump is not None or not is_full_bid(ctx.tables, contract):
            return _(
                "only a {full} no-trump declarer may request a lead (the contract is "
                "{contract}; friend.lead_request)"
            ).format(full=ctx.full_bid, contract=format_bid(contract))
        if kind == "none":
            return _("a declarer playing alone has no friend to request a lead from")
    return None


def apply_call(state: HandState, action: CallFriend) -> HandState:
    if state.phase == "exchange":
        raise IllegalExchange(
            _("exchange: {declarer} calls a friend before discarding (discard first)").format(
                declarer=state.declarer
            )
        )
    if state.phase != "friend":
        raise phase_error(state, _("a friend call"), IllegalExchange)
    new = mutable_copy(state)
    new._setup = state._setup.copy()
    call_step(state, new, action.call)
    return new


def call_step(state: HandState, new: HandState, call: Any) -> None:
    """The friend call (the phase is ``friend``): checked against ``state`` and written to
    ``new`` and ``new._setup`` (copies the caller owns). Every field is read before it is
    written, so ``new`` may be ``state`` itself (the record replay's private state,
    hand/replay_setup.py); nothing is written before every check has passed."""
    if state._ctx.rules.table.decks == 2 and call.kind == "card":  # two decks: not a copy
        call = call._replace(
            card=call.card & 127 if isinstance(call.card, int) else call.card,
            card2=call.card2 & 127 if isinstance(call.card2, int) else call.card2,
        )
    problem = _friend_problem(state, call)
    if problem:
        try:
            shown = format_friend_call(call)
        except Exception:  # not a well-formed call: the problem says what it is
            shown = None
        what = _("{call} as friend").format(call=shown) if shown else _("a friend")
        raise IllegalExchange(
            _("exchange: {declarer} called {what}: {problem}").format(
                declarer=state.declarer, what=what, problem=problem
            )
        )
    ctx, setup = state._ctx, state._setup
    assert setup.declarer is not None and setup.contract is not None  # (the election is over)
    new_setup = new._setup
    key = (setup.contract, call.card if call.kind == "card" else None, call.lead_suit, call.card2)
    contract = ctx.tables.contracts.get(key)
    if contract is None:  # built once per ruleset and key: a ContractTables is never changed
        contract = ctx.tables.contracts[key] = ContractTables(ctx.rules, setup.contract, call)
    declarer = setup.declarer
    friend: int | None = PENDING
    revealed = False
    if call.kind == "none":
        friend = NO_FRIEND
    elif call.kind == "player":
        friend, revealed = ctx.seat_of[call.player], True
    elif call.kind == "card":
        friend = _card_holder(state, call.card)
        if call.card2 is not None:  # friend.called_cards = 2: one friend per card's holder
            second = _card_holder(state, call.card2)
            if friend is NO_FRIEND and second != PENDING:
                friend, second = second, NO_FRIEND  # the friend is the other card's holder
            elif second == friend and friend != PENDING:
                second = NO_FRIEND  # one friend holds both (동대전 7마: 프렌즈 1명)
            new_setup.friend2 = second
    new_setup.friend_call = call
    new._contract = contract
    new._friend = friend
    new.friend_revealed = revealed
    new.phase = "play"
    new._to_move = declarer
    new.trick_number = 1


def _card_holder(state: HandState, card: int) -> int | None:
    """The friend a called card makes: its holder's seat, none when the declarer holds it or
    buried it, pending while unseen (open cards)."""
    setup = state._setup
    assert setup.declarer is not None and setup.contract is not None  # (the election is over)
    if state._ctx.rules.table.decks == 2:  # two decks: the other holder of a copy
        holders = _copy_holders(state, card) - {setup.declarer}
        if state._hands is None:
            return PENDING if holders else NO_FRIEND  # the first other to play a copy
        return holders.pop() if len(holders) == 1 else PENDING if holders else NO_FRIEND
    if setup.discard_known and setup.discards is not None and card in setup.discards:
        return NO_FRIEND  # a fake call: the card is buried
    if state._hands is None:
        return PENDING
    for holder, mask in enumerate(state._hands):
        if mask >> card & 1:
            return NO_FRIEND if holder == setup.declarer else holder
    raise StopIteration  # (never: a card in play and not buried is in a hand)


def _copy_holders(state: HandState, card: int) -> set:
    """Two decks: the seats holding a copy of ``card`` not buried, the declarer's included
    (open cards: {-1}, nobody known, while a copy may be out)."""
    ctx, setup = state._ctx, state._setup
    assert setup.declarer is not None and setup.contract is not None  # (the election is over)
    buried = mask_of(setup.discards) if setup.discard_known and setup.discards else 0
    live = both(1 << (card & 127)) & ctx.deck_mask & ~buried
    if state._hands is None:
        return {-1} if live else set()
    return {seat for seat, mask in enumerate(state._hands) if mask & live}


CARD_CALLS = {card: FriendCall("card", card) for card in VALID_CARDS}  # BJ, 서울과고's 11s


_KIND_CALLS = {kind: FriendCall(kind) for kind in ("none", "first_trick", "last_trick")}


def call_choices(state: HandState) -> tuple[int, list[FriendCall]]:
    """The friend calls without lead requests: the mask of the cards that may be called (their
    calls come first, in card order) and the other calls in order."""
    ctx, setup = state._ctx, state._setup
    assert setup.declarer is not None and setup.contract is not None  # (the election is over)
    f = ctx.rules.friend
    if ctx.partner_hands:  # 허니문: his own friend hand, nothing else
        return 0, [FriendCall("player", player=ctx.players[setup.declarer + 1])]
    card_mask = 0
    if f.card:
        excluded = 0 if f.joker else JOKERS_MASK
        if not f.mighty:
            excluded |= 1 << mighty_card(ctx.rules, setup.contract.trump)
        held = 0  # what the declarer holds or buried (a call of it is fake)
        if not f.fake:
            if setup.discard_known and setup.discards is not None:
                held |= mask_of(setup.discards)
            if state._hands is not None:
                held |= state._hands[setup.declarer]
        if ctx.rules.table.decks == 2:  # two decks: a card (copy 0), out when every copy is
            gone = held | ~ctx.deck_mask
            card_mask = ctx.deck_mask & ~excluded & ~(gone & gone >> COPY) & ((1 << COPY) - 1)
        else:
            card_mask = ctx.deck_mask & ~(excluded | held)
    others = [
        _KIND_CALLS[kind]
        for kind, allowed in (
            ("none", f.no_friend),
            ("first_trick", f.first_trick),
            ("last_trick", f.last_trick),
        )
        if allowed
    ]
    if f.player:
        others += [
            FriendCall("player", player=p) for p in ctx.players if ctx.seat_of[p] != setup.declarer
        ]
    elif ctx.ghost_seat >= 0:  # the ghost friend by name (000 §3.5.2), whatever friend.player
        others.append(FriendCall("player", player=GHOST))
    return card_mask, others


def legal_calls(state: HandState, with_leads: bool = True) -> list[FriendCall]:
    card_mask, others = call_choices(state)
    if state.rules.friend.called_cards == 2:  # 동대전 7마: every pair of different cards
        cards = cards_of(card_mask)
        calls = [
            FriendCall("card", first, card2=second)
            for index, first in enumerate(cards)
            for second in cards[index + 1 :]
        ] + others
        if state.rules.friend.called_cards_up_to:  # 8마: one partner is his choice too
            calls += [CARD_CALLS[card] for card in cards]
    else:
        calls = [CARD_CALLS[card] for card in cards_of(card_mask)] + others
    if with_leads and lead_request_allowed(state):
        calls += [with_lead(call, suit) for call in calls if call.kind != "none" for suit in SUITS]
    return calls


def lead_request_allowed(state: HandState) -> bool:
    contract = state._setup.contract
    assert contract is not None  # (the election is over)
    # 허니문 (table.partner_hands): he plays his friend hand himself, nothing to request
    return (
        state.rules.friend.lead_request
        and contract.trump is None
        and is_full_bid(state._ctx.tables, contract)
        and not state._ctx.partner_hands
    )


_LEAD_CALLS: dict[tuple, FriendCall] = {}


def with_lead(call: FriendCall, suit: int) -> FriendCall:
    """A friend call with a lead request (card calls cached: legal_actions lists 200 of them)."""
    if call.kind != "card" or call.card2 is not None:
        return call._replace(lead_suit=suit)
    key = (call.card, suit)
    cached = _LEAD_CALLS.get(key)
    if cached is None:
        cached = _LEAD_CALLS[key] = call._replace(lead_suit=suit)
    return cached
