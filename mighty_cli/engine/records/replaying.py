"""Replaying a hand record: every hand checked against the ruleset and scored, in order, with
the session's succession (dealer, opener, deposit pot) carried from hand to hand.

A full hand is replayed card by card through the hand engine, a recorded hand is validated and
scored, a deal miss settles the pot. The election and the tricks go through the fast paths
(hand/replay_setup.py, hand/replay_tricks.py), which give the same states and errors as the hand
engine's
apply call by call (``fast=False``, the reference the tests hold them to); the usual deal is
read as masks at once (record_values.read_plain_deal), checked as the deal check would check it.
tests/engine/test_replay_fast_setup.py and test_replay_fast_hand.py hold each short way to the
general one, good records and broken ones. Replaying stops at
the first violation with a :class:`RecordError` whose message names the hand (1-based), the
trick where there is one, the player, the card or call, and the rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Bid, format_bid, parse_card, parse_cards
from ..errors import InvalidNotation, MightyError, RecordError
from ..hand.actions import is_trick_call
from ..hand.derived import rule_tables
from ..hand.honeymoon import fold_deltas, partner_of, partner_seats
from ..hand.seats import DUMMY, GHOST, ghost_score
from ..ruleset import Ruleset
from ..scoring import friends_weighed, score_hand, seat_deltas
from ..session import PreviousHand, opener_for, previous_hand, propose, settle_pot
from ..translation import _
from .file import Record, record_ruleset
from .outcome import HandOutcome, friend_possible, settle_outcome_pot
from .summary import SummaryReplay
from .values import (
    DEAL_MISS_CALL,
    check_friend_call_text,
    elimination_parts,
    hand_players,
    read_bid,
    read_calls,
    read_cards,
    read_deal,
    read_friend_call,
    read_name,
    read_plain_deal,
    read_taken,
    refuse_later_keys,
)


@dataclass
class ReplayResult:
    """Every hand's outcome and the running totals."""

    hands: list[HandOutcome]
    totals: dict[str, int]
    pot: int = 0

    def to_json(self) -> dict:
        return {
            "hands": [h.to_json() for h in self.hands],
            "totals": dict(self.totals),
            "pot": self.pot,
        }


def replay(
    record: Record, rules: Ruleset | None = None, *, fast: bool = True, first: int = 1
) -> ReplayResult:
    """Check and score every hand of a record; the first violation raises RecordError.
    ``fast=False`` replays every call and card with the hand engine's apply (the reference the
    fast paths are tested against: hand/replay_setup.py, hand/replay_tricks.py). ``first``: the
    first
    hand's number (a league's hand checked alone is named by its own number)."""
    rules = rules or record_ruleset(record)
    totals = dict.fromkeys(record.players, 0)
    outcomes = [
        outcome for _, outcome in iter_replay(record, rules, totals, fast=fast, first=first)
    ]
    return ReplayResult(outcomes, totals, outcomes[-1].pot_after if outcomes else 0)


def iter_replay(
    record: Record,
    rules: Ruleset | None = None,
    totals: dict[str, int] | None = None,
    *,
    fast: bool = True,
    first: int = 1,
) -> Iterator[tuple[dict, HandOutcome]]:
    """Replay a record hand by hand, yielding each ``(hand, outcome)`` as it is scored (the
    record's ``hands`` may be an iterator: nothing is kept); ``totals``, when given, is
    updated as it goes; the hands are numbered from ``first``. The first violation raises
    RecordError."""
    rules = rules or record_ruleset(record)
    pot = 0
    previous: PreviousHand | None = None
    last: tuple | None = None  # what the previous hand leaves to succession, made lazily
    session = None
    # the usual recorded outcome, at once (records/summary.py); everything else, and the
    # reference (fast=False), through _replay_hand
    summary = SummaryReplay(rules, record.players).replay if fast else None
    zero = dict.fromkeys(record.players, 0)  # copied, never changed
    for index, hand in enumerate(record.hands, first):
        if hand.get("session") != session:  # a new session starts its own succession
            session, previous, last = hand.get("session"), None, None
        # (a hand with a deal is never a summary's: it takes recorded outcomes only)
        outcome = summary(hand, index, pot) if summary is not None and "deal" not in hand else None
        if outcome is None:
            if last is not None:
                previous, last = previous_hand(last), None
            try:
                outcome = _replay_hand(
                    rules, record.players, hand, index, previous, pot, fast, zero
                )
            except RecordError:
                raise
            except MightyError as exc:  # a broken rule, a bad card, an unscorable outcome
                raise RecordError(_locate(index, str(exc))) from None
        pot = outcome.pot_after
        if totals is not None:
            for player, delta in outcome.deltas.items():
                totals[player] += delta
        yield hand, outcome
        if outcome.status != "in_progress":
            last = _previous_fields(outcome)


def _previous_fields(outcome: HandOutcome) -> tuple:
    """What the session rules need to know about a finished hand: a :class:`PreviousHand`'s
    fields, taken when the hand is over (the PreviousHand is made only when a later hand
    needs it)."""
    return (
        outcome.status,
        tuple(outcome.players),
        outcome.dealer,
        outcome.declarer,
        outcome.friend,
        outcome.score.success if outcome.score else None,
        outcome.deal_miss_player,
        outcome.opener,
    )


def _locate(index: int, message: str) -> str:
    located = (
        _("hand {index}, {message}")
        if message.startswith("trick")
        else _("hand {index}: {message}")
    )
    return located.format(index=index, message=message)


def _replay_hand(
    rules: Ruleset,
    all_players: Sequence[str],
    hand: dict,
    index: int,
    previous: PreviousHand | None,
    pot: int,
    fast: bool = True,
    zero: dict[str, int] | None = None,
) -> HandOutcome:
    """One hand of a record replayed; ``zero``: every player of the record at 0 (copied, never
    changed), where the caller has it."""
    players = hand_players(all_players, hand, index, rules.table.players)
    # With six or seven present the dealer may sit the hand out (docs/rules.md §9).
    dealer = hand.get("dealer")
    if dealer is None:
        dealer = propose(rules, all_players, previous, in_playing_order=True).dealer
    dealer = read_name(dealer, all_players, index, "dealer")
    if zero is None:
        zero = dict.fromkeys(all_players, 0)
    if "deal" in hand or "election" in hand:  # with no deal: refereed with open cards
        opener = opener_for(rules, all_players, players, dealer, previous)
        if "opener" in hand:  # the table said who opened (e.g. a referee started mid-session)
            opener = read_name(hand["opener"], players, index, "opener")
        outcome = _replay_full(rules, players, hand, index, opener, pot, dealer, zero, fast)
        outcome.opener = opener
        return outcome
    if "deal_miss" in hand:
        miss = read_name(hand["deal_miss"], players, index, "deal_miss")
        if not rules.deal_miss.allowed:
            raise RecordError(
                _(
                    "hand {index}: {player} declared a deal miss but {ruleset} has "
                    "no deal miss (deal_miss.allowed = false)"
                ).format(index=index, player=miss, ruleset=rules.name)
            )
        outcome = _deal_miss_outcome(rules, players, index, dealer, miss, pot, zero)
        outcome.opener = (
            read_name(hand["opener"], players, index, "opener")
            if "opener" in hand
            else opener_for(rules, all_players, players, dealer, previous)
        )
        return outcome
    if "declarer" in hand:
        extra = set(hand) & {"election", "discard", "tricks"}
        if extra:
            raise RecordError(
                _("hand {index}: {key} needs the deal (deal = {{...}})").format(
                    index=index, key=sorted(extra)[0]
                )
            )
        declarer = read_name(hand["declarer"], players, index, "declarer")
        contract = read_bid(hand.get("contract"), index)
        friend_text = hand.get("friend", "none")
        friend = (
            None
            if friend_text == "none"
            else GHOST
            if rules.table.ghost and friend_text == GHOST
            else friend_text
            if rules.table.partner_hands and friend_text == partner_of(declarer)
            else read_name(friend_text, players, index, "friend")
        )
        # friend.called_cards = 2 (동대전 7마): the second friend, a key of its own
        friend2 = (
            read_name(hand["friend2"], players, index, "friend2") if "friend2" in hand else None
        )
        if friend is not None and "opposition" in hand and friends_weighed(rules):
            raise RecordError(
                _(
                    "hand {index}: opposition = {value} cannot be scored under "
                    "{ruleset}: its friends' point cards are weighed "
                    "(scoring.friend_weight), so give taken, the ruling party's "
                    "weighed count"
                ).format(index=index, value=repr(hand["opposition"]), ruleset=rules.name)
            )
        taken = read_taken(rules, hand, index)
        call = hand.get("friend_call")
        if call is not None:
            check_friend_call_text(call, index)
        eliminated = _eliminated(rules, hand, players, declarer, friend, index)
        outcome = score_outcome(
            rules,
            players,
            declarer,
            contract,
            friend,
            taken,
            all_players=all_players,
            index=index,
            friend_call=call,
            eliminated=() if rules.table.dummy else eliminated,
            friend2=friend2,
        )
        if rules.table.dummy:  # 시흥 은마: nobody sits out (elimination.py)
            outcome.eliminated_hand = eliminated[0] if eliminated else None
        outcome.dealer, outcome.friend_call = dealer, call
        return settle_outcome_pot(rules, outcome, pot)
    raise RecordError(
        _(
            "hand {index}: expected a deal (a full hand), a declarer (a recorded "
            "outcome) or deal_miss"
        ).format(index=index)
    )


def _eliminated(
    rules: Ruleset,
    hand: dict,
    players: Sequence[str],
    declarer: str,
    friend: str | None,
    index: int,
) -> list[str]:
    """6마, 7마: who the declarer eliminated in a recorded outcome (``eliminated = ["Ed"]``,
    table.eliminated of them): they play no trick and score nothing."""
    count = rules.table.eliminated
    given = hand.get("eliminated")
    if rules.table.dummy:
        return _dummy_eliminated(given, players, declarer, index)
    if given is None:
        if count:
            raise RecordError(
                _(
                    "hand {index}: eliminated: {ruleset} eliminates {count} "
                    "(table.eliminated): say who (eliminated = [...])"
                ).format(index=index, ruleset=rules.name, count=count)
            )
        return []
    if not count:
        raise RecordError(
            _(
                "hand {index}: eliminated: nobody is eliminated under {ruleset} "
                "(table.eliminated = 0)"
            ).format(index=index, ruleset=rules.name)
        )
    names = [read_name(name, players, index, "eliminated") for name in given]
    if len(names) != count or len(set(names)) != count:
        raise RecordError(
            _(
                "hand {index}: eliminated: expected {count} distinct players "
                "(table.eliminated), got {given}"
            ).format(index=index, count=count, given=len(names))
        )
    if declarer in names:
        raise RecordError(
            _(
                "hand {index}: eliminated: {player} is the declarer; the eliminated play no trick"
            ).format(index=index, player=declarer)
        )
    if friend in names:
        raise RecordError(
            _(
                "hand {index}: eliminated: {player} is the friend; the eliminated play no trick"
            ).format(index=index, player=friend)
        )
    return names


def _dummy_eliminated(given: Any, players: Sequence[str], declarer: str, index: int) -> list[str]:
    """시흥 은마 (table.dummy): whose own hand the declarer eliminated, a player or ``dummy``.
    It changes no score (an eliminated player plays the dummy's hand), so a record may leave it
    out; the declarer cannot be eliminated, the friend can (the dummy's hand held the card)."""
    if given is None:
        return []
    names = [
        DUMMY
        if isinstance(name, str) and name.strip().lower() == DUMMY
        else read_name(name, players, index, "eliminated")
        for name in given
    ]
    if len(names) != 1:
        raise RecordError(
            _(
                'hand {index}: eliminated: expected one player or "dummy" (시흥 '
                "은마: table.dummy), got {given}"
            ).format(index=index, given=len(names))
        )
    if names[0] == declarer:
        raise RecordError(
            _("hand {index}: eliminated: {player} is the declarer and cannot be eliminated").format(
                index=index, player=declarer
            )
        )
    return names


def score_outcome(
    rules: Ruleset,
    players: Sequence[str],
    declarer: str,
    contract: Bid,
    friend: str | None,
    taken: int,
    *,
    all_players: Sequence[str] | None = None,
    index: int = 1,
    friend_call: str | None = None,
    eliminated: Sequence[str] = (),
    friend2: str | None = None,
) -> HandOutcome:
    """Validate and score a recorded outcome (what a score-keeper writes down). A declarer
    alone after a first- or last-trick ``friend_call`` is doubled as
    ``scoring.no_friend_by_trick_call`` says. ``friend2``: the second friend where two cards
    are called (friend.called_cards = 2, 동대전 7마), each friend taking a friend's share and
    the declarer the balance; ``taken`` is then the ruling party's count with the friends'
    cards weighted (scoring.friend_weight), as the table compares it with the bid."""
    if declarer not in players:
        raise RecordError(
            _("hand {index}: declarer {player} does not play this hand").format(
                index=index, player=repr(declarer)
            )
        )
    if friend2 is not None:
        _check_second_friend(rules, players, declarer, friend, friend2, eliminated, index)
    ghost = rules.table.ghost and friend == GHOST  # ghost 4마: the ghost friend (hand/seats.py)
    if rules.table.partner_hands:  # 허니문: his own friend hand, always (honeymoon.py)
        if friend != partner_of(declarer):
            raise RecordError(
                _(
                    "hand {index}: friend = {friend}: the declarer's friend is his "
                    "friend hand {partner} (table.partner_hands)"
                ).format(
                    index=index, friend=repr(friend or "none"), partner=repr(partner_of(declarer))
                )
            )
    elif friend is not None and not ghost:
        if friend not in players:
            raise RecordError(
                _("hand {index}: friend {player} does not play this hand").format(
                    index=index, player=repr(friend)
                )
            )
        if friend == declarer:
            raise RecordError(
                _(
                    "hand {index}: {declarer} cannot be his own friend (write "
                    'friend = "none" for a declarer playing alone)'
                ).format(index=index, declarer=declarer)
            )
        if not friend_possible(rules):
            raise RecordError(
                _(
                    "hand {index}: friend = {friend}, but the declarer always "
                    'plays alone under {ruleset} (friend = "none")'
                ).format(index=index, friend=repr(friend), ruleset=rules.name)
            )
    elif not (
        rules.friend.no_friend
        or rules.friend.fake
        or rules.friend.first_trick
        or rules.friend.last_trick
    ):
        raise RecordError(
            _(
                "hand {index}: {declarer} played alone but {ruleset} allows no friendless hand"
            ).format(index=index, declarer=declarer, ruleset=rules.name)
        )
    trick_call = is_trick_call(friend_call)
    doubled = (
        None if friend is not None else (rules.scoring.no_friend_by_trick_call or not trick_call)
    )
    score = score_hand(
        rules,
        contract,
        taken,
        has_friend=friend is not None,
        no_friend_doubling=doubled,
        friends=2 if friend2 else 1,
    )
    deltas = dict.fromkeys(all_players or players, 0)
    playing = [p for p in players if p not in eliminated]
    if rules.table.partner_hands:
        deltas.update(fold_deltas(seat_deltas(score, partner_seats(players), declarer, friend)))
    elif ghost:
        score = ghost_score(score, rules, friend)
        deltas.update(seat_deltas(score, playing + [GHOST], declarer, friend))
        del deltas[GHOST]  # the ghost is nobody: it neither pays nor receives
    else:
        deltas.update(seat_deltas(score, playing, declarer, friend, friend2))
    return HandOutcome(
        index=index,
        status="scored",
        players=list(players),
        declarer=declarer,
        contract=contract,
        friend=friend,
        taken=taken,
        score=score,
        deltas=deltas,
        eliminated=list(eliminated),
        friend2=friend2,
    )


def _check_second_friend(
    rules: Ruleset,
    players: Sequence[str],
    declarer: str,
    friend: str | None,
    friend2: str,
    eliminated: Sequence[str],
    index: int,
) -> None:
    """A second friend needs a two-card call (friend.called_cards = 2), a first friend, and
    a third player of the hand."""
    if rules.friend.called_cards != 2:
        raise RecordError(
            _(
                "hand {index}: friend2 = {player}: {ruleset} calls one card, so "
                "the declarer has one friend at most (friend.called_cards)"
            ).format(index=index, player=repr(friend2), ruleset=rules.name)
        )
    if friend is None:
        raise RecordError(
            _('hand {index}: friend2 = {player} without a first friend (friend = "none")').format(
                index=index, player=repr(friend2)
            )
        )
    if friend2 in (declarer, friend) or friend2 in eliminated:
        raise RecordError(
            _(
                "hand {index}: friend2 = {player}: the second friend is another "
                "player than the declarer and the first friend"
            ).format(index=index, player=repr(friend2))
        )


def _deal_miss_outcome(
    rules: Ruleset,
    players: Sequence[str],
    index: int,
    dealer: str,
    miss: str,
    pot: int,
    zero: dict[str, int],
) -> HandOutcome:
    move = settle_pot(rules, pot, "deal_miss", dealer=dealer, deal_miss=miss)
    deltas = dict(zero)
    for player, amount in move.deltas.items():
        deltas[player] += amount
    return HandOutcome(
        index=index,
        status="deal_miss",
        players=list(players),
        dealer=dealer,
        deltas=deltas,
        deal_miss_player=miss,
        pot_after=move.pot_after,
    )


_ENGINE: Any = None


def _hand_engine() -> tuple:
    """The hand engine and the fast replay modules, imported once on the first full hand (a
    record of recorded outcomes never needs them)."""
    global _ENGINE
    if _ENGINE is None:
        # deferred for start-up time: a record of recorded outcomes never needs the hand engine
        from .. import hand
        from ..hand import replay_setup, replay_tricks  # (the same reason)

        _ENGINE = hand, replay_setup, replay_tricks
    return _ENGINE


def _replay_full(
    rules: Ruleset,
    players: list[str],
    hand: dict,
    index: int,
    opener: str,
    pot: int,
    dealer: str,
    zero: dict[str, int],
    fast: bool = True,
) -> HandOutcome:
    engine, setup, tricks_module = _hand_engine()

    # the usual deal read as masks at once (checked as read_deal and new_hand's deal check would
    # check it); anything else read and refused by them
    plain = read_plain_deal(hand.get("deal"), players, rule_tables(rules)) if fast else None
    deal_masks = None
    if plain is not None:
        deal, deal_masks = plain
    else:
        deal = read_deal(hand["deal"], index) if "deal" in hand else None
    election = hand.get("election", [])
    if not isinstance(election, list) or not all(map(_IS_STR, election)):
        raise RecordError(
            _(
                'hand {index}: election: expected a list of calls such as "Bo 13H" or "Cy pass"'
            ).format(index=index)
        )
    calls, no_miss = read_calls(election, players, index)
    # the calls before any deal miss: a full bid cancelling it (deal_miss.full_bid_cancels) may
    # come from any player, opener or not
    if no_miss:
        miss_at, bids = len(calls), calls
    else:
        kinds = [call[1] for call in calls]
        miss_at = kinds.index(DEAL_MISS_CALL)
        bids = calls[:miss_at]
    if bids and bids[0][0] != opener:
        first = "pass" if bids[0][1] is None else format_bid(bids[0][1])
        raise RecordError(
            _(
                "hand {index}: election: {player} opened with {call} but {opener} "
                "opens this hand (election.opener = {rule})"
            ).format(
                index=index,
                player=bids[0][0],
                call=first,
                opener=opener,
                rule=rules.election.opener,
            )
        )
    state = engine.new_hand(rules, players, dealer, deal, opener=opener, deal_masks=deal_masks)
    # the whole election at once (hand/replay_setup.py) on new_hand's state, which nobody else
    # holds; or call by call from a new hand where it does not take it
    elected = (
        setup.replay_bids(state, calls, owned=True) if fast and miss_at == len(calls) else None
    )
    if elected is not None:
        state = elected
    else:
        if fast and miss_at == len(calls):  # the batch may have written part of it
            state = engine.new_hand(
                rules, players, dealer, deal, opener=opener, deal_masks=deal_masks
            )
        for call in calls:
            if call[1] is DEAL_MISS_CALL:  # "<player> deal-miss": where a full bid may cancel it
                state = engine.apply(state, engine.DeclareDealMiss(call[0]))
            else:
                state = engine.apply(state, call)
    if state.phase == "deal_miss" and "deal_miss" not in hand:
        miss = state.deal_miss_player
        refuse_later_keys(
            hand, index, "discard", _("{player} declared a deal miss").format(player=miss)
        )
        outcome = _deal_miss_outcome(rules, players, index, dealer, miss, pot, zero)
        outcome.full, outcome.state = True, state
        return outcome
    if "deal_miss" in hand:
        miss = read_name(hand["deal_miss"], players, index, "deal_miss")
        state = engine.apply(state, engine.DeclareDealMiss(miss))
        outcome = _deal_miss_outcome(rules, players, index, dealer, miss, pot, zero)
        outcome.full, outcome.state = True, state
        return outcome
    if state.phase == "redeal":
        refuse_later_keys(hand, index, "discard", _("everyone passed"))
        return HandOutcome(
            index=index,
            status="redeal",
            players=players,
            dealer=dealer,
            deltas=dict(zero),
            pot_after=pot,
            full=True,
            state=state,
        )
    if state.phase == "election":
        refuse_later_keys(hand, index, "discard", _("the election is not over"))
        return _unfinished(index, players, dealer, pot, zero, state)
    if (
        "elimination" in hand
        or "redistribution" in hand
        or state.phase in ("elimination", "redistribution")
    ):  # 6마, 7마 (else nothing to do)
        state = _replay_elimination(engine, state, hand, index)
    if state.phase in ("elimination", "redistribution"):  # 6마, 7마: not over yet
        refuse_later_keys(hand, index, "discard", _("the eliminations are not over"))
        return _unfinished(index, players, dealer, pot, zero, state)
    # the discard and the friend call written onto the election's private state where
    # hand/replay_setup.py takes them (exchange.py's own steps), else applied
    if "discard" in hand:
        discard = engine.Discard(tuple(read_cards(hand["discard"], index, "discard")))
        if state is not elected or not setup.discard_in_place(state, discard):
            state = engine.apply(state, discard)
    elif deal is None and state.phase == "exchange":
        state = engine.apply(state, engine.Discard(()))  # open cards: the discards are unseen
    else:
        refuse_later_keys(hand, index, "contract", _("nothing was discarded yet"))
    if "contract" in hand and state.phase == "friend":
        contract = read_bid(hand["contract"], index)
        if contract != state.contract:
            state = engine.apply(state, engine.ChangeContract(contract))
    friend_call = None
    if "friend" in hand:
        if state.phase != "friend":
            raise RecordError(
                _("hand {index}: friend is called after the discard").format(index=index)
            )
        try:
            call = read_friend_call(engine, hand["friend"], state)
        except InvalidNotation as exc:
            raise RecordError(
                _("hand {index}: {key}: {error}").format(index=index, key="friend", error=exc)
            ) from None
        action = engine.CallFriend(call)
        if state is not elected or not setup.call_in_place(state, action):
            state = engine.apply(state, action)
        friend_call = hand["friend"]
    else:
        refuse_later_keys(hand, index, "tricks", _("no friend was called yet"))
    tricks = hand.get("tricks", [])
    if not isinstance(tricks, list) or not all(map(_IS_STR, tricks)):
        raise RecordError(
            _("hand {index}: tricks: expected a list of strings of played cards").format(
                index=index
            )
        )
    # the state is this function's own (new_hand's, apply's or the batch's): no copy needed
    state = tricks_module.replay_tricks(state, tricks, index, fast, owned=True)
    # 시흥 은마: the eliminated player plays the dummy's hand (nobody sits out)
    eliminated_hand = None
    if rules.table.dummy:
        eliminated_hand = state.eliminated[0] if state.eliminated else None
        eliminated = []
    else:
        eliminated = list(state.eliminated)
    if state.phase != "done":
        return HandOutcome(
            index=index,
            status="in_progress",
            players=players,
            dealer=dealer,
            declarer=state.declarer,
            contract=state.contract,
            friend=state.friend if state.friend_revealed else None,
            friend_call=friend_call,
            deltas=dict(zero),
            pot_after=pot,
            full=True,
            state=state,
            eliminated=eliminated,
            eliminated_hand=eliminated_hand,
        )
    result = engine.hand_result(state)
    for key in ("taken", "opposition"):
        if key in hand:
            stated = read_taken(rules, {key: hand[key]}, index)
            if stated != result.taken:
                raise RecordError(
                    _(
                        "hand {index}: {key} = {value} is impossible: the tricks "
                        "give the ruling party {taken}"
                    ).format(index=index, key=key, value=hand[key], taken=result.taken)
                )
    deltas = dict(zero)
    deltas.update(result.deltas)
    # 동대전 7마: friend2, the second called card's holder
    outcome = HandOutcome(
        index=index,
        status="scored",
        players=players,
        dealer=dealer,
        declarer=result.declarer,
        contract=result.contract,
        friend=result.friend,
        friend_call=friend_call,
        taken=result.taken,
        score=result.score,
        deltas=deltas,
        pot_after=pot,
        full=True,
        state=state,
        eliminated=eliminated,
        eliminated_hand=eliminated_hand,
        friend2=result.friend2,
    )
    # an empty pot stays empty after a scored hand (settle_pot moves nothing)
    return settle_outcome_pot(rules, outcome, pot) if pot > 0 else outcome


def _unfinished(
    index: int, players: list[str], dealer: str, pot: int, zero: dict[str, int], state: Any
) -> HandOutcome:
    """A full hand stopped before the discard (the election or the eliminations not over)."""
    return HandOutcome(
        index=index,
        status="in_progress",
        players=players,
        dealer=dealer,
        deltas=dict(zero),
        pot_after=pot,
        full=True,
        state=state,
    )


_IS_STR = str.__instancecheck__  # isinstance(value, str), for map()


def _replay_elimination(engine: Any, state: Any, hand: dict, index: int) -> Any:
    """6마, 7마: the declarer's elimination calls (``elimination = ["JK Bo", "D5 kitty"]``; a
    card alone where the deal is known; ``player:Cy`` under table.eliminate_by = player) and the
    cards dealt out after them (``redistribution = { Ana = "...", ... }``)."""
    calls = hand.get("elimination", [])
    if calls and state.phase != "elimination":
        raise RecordError(
            _("hand {index}: elimination: nobody is eliminated here (table.eliminated)").format(
                index=index
            )
        )
    if not all(isinstance(call, str) for call in calls):
        raise RecordError(
            _('hand {index}: elimination: expected calls such as "JK Bo"').format(index=index)
        )
    for call in calls:
        if state.phase != "elimination":
            raise RecordError(
                _("hand {index}: elimination: {call} comes after the last elimination").format(
                    index=index, call=repr(call)
                )
            )
        card, who = elimination_parts(call)
        try:
            if card is None and who is None:
                raise InvalidNotation(
                    _("{call}: expected a card and who held it").format(call=repr(call))
                )
            action = engine.Eliminate(None if card is None else parse_card(card), who)
        except InvalidNotation as exc:
            raise RecordError(
                _("hand {index}: {key}: {error}").format(index=index, key="elimination", error=exc)
            ) from None
        state = engine.apply(state, action)
    if state.phase == "redistribution" and ("redistribution" in hand or state.open_cards):
        given = hand.get("redistribution", {})
        try:
            cards = tuple((who, tuple(parse_cards(text))) for who, text in given.items())
        except (InvalidNotation, AttributeError, TypeError):
            raise RecordError(
                _('hand {index}: redistribution: expected player = "cards"').format(index=index)
            ) from None
        state = engine.apply(state, engine.Redistribute(cards))
    return state
