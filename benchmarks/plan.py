"""Table plans against an independent search: tournaments of 10-40 players planned together
over 2-6 rounds (``round start --rounds R``), at 5마 (tables of 5, and 6 or 7 sitting hands
out) and at tables of 6 and of 7 (6마, 7마), each plan measured by the plan's order of rules.

    python benchmarks/plan.py [--players 10,11,15] [--rounds 2,3,4,5,6] [--tables 5,6,7]
                              [--reference] [--reference-steps 1000000] [--restarts 4]
                              [--search] [--seed 1]

What a fresh tournament gets (the library's plan where it has the shape,
``mighty_cli/tournament/plan_library.py``), or with ``--search`` what the search finds at a
round start's budget (as for players who have met: later rounds, a league's history).

For each case: the tables; the tool's plan (pairs together in every round, the most meetings
of a pair, meetings beyond a pair's second, repeated meetings, the sit-outs' spread fewest-most,
CPU and wall seconds); the same for the reference; "=" where the two are alike by the order
(every round, beyond the second, repeats), "better" or "WORSE" otherwise; and the arithmetic's
lower bounds (repeats: the earlier round's tables spread over the next round's, the count of
meetings against the pairs there are, each player's meetings against the others; beyond the
second: the same against two meetings a pair; and the repeats of a plan with no meeting beyond
the second: every two rounds share at least the spread's pairs, C(R, 2) times it, which the
designs for 15, 24 and 28 players meet).

The reference is a plain simulated annealing written here, apart from the package (its own
pair counts, its own scoring, its own loop): random seatings, swaps of two players of two
tables of one round, the order's rules weighed 1000 (every round), 100 (beyond the second), 1
(a repeat), 1/1000 (squares) and 1/10⁶ (sit-outs), the temperature falling from 3 to 0.02
repeats, the best plan by the order kept; ``--restarts`` runs of ``--reference-steps`` swaps
per player and round (200,000 to 1,500,000 a run: several times the tool's swaps),
stopping early where it reaches the bounds. It takes about an hour and a half of CPU for the 420
cases (more on a shared machine): its results are kept in ``benchmarks/plan_reference.json`` and
read from there unless ``--reference`` asks for them again (the file says the budget used).
The tool's plans take half a second for all (the library's and the designs'); with ``--search``,
about seven minutes of CPU.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mighty_cli.tournament.designs import PlanError
from mighty_cli.tournament.plan import plan_facts, plan_rounds, spread_bound, table_sizes

KEPT = Path(__file__).with_name("plan_reference.json")
#: The tables each kind of table plays (the ruleset's table.players, and up to two more
#: sitting out in turn), and the players measured at each: every count up to 40 from the
#: fewest two tables seat (a count its tables cannot seat, 17 at 6마, is skipped).
KINDS = {5: list(range(10, 41)), 6: list(range(12, 41)), 7: list(range(14, 41))}


def measure(schedule, seated: int, players: list[str]) -> dict:
    """A plan's figures by the order (its own count, not the package's)."""
    met: dict = {}
    sat = dict.fromkeys(players, 0)
    for tables in schedule:
        for table in tables:
            for a, b in combinations(sorted(table), 2):
                met[a, b] = met.get((a, b), 0) + 1
            if len(table) > seated:
                for name in table:
                    sat[name] += 1
    rounds = len(schedule)
    return {
        "every": sum(1 for m in met.values() if rounds >= 2 and m == rounds),
        "beyond": sum(max(0, m - 2) for m in met.values()),
        "repeats": sum(m - 1 for m in met.values()),
        "squares": sum((m - 1) ** 2 for m in met.values()),
        "most": max(met.values(), default=0),
        "sit": [min(sat.values()), max(sat.values())],
        "sit_squares": sum(s * s for s in sat.values()),
    }


#: The order's rules as :func:`order_key` lists them.
RULES = ("every", "beyond", "repeats", "squares", "sit")


def order_key(figures: dict) -> tuple:
    return (
        figures["every"],
        figures["beyond"],
        figures["repeats"],
        figures["squares"],
        figures["sit_squares"],
    )


def reference(
    count: int, sizes: list[int], rounds: int, seated: int, steps: int, restarts: int, seed: int = 1
) -> dict:
    """The independent search's best plan (see the module's docstring); it stops early on
    reaching the arithmetic's bounds."""
    n = count
    floor = bounds(count, sizes, rounds)
    enough = (floor["repeats"] if rounds == 2 else 0, floor["beyond"], floor["repeats"])
    large = [size > seated for size in sizes]
    best_key, best_schedule = None, None
    for attempt in range(restarts):
        rng = random.Random(seed * 1000 + attempt)
        schedule = []
        for _round in range(rounds):
            order = list(range(n))
            rng.shuffle(order)
            tables, start = [], 0
            for size in sizes:
                tables.append(order[start : start + size])
                start += size
            schedule.append(tables)
        met = [[0] * n for _ in range(n)]
        sat = [0] * n
        for tables in schedule:
            for t, table in enumerate(tables):
                for a, b in combinations(table, 2):
                    met[a][b] += 1
                    met[b][a] += 1
                for p in table:
                    sat[p] += large[t]

        def weight(m: int) -> float:
            return (
                (1000 if rounds >= 2 and m == rounds else 0)
                + 100 * max(0, m - 2)
                + max(0, m - 1)
                + 0.001 * max(0, m - 1) ** 2
            )

        weights = [weight(m) for m in range(rounds + 2)]

        def key(met: list = met, sat: list = sat) -> tuple:
            figures = [0, 0, 0, 0]
            for a in range(n):
                for b in range(a + 1, n):
                    m = met[a][b]
                    figures[0] += rounds >= 2 and m == rounds
                    figures[1] += max(0, m - 2)
                    figures[2] += max(0, m - 1)
                    figures[3] += max(0, m - 1) ** 2
            return (*figures, sum(s * s for s in sat))

        score = sum(weights[met[a][b]] for a in range(n) for b in range(a + 1, n)) + 1e-6 * sum(
            s * s for s in sat
        )
        lowest = score
        found = key()
        kept = [[t[:] for t in tables] for tables in schedule]
        temperature, coldest = 3.0, 0.02
        decay = (coldest / temperature) ** (1 / steps)
        for _step in range(steps):
            temperature *= decay
            tables = schedule[rng.randrange(rounds)]
            a, b = rng.sample(range(len(tables)), 2)
            i, j = rng.randrange(len(tables[a])), rng.randrange(len(tables[b]))
            x, y = tables[a][i], tables[b][j]
            change = 0.0
            for z in tables[a]:
                if z != x:
                    change += (
                        weights[met[y][z] + 1]
                        - weights[met[y][z]]
                        + weights[met[x][z] - 1]
                        - weights[met[x][z]]
                    )
            for z in tables[b]:
                if z != y:
                    change += (
                        weights[met[x][z] + 1]
                        - weights[met[x][z]]
                        + weights[met[y][z] - 1]
                        - weights[met[y][z]]
                    )
            if large[a] != large[b]:
                to = 1 if large[b] else -1
                change += 1e-6 * (
                    (sat[x] + to) ** 2 - sat[x] ** 2 + (sat[y] - to) ** 2 - sat[y] ** 2
                )
            if change > 0 and rng.random() >= math.exp(-change / temperature):
                continue
            for z in tables[a]:
                if z != x:
                    met[x][z] -= 1
                    met[z][x] -= 1
                    met[y][z] += 1
                    met[z][y] += 1
            for z in tables[b]:
                if z != y:
                    met[y][z] -= 1
                    met[z][y] -= 1
                    met[x][z] += 1
                    met[z][x] += 1
            if large[a] != large[b]:
                sat[x] += to
                sat[y] -= to
            tables[a][i], tables[b][j] = y, x
            score += change
            if score < lowest - 1e-9:
                lowest = score
                now = key()
                if now < found:
                    found, kept = now, [[t[:] for t in tables_] for tables_ in schedule]
                    if found[:3] <= enough:
                        break
        if best_key is None or found < best_key:
            best_key, best_schedule = found, kept
        if best_key[:3] <= enough:
            break
    players = [f"P{i:02d}" for i in range(n)]
    named = [[tuple(players[p] for p in table) for table in tables] for tables in best_schedule]
    return measure(named, seated, players)


def bounds(count: int, sizes: list[int], rounds: int) -> dict:
    """The arithmetic's lower bounds on the repeats, on the meetings beyond a second, and on
    the repeats of a plan with no meeting beyond the second."""
    pairs = math.comb(count, 2)
    meetings = rounds * sum(math.comb(size, 2) for size in sizes)
    tables = [
        tuple(range(start, start + size))
        for start, size in zip([sum(sizes[:k]) for k in range(len(sizes))], sizes)
    ]
    least = rounds * (min(sizes) - 1)  # the fewest meetings of one player over the rounds
    return {
        "repeats": max(
            (rounds - 1) * spread_bound(tables, len(sizes)),
            meetings - pairs,
            math.ceil(count * max(0, least - (count - 1)) / 2),
        ),
        "beyond": max(
            0, meetings - 2 * pairs, math.ceil(count * max(0, least - 2 * (count - 1)) / 2)
        ),
        # a plan meeting no pair three times: every two rounds share their spread's pairs, each
        # pair shared by two rounds a repeat of its own
        "twice": math.comb(rounds, 2) * spread_bound(tables, len(sizes)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--players", default=None, help="players (comma-separated; default: each kind's list)"
    )
    parser.add_argument("--rounds", default="2,3,4,5,6")
    parser.add_argument("--tables", default="5,6,7", help="the rulesets' tables: 5, 6, 7")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--reference",
        action="store_true",
        help="run the reference search again (minutes) and keep its results",
    )
    parser.add_argument(
        "--reference-steps",
        type=int,
        default=5000,
        help="the reference's swaps per player and round planned, each run "
        "(at least 200,000, at most 1,500,000)",
    )
    parser.add_argument("--restarts", type=int, default=4)
    parser.add_argument(
        "--search",
        action="store_true",
        help="plan without the library (mighty_cli/tournament/plan_library.txt): the search "
        "at a round start's budget, as for a tournament whose players have met",
    )
    args = parser.parse_args()
    kept = json.loads(KEPT.read_text(encoding="utf-8")) if KEPT.exists() else {}
    cases = kept.setdefault("cases", {})
    print(
        f"{'case':<20} {'tool: every most >2 rep sit':<29} {'cpu s':>6} {'wall s':>6}  "
        f"{'reference: every most >2 rep':<29} {'':>6}  {'bounds: rep >2 rep if none >2':<30}"
    )
    worse = cpu_most = wall_most = 0.0
    tally: dict[int, dict[str, int]] = {}
    for seated in (int(t) for t in args.tables.split(",")):
        counts = [int(c) for c in args.players.split(",")] if args.players else KINDS[seated]
        for count in counts:
            try:
                sizes = table_sizes(count, range(seated, seated + 3))
            except PlanError:  # no split of them at this ruleset's tables (17 at 6마)
                continue
            for rounds in (int(r) for r in args.rounds.split(",")):
                players = [f"P{i:02d}" for i in range(count)]
                wall, cpu = time.perf_counter(), time.process_time()
                plans = plan_rounds(
                    players, sizes, rounds, seed=args.seed, seated=seated, library=not args.search
                )
                cpu = time.process_time() - cpu
                wall = time.perf_counter() - wall
                cpu_most = max(cpu_most, cpu)
                wall_most = max(wall_most, wall)
                tool = measure([p.tables for p in plans], seated, players)
                facts = plan_facts([], [p.tables for p in plans], seated)
                assert (facts.repeats, facts.most_meetings, len(facts.every_round)) == (
                    tool["repeats"],
                    tool["most"],
                    tool["every"],
                )  # the package agrees
                name = f"{count}={'+'.join(map(str, sizes))} x{rounds}"
                key = f"{seated}: {name}"  # the same tables sit hands out at 6마, not at 7마
                if args.reference or key not in cases:
                    started = time.process_time()
                    steps = min(1_500_000, max(200_000, args.reference_steps * count * rounds))
                    cases[key] = reference(
                        count, sizes, rounds, seated, steps, args.restarts, args.seed
                    )
                    cases[key]["cpu"] = round(time.process_time() - started, 1)
                    kept["budget"] = {
                        "steps_per_player_round": args.reference_steps,
                        "restarts": args.restarts,
                    }
                    KEPT.write_text(
                        json.dumps(kept, indent=1, sort_keys=True) + "\n", encoding="utf-8"
                    )
                ref = cases[key]
                order, theirs = order_key(tool), order_key(ref)
                verdict = "=" if order == theirs else "better" if order < theirs else "WORSE"
                worse += verdict == "WORSE"
                tally.setdefault(rounds, {"=": 0, "better": 0, "WORSE": 0})[verdict] += 1
                if verdict != "=":  # the rule that tells them apart
                    verdict += (
                        ":"
                        + RULES[next(k for k, (x, y) in enumerate(zip(order, theirs)) if x != y)]
                    )
                bound = bounds(count, sizes, rounds)
                sit = "-" if tool["sit"] == [0, 0] else "{}-{}".format(*tool["sit"])
                print(
                    f"{name:<20} {tool['every']:>5} {tool['most']:>4} {tool['beyond']:>3} "
                    f"{tool['repeats']:>4} {sit:>5}      {cpu:>6.2f} {wall:>6.2f}  "
                    f"{ref['every']:>10} {ref['most']:>4} {ref['beyond']:>3} "
                    f"{ref['repeats']:>4}  {verdict:<13} {bound['repeats']:>4} "
                    f"{bound['beyond']:>3} {bound['twice']:>15}",
                    flush=True,
                )
    print()
    for rounds, counts in sorted(tally.items()):
        print(
            f"{rounds} rounds: {counts['=']} equal, {counts['better']} better, "
            f"{counts['WORSE']} worse"
        )
    print(
        f"worse than the reference: {worse:.0f}; the slowest plan: {cpu_most:.2f} s CPU, "
        f"{wall_most:.2f} s wall"
    )


if __name__ == "__main__":
    main()
