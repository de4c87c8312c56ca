"""Every table of the league store, in one module (SQLModel's ``code_structure`` habit).

A league keeps the full TOML text of its ruleset, so a later edit of a bundled ruleset file never
changes a past result. Each hand keeps its outcome in columns, its refereed record (when it was
played card by card) as hand-record TOML, and one ``HandPlayer`` row per player it touched with
the points of the hand's score and of the deposit pot, so standings are one aggregate query.

Points are stored in one documented range on every database (:class:`StoredPoints`): a player's
points from one hand are whole numbers within ±1,000,000,000 (``engine.limits.POINTS_LIMIT``),
which fits PostgreSQL's 32-bit INTEGER and leaves SQLite's 64-bit sums room for billions of
hands. A ruleset that could score beyond it fails ``mighty ruleset check``; a value outside it
is refused with one line before it reaches the database.
"""

from __future__ import annotations

from datetime import date, datetime, timezone

from sqlalchemy import BigInteger, Column, Integer, Text, UniqueConstraint
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel

from ..engine.limits import POINTS_LIMIT
from ..engine.translation import _
from . import LeagueError


class PointsOutOfRange(LeagueError):
    """Points a league cannot store: outside ±POINTS_LIMIT for one player in one hand."""


class StoredPoints(TypeDecorator):
    """An INTEGER holding one player's points from one hand, checked against POINTS_LIMIT as it
    is written (ORM flushes and bulk inserts alike), the same on SQLite and PostgreSQL."""

    impl = Integer
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None and not -POINTS_LIMIT <= value <= POINTS_LIMIT:
            raise PointsOutOfRange(
                _(
                    "{value:,} points for one player in one hand: a league "
                    "stores from {low:,} to {high:,}"
                ).format(value=value, low=-POINTS_LIMIT, high=POINTS_LIMIT)
            )
        return value


def utc_now() -> datetime:
    """Timestamps are stored in UTC."""
    return datetime.now(timezone.utc)


def utc_time(moment: datetime) -> datetime:
    """A stored time as an aware UTC time (the store keeps UTC; SQLite returns it naive)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


class Player(SQLModel, table=True):
    """A person. A merged record keeps its row (``merged_into_id``) so old names still resolve."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True, max_length=100)
    merged_into_id: int | None = Field(default=None, foreign_key="player.id")
    created_at: datetime = Field(default_factory=utc_now)


class League(SQLModel, table=True):
    """A league: its ruleset (the TOML text itself) and how its standings are ranked."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True, max_length=100)
    ruleset_name: str = Field(max_length=200)
    ruleset_toml: str = Field(sa_column=Column(Text, nullable=False))
    min_hands: int = 0
    rank_by: str = Field(default="score,score_per_hand,declarer_success,name", max_length=200)
    created_at: datetime = Field(default_factory=utc_now)


class LeagueRound(SQLModel, table=True):
    """A round: everyone present seated at one or more tables at once, each table a session
    (:attr:`LeagueSession.round_id`, numbered by :attr:`LeagueSession.table_number`). A club
    night is one round or several; a tournament is a league of rounds."""

    __tablename__ = "league_round"
    __table_args__ = (UniqueConstraint("league_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    number: int
    started_at: datetime = Field(default_factory=utc_now)
    ended_at: datetime | None = None
    #: the seed the plan was searched with (``round start --seed``), so it can be made again
    seed: str | None = Field(default=None, max_length=40)
    #: a duplicate round's deal seed (``round start --duplicate``): every table deals hand k
    #: from it, the same cards to the same seats at every table of one size; NULL: not one
    deal_seed: str | None = Field(default=None, max_length=40)
    #: the round's clock, started by the director (``mighty serve``): when it started and how
    #: many minutes the round is given; both NULL: no clock. Added after the first release
    #: (:data:`.db.ADDED_COLUMNS`)
    clock_started_at: datetime | None = None
    clock_minutes: int | None = None


class RoundSubstitute(SQLModel, table=True):
    """A substitute in a round (``round start --substitute S/X``): ``player_id`` sits in for
    ``for_player_id``, planned with his history. ``credited``: the substitute's results of the
    round count for the player replaced in the tournament table; otherwise they are kept apart,
    under the substitute's own name."""

    __tablename__ = "round_substitute"

    league_id: int = Field(foreign_key="league.id", primary_key=True)
    round_number: int = Field(primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)
    for_player_id: int = Field(foreign_key="player.id")
    credited: bool = False


class PlannedTable(SQLModel, table=True):
    """A table of a round planned ahead (``round start --rounds K`` plans K rounds together):
    its players in seat order, a JSON list. The round, when started with the same players,
    takes these tables; with others present, the rounds still ahead are planned again.
    ``plan_first`` and ``plan_rounds``: the round the plan began at and how many it plans
    (NULL in a store from before they were kept: a plan of unknown length)."""

    __tablename__ = "planned_table"

    league_id: int = Field(foreign_key="league.id", primary_key=True)
    round_number: int = Field(primary_key=True)
    table_number: int = Field(primary_key=True)
    players: str = Field(sa_type=Text)
    plan_first: int | None = None
    plan_rounds: int | None = None


class LeagueSession(SQLModel, table=True):
    """One evening of play: the players present, in seating order, and its hands."""

    __tablename__ = "league_session"
    __table_args__ = (UniqueConstraint("league_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    number: int
    day: date
    first_dealer_id: int | None = Field(default=None, foreign_key="player.id")
    started_at: datetime = Field(default_factory=utc_now)
    ended_at: datetime | None = None
    #: the seed the session's referee deals from (``referee --league --seed``), in decimal, so
    #: a resumed evening deals the same cards without being told it again; NULL: none given
    deal_seed: str | None = Field(default=None, max_length=40)
    #: the round this session is a table of (a ``league_round.id``), and the table's number in
    #: it (NULL: a session started on its own, ``session start``). No foreign key and no index
    #: of its own: a store made before rounds gains the column by ALTER TABLE, as every store
    #: gains the others (a league has hundreds of sessions, not millions)
    round_id: int | None = None
    table_number: int | None = None
    #: the table's entry code (:mod:`.entry_codes`): a phone at the table types it (or scans
    #: it from the table's slip) to write there through ``mighty serve``; a round's table
    #: keeps it across the seatings ``round seat`` gives it. NULL: none (a session made
    #: before the column, or imported). Added after the first release (:data:`.db.ADDED_COLUMNS`)
    entry_code: str | None = Field(default=None, max_length=10)


class SessionSeat(SQLModel, table=True):
    """A player present at a session and where they sat (0 is the first in playing order)."""

    __tablename__ = "session_seat"

    session_id: int = Field(foreign_key="league_session.id", primary_key=True)
    seat: int = Field(primary_key=True)
    player_id: int = Field(foreign_key="player.id", index=True)


class Hand(SQLModel, table=True):
    """One hand of a league, numbered in the order it was played."""

    __table_args__ = (UniqueConstraint("league_id", "number"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    session_id: int = Field(foreign_key="league_session.id", index=True)
    number: int
    status: str = Field(max_length=20)  # scored | deal_miss | redeal
    voided: bool = False
    dealer_id: int | None = Field(default=None, foreign_key="player.id")
    declarer_id: int | None = Field(default=None, foreign_key="player.id")
    friend_id: int | None = Field(default=None, foreign_key="player.id")
    deal_miss_id: int | None = Field(default=None, foreign_key="player.id")
    contract: str | None = Field(default=None, max_length=10)
    friend_call: str | None = Field(default=None, max_length=40)
    taken: int | None = None
    success: bool | None = None
    base: float | None = None
    multiplier: int | None = None
    doublings: str = Field(default="", max_length=100)
    run: bool = False
    back_run: bool = False
    pot_after: int = 0
    full: bool = False
    record_toml: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    note: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    created_at: datetime = Field(default_factory=utc_now)
    # 시흥 은마 (table.dummy): whose own hand the declarer eliminated, by seat: a player's
    # ``hand_player.seat`` (he played the dummy's hand and keeps his role), or table.players for
    # the dummy (seated after the players). None for any other hand; a 6마/7마 hand's eliminated
    # have the role ``eliminated`` instead. Added after the first release: a store made before
    # gains it when opened (:data:`.db.ADDED_COLUMNS`).
    eliminated_seat: int | None = None


class HandPlayer(SQLModel, table=True):
    """What one hand meant for one player: seat (None when sitting out), role and points."""

    __tablename__ = "hand_player"

    hand_id: int = Field(foreign_key="hand.id", primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True, index=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    seat: int | None = None
    role: str = Field(max_length=10)  # declarer | friend | opponent | eliminated | player | out
    points: int = Field(default=0, sa_type=StoredPoints)  # from the hand's score
    pot: int = Field(default=0, sa_type=StoredPoints)  # from the deposit pot (paid in or won)


class ChangeLog(SQLModel, table=True):
    """Who changed what, when and why, with the before and after (JSON text)."""

    __tablename__ = "change_log"

    id: int | None = Field(default=None, primary_key=True)
    league_id: int | None = Field(default=None, foreign_key="league.id", index=True)
    hand_id: int | None = Field(default=None, foreign_key="hand.id")
    action: str = Field(max_length=40)
    who: str = Field(max_length=100)
    why: str = Field(default="", sa_column=Column(Text, nullable=False))
    at: datetime = Field(default_factory=utc_now)
    before: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    after: str | None = Field(default=None, sa_column=Column(Text, nullable=True))


class PlayerTotal(SQLModel, table=True):
    """A player's running totals in a league over its live hands up to ``TotalsMark.number``
    (what :func:`mighty_cli.store.ledger.queries.player_stats` would sum), so standings read one row
    per player instead of every hand. Corrections update it in their own transaction."""

    __tablename__ = "player_total"

    league_id: int = Field(foreign_key="league.id", primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)
    rows: int = 0  # hand_player rows counted (a row makes the player listed)
    hands: int = 0
    score: int = Field(default=0, sa_type=BigInteger)  # a sum of hands: beyond 32 bits
    declarer: int = 0
    declarer_success: int = 0
    friend: int = 0
    runs: int = 0
    back_runs: int = 0
    deal_misses: int = 0


class TotalsMark(SQLModel, table=True):
    """How far a league's :class:`PlayerTotal` rows are counted: every hand numbered up to
    ``number``, and the change log up to ``log_id`` (a later entry that can move hands between
    players, such as a merge, makes the totals be counted again)."""

    __tablename__ = "totals_mark"

    league_id: int = Field(foreign_key="league.id", primary_key=True)
    number: int = 0
    log_id: int = 0


class LiveHand(SQLModel, table=True):
    """The hand a referee is entering, as hand-record TOML rewritten after every entry, so a
    killed process or a closed laptop resumes at the same card (or a score-keeper's hand left
    half typed with Ctrl-C). One per session; removed in the transaction that stores the
    finished hand."""

    __tablename__ = "live_hand"

    session_id: int = Field(foreign_key="league_session.id", primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    record_toml: str = Field(sa_column=Column(Text, nullable=False))
    updated_at: datetime = Field(default_factory=utc_now)
    #: who holds the hand: the token of the window (a referee, a score-keeper's half-typed
    #: hand) that last wrote it (:mod:`.ledger.table_entry`); another writer's entries are refused.
    #: NULL: nobody's (a store made before the column, whose next writer takes it up). Added
    #: after the first release (:data:`.db.ADDED_COLUMNS`)
    owner: str | None = Field(default=None, max_length=40)


class LeagueSetting(SQLModel, table=True):
    """A league's settings beyond its ranking rules, one row per key: ``lang`` (the language of
    its pages, ``ko`` or ``en``) and ``timezone`` (an IANA name). A table of its own rather than
    columns of ``league``, so a database made before the settings existed gains it by
    ``create_all`` and keeps working; a missing row means the default."""

    __tablename__ = "league_setting"

    league_id: int = Field(foreign_key="league.id", primary_key=True)
    key: str = Field(primary_key=True, max_length=40)
    value: str = Field(max_length=200)
