"""Running totals: each player's standings line kept per league, so standings read one row per
player instead of summing every hand.

The totals count a league's live hands up to a mark (a hand number). Appending hands (recording,
importing) needs nothing here: the next read counts the hands after the mark and moves it
(:func:`fold`). A correction, which changes hands below the mark, adds what it changed in its
own transaction (:func:`add_hand`, :func:`add_pot`). An entry in the change log that may move
hands between players in a way nothing here followed (a merge of two players, or an action this
module does not know) makes the next read count the league again from the start.

Each function works inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import case, delete, func, insert, update
from sqlmodel import Session, select

from ...league.standings import COUNTED, PlayerStats
from ..db import lock_league
from ..models import ChangeLog, Hand, HandPlayer, Player, PlayerTotal, TotalsMark
from .lookups import PLAYING_ROLES, RULING_ROLES

#: Change-log actions that never touch counted hands, or keep the totals themselves.
FOLLOWED_ACTIONS = (
    "hand record",
    "import",
    "session start",
    "session end",
    "player add",
    "player rename",
    "league create",
    "league set",
    "hand amend",
    "hand void",
    "hand unvoid",
    "round start",
    "round end",
    "round reseat",
)
#: The counted columns, in the order of :func:`_stats_query`: the hand_player rows, then what
#: standings count (:data:`mighty_cli.league.standings.COUNTED`, the order of :func:`stat_columns`).
COUNTS = ("rows",) + COUNTED


def _sum_if(condition) -> Any:
    return func.sum(case((condition, 1), else_=0))


def stat_columns() -> tuple:
    """The aggregates behind a player's statistics over hand_player joined with hand (hands
    played, score, as declarer, made, as friend, runs, back runs suffered, deal misses): one
    definition for the standings query and the running totals."""
    return (
        _sum_if(HandPlayer.role.in_(PLAYING_ROLES)),
        func.sum(HandPlayer.points + HandPlayer.pot),
        _sum_if(HandPlayer.role == "declarer"),
        _sum_if((HandPlayer.role == "declarer") & (Hand.success == True)),  # noqa: E712
        _sum_if(HandPlayer.role == "friend"),
        _sum_if(Hand.run & HandPlayer.role.in_(RULING_ROLES)),
        _sum_if(Hand.back_run & (HandPlayer.role == "opponent")),
        _sum_if(Hand.deal_miss_id == HandPlayer.player_id),
    )


def _stats_query(league_id: int, *conditions: Any):
    """Per player id: the counted columns over the league's live hands matching
    ``conditions``. It reads from ``hand`` so a range of hand numbers uses that index."""
    return (
        select(HandPlayer.player_id, func.count(), *stat_columns())
        .select_from(Hand)
        .join(HandPlayer, HandPlayer.hand_id == Hand.id)
        .where(
            Hand.league_id == league_id,
            Hand.voided == False,  # noqa: E712
            *conditions,
        )
        .group_by(HandPlayer.player_id)
    )


def _add(s: Session, league_id: int, rows: Iterable[tuple], sign: int = 1) -> None:
    """Add (or with ``sign`` -1 take away) per-player counts to the league's totals."""
    changes = {row[0]: [sign * int(n or 0) for n in row[1:]] for row in rows}
    changes = {k: v for k, v in changes.items() if any(v)}
    if not changes:
        return
    existing = set(
        s.exec(select(PlayerTotal.player_id).where(PlayerTotal.league_id == league_id)).all()
    )
    new = []
    for player_id, numbers in changes.items():
        if player_id not in existing:
            new.append(dict(league_id=league_id, player_id=player_id, **dict(zip(COUNTS, numbers))))
            continue
        s.execute(
            update(PlayerTotal)
            .where(PlayerTotal.league_id == league_id, PlayerTotal.player_id == player_id)
            .values({name: getattr(PlayerTotal, name) + n for name, n in zip(COUNTS, numbers) if n})
        )
    if new:
        s.execute(insert(PlayerTotal), new)


def _mark(s: Session, league_id: int) -> TotalsMark:
    mark = s.get(TotalsMark, league_id)
    if mark is None:
        mark = TotalsMark(league_id=league_id)
        s.add(mark)
        s.flush()
    return mark


def fold(s: Session, league_id: int) -> None:
    """Bring the league's totals up to its last hand (and the change log's last entry)."""
    mark = _mark(s, league_id)
    last_log = s.exec(select(func.max(ChangeLog.id))).one() or 0
    last_hand = s.exec(select(func.max(Hand.number)).where(Hand.league_id == league_id)).one() or 0
    if mark.number == last_hand and mark.log_id == last_log:
        return
    lock_league(s, league_id)
    unfollowed = s.exec(
        select(ChangeLog.id)
        .where(ChangeLog.id > mark.log_id, ChangeLog.action.not_in(FOLLOWED_ACTIONS))
        .limit(1)
    ).first()
    if unfollowed is not None:  # count again from the start
        s.exec(delete(PlayerTotal).where(PlayerTotal.league_id == league_id))
        mark.number = 0
    if last_hand > mark.number:
        _add(s, league_id, s.exec(_stats_query(league_id, Hand.number > mark.number)).all())
    mark.number, mark.log_id = last_hand, last_log
    s.add(mark)
    s.flush()


def add_appended(s: Session, league_id: int, counts: Mapping[int, list[int]]) -> None:
    """Add the counts of hands just appended, counted by the caller as it wrote them (an
    import: :data:`COUNTS` per player id), and move the mark to the league's last hand and log
    entry. The caller folded the league before appending and holds its lock."""
    _add(s, league_id, [(player_id, *numbers) for player_id, numbers in counts.items()])
    mark = _mark(s, league_id)
    mark.number = (
        s.exec(select(func.max(Hand.number)).where(Hand.league_id == league_id)).one() or 0
    )
    mark.log_id = s.exec(select(func.max(ChangeLog.id))).one() or 0
    s.add(mark)
    s.flush()


def add_hand(s: Session, league_id: int, hand_id: int, sign: int = 1) -> None:
    """Add (``sign`` 1) or take away (-1) one stored hand's counts, as it stands now (a void
    hand counts nothing). A correction takes the hand away before changing it and adds it
    after."""
    s.flush()
    _add(s, league_id, s.exec(_stats_query(league_id, Hand.id == hand_id)).all(), sign)


def add_pot(s: Session, league_id: int, changes: Mapping[int, tuple[int, int]]) -> None:
    """Add pot changes of hands settled again: per player id, (score change, new rows)."""
    _add(
        s, league_id, [(player_id, rows, 0, score) for player_id, (score, rows) in changes.items()]
    )


def current(s: Session, league_id: int) -> list[PlayerStats]:
    """Every listed player's totals (the same as the full aggregate, read from the totals)."""
    fold(s, league_id)
    rows = s.exec(
        select(Player.name, *(getattr(PlayerTotal, n) for n in COUNTS[1:]))
        .join(Player, Player.id == PlayerTotal.player_id)
        .where(PlayerTotal.league_id == league_id, PlayerTotal.rows > 0)
    ).all()
    return [PlayerStats(name, *(int(n) for n in numbers)) for name, *numbers in rows]
