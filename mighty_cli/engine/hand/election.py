"""The election (docs/rules.md §3, 000 §3.2.1) and the deal miss (docs/rules.md §5, 000 §8).

Rules held here, in the order :func:`apply_bid` checks them:

* Players call in turn from the opener; a call is a bid or a pass. The opener must bid unless
  ``election.opener_may_pass``; a pass is final under ``election.pass_is_final``.
* A bid names a number and a trump (or no-trump where ``election.no_trump_allowed``), at least
  ``election.min_bid`` (no-trump: less ``election.no_trump_discount``), at most
  ``election.max_bid``; it must beat the standing bid by ``election.min_raise``, where bids
  compare by their number (negated under ``election.bid_counts = "opposition_limit"``, 이우)
  plus the no-trump discount for no-trump; an equal bid beats the standing one only by
  ``election.suit_order``, ``election.no_trump_beats_equal_suit`` or
  ``election.equal_bid_allowed``.
* The election ends when all but the standing bidder have passed (in a row, unless passes are
  final); everyone passing is a redeal. A full bid (풀) ends it at once under
  ``election.full_bid_ends`` (000 §8).
* The declarer takes the kitty.
* A deal miss may be declared by a player whose hand qualifies (see hand/derived.py) before the
  election, during it (``deal_miss.during_election``), after passing (``deal_miss.after_pass``),
  not after a full bid (``deal_miss.full_bid_overrides``). Under ``deal_miss.full_bid_cancels``
  (000 §8, 민사) a full bid made after the deal miss cancels it: the full bidder is declarer at
  once.
"""

from __future__ import annotations

from typing import Any

from ..cards import SUITS, Bid, format_bid, format_cards, sorted_cards
from ..cards.deck import cards_of, mask_of
from ..errors import IllegalBid, IllegalDealMiss
from ..ruleset import Ruleset
from ..translation import _
from .actions import BidCall, DeclareDealMiss
from .derived import RuleTables, deal_miss_value
from .state import HandSetup, HandState, mutable_copy, phase_error

# --- election ---------------------------------------------------------------------------------


def _bid_key(bid: Bid, e: Any) -> int:
    """A bid's height for comparing bids: its number (negated where a lower number is the higher
    bid, election.bid_counts = opposition_limit), plus the no-trump discount for no-trump."""
    number = -bid.number if e.bid_counts == "opposition_limit" else bid.number
    return number + (e.no_trump_discount if bid.trump is None else 0)


def _bid_problem(
    rules: Ruleset, player: str, bid: Bid, standing: Bid | None, standing_player: str | None
) -> str | None:
    """Why a bid is illegal (None if it is legal)."""
    e = rules.election
    if (
        not isinstance(bid, Bid)
        or not isinstance(bid.number, int)
        or (bid.trump is not None and bid.trump not in SUITS)
    ):
        return _("{player} bid {bid}, which is not a bid").format(player=player, bid=repr(bid))
    if (
        standing is not None
        and bid.number <= (e.max_bid or bid.number)
        and bid.number >= (e.min_bid - e.no_trump_discount if bid.trump is None else e.min_bid)
        and (bid.trump is not None or e.no_trump_allowed)
        and _beats(bid, standing, e)
    ):
        return None  # the usual legal raise, decided without building any message
    text = format_bid(bid)
    if bid.trump is None:
        if not e.no_trump_allowed:
            return _(
                "{player} bid {bid} but no-trump is not allowed (election.no_trump_allowed)"
            ).format(player=player, bid=text)
        lowest = e.min_bid - e.no_trump_discount
        if bid.number < lowest:
            if e.no_trump_discount:
                return _(
                    "{player} bid {bid} below the no-trump minimum {lowest} "
                    "(election.min_bid − election.no_trump_discount)"
                ).format(player=player, bid=text, lowest=lowest)
            return _("{player} bid {bid} below the minimum {lowest} (election.min_bid)").format(
                player=player, bid=text, lowest=lowest
            )
    elif bid.number < e.min_bid:
        return _("{player} bid {bid} below the minimum {lowest} (election.min_bid)").format(
            player=player, bid=text, lowest=e.min_bid
        )
    if e.max_bid and bid.number > e.max_bid:
        return _("{player} bid {bid} above the maximum {highest} (election.max_bid)").format(
            player=player, bid=text, highest=e.max_bid
        )
    if standing is None:
        return None
    new, old = _bid_key(bid, e), _bid_key(standing, e)
    if new >= old + e.min_raise:
        return None
    against = _("{player}'s {bid} stands").format(player=standing_player, bid=format_bid(standing))
    if new == old:
        if bid.trump is None and standing.trump is not None and e.no_trump_beats_equal_suit:
            return None
        if (
            bid.trump is not None
            and standing.trump is not None
            and e.suit_order
            and e.suit_order.index(bid.trump) < e.suit_order.index(standing.trump)
        ):
            return None
        if e.equal_bid_allowed:
            return None
        options = (
            "election.equal_bid_allowed = false"
            + (", election.suit_order" if e.suit_order else "")
            + (
                ", election.no_trump_beats_equal_suit"
                if bid.trump is None or standing.trump is None
                else ""
            )
        )
        return _(
            "{player} bid {bid} but {against} and an equal bid does not beat it ({options})"
        ).format(player=player, bid=text, against=against, options=options)
    if new > old:
        return _(
            "{player} bid {bid} but {against} and a raise must be at least {raise_by} "
            "(election.min_raise)"
        ).format(player=player, bid=text, against=against, raise_by=e.min_raise)
    if e.bid_counts == "opposition_limit":
        return _(
            "{player} bid {bid} but {against} (a bid must beat the standing bid: a lower "
            "number is a higher bid, election.bid_counts = opposition_limit)"
        ).format(player=player, bid=text, against=against)
    return _("{player} bid {bid} but {against} (a bid must beat the standing bid)").format(
        player=player, bid=text, against=against
    )


def _next_bidder(setup: HandSetup, seat: int, pass_is_final: bool, n: int, silent: int = 0) -> int:
    """The next player to call: the next seat, passing over those whose pass was final (and the
    seats that never bid: the ghost's, hand/seats.py; 허니문's friend hands, honeymoon.py)."""
    for step in range(1, n + 1):
        candidate = (seat + step) % n
        if not silent >> candidate & 1 and (not pass_is_final or not setup.passed >> candidate & 1):
            return candidate
    return seat  # pragma: no cover - the election has ended before this


def is_full_bid(tables: RuleTables, bid: Bid) -> bool:
    """Whether a bid names the full number (풀: 20, or the highest number the ruleset has)."""
    return bid.number <= tables.full_bid if tables.descend else bid.number >= tables.full_bid


def apply_bid(state: HandState, action: BidCall) -> HandState:
    if state.phase == "deal_miss" and state.rules.deal_miss.full_bid_cancels:
        return _apply_cancelling_bid(state, action)
    if state.phase != "election":
        raise phase_error(state, _("{player}'s bid").format(player=action.player), IllegalBid)
    new = mutable_copy(state)
    new._setup = state._setup.copy()
    bid_step(state, new, action.player, action.bid)
    return new


def bid_step(state: HandState, new: HandState, player: Any, bid: Any) -> None:
    """One call of the election (the phase is ``election``): checked against ``state`` and
    written to ``new`` and ``new._setup`` (copies of state and of its setup that the caller
    owns). Every field is read before it is written, so ``new`` may be ``state`` itself: the
    batch replay of a record's election (hand/replay_setup.py) steps one private state this way."""
    ctx, setup = state._ctx, state._setup
    e = ctx.rules.election
    seat = ctx.seat_of.get(player)
    if seat is None:
        raise IllegalBid(
            _("election: {player} is not one of the players").format(player=repr(player))
        )
    passed, calls, to_move = setup.passed, setup.calls, state._to_move
    assert to_move is not None  # (the election: someone is to call)
    final = e.pass_is_final
    if (final and passed >> seat & 1) or seat != to_move:
        shown = _("pass") if bid is None else format_bid(bid) if isinstance(bid, Bid) else repr(bid)
    if final and passed >> seat & 1:
        raise IllegalBid(
            _(
                "election: {player} called {call} but has passed and may not bid "
                "again (election.pass_is_final)"
            ).format(player=player, call=shown)
        )
    if seat != to_move:
        raise IllegalBid(
            _("election: {player} called {call} but it is {other}'s turn").format(
                player=player, call=shown, other=ctx.players[to_move]
            )
        )
    if bid is None:
        if not calls and not e.opener_may_pass:
            raise IllegalBid(
                _(
                    "election: {player} passed but the opener must bid "
                    "(election.opener_may_pass = false)"
                ).format(player=player)
            )
        passed |= 1 << seat
        consecutive = setup.consecutive + 1
        standing = setup.standing
    else:
        # The usual legal bid is one of the listed successors of the standing bid (exactly
        # typed: Bid(14.0, 0) == Bid(14, 0) but is no bid); anything else gets the full test.
        standing = setup.standing
        tables = ctx.tables
        if standing is None:
            beating = tables.bid_set
        else:
            listed = tables.successors.get(standing)
            beating = (listed if listed is not None else bids_over(tables, standing))[1]
        if not (type(bid) is Bid and type(bid.number) is int and bid in beating):
            standing_player = (
                None if setup.standing_seat is None else ctx.players[setup.standing_seat]
            )
            problem = _bid_problem(ctx.rules, player, bid, standing, standing_player)
            if problem:
                raise IllegalBid(_("election: {problem}").format(problem=problem))
        standing = bid
        passed &= ~(1 << seat)
        consecutive = 0
    new_setup = new._setup
    new_setup.calls = calls + ((player, bid),)
    if bid is not None:
        new_setup.standing = bid
        new_setup.standing_seat = seat
    new_setup.passed = passed
    new_setup.consecutive = consecutive
    passed_count = passed.bit_count()
    if final:
        ended = standing is not None and passed_count >= ctx.n - 1
        redeal = passed_count == ctx.n
    else:
        ended = standing is not None and consecutive >= ctx.bidders - 1
        redeal = standing is None and consecutive >= ctx.bidders
    if bid is not None and e.full_bid_ends:
        tables = ctx.tables  # is_full_bid, written out
        if bid.number <= tables.full_bid if tables.descend else bid.number >= tables.full_bid:
            ended = True  # 000 §8: a full bid ends the election at once (election.full_bid_ends)
    if redeal:
        new.phase = "redeal"
        new._to_move = None
    elif ended:
        _close_election(state, new, new_setup)
    elif not ctx.silent and not (final and passed >> (seat + 1 if seat + 1 < ctx.n else 0) & 1):
        new._to_move = seat + 1 if seat + 1 < ctx.n else 0  # _next_bidder's first candidate
    else:
        new._to_move = _next_bidder(new_setup, seat, final, ctx.n, ctx.silent)


def bid_run(state: HandState, calls: Any, history: Any) -> tuple[int, Any]:
    """The usual calls of an election written at once onto ``state``, a private state whose
    setup is private too (hand/replay_setup.py's batch): how many of ``calls``, from the first,
    were taken, and ``history`` with them linked on. It takes a call only where
    :func:`bid_step` would accept it without a second look (the player to move; a pass the
    opener may make; a bid of the standing bid's listed successors, exactly typed) and writes
    what ``bid_step`` would write, call after call; it stops at any other call, and at every
    table with seats that never bid, leaving the rest to ``bid_step`` (which refuses, or
    takes the unusual). The state is written back before returning, so ``bid_step`` goes on
    from it."""
    ctx, setup = state._ctx, state._setup
    if ctx.silent or state.phase != "election":
        return 0, history
    e = ctx.rules.election
    tables = ctx.tables
    players, n, bidders = ctx.players, ctx.n, ctx.bidders
    final, may_pass = e.pass_is_final, e.opener_may_pass
    full_ends, full_bid, descend = e.full_bid_ends, tables.full_bid, tables.descend
    beats = tables.beats
    calls_made, standing, standing_seat = setup.calls, setup.standing, setup.standing_seat
    passed, consecutive, seat = setup.passed, setup.consecutive, state._to_move
    assert seat is not None  # (the election: someone is to call)
    made: list = []
    ended = redeal = False
    for call in calls:
        # the player to move (seat), and under final passes one who has not passed
        if type(call) is not BidCall or call[0] != players[seat] or final and passed >> seat & 1:
            break
        bid = call[1]
        if bid is None:
            if not may_pass and not calls_made and not made:
                break
            passed |= 1 << seat
            consecutive += 1
            full = False
        else:
            beating = beats.get(standing)
            if beating is None:
                beating = beats[standing] = bids_over(tables, standing)[1]
            if not (type(bid) is Bid and type(bid.number) is int and bid in beating):
                break
            standing, standing_seat = bid, seat
            passed &= ~(1 << seat)
            consecutive = 0
            full = full_ends and (bid.number <= full_bid if descend else bid.number >= full_bid)
        made.append((call[0], bid))
        history = (call, history)
        if final:
            passed_count = passed.bit_count()
            ended = standing is not None and passed_count >= n - 1 or full
            redeal = passed_count == n
        else:
            ended = standing is not None and consecutive >= bidders - 1 or full
            redeal = standing is None and consecutive >= bidders
        if redeal or ended:
            break
        seat = seat + 1 if seat + 1 < n else 0
        while final and passed >> seat & 1:  # _next_bidder (no silent seats here)
            seat = seat + 1 if seat + 1 < n else 0
    if made:
        setup.calls = calls_made + tuple(made)
        setup.standing, setup.standing_seat = standing, standing_seat
        setup.passed, setup.consecutive = passed, consecutive
        if redeal:
            state.phase = "redeal"
            state._to_move = None
        elif ended:
            _close_election(state, state, setup)
        else:
            state._to_move = seat
    return len(made), history


def _close_election(state: HandState, new: HandState, new_setup: HandSetup) -> None:
    """The standing bidder is declarer: he takes the kitty and discards next."""
    declarer = new_setup.standing_seat
    assert declarer is not None  # (an election ends on a standing bid)
    new_setup.declarer = declarer
    new_setup.bid = new_setup.contract = new_setup.standing
    new._to_move = declarer
    if state._ctx.tables.eliminated:
        new.phase = "elimination"  # 6마, 7마: the kitty is dealt out after (elimination.py)
        return
    new.phase = "exchange"
    if state._hands is not None:
        hands = list(state._hands)
        assert state._ctx.kitty is not None  # (known with the hands)
        hands[declarer] |= mask_of(state._ctx.kitty)
        new._hands = tuple(hands)


def _cancelling_bid_problem(state: HandState, seat: int, bid: Bid | None) -> str | None:
    """Why a call after a declared deal miss does not cancel it (deal_miss.full_bid_cancels)."""
    ctx, setup = state._ctx, state._setup
    player = ctx.players[seat]
    assert setup.deal_miss_seat is not None  # (a deal miss was declared)
    miss = ctx.players[setup.deal_miss_seat]
    if seat == ctx.ghost_seat:
        return _("the ghost never bids (table.ghost)")
    if seat == ctx.tables.dummy_seat:
        return _("the dummy never bids (table.dummy)")
    if ctx.silent >> seat & 1:
        return _("{player} is a friend hand and never bids (table.partner_hands)").format(
            player=player
        )
    if seat == setup.deal_miss_seat:
        return _("{player} declared the deal miss and cannot cancel it with a bid").format(
            player=player
        )
    if bid is None:
        return _(
            "{player} passed after {miss}'s deal miss: only a full bid cancels a deal miss "
            "(deal_miss.full_bid_cancels)"
        ).format(player=player, miss=miss)
    text = format_bid(bid) if isinstance(bid, Bid) else repr(bid)
    if ctx.rules.election.pass_is_final and setup.passed >> seat & 1:
        return _(
            "{player} called {call} after {miss}'s deal miss but has passed "
            "(election.pass_is_final)"
        ).format(player=player, call=text, miss=miss)
    standing_player = None if setup.standing_seat is None else ctx.players[setup.standing_seat]
    problem = _bid_problem(ctx.rules, player, bid, setup.standing, standing_player)
    if problem:
        return problem
    if not is_full_bid(ctx.tables, bid):
        return _(
            "{player} bid {bid} after {miss}'s deal miss: only a full bid of {full} "
            "cancels a deal miss (deal_miss.full_bid_cancels)"
        ).format(player=player, bid=text, miss=miss, full=ctx.full_bid)
    return None


def _apply_cancelling_bid(state: HandState, action: BidCall) -> HandState:
    """000 §8: a full bid after a declared deal miss cancels it; the full bidder is declarer at
    once (풀 공약이 나오면 그냥 쳐야 한다)."""
    ctx = state._ctx
    seat = ctx.seat_of.get(action.player)
    if seat is None:
        raise IllegalBid(
            _("election: {player} is not one of the players").format(player=repr(action.player))
        )
    problem = _cancelling_bid_problem(state, seat, action.bid)
    if problem:
        raise IllegalBid(_("election: {problem}").format(problem=problem))
    new = mutable_copy(state)
    new_setup = state._setup.copy()
    new_setup.calls = state._setup.calls + ((action.player, action.bid),)
    new_setup.standing = action.bid
    new_setup.standing_seat = seat
    new_setup.deal_miss_seat = None
    new._setup = new_setup
    _close_election(state, new, new_setup)
    return new


def cancelling_bids(state: HandState) -> list:
    """The full bids that may cancel a declared deal miss (deal_miss.full_bid_cancels)."""
    if state.phase != "deal_miss" or not state.rules.deal_miss.full_bid_cancels:
        return []
    ctx = state._ctx
    full = [
        bid
        for bid in bids_over(ctx.tables, state._setup.standing)[0]
        if is_full_bid(ctx.tables, bid)
    ]
    return [
        BidCall(player, bid)
        for seat, player in enumerate(ctx.players)
        for bid in full
        if _cancelling_bid_problem(state, seat, bid) is None
    ]


def may_declare_deal_miss(state: HandState, seat: int) -> bool:
    """Whether a player may declare a deal miss now (the fast test _deal_miss_problem explains)."""
    ctx = state._ctx
    if ctx.miss_hands is not None and not ctx.miss_hands[seat]:
        return False
    return _deal_miss_problem(state, seat) is None


def _deal_miss_problem(state: HandState, seat: int) -> str | None:
    """Why a player may not declare a deal miss now (None if he may)."""
    ctx, setup = state._ctx, state._setup
    d = ctx.rules.deal_miss
    player = ctx.players[seat]
    if not d.allowed:
        return _(
            "{player} declared a deal miss but this ruleset has none (deal_miss.allowed)"
        ).format(player=player)
    if seat == ctx.ghost_seat:
        return _("the ghost never declares a deal miss (table.ghost)")
    if seat == ctx.tables.dummy_seat:
        return _("the dummy never declares a deal miss (table.dummy)")
    if ctx.silent >> seat & 1:
        return _(
            "{player} is a friend hand and never declares a deal miss (table.partner_hands)"
        ).format(player=player)
    if setup.calls:
        if not d.during_election:
            return _(
                "{player} declared a deal miss after the election began "
                "(deal_miss.during_election = false)"
            ).format(player=player)
        if not d.after_pass and any(who == player and bid is None for who, bid in setup.calls):
            return _(
                "{player} declared a deal miss after passing (deal_miss.after_pass = false)"
            ).format(player=player)
        if d.full_bid_overrides and any(
            bid is not None and is_full_bid(ctx.tables, bid) for _, bid in setup.calls
        ):
            return _(
                "{player} declared a deal miss after a full bid of {full} "
                "(deal_miss.full_bid_overrides)"
            ).format(player=player, full=ctx.full_bid)
    if ctx.miss_hands is not None and not ctx.miss_hands[seat]:
        assert ctx.deal_masks is not None  # (the hands are known where miss_hands is)
        cards = sorted_cards(cards_of(ctx.deal_masks[seat]))
        value = deal_miss_value(ctx.rules, cards)
        options = "deal_miss.threshold, deal_miss.comparison" + (
            ", deal_miss.all_point_cards" if d.all_point_cards else ""
        )
        message = (
            _(
                "{player} declared a deal miss but his hand {cards} counts {value}, not at "
                "most {threshold} ({options})"
            )
            if d.comparison == "at_most"
            else _(
                "{player} declared a deal miss but his hand {cards} counts {value}, not below "
                "{threshold} ({options})"
            )
        )
        return message.format(
            player=player,
            cards=format_cards(cards),
            value=f"{value:g}",
            threshold=f"{d.threshold:g}",
            options=options,
        )
    return None


def apply_deal_miss(state: HandState, action: DeclareDealMiss) -> HandState:
    if state.phase != "election":
        raise phase_error(
            state, _("{player}'s deal miss").format(player=action.player), IllegalDealMiss
        )
    seat = state._ctx.seat_of.get(action.player)
    if seat is None:
        raise IllegalDealMiss(
            _("election: {player} is not one of the players").format(player=repr(action.player))
        )
    problem = _deal_miss_problem(state, seat)
    if problem:
        raise IllegalDealMiss(_("election: {problem}").format(problem=problem))
    new = mutable_copy(state)
    setup = state._setup.copy()
    setup.deal_miss_seat = seat
    new._setup = setup
    new.phase = "deal_miss"
    new._to_move = None
    return new


def _beats(bid: Bid, standing: Bid, e: Any) -> bool:
    """Whether a bid beats the standing bid (the test _bid_problem explains)."""
    new, old = _bid_key(bid, e), _bid_key(standing, e)
    if new >= old + e.min_raise:
        return True
    if new != old:
        return False
    if bid.trump is None and standing.trump is not None and e.no_trump_beats_equal_suit:
        return True
    if (
        bid.trump is not None
        and standing.trump is not None
        and e.suit_order
        and e.suit_order.index(bid.trump) < e.suit_order.index(standing.trump)
    ):
        return True
    return e.equal_bid_allowed


def bids_over(tables: RuleTables, standing: Bid | None) -> tuple[list[Bid], frozenset]:
    """The bids that may be called over the standing bid (every bid when there is none), in
    order and as a set; cached per ruleset. The caller must not change them."""
    if standing is None:
        return tables.bids, tables.bid_set
    successors = tables.successors.get(standing)
    if successors is None:
        e = tables.rules.election
        beating = [bid for bid in tables.bids if _beats(bid, standing, e)]
        successors = tables.successors[standing] = (beating, frozenset(beating))
    return successors


def legal_bids(state: HandState) -> list[Bid]:
    return list(bids_over(state._ctx.tables, state._setup.standing)[0])
