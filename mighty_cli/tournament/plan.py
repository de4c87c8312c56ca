"""Table plans: who sits at which table in a round, scored against the rounds before.

The arithmetic (docs/tournament-notes.md, "The arithmetic of repeats"):

* A plan's **repeated pairs** are the pairs seated together this round who already met in an
  earlier round. Its **cost** weighs each such pair by the square of the times it met before,
  and more when it met in the round just before (a pair kept apart by the organiser costs more
  than any history); the search minimises the cost, the report names the repeated pairs.
* **Lower bound.** An earlier table of ``g`` players spread over ``t`` tables as evenly as
  possible (``g = q·t + r``) still puts ``r·C(q+1, 2) + (t−r)·C(q, 2)`` of its pairs together,
  and no spread does better (pairs grow convexly with a table's share). Summed over an earlier
  round's tables this bounds the repeats of the new round from below; every earlier round gives
  such a bound, and the plan must meet the largest. 20 players at 4 tables of 5 → 4; 10 at 5+5
  → 8; 11 at 5+6 → 10; 15 at 3×5 → 6; 22 at 5+5+6+6 → 6.
* **Exact designs.** For a prime ``p`` the affine plane of order ``p`` seats ``p²`` players at
  ``p`` tables of ``p`` for ``p + 1`` rounds with every pair meeting exactly once (the points of
  the grid over GF(p); a round is the lines of one slope).
* **Sit-outs go round.** At a table larger than the ruleset's (six or seven at 5마) hands are
  sat out in turn; a player seated at one costs :data:`SIT_OUT` times the square of the earlier
  rounds he sat at one, so over the rounds nobody sits there twice more than anybody else.
* Elsewhere a **seeded local search**: random seatings improved by swapping two players of two
  tables, annealed, the best of a few restarts kept; the same seed gives the same plan.

Pure: players are names, a history is the list of earlier rounds' tables (a round whose table
changed its seating mid-round holds each seating it had: a pair or a player counts once a round).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterable, Optional, Sequence

from ..engine.errors import MightyError
from ..engine.translation import _

Table = tuple[str, ...]
Round = list[Table]


class PlanError(MightyError):
    """A round that cannot be planned: too few players, or sizes no table can take."""


def table_sizes(players: int, sizes: Sequence[int]) -> list[int]:
    """How ``players`` sit at tables of the allowed ``sizes`` (a ruleset's: 5; 6 and 7 where it
    seats or eliminates them): as few tables as the largest usual size allows, the tables as
    even as can be, the smallest allowed size preferred when there is a choice. Refused (one
    line) when no split exists."""
    allowed = sorted(set(sizes))
    if not allowed or players < allowed[0]:
        raise PlanError(_("{count} players cannot be seated: the smallest table seats {size}")
                        .format(count=players, size=allowed[0] if allowed else 0))
    best: Optional[tuple] = None
    for tables in range(math.ceil(players / allowed[-1]), players // allowed[0] + 1):
        low, extra = divmod(players, tables)
        split = [low + 1] * extra + [low] * (tables - extra)
        if all(size in allowed for size in split):
            key = (abs(low - allowed[0]) + (1 if extra else 0), tables)
            if best is None or key < best[0]:
                best = (key, split)
    if best is None:
        raise PlanError(_("{count} players cannot be split into tables of {sizes}").format(
            count=players, sizes=", ".join(map(str, allowed))))
    return sorted(best[1], reverse=True)


def pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def meetings(history: Iterable[Round]) -> dict[tuple[str, str], int]:
    """How many earlier rounds each pair shared a table in (once a round, though a table whose
    seating changed mid-round is there as each seating it had)."""
    met: dict[tuple[str, str], int] = {}
    for tables in history:
        for key in {pair(a, b) for table in tables for a, b in combinations(table, 2)}:
            met[key] = met.get(key, 0) + 1
    return met


def repeated_pairs(tables: Round, history: Sequence[Round]) -> int:
    """The pairs seated together in ``tables`` who met in an earlier round."""
    met = meetings(history)
    return sum(1 for table in tables for a, b in combinations(table, 2) if pair(a, b) in met)


def spread_bound(earlier: Round, tables: int) -> int:
    """The fewest pairs of ``earlier``'s tables that any round of ``tables`` tables seats
    together again (each earlier table spread as evenly as possible)."""
    total = 0
    for table in earlier:
        q, r = divmod(len(table), tables)
        total += r * math.comb(q + 1, 2) + (tables - r) * math.comb(q, 2)
    return total


def lower_bound(tables: int, history: Sequence[Round], players: Optional[set] = None) -> int:
    """A proven lower bound on a new round's repeated pairs: the largest spread bound of the
    earlier rounds (each counted among the players present now)."""
    best = 0
    for earlier in history:
        seen: set[str] = set()  # a player at two seatings of one round counts at the first
        present = []
        for table in earlier:
            present.append(tuple(p for p in table if (players is None or p in players)
                                 and p not in seen))
            seen.update(table)
        best = max(best, spread_bound(present, tables))
    return best


@dataclass
class RoundPlan:
    """A round's tables (each in seat order, the first dealer first), its repeated pairs, the
    lower bound and the kept-apart pairs it could not keep apart."""

    tables: Round
    repeated_pairs: int
    lower_bound: int
    broken_apart: list[tuple[str, str]] = field(default_factory=list)


#: Weights of the cost: a pair that met before costs the square of its meetings, one more for
#: having met in the round just before, and a kept-apart pair more than any history.
LAST_ROUND = 1
APART = 10_000
#: A player seated at a table larger than the ruleset's (six or seven at 5마: hands sat out in
#: turn) costs this times the square of the earlier rounds he sat at one, so the sit-outs go
#: round: 11 players at 6 + 5 over five rounds sit at the six 2 or 3 times each, where without
#: it one player never sits out. Weighed against repeats: it may seat a pair again.
SIT_OUT = 4


def _weights(players: Sequence[str], history: Sequence[Round],
             apart: Iterable[tuple[str, str]]) -> dict[tuple[str, str], int]:
    met = meetings(history)
    last = meetings(history[-1:]) if history else {}
    weights = {key: count * count + (LAST_ROUND if key in last else 0)
               for key, count in met.items()}
    for a, b in apart:
        key = pair(a, b)
        weights[key] = weights.get(key, 0) + APART
    return weights


def _table_cost(table: Sequence[str], weights: dict) -> int:
    return sum(weights.get(pair(a, b), 0) for a, b in combinations(table, 2))


def sit_out_rounds(history: Sequence[Round], seated: int) -> dict[str, int]:
    """How many earlier rounds each player sat at a table of more than ``seated`` (the
    ruleset's ``table.players``): a table where players take turns to sit hands out."""
    counts: dict[str, int] = {}
    for tables in history:
        for name in {name for table in tables if len(table) > seated for name in table}:
            counts[name] = counts.get(name, 0) + 1
    return counts


def plan_round(players: Sequence[str], sizes: Sequence[int], history: Sequence[Round] = (),
               *, seed: int = 0, apart: Sequence[tuple[str, str]] = (),
               restarts: int = 6, steps: int = 4000,
               seated: Optional[int] = None) -> RoundPlan:
    """Seat ``players`` at tables of ``sizes`` (as :func:`table_sizes` gives), fewest repeats
    against ``history`` first; reproducible from ``seed``. With ``seated`` (the ruleset's
    ``table.players``), a player seated at a larger table, where hands are sat out in turn,
    costs :data:`SIT_OUT` times the square of the earlier rounds he sat at one: the sit-outs
    go round."""
    players = list(players)
    if sum(sizes) != len(players) or len(set(players)) != len(players):
        raise PlanError(_("the tables seat {seats} but {count} different players are present")
                        .format(seats=sum(sizes), count=len(set(players))))
    weights = _weights(players, history, apart)
    bound = lower_bound(len(sizes), history, set(players))
    before = sit_out_rounds(history, seated) if seated is not None else {}

    def table_cost(table: Sequence[str]) -> int:
        cost = _table_cost(table, weights)
        if seated is not None and len(table) > seated:
            cost += SIT_OUT * sum(before.get(name, 0) ** 2 for name in table)
        return cost

    rng = random.Random(seed)
    best: Optional[tuple[int, list[list[str]]]] = None
    for _attempt in range(restarts):
        tables = _random_tables(players, sizes, rng)
        cost = sum(table_cost(t) for t in tables)
        temperature = 2.0
        for step in range(steps):
            if cost == 0:
                break
            i, j = rng.sample(range(len(tables)), 2) if len(tables) > 1 else (0, 0)
            if i == j:
                break
            a, b = rng.randrange(len(tables[i])), rng.randrange(len(tables[j]))
            was = table_cost(tables[i]) + table_cost(tables[j])
            tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
            delta = table_cost(tables[i]) + table_cost(tables[j]) - was
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                cost += delta
            else:
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
            temperature = max(0.05, temperature * 0.999)
        if best is None or cost < best[0]:
            best = (cost, [t[:] for t in tables])
    assert best is not None
    tables = [tuple(_seat_order(table, rng)) for table in best[1]]
    broken = sorted(pair(a, b) for a, b in apart
                    if any(a in t and b in t for t in tables))
    return RoundPlan(tables, repeated_pairs(tables, history), bound, broken)


def _random_tables(players: Sequence[str], sizes: Sequence[int],
                   rng: random.Random) -> list[list[str]]:
    """The players shuffled and cut into tables of ``sizes``: where a search starts."""
    order = list(players)
    rng.shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start:start + size])
        start += size
    return tables


def _seat_order(table: Sequence[str], rng: random.Random) -> list[str]:
    """A table's seats (its first dealer first): drawn, so nobody deals first by their name."""
    seats = list(table)
    rng.shuffle(seats)
    return seats


def affine_rounds(players: Sequence[str], rounds: int) -> list[Round]:
    """The affine plane of prime order ``p`` (``len(players) == p²``): ``rounds`` (at most
    ``p + 1``) rounds of ``p`` tables of ``p`` in which no pair meets twice."""
    p = math.isqrt(len(players))
    if p * p != len(players) or p < 2 or any(p % d == 0 for d in range(2, math.isqrt(p) + 1)):
        raise PlanError(_("an affine plane seats a prime's square of players ({count} is not "
                          "one)").format(count=len(players)))
    if not 1 <= rounds <= p + 1:
        raise PlanError(_("an affine plane of order {p} has {most} rounds, not {rounds}").format(
            p=p, most=p + 1, rounds=rounds))
    point = {(x, y): players[x * p + y] for x in range(p) for y in range(p)}
    plan: list[Round] = []
    for slope in range(rounds):
        if slope < p:  # lines y = slope·x + c
            tables = [tuple(point[(x, (slope * x + c) % p)] for x in range(p)) for c in range(p)]
        else:  # the vertical lines x = c
            tables = [tuple(point[(c, y)] for y in range(p)) for c in range(p)]
        plan.append(tables)
    return plan


def plan_rounds(players: Sequence[str], sizes: Sequence[int], rounds: int, *, seed: int = 0,
                history: Sequence[Round] = (), steps: int = 20000,
                restarts: int = 4, seated: Optional[int] = None,
                apart: Sequence[tuple[str, str]] = ()) -> list[RoundPlan]:
    """Several known rounds planned together (a tournament's): every round seats everyone at
    tables of ``sizes``; the total of repeated meetings over the rounds (a pair meeting ``m``
    times in all counts ``m − 1``) is minimised jointly, which beats seating round by round
    (20 players at 4 tables over 3 rounds: 12 round by round, 8 together, where four pairs
    meet in every round). An exact design is
    used where one exists (tables of a prime ``p`` for ``p²`` players). With ``seated``, the
    larger tables' sit-outs go round (:data:`SIT_OUT`, weighed as in :func:`plan_round`); the
    ``apart`` pairs are kept apart in every round (:data:`APART` for each round together)."""
    players = list(players)
    kept = {pair(a, b) for a, b in apart}
    p = math.isqrt(len(players))
    if not history and len(set(sizes)) == 1 and sizes[0] == p and p * p == len(players) \
            and rounds <= p + 1 and all(p % d for d in range(2, math.isqrt(p) + 1)):
        design = affine_rounds(players, rounds)
        if not any(set(key) <= set(t) for key in kept for tables in design for t in tables):
            rng = random.Random(seed)
            return [RoundPlan([tuple(_seat_order(t, rng)) for t in tables], 0, 0)
                    for tables in design]
    rng = random.Random(seed)
    base = meetings(history)
    best: Optional[tuple[int, list[list[list[str]]]]] = None
    for _attempt in range(restarts):
        schedule = [_random_tables(players, sizes, rng) for _round in range(rounds)]
        count = dict(base)
        for tables in schedule:
            for table in tables:
                for a, b in combinations(table, 2):
                    key = pair(a, b)
                    count[key] = count.get(key, 0) + 1

        sits = sit_out_rounds([*history, *schedule], seated) if seated is not None else {}
        cost = (sum(_joint(m) for m in count.values()) + sum(map(_sits_joint, sits.values()))
                + sum(1000 * APART * (count.get(key, 0) - base.get(key, 0)) for key in kept))
        temperature = 2.0
        for _step in range(steps):
            if cost == 0 or len(sizes) < 2:
                break
            r = rng.randrange(rounds)
            i, j = rng.sample(range(len(sizes)), 2)
            tables = schedule[r]
            a, b = rng.randrange(len(tables[i])), rng.randrange(len(tables[j]))
            x, y = tables[i][a], tables[j][b]
            touched = _swap_change(tables, i, a, j, b)
            delta = 0
            for key, change in touched.items():
                old = count.get(key, 0)
                delta += _joint(old + change) - _joint(old)
                if key in kept:
                    delta += 1000 * APART * change
            moved = 0  # x to a larger table (+1) or from one (-1), and y the other way
            if seated is not None and (len(tables[i]) > seated) != (len(tables[j]) > seated):
                moved = 1 if len(tables[j]) > seated else -1
                delta += (_sits_joint(sits.get(x, 0) + moved) - _sits_joint(sits.get(x, 0))
                          + _sits_joint(sits.get(y, 0) - moved) - _sits_joint(sits.get(y, 0)))
            if delta <= 0 or rng.random() < math.exp(-delta / temperature):
                tables[i][a], tables[j][b] = y, x
                for key, change in touched.items():
                    count[key] = count.get(key, 0) + change
                if moved:
                    sits[x], sits[y] = sits.get(x, 0) + moved, sits.get(y, 0) - moved
                cost += delta
            temperature = max(0.05, temperature * 0.9995)
        if best is None or cost < best[0]:
            best = (cost, [[t[:] for t in tables] for tables in schedule])
    assert best is not None
    greedy, done = [], list(history)  # seated round by round: kept when the search did worse
    for number in range(rounds):
        greedy.append([list(t) for t in plan_round(players, sizes, done, seed=seed + number,
                                                  seated=seated, apart=apart).tables])
        done.append([tuple(t) for t in greedy[-1]])

    def worse(schedule: list[list[list[str]]]) -> tuple[int, int]:
        broken = sum(1 for tables in schedule for t in tables for key in kept if set(key) <= set(t))
        return broken, total_repeats([[tuple(t) for t in r] for r in schedule])

    if worse(greedy) < worse(best[1]):
        best = (0, greedy)
    plans, done = [], list(history)
    for tables in best[1]:
        placed = [tuple(_seat_order(t, rng)) for t in tables]
        plans.append(RoundPlan(placed, repeated_pairs(placed, done),
                               lower_bound(len(sizes), done, set(players)),
                               sorted(key for key in kept if any(set(key) <= set(t)
                                                                 for t in placed))))
        done.append(placed)
    return plans


def _swap_change(tables: Sequence[Sequence[str]], i: int, a: int, j: int,
                 b: int) -> dict[tuple[str, str], int]:
    """How swapping seat ``a`` of table ``i`` with seat ``b`` of table ``j`` changes each
    pair's meetings (-1: no longer together, +1: now together)."""
    x, y = tables[i][a], tables[j][b]
    touched: dict[tuple[str, str], int] = {}
    for other in tables[i]:
        if other != x:
            touched[pair(x, other)] = touched.get(pair(x, other), 0) - 1
            touched[pair(y, other)] = touched.get(pair(y, other), 0) + 1
    for other in tables[j]:
        if other != y:
            touched[pair(y, other)] = touched.get(pair(y, other), 0) - 1
            touched[pair(x, other)] = touched.get(pair(x, other), 0) + 1
    return touched


def _sits_joint(rounds: int) -> int:
    """A player's cost in a joint plan for sitting at a larger table in ``rounds`` rounds: as
    :data:`SIT_OUT` weighs each round by the square of those before, on :func:`_joint`'s
    scale."""
    return 1000 * SIT_OUT * sum(k * k for k in range(rounds))


def _joint(m: int) -> int:
    """A pair's cost in a joint plan: its repeated meetings (``m − 1``) decide; among plans
    with as many, the one that spreads them over more pairs (a smaller sum of squares)."""
    return 1000 * (m - 1) + (m - 1) * (m - 1) if m > 1 else 0


def total_repeats(rounds: Sequence[Round]) -> int:
    """Repeated meetings over a schedule: a pair meeting ``m`` times in all counts ``m − 1``."""
    return sum(m - 1 for m in meetings(rounds).values() if m > 1)
