"""Read-only queries behind the league site (``mighty site``): sessions, their hands streamed
in order, corrected hands, a player's per-session lines, refereed hand records.

The site writes one page per session and per refereed hand, so these functions stream: hands
come back session by session from one ordered query read in chunks (``yield_per``), never the
whole league in memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select

from ..engine.hand.honeymoon import partner_of
from ..league.standings import PlayerStats
from ..store.ledger.lookups import PLAYING_ROLES, seatings_by_session
from ..store.ledger.queries import row_stats, stats_query
from ..store.models import ChangeLog, Hand, HandPlayer, League, LeagueRound, LeagueSession, Player

#: change-log actions that mark a hand as corrected on the site
CORRECTIONS = ("hand amend", "hand void", "hand unvoid")


@dataclass
class SessionLine:
    id: int
    number: int
    day: date
    started_at: datetime
    ended_at: datetime | None
    players: list[str]
    hands: int = 0
    #: the numbers of its first and last live hands (None: none yet)
    first: int | None = None
    last: int | None = None


@dataclass
class SeatLine:
    name: str
    seat: int | None
    role: str
    points: int
    pot: int

    @property
    def delta(self) -> int:
        return self.points + self.pot


@dataclass
class HandLine:
    """One hand as the session page lists it."""

    number: int
    status: str
    voided: bool
    dealer: str | None
    declarer: str | None
    friend: str | None
    friend_call: str | None
    contract: str | None
    taken: int | None
    success: bool | None
    multiplier: int | None
    doublings: list[str]
    deal_miss: str | None
    full: bool
    note: str | None
    corrected: bool = False
    seats: list[SeatLine] = field(default_factory=list)
    cells: list[int | None] = field(default_factory=list)  # deltas in a page's columns

    def set_columns(self, columns: list[str]) -> None:
        """Each column's player's score change, for the page (None: not in the hand, or
        sitting it out with nothing to pay or take: the page shows ``–``, not a score)."""
        deltas = {
            x.name: x.points + x.pot for x in self.seats if x.role != "out" or x.points + x.pot
        }
        self.cells = [deltas.get(name) for name in columns]

    @property
    def sitting_out(self) -> list[str]:
        return [x.name for x in self.seats if x.seat is None]

    def delta(self, name: str) -> int | None:
        for line in self.seats:
            if line.name == name:
                return line.delta
        return None


def sessions(s: Session, league_id: int) -> list[SessionLine]:
    """Every session of the league with its players (seating order) and its live hands."""
    lines = {
        x.id: SessionLine(x.id, x.number, x.day, x.started_at, x.ended_at, [])
        for x in s.exec(
            select(LeagueSession)
            .where(LeagueSession.league_id == league_id)
            .order_by(LeagueSession.number)
        ).all()
    }
    for session_id, names in seatings_by_session(s, league_id).items():
        lines[session_id].players.extend(names)
    for session_id, count, first, last in s.exec(
        select(
            Hand.session_id, func.count(col(Hand.id)), func.min(Hand.number), func.max(Hand.number)
        )
        .where(Hand.league_id == league_id, Hand.voided == False)  # noqa: E712
        .group_by(Hand.session_id)
    ).all():
        line = lines[session_id]
        line.hands, line.first, line.last = int(count), first, last
    return list(lines.values())


def hands_in_session_order(sessions: list[SessionLine]) -> bool:
    """Whether the live hands, read session by session (by session id, as
    :func:`iter_session_hands` reads them), come in hand order: false when sessions
    interleave (a round's tables)."""
    spans = sorted(
        (x.id, x.first, x.last) for x in sessions if x.first is not None and x.last is not None
    )
    return all(before[2] < after[1] for before, after in zip(spans, spans[1:]))


def corrected_hands(s: Session, league_id: int) -> set[int]:
    """Ids of the hands the change log shows amended, voided or restored."""
    return set(
        s.exec(
            select(ChangeLog.hand_id)
            .distinct()
            .where(
                ChangeLog.league_id == league_id,
                ChangeLog.hand_id != None,  # noqa
                col(ChangeLog.action).in_(CORRECTIONS),
            )
        ).all()
    )


def player_names(s: Session, league_id: int) -> dict[int, str]:
    """Every player with a row in the league, by id."""
    return dict(
        s.exec(
            select(Player.id, Player.name).where(
                col(Player.id).in_(
                    select(HandPlayer.player_id).distinct().where(HandPlayer.league_id == league_id)
                )
            )
        ).all()
    )


def iter_session_hands(
    s: Session, league_id: int, chunk: int = 5000
) -> Iterator[tuple[int, list[HandLine]]]:
    """Each session's hands (voided ones included, marked) in order, as ``(session id,
    hands)``: the hands and their players from two queries in the same order, each read
    ``chunk`` rows at a time (a hand's columns are not repeated on each of its players' rows:
    half the bytes to read)."""
    names = player_names(s, league_id)
    names.update(
        dict(
            s.exec(
                select(Player.id, Player.name).where(
                    col(Player.id).in_(
                        select(Hand.dealer_id).distinct().where(Hand.league_id == league_id)
                    )
                )
            ).all()
        )
    )
    corrected = corrected_hands(s, league_id)
    order = (Hand.session_id, Hand.number)
    # (a tuple: SQLModel's select is typed for four columns at most)
    hand_columns: tuple[Any, ...] = (
        Hand.id,
        Hand.session_id,
        Hand.number,
        Hand.status,
        Hand.voided,
        Hand.dealer_id,
        Hand.declarer_id,
        Hand.friend_id,
        Hand.friend_call,
        Hand.contract,
        Hand.taken,
        Hand.success,
        Hand.multiplier,
        Hand.doublings,
        Hand.deal_miss_id,
        Hand.full,
        Hand.note,
    )
    hand_rows = select(*hand_columns).where(Hand.league_id == league_id).order_by(*order)
    player_columns: tuple[Any, ...] = (
        HandPlayer.hand_id,
        HandPlayer.player_id,
        HandPlayer.seat,
        HandPlayer.role,
        HandPlayer.points,
        HandPlayer.pot,
    )
    player_rows = (
        select(*player_columns)
        .select_from(Hand)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .where(Hand.league_id == league_id)
        .order_by(*order, HandPlayer.seat)
    )
    # Core rows (not ORM ones): a million hands' rows are read quickly.
    connection = s.connection().execution_options(yield_per=chunk)
    players = iter(connection.execute(player_rows))
    pending = next(players, None)
    current_session: int | None = None
    hands: list[HandLine] = []
    for (
        hand_id,
        session_id,
        number,
        status,
        voided,
        dealer,
        declarer,
        friend,
        call,
        contract,
        taken,
        success,
        multiplier,
        doublings,
        miss,
        full,
        note,
    ) in connection.execute(hand_rows):
        if session_id != current_session:
            if hands:
                assert current_session is not None  # (its hands were read)
                yield current_session, hands
            current_session, hands = session_id, []
        # 허니문: a friend stored as the declarer is his own friend hand (store.hands)
        friend_name = (
            partner_of(names.get(declarer, "?"))
            if friend is not None and friend == declarer
            else names.get(friend)
        )
        line = HandLine(
            number,
            status,
            bool(voided),
            names.get(dealer),
            names.get(declarer),
            friend_name,
            call,
            contract,
            taken,
            success,
            multiplier,
            [d for d in (doublings or "").split(",") if d],
            names.get(miss),
            bool(full),
            note,
            hand_id in corrected,
        )
        while pending is not None and pending[0] == hand_id:
            _, player, seat, role, points, pot = pending
            line.seats.append(
                SeatLine(names.get(player, "?"), seat, role, int(points or 0), int(pot or 0))
            )
            if role == "friend" and friend is not None and player != friend:  # 동대전 7마
                line.friend = f"{line.friend}, {names.get(player, '?')}"
            pending = next(players, None)
        if line.seats:  # as a join would: a hand with no player's row is not listed
            hands.append(line)
    if hands:
        assert current_session is not None  # (its hands were read)
        yield current_session, hands


def refereed_hands(s: Session, league_id: int, chunk: int = 200) -> Iterator[tuple[int, int, str]]:
    """``(number, session id, record TOML)`` of every hand played card by card, in the order
    of :func:`iter_session_hands` (session, then number): read beside it, each session's
    records come as its hands do."""
    query = (
        select(Hand.number, Hand.session_id, Hand.record_toml)
        .where(*_refereed(league_id))
        .order_by(Hand.session_id, Hand.number)
    )
    yield from s.exec(query.execution_options(yield_per=chunk))


def refereed_count(s: Session, league_id: int) -> int:
    """How many hands :func:`refereed_hands` reads (each a page of the site)."""
    return s.exec(select(func.count()).select_from(Hand).where(*_refereed(league_id))).one()


def _refereed(league_id: int) -> tuple:
    """The league's hands played card by card (their records stored)."""
    return (
        Hand.league_id == league_id,
        Hand.full == True,  # noqa: E712
        Hand.record_toml != None,  # noqa: E711
    )


def session_stats(s: Session, league_id: int) -> dict[str, dict[int, PlayerStats]]:
    """Each player's totals in each session: ``{name: {session id: stats}}`` (one aggregate)."""
    per: dict[str, dict[int, PlayerStats]] = {}
    for row in s.exec(stats_query(league_id, Hand.session_id)).all():
        stats = row_stats(row[1:])
        per.setdefault(stats.name, {})[row[0]] = stats
    return per


def rating_rows(
    s: Session, league_id: int, chunk: int = 20000
) -> Iterator[tuple[int, str | None, int, str, int | None]]:
    """``(hand number, contract, player id, role, taken)`` of every live scored hand's
    players, in hand order (a hand's players in seat order, as the site's pass over the
    sessions reads them): what the rating reads (a rating is a sequence, so it is one pass)."""
    # (a tuple: SQLModel's select is typed for four columns at most)
    columns: tuple[Any, ...] = (
        Hand.number,
        Hand.contract,
        HandPlayer.player_id,
        HandPlayer.role,
        Hand.taken,
    )
    query = (
        select(*columns)
        .select_from(Hand)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .where(
            Hand.league_id == league_id,
            Hand.voided == False,  # noqa: E712
            Hand.status == "scored",
            col(HandPlayer.role).in_(PLAYING_ROLES),
        )
        .order_by(Hand.number, HandPlayer.seat)
    )
    yield from s.connection().execution_options(yield_per=chunk).execute(query)


def has_rounds(s: Session, league_id: int) -> bool:
    """Whether the league has a round (then its site has a tournament page)."""
    return (
        s.exec(select(LeagueRound.id).where(LeagueRound.league_id == league_id).limit(1)).first()
        is not None
    )


def league_of(s: Session, league_id: int) -> League:
    league = s.get(League, league_id)
    assert league is not None  # (the league the site is built for)
    return league
