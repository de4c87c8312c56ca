"""The exchange: the discard and the contract change (docs/rules.md §4, §6; 000 §3.2.1, §4.2).
The friend call that ends it is friend_call.py's.

Rules held here:

* The declarer discards exactly three of his thirteen cards (the kitty taken); in open-cards
  mode the discard may be unseen.
* He may then change the contract once (``exchange.trump_change_allowed``): a trump change
  raises it by ``exchange.raise_suit_change`` (``raise_to_no_trump``, ``raise_from_no_trump``;
  free in ``exchange.free_change_order``), a raise beyond that only under
  ``exchange.voluntary_raise``; where bids descend a raise lowers the number; a contract never
  goes down.
* Two decks (8마 Chicago, ``table.decks = 2``): the discard is the copies the declarer holds
  (``deck.held_copies``).
"""

from __future__ import annotations

from typing import Any

from ..cards import (
    SUITS,
    Bid,
    format_bid,
    format_card,
    format_cards,
    sorted_cards,
    trump_name,
)
from ..cards.deck import VALID_CARDS, cards_of, held_copies, mask_of
from ..errors import IllegalExchange
from ..ruleset import Ruleset
from ..translation import _, ngettext
from .actions import (
    ChangeContract,
    Discard,
)
from .state import HandState, mutable_copy, phase_error


def apply_discard(state: HandState, action: Discard) -> HandState:
    if state.phase != "exchange":
        raise phase_error(state, _("a discard"), IllegalExchange)
    new = mutable_copy(state)
    new._setup = state._setup.copy()
    discard_step(state, new, action.cards)
    return new


def discard_step(state: HandState, new: HandState, cards: Any) -> None:
    """The declarer's discard (the phase is ``exchange``): checked against ``state`` and
    written to ``new`` and ``new._setup`` (copies the caller owns). Every field is read before
    it is written, so ``new`` may be ``state`` itself (the record replay's private state,
    hand/replay_setup.py); nothing is written before every check has passed."""
    ctx, setup = state._ctx, state._setup
    assert setup.declarer is not None and setup.contract is not None  # (the election is over)
    declarer = ctx.players[setup.declarer]
    cards = tuple(cards)
    try:
        known = VALID_CARDS.issuperset(cards)
    except TypeError:  # something unhashable: the loop below says which card first
        known = False
    if not known:
        for card in cards:
            if card not in VALID_CARDS:
                raise IllegalExchange(
                    _("exchange: {declarer} discarded {card}, which is not a card").format(
                        declarer=declarer, card=repr(card)
                    )
                )
    if ctx.rules.table.decks == 2:  # two decks: the copies he holds
        cards = held_copies(
            cards, -1 if state._hands is None else state._hands[setup.declarer], state._played
        )
    if len(set(cards)) != len(cards):
        raise IllegalExchange(
            _("exchange: {declarer} discarded {cards}: a card twice").format(
                declarer=declarer, cards=format_cards(cards)
            )
        )
    new_setup = new._setup
    if ctx.open and not cards:
        new_setup.discards = ()
        new_setup.discard_known = False
    else:
        if len(cards) != ctx.kitty_size:  # as many as the kitty held (table.kitty_size)
            raise IllegalExchange(
                ngettext(
                    "exchange: {declarer} discarded {count} card ({cards}); the discard is exactly "
                    "{size}",
                    "exchange: {declarer} discarded {count} cards ({cards}); the discard is exactly "
                    "{size}",
                    len(cards),
                ).format(
                    declarer=declarer,
                    count=len(cards),
                    cards=format_cards(cards),
                    size=ctx.kitty_size,
                )
            )
        mask = mask_of(cards)
        if state._hands is not None:
            hand = state._hands[setup.declarer]
            if mask & ~hand:  # (the cards are different: each is its own bit)
                missing = [card for card in cards if not hand >> card & 1]
                raise IllegalExchange(
                    _(
                        "exchange: {declarer} discarded {card} but does not "
                        "hold it (his {count} cards: {cards})"
                    ).format(
                        declarer=declarer,
                        card=format_card(missing[0]),
                        count=10 + ctx.kitty_size,
                        cards=format_cards(sorted_cards(cards_of(hand))),
                    )
                )
            hands = list(state._hands)
            hands[setup.declarer] = hand & ~mask
            new._hands = tuple(hands)
        new._played = state._played | mask
        new_setup.discards = cards
        new_setup.discard_known = True
    new.phase = "friend"


def _change_problem(rules: Ruleset, bid: Bid, new: Bid) -> str | None:
    """Why the declarer may not change the contract from his bid to ``new`` (None if he may)."""
    e, x = rules.election, rules.exchange
    text = format_bid(new) if isinstance(new, Bid) else repr(new)
    if (
        not isinstance(new, Bid)
        or not isinstance(new.number, int)
        or (new.trump is not None and new.trump not in SUITS)
    ):
        return _("{text} is not a contract").format(text=text)
    if new.trump is None and not e.no_trump_allowed:
        return _("{text}: no-trump is not allowed (election.no_trump_allowed)").format(text=text)
    if e.max_bid and new.number > e.max_bid:
        return _("{text} is above the maximum {most} (election.max_bid)").format(
            text=text, most=e.max_bid
        )
    if rules.bids_descend:
        if new.number < e.min_bid:
            return _("{text} is below the minimum {least} (election.min_bid)").format(
                text=text, least=e.min_bid
            )
    required, why = 0, ""
    if new.trump != bid.trump:
        if not x.trump_change_allowed:
            return _(
                "{text}: changing trump from {old} to {new} is not allowed "
                "(exchange.trump_change_allowed = false)"
            ).format(text=text, old=trump_name(bid.trump), new=trump_name(new.trump))
        if bid.trump is None:
            required, why = x.raise_from_no_trump, "exchange.raise_from_no_trump"
        elif new.trump is None:
            required, why = x.raise_to_no_trump, "exchange.raise_to_no_trump"
        elif x.free_change_order and x.free_change_order.index(
            new.trump
        ) < x.free_change_order.index(bid.trump):
            required, why = 0, "exchange.free_change_order"
        else:
            required, why = x.raise_suit_change, "exchange.raise_suit_change"
    # where bids descend (election.bid_counts = opposition_limit) a raise lowers the number
    sign = -1 if rules.bids_descend else 1
    least = bid.number + sign * required
    if sign * new.number < sign * least:
        if required:
            return _(
                "{text}: changing trump from {old} to {new} raises the contract by "
                "{required} to at least {least} ({rule})"
            ).format(
                text=text,
                old=trump_name(bid.trump),
                new=trump_name(new.trump),
                required=required,
                least=least,
                rule=why,
            )
        return _("{text} is below the bid {bid} (a contract never goes down)").format(
            text=text, bid=format_bid(bid)
        )
    if new.number != least and not x.voluntary_raise:
        return _(
            "{text}: the contract may rise only by what the trump change requires, to "
            "{least} (exchange.voluntary_raise = false)"
        ).format(text=text, least=least)
    return None


def apply_change(state: HandState, action: ChangeContract) -> HandState:
    if state.phase == "exchange":
        raise IllegalExchange(
            _("exchange: {declarer} changes the contract after discarding (discard first)").format(
                declarer=state.declarer
            )
        )
    if state.phase != "friend":
        raise phase_error(state, _("a contract change"), IllegalExchange)
    bid, contract = state._setup.bid, state._setup.contract
    assert bid is not None and contract is not None  # (the election is over)
    if contract != bid:
        raise IllegalExchange(
            _(
                "exchange: {declarer} changed the contract to {contract} but "
                "already changed it to {previous} (one change, after the "
                "discard)"
            ).format(
                declarer=state.declarer,
                contract=format_bid(action.contract),
                previous=format_bid(contract),
            )
        )
    problem = _change_problem(state.rules, bid, action.contract)
    if problem:
        raise IllegalExchange(
            _("exchange: {declarer} changed the contract to {problem}").format(
                declarer=state.declarer, problem=problem
            )
        )
    new = mutable_copy(state)
    setup = state._setup.copy()
    setup.contract = action.contract
    new._setup = setup
    return new


def _required_raise(rules: Ruleset, bid: Bid, trump: int | None) -> int:
    """How much the contract must rise when trump changes from the bid's to ``trump``."""
    x = rules.exchange
    if trump == bid.trump:
        return 0
    if bid.trump is None:
        return x.raise_from_no_trump
    if trump is None:
        return x.raise_to_no_trump
    if x.free_change_order and x.free_change_order.index(trump) < x.free_change_order.index(
        bid.trump
    ):
        return 0
    return x.raise_suit_change


def legal_contracts(state: HandState) -> list[Bid]:
    """The contracts the winning bid may become (cached per ruleset and bid: do not change)."""
    tables = state._ctx.tables
    bid = state._setup.bid
    assert bid is not None  # (the election is over)
    changes = tables.changes.get(bid)
    if changes is None:
        changes = tables.changes[bid] = _contract_changes(state, bid)
    return changes


def _contract_changes(state: HandState, bid: Bid) -> list[Bid]:
    rules = state.rules
    e, x = rules.election, rules.exchange
    top = e.max_bid or state._ctx.point_total
    trumps: list = list(SUITS) + ([None] if e.no_trump_allowed else [])
    out = []
    for trump in trumps:
        if trump != bid.trump and not x.trump_change_allowed:
            continue
        if rules.bids_descend:  # a raise lowers the number, down to the minimum
            least = bid.number - _required_raise(rules, bid, trump)
            numbers = range(e.min_bid if x.voluntary_raise else least, least + 1)
        else:
            least = bid.number + _required_raise(rules, bid, trump)
            most = top if x.voluntary_raise else least
            numbers = range(least, min(most, top) + 1)
        out += [
            Bid(number, trump) for number in numbers if number != bid.number or trump != bid.trump
        ]
    return out
