"""A design for a few players fewer, the others added one to a table. Pure.

``n`` players at tables of ``k`` and ``k + 1`` (26 at 6+5+5+5+5): the first ``n − e`` sit as a
design of :mod:`.designs` seats them at tables of ``k`` (25: the affine plane), and each of the
``e`` others joins one of its tables in every round, no two the same table. An added player's
repeats are the players his tables share: two tables of different rounds of the affine plane
share exactly one player, so he repeats at least 15 meetings over six rounds; the search here
picks his tables so that no player is at three of them (no pair meets three times) and they
share as few players as they can.

Used only where the plan it gives is the best any plan can be by the first rules of the order:
no pair together in every round, none three times, and the repeats at the bound of the spread
(every two rounds share at least the pairs a round's tables spread over the other's must put
together again): 26 to 29 players over six rounds at 5마, 15 to 60 repeats, where the search
left 20 to 28 more or less.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

from .designs import Table, in_size_order, planned_design


def extended_design(
    players: Sequence[str], sizes: Sequence[int], rounds: int
) -> list[list[Table]] | None:
    """``rounds`` rounds of ``players`` at tables of ``sizes`` (``k`` and ``k + 1``): a design
    for all but the last ``e`` (as many as there are tables of ``k + 1``), each of those added
    to one of its tables a round; None unless the plan meets the bound (:func:`spread_pairs`)
    with no pair three times or in every round."""
    small = min(sizes) - (len(set(sizes)) == 1)  # tables all of one size: each one added to
    added = sum(size == small + 1 for size in sizes)
    if rounds < 2 or not added or any(size not in (small, small + 1) for size in sizes):
        return None
    base = planned_design(players[:-added], [small] * len(sizes), rounds)
    if base is None:
        return None
    budget = math.comb(rounds, 2) * spread_pairs(sizes) - _repeats(base)
    chosen = _tables_for(base, added, budget)
    if chosen is None:
        return None
    tables = [[list(t) for t in round_tables] for round_tables in base]
    for name, choice in zip(players[-added:], chosen):
        for number, t in enumerate(choice):
            tables[number][t].append(name)
    plan = [[tuple(t) for t in round_tables] for round_tables in tables]
    if not _at_the_bound(plan, sizes, rounds):
        return None
    return [in_size_order(round_tables, sizes) for round_tables in plan]


#: The most choices :func:`_tables_for` tries before it gives up (a few tenths of a second).
TRIES = 100_000


def _tables_for(base: list[list[Table]], added: int, budget: int) -> list[list[int]] | None:
    """For each of ``added`` players one table a round, no two the same table, no player of
    the design at three of one added player's tables, the players his tables share (his
    repeats) at most ``budget`` in all: a depth-first search, one added player's rounds after
    another; None when there is none (or :data:`TRIES` are spent)."""
    rounds = len(base)
    taken: list[set[int]] = [set() for _ in range(rounds)]
    met: list[dict[str, int]] = [{} for _ in range(added)]
    chosen: list[list[int]] = [[] for _ in range(added)]
    tries = 0

    def visit(slot: int, left: int) -> bool:
        nonlocal tries
        if slot == added * rounds:
            return True
        player, number = divmod(slot, rounds)
        seen = met[player]
        for t, table in enumerate(base[number]):
            tries += 1
            if tries > TRIES:
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

    return chosen if visit(0, budget) else None


def _repeats(plan: list[list[Table]]) -> int:
    met: dict[tuple[str, str], int] = {}
    for round_tables in plan:
        for table in round_tables:
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(m - 1 for m in met.values())


def spread_pairs(sizes: Sequence[int]) -> int:
    """The fewest pairs two rounds of tables of ``sizes`` share: each table of one spread over
    the other's tables as evenly as can be."""
    count = len(sizes)
    total = 0
    for size in sizes:
        q, r = divmod(size, count)
        total += r * math.comb(q + 1, 2) + (count - r) * math.comb(q, 2)
    return total


def _at_the_bound(plan: list[list[Table]], sizes: Sequence[int], rounds: int) -> bool:
    """Whether no pair meets three times or in every round, and the repeats are
    C(rounds, 2) times :func:`spread_pairs`: the fewest of any plan with no pair three times."""
    met: dict[tuple[str, str], int] = {}
    for round_tables in plan:
        for table in round_tables:
            for pair in combinations(sorted(table), 2):
                met[pair] = met.get(pair, 0) + 1
    if any(m > 2 or (rounds > 2 and m == rounds) for m in met.values()):
        return False
    return sum(m - 1 for m in met.values()) == math.comb(rounds, 2) * spread_pairs(sizes)
