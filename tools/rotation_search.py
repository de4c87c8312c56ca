"""Search a base round for a plan developed over Z6 (``mighty_cli.tournament.designs.Rotation``).

    python tools/rotation_search.py [--orbits 6,6,6,6,6,3,3,3,1] [--sizes 7,7,7,7,6,6]
                                    [--steps 400000] [--seeds 1-20]

The players fall in orbits (sizes dividing 6) under a rotation of order 6; the plan's six
rounds are the base round turned 0 to 5 times. The search anneals swaps of two players of two
tables of the base round, keeping the six turns' pair counts as it goes (a meeting beyond a
pair's second weighed 50 repeats, the temperature falling from 1.5 to 0.05 repeats), and prints
for each seed the plan's repeats and meetings beyond the second, and the base round (as
``designs.ROTATIONS`` writes it) when it has none beyond the second. For the 40 at
7+7+7+7+6+6, seeds 1-20 at 400,000 swaps (about 16 s a seed on one core) end at 72 (seed 13)
and 78 (seed 19), the others at 84 to 117 repeats, none meeting a pair a third time. Pure,
writes nothing.
"""

from __future__ import annotations

import argparse
import math
import random
from itertools import combinations

#: What one more meeting costs a pair that met ``m`` times (a repeat 1, beyond the second 50).
BEYOND = 50


def meeting_cost(m: int) -> int:
    return max(0, m - 1) + BEYOND * max(0, m - 2)


def search(orbits: list[int], sizes: list[int], steps: int, seed: int) -> tuple[int, list]:
    """The best base round one annealing run finds: (its cost, its tables of player numbers)."""
    rng = random.Random(seed)
    n = sum(orbits)
    starts = [sum(orbits[:o]) for o in range(len(orbits))]
    orbit_of = [(o, r) for o, size in enumerate(orbits) for r in range(size)]
    turned = [
        [starts[o] + (r + turn) % orbits[o] for o, r in orbit_of] for turn in range(6)
    ]  # turned[j][p]: player p after j turns
    order = list(range(n))
    rng.shuffle(order)
    tables, at = [], 0
    for size in sizes:
        tables.append(order[at : at + size])
        at += size
    table_of = {p: t for t, table in enumerate(tables) for p in table}
    met = [[0] * n for _ in range(n)]
    for turn in turned:
        for table in tables:
            for a, b in combinations(table, 2):
                met[turn[a]][turn[b]] += 1
                met[turn[b]][turn[a]] += 1
    costs = [meeting_cost(m) for m in range(8)]
    cost = sum(costs[met[a][b]] for a in range(n) for b in range(a + 1, n))
    best, kept = cost, [t[:] for t in tables]

    def exchange(a: int, b: int, x: int, y: int) -> int:
        """``a`` of table ``x`` and ``b`` of table ``y`` change places: the cost's change."""
        change = 0
        for turn in turned:
            ta, tb = turn[a], turn[b]
            for q, leaving, coming in [(q, ta, tb) for q in tables[x] if q != a] + [
                (q, tb, ta) for q in tables[y] if q != b
            ]:
                tq = turn[q]
                change += costs[met[leaving][tq] - 1] - costs[met[leaving][tq]]
                met[leaving][tq] -= 1
                met[tq][leaving] -= 1
                change += costs[met[coming][tq] + 1] - costs[met[coming][tq]]
                met[coming][tq] += 1
                met[tq][coming] += 1
        one, other = tables[x], tables[y]
        one[one.index(a)], other[other.index(b)] = b, a
        table_of[a], table_of[b] = y, x
        return change

    hot, cold = 1.5, 0.05
    for step in range(steps):
        temperature = hot * (cold / hot) ** (step / steps)
        a, b = rng.randrange(n), rng.randrange(n)
        x, y = table_of[a], table_of[b]
        if x == y:
            continue
        change = exchange(a, b, x, y)
        if change <= 0 or rng.random() < math.exp(-change / temperature):
            cost += change
            if cost < best:
                best, kept = cost, [t[:] for t in tables]
        else:
            exchange(b, a, x, y)  # back as they were
    return best, [[orbit_of[p] for p in sorted(table)] for table in kept]


def figures(orbits: list[int], base: list) -> tuple[int, int]:
    """The six turns' repeats and meetings beyond the second, counted afresh."""
    starts = [sum(orbits[:o]) for o in range(len(orbits))]
    met: dict[tuple[int, int], int] = {}
    for turn in range(6):
        for table in base:
            ids = sorted(starts[o] + (r + turn) % orbits[o] for o, r in table)
            for pair in combinations(ids, 2):
                met[pair] = met.get(pair, 0) + 1
    return sum(m - 1 for m in met.values()), sum(max(0, m - 2) for m in met.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--orbits", default="6,6,6,6,6,3,3,3,1")
    parser.add_argument("--sizes", default="7,7,7,7,6,6")
    parser.add_argument("--steps", type=int, default=400_000)
    parser.add_argument("--seeds", default="1-20")
    args = parser.parse_args()
    orbits = [int(s) for s in args.orbits.split(",")]
    sizes = [int(s) for s in args.sizes.split(",")]
    if sum(orbits) != sum(sizes) or any(6 % size for size in orbits):
        parser.error("the orbits (each dividing 6) must hold as many players as the tables")
    low, _, high = args.seeds.partition("-")
    for seed in range(int(low), int(high or low) + 1):
        _cost, base = search(orbits, sizes, args.steps, seed)
        repeats, beyond = figures(orbits, base)
        print(f"seed {seed}: {repeats} repeats, {beyond} meetings beyond the second", flush=True)
        if not beyond:
            print("    base=" + repr(tuple(tuple(table) for table in base)), flush=True)


if __name__ == "__main__":
    main()
