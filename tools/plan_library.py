"""Plan the library's shapes (``mighty_cli/tournament/plan_library.txt``) and keep the best.

    python tools/plan_library.py [--tables 4,5,6,7,8] [--players 8-40] [--rounds 2-6]
                                 [--seeds 0-7] [--scale 1] [--jobs 2]

For each shape (the ruleset's table, 4 to 8, with up to two more sitting out; every count of
players from two tables to 40 the tables seat; the rounds planned together) that has no exact design, the whole
planning (``plan_rounds`` without the library: designs with players added, the search at
``--scale`` times the budget a round start has) under each seed of ``--seeds``; the best plan
by the plan's order is written into the library where it is better than the one there (a line
no run improves is kept as it was). Prints a line per shape: the figures kept, the seeds'
best and worst, the CPU seconds. The library as committed: seeds 0-7 at scale 1 for every
shape (51 minutes of CPU for 5마-7마, 25 for 4마 and 8마); none was worse than the
independent search's (``benchmarks/plan.py``, 5마-7마).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mighty_cli.tournament.designs import PlanError, planned_design
from mighty_cli.tournament.plan import plan_rounds, search_steps, table_sizes
from mighty_cli.tournament.plan_library import (
    LIBRARY,
    Shape,
    figures,
    format_line,
    parse_line,
    shape,
    shape_text,
)

HEADER = """\
# The plan library (mighty_cli/tournament/plan_library.py): for each shape, the best plan
# tools/plan_library.py found. A line: the ruleset's table, players=tables, xrounds |
# every-round pairs, meetings beyond the second, repeats, their squares, the sit-outs'
# squares | each round, a digit per player (players 0 to n-1): his table, largest first.
"""


def span(text: str) -> list[int]:
    """``10-40`` or ``5,6,7`` as numbers."""
    numbers: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        numbers.extend(range(int(low), int(high or low) + 1))
    return numbers


def shapes(tables: list[int], players: list[int], rounds: list[int]) -> list[Shape]:
    """The shapes asked for that no exact design seats."""
    found = []
    for seated in tables:
        for count in players:
            if count < 2 * seated:  # one table: nothing to plan
                continue
            try:
                sizes = table_sizes(count, range(seated, seated + 3))
            except PlanError:
                continue
            names = [str(i) for i in range(count)]
            for number in rounds:
                if number >= 2 and planned_design(names, sizes, number) is None:
                    found.append(shape(seated, sizes, number))
    return found


def best_plan(key: Shape, seeds: list[int], scale: float) -> tuple[list[int], str, list, float]:
    """The best plan of the seeds' runs for the shape: its figures, its line, every run's
    figures and the CPU seconds."""
    seated, sizes, rounds = key
    count = sum(sizes)
    names = [f"{i:02d}" for i in range(count)]
    steps = round(search_steps(count, rounds) * scale)
    started = time.process_time()
    runs = []
    for seed in seeds:
        plans = plan_rounds(
            names, list(sizes), rounds, seed=seed, seated=seated, steps=steps, library=False
        )
        schedule = [
            [sorted(int(p) for p in t) for t in sorted(plan.tables, key=len, reverse=True)]
            for plan in plans
        ]
        runs.append((figures(schedule, seated), schedule))
    best = min(runs, key=lambda run: run[0])
    return best[0], format_line(key, best[1]), [r[0] for r in runs], time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", default="4,5,6,7,8")
    parser.add_argument("--players", default="8-40")
    parser.add_argument("--rounds", default="2-6")
    parser.add_argument("--seeds", default="0-7")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    kept: dict[Shape, str] = {}
    if LIBRARY.exists():
        for line in LIBRARY.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                kept[parse_line(line)[0]] = line
    todo = shapes(span(args.tables), span(args.players), span(args.rounds))
    seeds = span(args.seeds)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(best_plan, key, seeds, args.scale) for key in todo]
        for key, future in zip(todo, futures):
            _found, line, runs, seconds = future.result()
            better = keep_better(kept, line)
            print(
                f"{shape_text(key):<24} kept {parse_line(kept[key])[1]}"
                f"{'  (new)' if better else ''}  runs {min(runs)}..{max(runs)}  {seconds:.1f} s",
                flush=True,
            )
            write(kept, LIBRARY)  # after every shape: a stopped run keeps what it found


def keep_better(kept: dict[Shape, str], line: str) -> bool:
    """``line`` kept for its shape where the library has none or a worse plan (by the
    figures, first first); whether it was."""
    key, found, _plan = parse_line(line)
    if key in kept and parse_line(kept[key])[1] <= found:
        return False
    kept[key] = line
    return True


def write(kept: dict[Shape, str], path: Path) -> None:
    """The library written, its shapes in order."""
    lines = [kept[key] for key in sorted(kept, key=lambda k: (k[0] or 0, sum(k[1]), k[1], k[2]))]
    path.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
