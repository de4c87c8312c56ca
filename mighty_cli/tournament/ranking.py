"""Scoring across tables: a tournament's table from each player's result at each table of each
round, under the ruleset's ``[tournament]`` options (docs/tournament-notes.md).

* ``score = "raw"``: the points of the player's hands; ``"per_hand"``: those points per hand
  played (tables play different numbers of hands, and a 6- or 7-player table sits players out);
  ``"place"``: place points won at each table of each round.
* A table's places go by the points of its hands in the round, highest first; tied players share
  their places' points equally (two tied for first at 60/48 get 54 each). A player who moved to
  another table mid-round (``round seat``) has a place at each, and the round gives him their
  mean.
* ``place_points`` are the points of the first, second, ... place at a table; under
  ``size_adjusted`` a table of another size takes the list stretched or shrunk to its size, the
  first and last keeping their points and the places between spread evenly (60..12 over six
  places: 60, 50.4, 40.8, 31.2, 21.6, 12); otherwise places past the list get 0.
* ``absent = "average"`` (with place points): a player absent from some of the rounds gets his
  average place points of the rounds he played for each one he missed.
* Equal tournament scores are ordered by ``tie_break`` (raw, per_hand, place, hands,
  declarer_success, name), in turn; players equal on every key listed share a rank, listed
  by name. ``name`` in the list is a key like the others: it gives each of them his own place
  (the organiser asked for no shared places).

Pure: no database, no click.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any


@dataclass(frozen=True)
class TableResult:
    """One player's result at one table of one round."""

    round: int
    table: int
    name: str
    score: int
    hands: int
    declarer_success: int = 0


@dataclass
class TournamentRow:
    """One player's tournament line: the tournament score, its parts and the rank."""

    name: str
    score: float = 0.0
    raw: int = 0
    hands: int = 0
    place: float = 0.0
    declarer_success: int = 0
    rounds: int = 0
    rank: int | None = None

    @property
    def per_hand(self) -> float:
        return self.raw / self.hands if self.hands else 0.0

    def to_json(self) -> dict:
        return {
            "rank": self.rank,
            "name": self.name,
            "score": round(self.score, 3),
            "raw": self.raw,
            "hands": self.hands,
            "per_hand": round(self.per_hand, 3),
            "place": round(self.place, 3),
            "rounds": self.rounds,
        }


def places_points(size: int, points: Sequence[int], adjusted: bool) -> list[float]:
    """The points of each place, first to last, at a table of ``size`` players."""
    if not adjusted or size == len(points):
        return [float(points[p]) if p < len(points) else 0.0 for p in range(size)]
    if size == 1:
        return [float(points[0])]
    last = len(points) - 1
    spread = []
    for place in range(size):
        at = place * last / (size - 1)
        low = int(at)
        high = min(low + 1, last)
        spread.append(points[low] + (points[high] - points[low]) * (at - low))
    return spread


def table_places(
    results: Sequence[TableResult], points: Sequence[int], adjusted: bool
) -> dict[str, float]:
    """Each player's place points at one table: highest score first, ties sharing equally."""
    ordered = sorted(results, key=lambda r: -r.score)
    worth = places_points(len(ordered), points, adjusted)
    earned: dict[str, float] = {}
    index = 0
    for _score, tied in groupby(ordered, key=lambda r: r.score):
        group = list(tied)
        share = sum(worth[index : index + len(group)]) / len(group)
        for result in group:
            earned[result.name] = share
        index += len(group)
    return earned


def tournament_table(
    results: Iterable[TableResult], options: Any, rounds: Sequence[int] | None = None
) -> list[TournamentRow]:
    """The ranked tournament table of ``results`` under ``options`` (a ruleset's
    ``tournament``); ``rounds``: the rounds it covers (default: those in the results), for
    ``absent``."""
    results = list(results)
    rows: dict[str, TournamentRow] = {}
    played: dict[str, set] = {}
    earned: dict[tuple[int, str], list[float]] = {}
    by_table = sorted(results, key=lambda r: (r.round, r.table))
    for _key, group in groupby(by_table, key=lambda r: (r.round, r.table)):
        table = list(group)
        places = table_places(table, options.place_points, options.size_adjusted)
        for result in table:
            row = rows.setdefault(result.name, TournamentRow(result.name))
            row.raw += result.score
            row.hands += result.hands
            earned.setdefault((result.round, result.name), []).append(places[result.name])
            row.declarer_success += result.declarer_success
            played.setdefault(result.name, set()).add(result.round)
    for (_round, name), points in earned.items():  # moved mid-round: his places' mean
        rows[name].place += sum(points) / len(points)
    every = set(rounds) if rounds is not None else {r.round for r in results}
    for name, row in rows.items():
        row.rounds = len(played[name])
        missed = len(every - played[name])
        if options.absent == "average" and missed and row.rounds:
            row.place += row.place / row.rounds * missed
        row.score = (
            float(row.raw)
            if options.score == "raw"
            else row.per_hand
            if options.score == "per_hand"
            else row.place
        )
    return rank_rows(list(rows.values()), options.tie_break)


def _key(row: TournamentRow, keys: Sequence[str]) -> tuple:
    values: list = [-row.score]
    for key in keys:
        values.append(row.name if key == "name" else -float(getattr(row, key)))
    return tuple(values)


def rank_rows(rows: list[TournamentRow], tie_break: Sequence[str]) -> list[TournamentRow]:
    """Rows ordered by score then the tie-break keys, in turn (the name after them, for the
    order only); rows equal on every key share a rank, so ``name`` among the keys gives each
    row its own."""
    rows.sort(key=lambda r: (_key(r, tie_break), r.name))
    previous, rank = None, 0
    for position, row in enumerate(rows, start=1):
        key = _key(row, tie_break)
        if key != previous:
            rank, previous = position, key
        row.rank = rank
    return rows
