"""Standings: scored hands in, league tables and statistics out. Pure; no database.

Per player: hands played, total score, score per hand, times declarer (주공) and how many of
those contracts were made, times friend (프렌드), runs made with the ruling party and back runs
made with the opposition. A league ranks by a list of keys (the first decides, the rest break
ties) and may set a minimum number of hands below which a player is listed but not ranked.
The store computes the same :class:`PlayerStats` with one aggregate query; :func:`accumulate`
is the reference it is tested against.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import NamedTuple

from ..engine.errors import MightyError
from ..engine.translation import _

#: Ranking keys a league may list in ``rank_by``: higher is better except for ``name``.
RANK_KEYS = (
    "score",
    "score_per_hand",
    "hands",
    "declarer_success",
    "success_rate",
    "friend",
    "runs",
    "name",
)
DEFAULT_RANK_BY = ("score", "score_per_hand", "declarer_success", "name")


class StandingsError(MightyError):
    """A ranking rule that names an unknown key or a negative threshold."""


@dataclass
class PlayerStats:
    """One player's totals over a set of hands."""

    name: str
    hands: int = 0
    score: int = 0
    declarer: int = 0
    declarer_success: int = 0
    friend: int = 0
    runs: int = 0
    back_runs: int = 0
    deal_misses: int = 0

    @property
    def score_per_hand(self) -> float:
        return self.score / self.hands if self.hands else 0.0

    @property
    def success_rate(self) -> float | None:
        """Share of the player's contracts as declarer that were made (None if never declarer)."""
        return self.declarer_success / self.declarer if self.declarer else None

    def add(self, other: PlayerStats) -> None:
        """Add another set of hands' counts to these (a session's to the league's)."""
        for key in COUNTED:
            setattr(self, key, getattr(self, key) + getattr(other, key))

    def to_json(self) -> dict:
        data = asdict(self)
        data["score_per_hand"] = round(self.score_per_hand, 3)
        data["success_rate"] = None if self.success_rate is None else round(self.success_rate, 3)
        return data


#: What is counted for a player, in :class:`PlayerStats`' order: the one list of these columns
#: (the store's running totals, ``PlayerTotal``, hold the same and are checked against it).
COUNTED = tuple(f.name for f in fields(PlayerStats))[1:]


class ScoredHand(NamedTuple):
    """What standings need from one hand (voided hands are simply left out)."""

    number: int
    status: str  # scored | deal_miss | redeal
    players: Sequence[str]  # the five who played
    deltas: Mapping[str, int]  # every player's change, deposit pot included
    declarer: str | None = None
    friend: str | None = None
    success: bool | None = None
    run: bool = False
    back_run: bool = False
    deal_miss: str | None = None
    session: int = 1


@dataclass
class StandingRow:
    """A ranked line of the league table (rank None: below the minimum number of hands)."""

    rank: int | None
    stats: PlayerStats

    def to_json(self) -> dict:
        return {"rank": self.rank, "qualified": self.rank is not None} | self.stats.to_json()


@dataclass
class Standings:
    """A ranked table: qualified players first, by the league's keys, then the rest."""

    rows: list[StandingRow]
    min_hands: int = 0
    rank_by: tuple[str, ...] = DEFAULT_RANK_BY

    def to_json(self) -> dict:
        return {
            "min_hands": self.min_hands,
            "rank_by": list(self.rank_by),
            "players": [row.to_json() for row in self.rows],
        }

    def by_name(self) -> dict[str, StandingRow]:
        return {row.stats.name: row for row in self.rows}


def accumulate(hands: Iterable[ScoredHand]) -> dict[str, PlayerStats]:
    """Every player's totals over the hands (the reference the store's query must agree with)."""
    stats: dict[str, PlayerStats] = {}

    def of(name: str) -> PlayerStats:
        if name not in stats:
            stats[name] = PlayerStats(name)
        return stats[name]

    for hand in hands:
        for name, delta in hand.deltas.items():
            of(name).score += delta
        if hand.status == "deal_miss" and hand.deal_miss:
            of(hand.deal_miss).deal_misses += 1
        if hand.status != "scored":
            continue
        ruling = {hand.declarer, hand.friend}
        for name in hand.players:
            player = of(name)
            player.hands += 1
            if name == hand.declarer:
                player.declarer += 1
                player.declarer_success += bool(hand.success)
            elif name == hand.friend:
                player.friend += 1
            if hand.run and name in ruling:
                player.runs += 1
            if hand.back_run and name not in ruling:
                player.back_runs += 1
    return stats


def parse_rank_by(text: str | Sequence[str]) -> tuple[str, ...]:
    """A league's ranking keys from ``"score,score_per_hand,name"``; unknown keys are refused,
    and a key given again is dropped (it could not decide anything the first did not), so the
    keys a league keeps fit their column whatever was typed."""
    keys = list(
        dict.fromkeys(
            k.strip() for k in (text.split(",") if isinstance(text, str) else text) if k.strip()
        )
    )
    unknown = [k for k in keys if k not in RANK_KEYS]
    if unknown or not keys:
        given = ",".join(keys) or _("(nothing)")
        if unknown:
            raise StandingsError(
                _("rank by {given!r}: unknown key {key!r}; choose from {keys}").format(
                    given=given, key=unknown[0], keys=", ".join(RANK_KEYS)
                )
            )
        raise StandingsError(
            _("rank by {given!r}: no key; choose from {keys}").format(
                given=given, keys=", ".join(RANK_KEYS)
            )
        )
    return tuple(keys)


def _key(stats: PlayerStats, rank_by: Sequence[str]) -> tuple:
    key: list = []
    for name in rank_by:
        if name == "name":
            key.append(stats.name.casefold())
        elif name == "success_rate":
            key.append(-(stats.success_rate or 0.0))
        else:
            key.append(-getattr(stats, name))
    return tuple(key)


def rank(
    stats: Iterable[PlayerStats], min_hands: int = 0, rank_by: Sequence[str] = DEFAULT_RANK_BY
) -> Standings:
    """Rank players by the league's keys; equal on every key but the name means equal rank."""
    if min_hands < 0:
        raise StandingsError(_("minimum hands {count}: must be 0 or more").format(count=min_hands))
    rank_by = tuple(rank_by)
    everyone = sorted(stats, key=lambda s: _key(s, rank_by) + (s.name,))
    qualified = [s for s in everyone if s.hands >= min_hands and s.hands > 0]
    others = [s for s in everyone if not (s.hands >= min_hands and s.hands > 0)]
    deciding = tuple(k for k in rank_by if k != "name")
    rows: list[StandingRow] = []
    previous_key = None
    for position, player in enumerate(qualified, 1):
        key = _key(player, deciding)
        number = rows[-1].rank if rows and key == previous_key else position
        rows.append(StandingRow(number, player))
        previous_key = key
    rows.extend(StandingRow(None, player) for player in others)
    return Standings(rows, min_hands, rank_by)


@dataclass
class StandingChange:
    """How one player's line moved after a correction."""

    name: str
    score_before: int
    score_after: int
    rank_before: int | None
    rank_after: int | None


def diff(before: Standings, after: Standings) -> list[StandingChange]:
    """Players whose score or rank changed between two tables, in the new table's order."""
    old = before.by_name()
    changes = []
    for row in after.rows:
        was = old.get(row.stats.name)
        score_before = was.stats.score if was else 0
        rank_before = was.rank if was else None
        if (score_before, rank_before) != (row.stats.score, row.rank):
            changes.append(
                StandingChange(row.stats.name, score_before, row.stats.score, rank_before, row.rank)
            )
    gone = set(old) - {row.stats.name for row in after.rows}
    for name in sorted(gone):
        changes.append(StandingChange(name, old[name].stats.score, 0, old[name].rank, None))
    return changes


@dataclass
class Series:
    """A player's cumulative score after each point of a chart's x axis."""

    name: str
    points: list[int] = field(default_factory=list)


def cumulative(
    hands: Iterable[ScoredHand], names: Sequence[str], max_points: int = 200
) -> tuple[list[int], list[Series]]:
    """Cumulative scores for a chart: x values (hand numbers) and one series per player, thinned
    to at most ``max_points`` points so a long league still draws a light chart."""
    running = dict.fromkeys(names, 0)
    rows: list[tuple[int, dict[str, int]]] = []
    for hand in hands:
        for name, delta in hand.deltas.items():
            if name in running:
                running[name] += delta
        rows.append((hand.number, dict(running)))
    return thin(rows, names, max_points)


def thin(
    rows: Sequence[tuple[int, Mapping[str, int]]], names: Sequence[str], max_points: int = 200
) -> tuple[list[int], list[Series]]:
    """Keep at most ``max_points`` evenly spaced rows, always the first and the last."""
    if len(rows) > max_points:
        step = (len(rows) - 1) / (max_points - 1)
        rows = [rows[round(i * step)] for i in range(max_points)]
    xs = [number for number, _ in rows]
    series = [Series(name, [totals.get(name, 0) for _, totals in rows]) for name in names]
    return xs, series
