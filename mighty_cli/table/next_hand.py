"""What a league's table shows before its next hand: who plays it, in playing order, who deals,
opens and sits out, the session so far, and what a score-keeper fills in under the league's
ruleset (:class:`Variants`: a friend or two or none, 허니문's own friend hand, the point cards
split, who was eliminated).

The referee's evening, ``mighty record`` and ``record --evening`` read it before each hand
(:func:`read_next_hand`, through :class:`~.books.LeagueBook` for an evening); a form on a phone
shows the fields :attr:`NextHand.fields` names, and sends the table's hand :attr:`NextHand.hand`
with its entry (``expect_hand``: :func:`~.score_entry.store_outcome`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.records import friend_possible
from ..engine.ruleset import Ruleset
from ..engine.scoring import taken_limit
from ..engine.session import Proposal

if TYPE_CHECKING:
    from sqlmodel import Session


@dataclass(frozen=True)
class Variants:
    """What a ruleset asks of a hand's outcome beyond its declarer, contract and point cards."""

    #: whether a keeper names the friend: not where the declarer always plays alone (3마,
    #: 2마), nor under 허니문, where the only call is his own friend hand, made by the tool
    friend: bool
    #: how many friends a keeper may name: two where two cards are called
    #: (friend.called_cards = 2, 동대전 7마)
    friends: int
    #: whether "none" (노프렌드) is an answer: a call that may find nobody is allowed
    alone: bool
    #: 허니문 (table.partner_hands): the friend is the declarer's own friend hand
    own_friend_hand: bool
    #: the friends' point cards are weighed (scoring.friend_weight, 동대전): the ruling party's
    #: cards are best given split, the declarer's and each friend's (``10+8+2``)
    split_taken: bool
    #: how many players the declarer eliminates (table.eliminated: 6마, 7마, 시흥 은마)
    eliminated: int
    #: 시흥 은마 (table.dummy): the eliminated may be the dummy (은실)
    dummy: bool
    #: the most the ruling party can be counted as taking
    taken_total: int
    #: the contract counts tricks, not point cards (변형 2마: election.bid_counts = tricks)
    tricks: bool

    @classmethod
    def of(cls, rules: Ruleset) -> Variants:
        f, table = rules.friend, rules.table
        possible = bool(friend_possible(rules))
        return cls(
            friend=possible and not table.partner_hands,
            friends=(2 if f.called_cards == 2 else 1) if possible else 0,
            alone=bool(f.no_friend or f.fake or f.first_trick or f.last_trick)
            and not table.partner_hands,
            own_friend_hand=bool(table.partner_hands),
            split_taken=rules.scoring.friend_weight != 1 and possible and not table.partner_hands,
            eliminated=table.eliminated,
            dummy=bool(table.dummy),
            taken_total=taken_limit(rules),
            tricks=rules.election.bid_counts == "tricks",
        )


@dataclass(frozen=True)
class NextHand:
    """A league's table before its next hand (a round's table, or a session of its own)."""

    league: str
    session: int
    #: the table's number in its round, or None: a round's table counts its own hands
    table: int | None
    rules: Ruleset
    #: everyone at the table, clockwise as seated
    seating: tuple[str, ...]
    #: the next hand's dealer, opener, players (in playing order) and who sits out
    proposal: Proposal
    #: the deposit pot before the hand
    pot: int
    #: each player's points in the session so far
    totals: dict
    #: how many hands the table has stored (voided ones included)
    hands: int
    #: the league's number for the next hand stored (hands are numbered across the league)
    next_number: int
    #: a duplicate round's table: each deal's dealer, opener and sitters-out are fixed
    duplicate: bool = False

    @property
    def hand(self) -> int:
        """The table's hand this is (its ``expect_hand``)."""
        return self.hands + 1

    @property
    def number(self) -> int:
        """The hand's number as a keeper is shown it: a round's table's own count, else the
        league's."""
        return self.hand if self.table is not None else self.next_number

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.proposal.players)

    @property
    def dealer(self) -> str:
        return self.proposal.dealer

    @property
    def sitting_out(self) -> tuple[str, ...]:
        return tuple(self.proposal.sitting_out)

    @property
    def asks_friend_call(self) -> bool:
        """Whether a friend is entered with the card called: a duplicate round's deal decides
        who the friend is (where a called card stays with whoever was dealt it)."""
        if not self.duplicate:
            return False
        from ..store.ledger.duplicate_deals import (
            deal_decides_friend,  # start-up: duplicate tables only
        )

        return deal_decides_friend(self.rules)

    @property
    def variants(self) -> Variants:
        return Variants.of(self.rules)

    @property
    def fields(self) -> tuple[str, ...]:
        """The fields a keeper fills for a hand played out, in the order ``record`` asks them
        (a deal miss is ``deal_miss`` alone; ``opposition`` may stand for ``taken``; at a
        duplicate table ``friend_call``, the card called, goes with a friend named)."""
        variants = self.variants
        return (
            "declarer",
            "contract",
            *(("eliminated",) if variants.eliminated else ()),
            *(("friend",) if variants.friend else ()),
            *(("friend_call",) if self.asks_friend_call else ()),
            "taken",
        )

    def to_json(self) -> dict:
        """What a front end shows and asks, as JSON (the ruleset by its name)."""
        variants = self.variants
        return {
            "league": self.league,
            "session": self.session,
            "table": self.table,
            "hand": self.hand,
            "number": self.number,
            "ruleset": self.rules.name,
            "seating": list(self.seating),
            "players": list(self.players),
            "dealer": self.dealer,
            "opener": self.proposal.opener,
            "sitting_out": list(self.sitting_out),
            "pot": self.pot,
            "totals": dict(self.totals),
            "duplicate": self.duplicate,
            "fields": list(self.fields),
            "variants": vars(variants).copy(),
        }


def read_next_hand(s: Session, league_name: str, session_number: int | None = None) -> NextHand:
    """The league's open session (or session ``session_number``, open or ended) before its
    next hand, in the caller's transaction ``s``."""
    from ..store.ledger.evening_glance import evening  # start-up: the store where it is read
    from ..store.ledger.lookups import get_league, league_rules  # start-up: the store where read

    state = evening(s, league_name, session_number)
    return NextHand(
        state.league,
        state.session,
        state.table,
        league_rules(get_league(s, league_name)),
        tuple(state.seating),
        state.proposal,
        state.pot,
        dict(state.totals),
        state.hands,
        state.next_number,
        state.duplicate,
    )
