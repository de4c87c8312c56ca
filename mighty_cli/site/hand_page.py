"""A hand's page on the league site (``hands/<n>.html``): the data it shows, in the order it
tells the story: the outcome first (the contract made or failed and by how much, the
declarer and the friend, when the friend came out, the point cards each side took, the
doublings, every seat's score), then the deal, the election and the tricks (each trick's
winner and point cards marked).

The outcome is the store's, as the engine scored it when the hand was recorded (the hand's
row and its players' rows: what the session page and the standings count), never scored
again here; the record is replayed only for what a record alone tells (who led and won each
trick, the point cards in it). Words are left to the template, in the page's language: the
values here are the record's notation (``SA``, ``14S``, ``pass``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (the same function either way; tomllib is the standard library's from 3.11)
    from tomli import loads as toml_loads
else:
    try:  # tomli's compiled parser: a full build reads every stored record (4.5x tomllib's speed)
        from tomli import loads as toml_loads
    except ImportError:  # a platform without its wheel: the same parser, in the standard library
        from tomllib import loads as toml_loads

from ..engine.cards import JOKER, RANK_NAMES, format_card, parse_bid
from ..engine.errors import MightyError
from ..engine.hand import parse_friend_call
from ..engine.records import Record, replay
from ..engine.records.values import elimination_parts
from ..engine.scoring import friends_weighed
from ..store.ledger.stats import call_kind

if TYPE_CHECKING:
    from ..engine.hand import HandState, Play
    from ..engine.ruleset import Ruleset
    from .page_reads import HandLine


@dataclass(frozen=True)
class SeatScore:
    """One seat's part in the hand: its role and what the hand gave it (the score, and the
    deposit pot's share paid in or won)."""

    name: str
    role: str  # declarer | friend | opponent | eliminated | player | out
    points: int
    pot: int

    @property
    def delta(self) -> int:
        return self.points + self.pot


@dataclass(frozen=True)
class Outcome:
    """How a hand ended, from its stored rows: what its page says first."""

    status: str  # scored | deal_miss | redeal | in_progress
    voided: bool
    corrected: bool  # amended, voided or restored after the evening
    contract: str | None  # "14S", "15NT"
    declarer: str | None
    friend: str | None
    friend_call: str | None  # as recorded: "SA", "joker", "first-trick", "player:Bo"
    call_kind: str  # store.ledger.stats.CALL_KINDS
    taken: int | None  # the ruling party's count (point cards, or tricks)
    opposition: int | None  # the opposition's (None where friends' cards are weighed)
    total: int  # what the count runs to
    counts_tricks: bool  # 변형 2마: the count is of tricks, not point cards
    success: bool | None
    margin: int | None  # made by (>= 0) or failed by (> 0) this many
    multiplier: int | None
    doublings: tuple[str, ...]  # scoring's names: run, back_run, no_trump, ...
    deal_miss: str | None
    seats: tuple[SeatScore, ...]
    note: str | None = None

    @property
    def pot_moved(self) -> bool:
        return any(seat.pot for seat in self.seats)


def outcome_facts(line: HandLine) -> tuple:
    """What :func:`hand_outcome` reads of a session line
    (:class:`.reads.HandLine`: the hand's stored row and its players' rows), as
    plain values: a hand page's key, and what a worker rendering the page is sent (a tuple
    pickles many times faster than the line's objects)."""
    return (
        line.status,
        line.voided,
        line.corrected,
        line.contract,
        line.declarer,
        line.friend,
        line.friend_call,
        line.taken,
        line.success,
        line.multiplier,
        tuple(line.doublings),
        line.deal_miss,
        line.note,
        tuple((x.name, x.seat, x.role, x.points, x.pot) for x in line.seats),
    )


def hand_outcome(rules: Ruleset, facts: tuple) -> Outcome:
    """A hand's outcome from its session line's facts (:func:`outcome_facts`) under the
    league's ``rules``."""
    (
        status,
        voided,
        corrected,
        contract,
        declarer,
        friend,
        friend_call,
        taken,
        success,
        multiplier,
        doublings,
        deal_miss,
        note,
        seats,
    ) = facts
    margin = opposition = None
    if status == "scored" and taken is not None and contract:
        try:
            target = rules.contract_target(parse_bid(contract).number)
        except MightyError:
            target = None
        if target is not None:
            margin = taken - target if success else target - taken
        if not friends_weighed(rules):  # 동대전: a weighed count says nothing of the rest
            opposition = rules.count_total - taken
    kind = (
        call_kind(friend_call, contract, rules, friend is not None)
        if status == "scored"
        else "unknown"
    )
    return Outcome(
        status,
        voided,
        corrected,
        contract,
        declarer,
        friend,
        friend_call,
        kind,
        taken,
        opposition,
        rules.count_total,
        rules.election.bid_counts == "tricks",
        success,
        margin,
        multiplier,
        doublings,
        deal_miss,
        tuple(SeatScore(name, role, points, pot) for name, _, role, points, pot in seats),
        note,
    )


@dataclass
class TrickView:
    number: int
    leader: str
    plays: list[tuple[str, str, bool]]  # (player, card as written, a point card)
    winner: str | None
    points: int | None


@dataclass
class HandDetail:
    number: int
    session: int
    players: list[str]
    dealer: str | None
    deal: list[tuple[str, list[str]]]
    kitty: list[str]
    election: list[tuple[str, str]]  # (player, "pass" or a bid as written, "13H")
    discard: list[str]
    contract: str | None
    friend: str | None
    tricks: list[TrickView]
    #: 6마, 7마: the declarer's calls: (card called, or "" when a player was named; who held
    #: it, None for the kitty) and the cards dealt out after
    elimination: list[tuple[str, str | None]] = field(default_factory=list)
    redistribution: list[tuple[str, list[str]]] = field(default_factory=list)
    outcome: Outcome | None = None
    #: the tricks in which the called cards came out and showed the friends (a card call):
    #: one, or two where two cards were called (동대전 7마)
    revealed: tuple[int, ...] = ()
    joker_call: bool = False  # a trick holds a joker call (``!``): the page says so
    elected: str | None = None  # the election's last bid, where the contract was changed


def hand_detail(
    rules: Ruleset,
    number: int,
    session: int,
    players: list[str],
    record_toml: str,
    outcome: Outcome | None = None,
) -> HandDetail:
    """A refereed hand for its page: the stored record, with each trick's leader, winner and
    points when the engine can replay it, and the stored ``outcome``."""
    hand = toml_loads(record_toml)
    players = list(hand.get("players") or players)
    deal = hand.get("deal") or {}
    state = _replayed_state(rules, players, hand)
    tricks: list[TrickView] = []
    if state is not None and getattr(state, "tricks", None):
        point = _point_test(rules)
        for index, trick in enumerate(state.tricks, 1):
            tricks.append(
                TrickView(
                    index,
                    trick.leader,
                    [(who, _play_text(play), point(play.card)) for who, play in trick.plays],
                    trick.winner,
                    trick.points,
                )
            )
    else:
        for index, text in enumerate(hand.get("tricks") or [], 1):
            tricks.append(
                TrickView(index, "", [("", card, False) for card in str(text).split()], None, None)
            )
    given = hand.get("redistribution") or {}
    election = [_election_call(str(call)) for call in hand.get("election") or []]
    return HandDetail(
        number,
        session,
        players,
        hand.get("dealer"),
        [(p, str(deal.get(p, "")).split()) for p in players if p in deal],
        str(deal.get("kitty", "")).split(),
        election,
        str(hand.get("discard", "")).split(),
        hand.get("contract"),
        hand.get("friend"),
        tricks,
        [_elimination_call(str(call)) for call in hand.get("elimination") or []],
        [(p, str(cards).split()) for p, cards in given.items()] if isinstance(given, dict) else [],
        outcome,
        _revealed(outcome, tricks),
        _joker_called(tricks),
        _changed_from(election, outcome),
    )


def _joker_called(tricks: list[TrickView]) -> bool:
    """Whether a card played called the joker out (written with ``!`` at its end)."""
    return "!\n" in "\n".join([card for trick in tricks for _, card, _ in trick.plays]) + "\n"


def _changed_from(election: list[tuple[str, str]], outcome: Outcome | None) -> str | None:
    """The bid the election ended on, when the contract played is another (a trump change)."""
    bids = [bid for _name, bid in election if bid not in ("pass", "deal-miss")]
    if not bids or outcome is None or not outcome.contract:
        return None
    try:
        return bids[-1] if parse_bid(bids[-1]) != parse_bid(outcome.contract) else None
    except MightyError:
        return None


def _point_test(rules: Ruleset) -> Callable[[int], bool]:
    """Whether a card counts as a point card under ``rules`` (the joker where it is one)."""
    ranks = set(rules.cards.point_ranks)
    joker = bool(rules.cards.joker_is_point_card)

    def point(card: int) -> bool:
        if card & 112 == JOKER & 112:  # either joker, either copy
            return joker
        return RANK_NAMES.get(card & 15) in ranks

    return point


def _revealed(outcome: Outcome | None, tricks: list[TrickView]) -> tuple[int, ...]:
    """The tricks that showed the friends: for a card call, where each friend first played a
    called card (two cards under 동대전 7마, ``SA+DK``: two friends, or one holding both,
    shown by the first; a card the declarer held shows nobody); the first or the last trick
    (초구, 막구 friends)."""
    if outcome is None or outcome.friend is None or not tricks:
        return ()
    if outcome.call_kind in ("first-trick", "last-trick"):
        return (tricks[0].number if outcome.call_kind == "first-trick" else tricks[-1].number,)
    if outcome.call_kind not in ("card", "mighty", "joker") or not outcome.friend_call:
        return ()
    try:  # a card, or two (SA+DK), maybe asking a lead (" lead:H")
        call = parse_friend_call(outcome.friend_call)
    except MightyError:
        return ()
    called = [format_card(card) for card in (call.card, call.card2) if card is not None]
    shown: dict[str, int] = {}  # each friend's first trick
    for card in called:
        number, who = next(
            (
                (trick.number, who)
                for trick in tricks
                for who, played, _point in trick.plays
                if played.partition("/")[0].rstrip("!") == card
            ),
            (None, None),
        )
        if number is not None and who is not None and not (who and who == outcome.declarer):
            shown[who] = min(number, shown.get(who, number))
    return tuple(sorted(set(shown.values())))


def _elimination_call(call: str) -> tuple[str, str | None]:
    """A 6마/7마 call ("SA 박서준", "HK kitty", "player:Ed") as the card called (empty when a
    player was named) and who held it (None: the kitty)."""
    card, holder = elimination_parts(call)
    if card is None:  # the naming rule: the player named
        return "", holder or ""
    return card, holder


def _election_call(call: str) -> tuple[str, str]:
    """An election call ("Bo pass", "Di 13H") as (player, call)."""
    name, _sep, word = call.rpartition(" ")
    return (name, word) if name else ("", call)


def _play_text(play: Play) -> str:
    text = format_card(play.card)
    if getattr(play, "joker_suit", None) is not None:
        text += "/" + "SDHC"[play.joker_suit]
    if getattr(play, "joker_call", False):
        text += "!"
    return text


def _replayed_state(rules: Ruleset, players: list[str], hand: dict) -> HandState | None:
    """The engine's final state of the hand, or None when it cannot be replayed alone: the
    hand as a one-hand record among the players at the table (seven under 7마, whose tricks
    are played by the five left after the eliminations)."""

    if "dealer" not in hand:
        return None
    table = {
        key: value
        for key, value in hand.items()
        if key not in ("players", "number", "session", "date", "note")
    }
    seated = list(players)
    if hand["dealer"] not in seated:  # six present: the dealer sat this hand out
        seated.append(hand["dealer"])
        table["players"] = list(players)
    try:
        outcome = replay(Record(ruleset=rules.name, players=seated, hands=[table]), rules).hands[0]
    except (MightyError, KeyError, TypeError, ValueError, IndexError):
        return None
    return outcome.state
