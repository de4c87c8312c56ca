"""A design for a few players fewer, the others added one to a table. Pure.

``n`` players at tables of ``k`` and ``k + 1`` (26 at 6+5+5+5+5): the first ``n − e`` sit as a
design of :mod:`.designs` seats them at tables of ``k`` (25: the affine plane), and each of the
``e`` others joins one of its tables in every round, no two the same table. An added player's
repeats are the players his tables share (two tables of different rounds of the affine plane
share exactly one player; of the 30's or the 35's designs at most one). A depth-first search
picks the added players' tables so that no player is at three of one added player's tables (no
pair meets three times): first any within 40 repeats above the bound of the spread (every two
rounds share at least the pairs a round's tables spread over the other's must put together
again), then each time one with fewer than the last, until there is none, the bound is met or a
fixed number of tries is spent.

The plan it gives has the fewest repeats there are where it meets the bound (26-29 at 5마 up to
five rounds, 31 and 37-39 over six with none) and few elsewhere (32-34 over six: 6, 12, 20,
where the annealing of all six rounds left 21, 23, 35); the added players sit at the larger
tables every round, so :func:`..plan.plan_rounds` weighs it against the search by the whole
order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

from .designs import Table, in_size_order, planned_design, spread_bound


def extended_design(
    players: Sequence[str], sizes: Sequence[int], rounds: int
) -> list[list[Table]] | None:
    """``rounds`` rounds of ``players`` at tables of ``sizes`` (``k`` and ``k + 1``): a design
    for all but the last ``e`` (as many as there are tables of ``k + 1``), each of those added
    to one of its tables a round, their repeats as few as the search for their tables finds;
    None when there is no such design, or no pair three times or in every round cannot be had."""
    small = min(sizes) - (len(set(sizes)) == 1)  # tables all of one size: each one added to
    added = sum(size == small + 1 for size in sizes)
    if rounds < 2 or not added or any(size not in (small, small + 1) for size in sizes):
        return None
    base = planned_design(players[:-added], [small] * len(sizes), rounds)
    if base is None:
        return None
    repeats = sum(m - 1 for m in _meetings(base).values())
    least = max(0, math.comb(rounds, 2) * spread_pairs(sizes) - repeats)
    tries, budget, chosen = [TRIES], least + SLACK, None
    while budget >= least:  # a plan within the budget, then one repeat fewer than it has
        found = _tables_for(base, added, budget, tries)
        if found is None:
            break
        chosen, cost = found
        budget = cost - 1
    if chosen is None:
        return None
    tables = [[list(t) for t in round_tables] for round_tables in base]
    for name, choice in zip(players[-added:], chosen):
        for number, t in enumerate(choice):
            tables[number][t].append(name)
    plan = [[tuple(t) for t in round_tables] for round_tables in tables]
    if not _fair(plan, rounds):
        return None
    return [in_size_order(round_tables, sizes) for round_tables in plan]


#: The most choices the searches for the added players' tables try in all (a tenth of a
#: second at most), and the most repeats above the bound the first of them allows.
TRIES = 60_000
SLACK = 40


def _tables_for(
    base: list[list[Table]], added: int, budget: int, tries: list[int]
) -> tuple[list[list[int]], int] | None:
    """For each of ``added`` players one table a round, no two the same table, no player of
    the design at three of one added player's tables, the players his tables share (his
    repeats) at most ``budget`` in all: a depth-first search, one added player's rounds after
    another. The tables and their repeats; None when there are none (or the ``tries`` left
    are spent: counted down)."""
    rounds = len(base)
    taken: list[set[int]] = [set() for _ in range(rounds)]
    met: list[dict[str, int]] = [{} for _ in range(added)]
    chosen: list[list[int]] = [[] for _ in range(added)]
    spent = [0]

    def visit(slot: int, left: int) -> bool:
        if slot == added * rounds:
            spent[0] = budget - left
            return True
        player, number = divmod(slot, rounds)
        seen = met[player]
        for t, table in enumerate(base[number]):
            tries[0] -= 1
            if tries[0] < 0:
                return False
            if t in taken[number] or any(seen.get(p, 0) >= 2 for p in table):
                continue
            again = sum(seen.get(p, 0) for p in table)
            if again > left:
                continue
            for p in table:
                seen[p] = seen.get(p, 0) + 1
            taken[number].add(t)
            chosen[player].append(t)
            if visit(slot + 1, left - again):
                return True
            chosen[player].pop()
            taken[number].discard(t)
            for p in table:
                seen[p] -= 1
        return False

    return (chosen, spent[0]) if visit(0, budget) else None


def _meetings(plan: list[list[Table]]) -> dict[tuple[str, str], int]:
    """How often each pair that meets meets over the plan's rounds."""
    met: dict[tuple[str, str], int] = {}
    for round_tables in plan:
        for table in round_tables:
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return met


def spread_pairs(sizes: Sequence[int]) -> int:
    """The fewest pairs two rounds of tables of ``sizes`` share: each table of one spread over
    the other's tables as evenly as can be."""
    return spread_bound([range(size) for size in sizes], len(sizes))


def _fair(plan: list[list[Table]], rounds: int) -> bool:
    """Whether no pair meets three times, or in every round (three rounds or more)."""
    return not any(m > 2 or (rounds > 2 and m == rounds) for m in _meetings(plan).values())
