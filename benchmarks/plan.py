"""Table plans: quality (repeated pairs against the proven lower bound) and time, for 10-60
players over 1-8 rounds, seated round by round (each round planned against the ones before)
and, where every round seats everyone at the same tables, planned together.

    python benchmarks/plan.py [--players 10,15,20,25,30,40,60] [--rounds 8] [--seed 1]

For each size: the tables, then per round the repeated pairs and the lower bound (round by
round), the total of repeated meetings (a pair meeting m times counts m - 1) both ways, and the
seconds the planning took; where a table seats six or seven (5마: hands sat out in turn), how
often each player sat at one (fewest-most, round by round and together).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mighty_cli.tournament.plan import (plan_round, plan_rounds, sit_out_rounds,  # noqa: E402
                                        table_sizes, total_repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="10,11,15,20,22,25,30,40,60")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'players':>7} {'tables':<16} {'rounds':>6}  {'repeats/bound by round':<40} "
          f"{'total':>5} {'joint':>5} {'s':>6} {'joint s':>7} {'sit-outs':>8}")
    for count in (int(n) for n in args.players.split(",")):
        players = [f"P{i:02d}" for i in range(count)]
        sizes = table_sizes(count, [5, 6, 7])
        for rounds in sorted({1, 2, 3, 4, args.rounds}):
            start = time.process_time()
            history, report = [], []
            for number in range(rounds):
                plan = plan_round(players, sizes, history, seed=args.seed + number, seated=5)
                history.append(plan.tables)
                report.append(f"{plan.repeated_pairs}/{plan.lower_bound}")
            by_round = time.process_time() - start
            start = time.process_time()
            joint = plan_rounds(players, sizes, rounds, seed=args.seed, seated=5)
            together = time.process_time() - start
            print(f"{count:>7} {'+'.join(map(str, sizes)):<16} {rounds:>6}  "
                  f"{' '.join(report):<40} {total_repeats(history):>5} "
                  f"{total_repeats([p.tables for p in joint]):>5} {by_round:>6.2f} "
                  f"{together:>7.2f} {_spread(players, history)}/"
                  f"{_spread(players, [p.tables for p in joint])}", flush=True)


def _spread(players, schedule) -> str:
    """Fewest-most rounds any player sat at a table of more than five ("-": none was)."""
    times = sit_out_rounds(schedule, 5)
    if not times:
        return "-"
    counts = [times.get(name, 0) for name in players]
    return f"{min(counts)}-{max(counts)}"


if __name__ == "__main__":
    main()
