"""Replaying a hand record: every hand checked against the ruleset and scored, in order, with
the session's succession (dealer, opener, deposit pot) carried from hand to hand.

Each hand goes where its shape says: a full hand is replayed card by card (records/card_replay.py),
a recorded hand is validated and scored and a deal miss settles the pot (records/recorded_hand.py);
the usual recorded outcome takes the fast path (records/summary.py). Replaying stops at the first
violation with a :class:`RecordError` whose message names the hand (1-based), the trick where there
is one, the player, the card or call, and the rule.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..errors import MightyError, RecordError
from ..hand.honeymoon import partner_of
from ..hand.seats import GHOST
from ..ruleset import Ruleset
from ..scoring import friends_weighed
from ..session import PreviousHand, opener_for, previous_hand, propose
from ..translation import _
from .card_replay import replay_full
from .file import Record, record_ruleset
from .outcome import HandOutcome, settle_outcome_pot
from .recorded_hand import deal_miss_outcome, recorded_eliminated, score_outcome
from .summary import SummaryReplay
from .values import (
    check_friend_call_text,
    hand_players,
    read_bid,
    read_name,
    read_taken,
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
        outcome = replay_full(rules, players, hand, index, opener, pot, dealer, zero, fast)
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
        outcome = deal_miss_outcome(rules, players, index, dealer, miss, pot, zero)
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
        eliminated = recorded_eliminated(rules, hand, players, declarer, friend, index)
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
