"""The usual recorded outcome replayed at once: a declarer, a contract, a friend and the count,
with nothing else to look at (issue 12: a season of a million such hands is imported).

:class:`SummaryReplay` takes the hand :func:`.record_replay._replay_hand` would read as a
recorded outcome under a plain ruleset (no ghost, no friend hands, no dummy, nobody eliminated)
and gives the same :class:`~.record_replay.HandOutcome`, field for field, remembering what one
record repeats: its players' seatings checked, its bids parsed, its friend calls checked, the
ruleset's limits. Anything else, and any value the general path would refuse, is left to it
(None): so every error is the general path's own, word for word. No check is skipped: each is
made here or was made once for the same value (``tests/engine/test_record_summary.py`` holds
the two paths to the same outcomes and errors).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import Bid
from ..errors import MightyError
from ..hand.actions import is_trick_call
from ..ruleset import Ruleset
from ..scoring import score_hand, taken_limit
from .outcome import HandOutcome, friend_possible, settle_outcome_pot
from .values import check_friend_call_text, read_bid

#: Keys a recorded outcome may hold that this path reads (or that are the league's, not the
#: hand's: session, date, number, note and the session times); any other key sends the hand
#: the general way.
_KEYS = frozenset(
    (
        "session",
        "players",
        "dealer",
        "declarer",
        "contract",
        "friend",
        "taken",
        "friend_call",
        "note",
        "date",
        "number",
        "session_started",
        "session_ended",
    )
)
_MEMO = 4096  # entries each memo keeps (they come from files: bounded)


class SummaryReplay:
    """The recorded-outcome fast path for one record's replay (its ruleset and players)."""

    def __init__(self, rules: Ruleset, all_players: Sequence[str]) -> None:
        table, friend = rules.table, rules.friend
        self.rules = rules
        # a plain table: the general path's ghost, friend-hand, dummy and elimination branches
        # never apply
        self.plain = not (table.ghost or table.partner_hands or table.dummy or table.eliminated)
        self.count = table.players
        self.all_players = list(all_players)
        self.everyone = frozenset(all_players)
        self.zero = dict.fromkeys(all_players, 0)
        self.limit = taken_limit(rules)
        self.alone_allowed = bool(
            friend.no_friend or friend.fake or friend.first_trick or friend.last_trick
        )
        self.by_trick_call = rules.scoring.no_friend_by_trick_call
        self.seatings: dict[tuple, frozenset] = {}  # a hand's players, checked
        self.bids: dict[str, Bid] = {}  # a contract's text, parsed
        self.calls: dict[str, bool] = {}  # a friend call checked: a trick call?
        self.outcome, self.settle = HandOutcome, settle_outcome_pot
        self.friend_possible = bool(friend_possible(rules))
        self.scores: dict[tuple, Any] = {}  # (contract text, taken, alone, doubled)
        # a scored HandOutcome's fields, each at its default: what __init__ would set
        self.blank = vars(HandOutcome(index=0, status="scored", players=[]))
        self.new = object.__new__

    def replay(self, hand: dict, index: int, pot: int) -> Any:
        """The hand's outcome, or None where the general path must read it."""
        if not self.plain or "declarer" not in hand or not _KEYS.issuperset(hand):
            return None
        players = hand.get("players")
        if players is None:
            if len(self.all_players) != self.count:
                return None
            players = self.all_players
        elif type(players) is not list:
            return None
        try:
            seated = self.seatings.get(tuple(players))
        except TypeError:  # something unhashable in the list
            return None
        if seated is None:
            if (
                len(players) != self.count
                or len(set(players)) != self.count
                or not set(players) <= self.everyone
            ):
                return None
            if len(self.seatings) > _MEMO:
                self.seatings.clear()
            seated = self.seatings[tuple(players)] = frozenset(players)
        dealer = hand.get("dealer")
        declarer = hand["declarer"]
        if (
            type(dealer) is not str
            or dealer not in self.everyone
            or type(declarer) is not str
            or declarer not in seated
        ):
            return None
        text = hand.get("contract")
        if type(text) is not str:
            return None
        contract = self.bids.get(text)
        if contract is None:
            try:
                contract = read_bid(text, index)
            except MightyError:
                return None
            if len(self.bids) > _MEMO:
                self.bids.clear()
            self.bids[text] = contract
        friend: str | None = hand.get("friend", "none")
        if friend == "none":
            friend = None
            if not self.alone_allowed:
                return None
        elif (
            type(friend) is not str
            or friend not in seated
            or friend == declarer
            or not self.friend_possible
        ):
            return None
        taken = hand.get("taken")
        if (
            type(taken) is not int
            or hand.get("opposition") is not None
            or not 0 <= taken <= self.limit
        ):
            return None
        call = hand.get("friend_call")
        trick_call = False
        if call is not None:
            if type(call) is not str:
                return None
            known = self.calls.get(call)
            if known is None:
                try:
                    check_friend_call_text(call, index)
                except MightyError:
                    return None
                known = is_trick_call(call)
                if len(self.calls) > _MEMO:
                    self.calls.clear()
                self.calls[call] = known
            trick_call = known
        doubled = None if friend is not None else (self.by_trick_call or not trick_call)
        key = (text, taken, friend is None, doubled)
        score = self.scores.get(key)
        if score is None:
            try:
                score = score_hand(
                    self.rules,
                    contract,
                    taken,
                    has_friend=friend is not None,
                    no_friend_doubling=doubled,
                )
            except MightyError:
                return None
            if len(self.scores) > _MEMO:
                self.scores.clear()
            self.scores[key] = score
        deltas = dict(self.zero)
        mate = score.friend or 0  # None only when nobody is the friend
        for player in players:
            deltas[player] = (
                score.declarer
                if player == declarer
                else mate
                if player == friend
                else score.opponent
            )
        # HandOutcome(index=index, status="scored", players=list(players), ...), made from its
        # defaults at once (the fields below are every one a recorded outcome sets)
        fields = self.blank.copy()
        fields.update(
            index=index,
            players=list(players),
            dealer=dealer,
            declarer=declarer,
            contract=contract,
            friend=friend,
            friend_call=call,
            taken=taken,
            score=score,
            deltas=deltas,
            eliminated=[],
        )
        outcome = self.new(self.outcome)
        outcome.__dict__ = fields
        if pot > 0:  # the general path's settle_pot: nothing moves from an empty pot
            return self.settle(self.rules, outcome, pot)
        outcome.pot_after = pot
        return outcome
