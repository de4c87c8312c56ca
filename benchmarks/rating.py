"""How well the hidden-partner rating ranks players of known strength, against score per hand.

    python benchmarks/rating.py [--seasons 20] [--hands 400] [--players 12]

Each season (``mighty_cli.skill_season``: a skill model, seeded) is replayed by the engine for
the scores, then rated (``mighty_cli.rating``). For each season it prints Spearman's rank
correlation between the true skills and (a) the rating, (b) score per hand; then the means
and how many seasons the rating ranked better.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mighty_cli.engine.records import replay  # noqa: E402
from mighty_cli.rating import RatedHand, rate, spearman  # noqa: E402
from mighty_cli.skill_season import skill_season  # noqa: E402


def evaluate(seed: int, hands: int, players: int) -> tuple[float, float, float]:
    """(rating ρ, score-per-hand ρ, conservative-rating ρ) for one simulated season."""
    names = [f"P{i:02d}" for i in range(players)]
    season = skill_season(names, hands, seed=seed)
    result = replay(season.record)
    score = {n: 0 for n in names}
    played = {n: 0 for n in names}
    rated = []
    for outcome in result.hands:
        for name, delta in outcome.deltas.items():
            score[name] += delta
        for name in outcome.players:
            played[name] += 1
        if outcome.status == "scored":
            rated.append(RatedHand(outcome.declarer, outcome.friend,
                                   [p for p in outcome.players
                                    if p not in (outcome.declarer, outcome.friend)],
                                   outcome.contract.number, outcome.taken))
    ratings = rate(rated)
    truth = [season.skills[n] for n in names]
    return (spearman(truth, [ratings.of(n).mean for n in names]),
            spearman(truth, [score[n] / max(1, played[n]) for n in names]),
            spearman(truth, [ratings.of(n).conservative for n in names]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seasons", type=int, default=20)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--players", type=int, default=12)
    args = parser.parse_args()
    start = time.perf_counter()
    print(f"{args.seasons} seasons of {args.hands} hands, {args.players} players each")
    print(f"{'season':>6} {'rating ρ':>9} {'score/hand ρ':>13} {'conservative ρ':>15}")
    rows = []
    for seed in range(1, args.seasons + 1):
        row = evaluate(seed, args.hands, args.players)
        rows.append(row)
        print(f"{seed:>6} {row[0]:>9.3f} {row[1]:>13.3f} {row[2]:>15.3f}", flush=True)
    mean = [statistics.fmean(r[i] for r in rows) for i in range(3)]
    better = sum(r[0] > r[1] for r in rows)
    ties = sum(r[0] == r[1] for r in rows)
    print(f"{'mean':>6} {mean[0]:>9.3f} {mean[1]:>13.3f} {mean[2]:>15.3f}")
    print(f"rating ranks better than score per hand in {better} of {len(rows)} seasons"
          f" ({ties} equal); {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
