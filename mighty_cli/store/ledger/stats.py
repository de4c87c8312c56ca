"""Role statistics of a league, computed by SQL aggregates: as declarer (주공), as friend
(프렌드), as defender (야당); bid calibration; friend-call choices and how they paid; a partner
matrix; head-to-head.

Each query groups the league's live hands in the database (by player, contract, call, result)
and returns a few hundred rows at most, whatever the league's size; Python only folds those
groups (a contract's level and trump are parsed from its text once per group, a friend call
is classified once per group). Nothing here loops over hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, case, func
from sqlalchemy.orm import aliased
from sqlmodel import Session, select

from ...engine.cards import JOKER, parse_bid
from ...engine.errors import MightyError
from ...engine.hand import mighty_card, parse_friend_call
from ...engine.ruleset import Ruleset
from ..models import Hand, HandPlayer, Player
from .lookups import PLAYING_ROLES, RULING_ROLES

#: How a friend was called, in the order the pages list them.
CALL_KINDS = ("mighty", "joker", "card", "first-trick", "last-trick", "player", "none", "unknown")


def _count_if(condition) -> Any:
    return func.sum(case((condition, 1), else_=0))


def _live(league_id: int):
    """The league's hands that count: not voided, scored (:func:`is_live` for a row read)."""
    return and_(
        Hand.league_id == league_id,
        Hand.voided == False,  # noqa: E712
        Hand.status == "scored",
    )


def is_live(voided: bool, status: str) -> bool:
    """Whether a hand read counts, as :func:`_live` selects them in the database."""
    return not voided and status == "scored"


@dataclass
class Tally:
    """Hands and how many of them were won (made, for a declarer)."""

    hands: int = 0
    won: int = 0
    points: int = 0

    def add(self, hands: int, won: int, points: int = 0) -> None:
        self.hands += hands
        self.won += won
        self.points += points

    @property
    def rate(self) -> float | None:
        return self.won / self.hands if self.hands else None

    @property
    def per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None


@dataclass
class DeclarerStats:
    total: Tally = field(default_factory=Tally)
    bid_sum: int = 0
    by_level: dict[int, Tally] = field(default_factory=dict)
    suit: Tally = field(default_factory=Tally)
    no_trump: Tally = field(default_factory=Tally)
    alone: Tally = field(default_factory=Tally)
    runs: int = 0
    back_runs: int = 0

    @property
    def average_bid(self) -> float | None:
        return self.bid_sum / self.total.hands if self.total.hands else None


@dataclass
class RoleStats:
    """One player's statistics by role."""

    name: str
    declarer: DeclarerStats = field(default_factory=DeclarerStats)
    friend: Tally = field(default_factory=Tally)
    friend_by_call: dict[str, Tally] = field(default_factory=dict)
    defender: Tally = field(default_factory=Tally)
    calls: dict[str, Tally] = field(default_factory=dict)  # this player's calls as declarer


@dataclass
class PairLine:
    """A pair of players: hands together, on opposite sides, and the first one's results."""

    other: str
    together: int = 0
    partners: int = 0  # hands on the same side (declarer and friend)
    opposed: int = 0
    opposed_won: int = 0  # opposed hands the first player won (points > 0)
    opposed_points: int = 0  # the first player's points in opposed hands


@dataclass
class PartnerCell:
    """Hands a declarer called a friend, and with what result."""

    declarer: str
    friend: str
    hands: int
    made: int
    points: int  # the declarer's points from those hands


@dataclass
class LeagueStats:
    players: dict[str, RoleStats]
    calibration: dict[int, Tally]  # made % by contract level, league-wide
    calls: dict[str, Tally]  # friend-call choices league-wide (won: made)
    partners: list[PartnerCell]
    head_to_head: dict[str, list[PairLine]]

    def of(self, name: str) -> RoleStats:
        return self.players.get(name) or RoleStats(name)

    def cell(self, declarer: str, friend: str) -> PartnerCell | None:
        """The partner matrix's cell: hands ``declarer`` called ``friend`` (None: never)."""
        if not hasattr(self, "_cells"):
            self._cells = {(c.declarer, c.friend): c for c in self.partners}
        return self._cells.get((declarer, friend))


def call_kind(call: str | None, contract: str | None, rules: Ruleset, has_friend: bool) -> str:
    """How a friend was called: the Mighty, the joker, another card, the first or last trick,
    a named player, no friend, or not recorded."""
    if not call:
        return "unknown" if has_friend else "none"
    text = call.strip().lower().replace("_", "-")
    if text in ("none", "no-friend", "nofriend"):
        return "none"
    if text in ("mighty", "joker", "first-trick", "last-trick"):
        return text
    if text.startswith("player:"):
        return "player"
    try:  # a card, or two (동대전 7마: SA+DK), maybe asking a lead (" lead:H")
        called = parse_friend_call(call)
    except MightyError:
        return "unknown"
    cards = [card for card in (called.card, called.card2) if card is not None]
    if called.kind != "card" or not cards:
        return "unknown"
    if JOKER in cards:
        return "joker"
    try:
        trump = parse_bid(contract).trump if contract else None
    except MightyError:
        trump = None
    return "mighty" if mighty_card(rules, trump) in cards else "card"


def _level(contract: str | None) -> tuple[int | None, bool]:
    try:
        bid = parse_bid(contract) if contract else None
    except MightyError:
        return None, False
    return (bid.number, bid.trump is None) if bid else (None, False)


def league_stats(
    s: Session, league_id: int, rules: Ruleset, pairs: dict[str, list[PairLine]] | None = None
) -> LeagueStats:
    """Every role statistic of the league, from six grouped queries; the head-to-head lines
    read too unless given (``pairs``: the site counts them while it reads every hand)."""
    players: dict[str, RoleStats] = {}
    kinds: dict[tuple, str] = {}  # a few dozen calls, on thousands of grouped rows

    def of(name: str) -> RoleStats:
        return players.setdefault(name, RoleStats(name))

    def kind_of(call: str | None, contract: str | None, has_friend: bool) -> str:
        key = (call, contract, has_friend)
        kind = kinds.get(key)
        if kind is None:
            kind = kinds[key] = call_kind(call, contract, rules, has_friend)
        return kind

    points = HandPlayer.points + HandPlayer.pot
    # 1. as declarer, by contract and result
    rows = s.exec(
        select(
            Player.name,
            Hand.contract,
            Hand.success,
            Hand.friend_id == None,  # noqa
            func.count(),
            _count_if(Hand.run),
            _count_if(Hand.back_run),
            func.sum(points),
        )
        .select_from(HandPlayer)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(_live(league_id), HandPlayer.role == "declarer")
        .group_by(Player.name, Hand.contract, Hand.success, Hand.friend_id == None)  # noqa: E711
    ).all()
    calibration: dict[int, Tally] = {}
    for name, contract, success, alone, count, runs, back_runs, total in rows:
        stats = of(name).declarer
        level, no_trump = _level(contract)
        made = count if success else 0
        stats.total.add(count, made, int(total or 0))
        stats.runs += int(runs or 0)
        stats.back_runs += int(back_runs or 0)
        if alone:
            stats.alone.add(count, made)
        if level is not None:
            stats.bid_sum += level * count
            stats.by_level.setdefault(level, Tally()).add(count, made)
            calibration.setdefault(level, Tally()).add(count, made)
            (stats.no_trump if no_trump else stats.suit).add(count, made)
    # 2. as friend, by call and result
    for name, call, contract, success, count, total in s.exec(
        select(
            Player.name,
            Hand.friend_call,
            Hand.contract,
            Hand.success,
            func.count(),
            func.sum(points),
        )
        .select_from(HandPlayer)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(_live(league_id), HandPlayer.role == "friend")
        .group_by(Player.name, Hand.friend_call, Hand.contract, Hand.success)
    ).all():
        stats = of(name)
        won = count if success else 0
        stats.friend.add(count, won, int(total or 0))
        stats.friend_by_call.setdefault(kind_of(call, contract, True), Tally()).add(count, won)
    # 3. as defender
    for name, success, count, total in s.exec(
        select(Player.name, Hand.success, func.count(), func.sum(points))
        .select_from(HandPlayer)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(_live(league_id), HandPlayer.role == "opponent")
        .group_by(Player.name, Hand.success)
    ).all():
        of(name).defender.add(count, 0 if success else count, int(total or 0))
    # 4. friend-call choices of each declarer, and how they paid
    calls: dict[str, Tally] = {}
    for name, call, contract, has_friend, success, count, total in s.exec(
        select(
            Player.name,
            Hand.friend_call,
            Hand.contract,
            Hand.friend_id != None,  # noqa
            Hand.success,
            func.count(),
            func.sum(points),
        )
        .select_from(HandPlayer)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .join(Player, Player.id == HandPlayer.player_id)
        .where(_live(league_id), HandPlayer.role == "declarer")
        .group_by(
            Player.name,
            Hand.friend_call,
            Hand.contract,
            Hand.friend_id != None,  # noqa
            Hand.success,
        )
    ).all():
        kind = kind_of(call, contract, bool(has_friend))
        made = count if success else 0
        of(name).calls.setdefault(kind, Tally()).add(count, made, int(total or 0))
        calls.setdefault(kind, Tally()).add(count, made, int(total or 0))
    # 5. partner matrix: who called whom, with what result (허니문: the declarer's own friend
    # hand is stored as himself, on the diagonal; 동대전 7마: a second friend, whose row has
    # the role friend but is not hand.friend_id, is a cell of its own)
    friend = aliased(Player)
    cells: dict[tuple[str, str], PartnerCell] = {}
    second = aliased(HandPlayer)
    for join in (friend.id == Hand.friend_id, None):
        query = (
            select(
                Player.name,
                friend.name,
                func.count(),
                _count_if(Hand.success == True),  # noqa: E712
                func.sum(points),
            )
            .select_from(HandPlayer)
            .join(Hand, Hand.id == HandPlayer.hand_id)
            .join(Player, Player.id == HandPlayer.player_id)
        )
        if join is not None:
            query = query.join(friend, join)
        else:
            query = query.join(
                second,
                and_(
                    second.hand_id == Hand.id,
                    second.role == "friend",
                    second.player_id != Hand.friend_id,
                ),
            ).join(friend, friend.id == second.player_id)
        for d, f, n, m, p in s.exec(
            query.where(_live(league_id), HandPlayer.role == "declarer").group_by(
                Player.name, friend.name
            )
        ).all():
            cell = cells.setdefault((d, f), PartnerCell(d, f, 0, 0, 0))
            cell.hands += int(n)
            cell.made += int(m or 0)
            cell.points += int(p or 0)
    partners = sorted(cells.values(), key=lambda c: (c.declarer.casefold(), c.friend.casefold()))
    return LeagueStats(
        players,
        dict(sorted(calibration.items())),
        calls,
        partners,
        head_to_head(s, league_id) if pairs is None else pairs,
    )


class HeadToHead:
    """Pairs of players met at the table, counted hand by hand (:meth:`add`): hands together,
    as partners, opposed, and each one's wins and points when opposed. Each unordered pair is
    one cell, counted once a hand (ten pairs at a five-player table, not twenty)."""

    def __init__(self) -> None:
        # (a, b), a < b: together, partners, opposed, a's wins, a's points, b's wins, b's points
        self.cells: dict[tuple, list[int]] = {}

    def add(self, seats: list[tuple[Any, bool, int]]) -> None:
        """One live hand's playing seats: ``(player, ruling side?, points)``."""
        cells = self.cells
        for i, (a, ruling_a, points_a) in enumerate(seats):
            for b, ruling_b, points_b in seats[i + 1 :]:
                if a == b:
                    continue
                if b < a:
                    a2, b2, pa, pb = b, a, points_b, points_a
                else:
                    a2, b2, pa, pb = a, b, points_a, points_b
                cell = cells.get((a2, b2))
                if cell is None:
                    cell = cells[(a2, b2)] = [0, 0, 0, 0, 0, 0, 0]
                cell[0] += 1
                if ruling_a != ruling_b:
                    cell[2] += 1
                    cell[3] += pa > 0
                    cell[4] += pa
                    cell[5] += pb > 0
                    cell[6] += pb
                elif ruling_a:
                    cell[1] += 1

    def lines(self, name_of=None) -> dict[str, list[PairLine]]:
        """For every player, a line per other player met, most met first (``name_of`` maps
        the players as added to their names, when they were added by id)."""
        lines: dict[str, list[PairLine]] = {}
        for (a, b), (
            together,
            partners,
            opposed,
            won_a,
            points_a,
            won_b,
            points_b,
        ) in self.cells.items():
            name_a, name_b = (name_of[a], name_of[b]) if name_of is not None else (a, b)
            lines.setdefault(name_a, []).append(
                PairLine(name_b, together, partners, opposed, won_a, points_a)
            )
            lines.setdefault(name_b, []).append(
                PairLine(name_a, together, partners, opposed, won_b, points_b)
            )
        for line in lines.values():
            line.sort(key=lambda p: (-p.together, p.other.casefold()))
        return lines


def head_to_head(s: Session, league_id: int, chunk: int = 20000) -> dict[str, list[PairLine]]:
    """For every player, a line per other player met at the table (:class:`HeadToHead`),
    from each live hand's playing seats, read once in hand order: the pairs of a season
    (thirty a hand) cost the database more as a self-join than they cost Python as a loop."""
    query = (
        select(HandPlayer.hand_id, HandPlayer.player_id, HandPlayer.role, HandPlayer.points)
        .select_from(HandPlayer)
        .join(Hand, Hand.id == HandPlayer.hand_id)
        .where(
            _live(league_id), HandPlayer.league_id == league_id, HandPlayer.role.in_(PLAYING_ROLES)
        )
        .order_by(HandPlayer.hand_id)
    )
    pairs = HeadToHead()
    ruling_roles = frozenset(RULING_ROLES)
    seats: list[tuple[int, bool, int]] = []
    current = None
    for hand_id, player_id, role, points in (
        s.connection().execution_options(yield_per=chunk).execute(query)
    ):
        if hand_id != current:
            pairs.add(seats)
            seats, current = [], hand_id
        seats.append((player_id, role in ruling_roles, int(points or 0)))
    pairs.add(seats)
    players = {a for a, _ in pairs.cells} | {b for _, b in pairs.cells}
    names = (
        dict(s.exec(select(Player.id, Player.name).where(Player.id.in_(players))).all())
        if players
        else {}
    )
    return pairs.lines(names)
