"""League at scale: import 100,000 recorded hands, then time standings and the HTML page.

    python benchmarks/league.py [--hands 100000] [--db URL]

Outcomes come from a seeded RNG (six players in 5-player sessions of 50 hands, a few deal
misses); the import goes through the same code as ``mighty import`` (replay, then bulk
inserts). Targets at 100,000 hands: standings < 2 s, page < 2 s, import < 30 s, peak memory
< 300 MB (peak is the process's maximum resident set size).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mighty_cli.engine.record import Record  # noqa: E402
from mighty_cli.engine.ruleset import load_ruleset  # noqa: E402
from mighty_cli.store import services  # noqa: E402
from mighty_cli.store.db import make_engine, transaction  # noqa: E402
from mighty_cli.engine.session import PreviousHand, propose  # noqa: E402

PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "김철수"]


def season(count: int, seed: int = 1) -> Record:
    """A record of ``count`` plausible recorded hands."""
    rng = random.Random(seed)
    rules = load_ruleset("club-requirements")
    hands = []
    session = 0
    previous = None
    seats: list[str] = []
    for index in range(count):
        if index % 50 == 0:
            session += 1
            seats = rng.sample(PLAYERS, 5)
            previous = None
        proposal = propose(rules, seats, previous)
        base = {"session": session, "players": list(proposal.players), "dealer": proposal.dealer}
        if rng.random() < 0.03:
            miss = rng.choice(proposal.players)
            hands.append(base | {"deal_miss": miss})
            previous = PreviousHand("deal_miss", proposal.players, proposal.dealer, deal_miss=miss)
            continue
        declarer = rng.choice(proposal.players)
        bid = rng.choice((13, 13, 14, 14, 15, 16, 17, 18, 20))
        friend = None if rng.random() < 0.1 else rng.choice(
            [p for p in proposal.players if p != declarer])
        taken = max(0, min(20, bid + rng.choice((-5, -2, -1, 0, 0, 1, 2, 3, 7))))
        hands.append(base | {"declarer": declarer, "contract": f"{bid}{rng.choice('SDHC')}",
                             "friend": friend or "none", "taken": taken})
        previous = PreviousHand("scored", proposal.players, proposal.dealer, declarer, friend,
                                taken >= bid)
    return Record(ruleset="club-requirements", players=PLAYERS, hands=hands)


def timed(label: str, function):
    start = time.perf_counter()
    result = function()
    print(f"{label:<28} {time.perf_counter() - start:7.2f} s", flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory()
    url = args.db or f"sqlite:///{Path(folder.name) / 'bench.db'}"
    engine = make_engine(url)
    record = timed(f"generate {args.hands} hands", lambda: season(args.hands))

    def run(function, *a, **k):
        with transaction(engine) as s:
            return function(s, *a, **k)

    run(services.create_league, "bench", "club-requirements")
    timed("import (replay + insert)", lambda: run(services.import_record, "bench", record))
    table = timed("standings", lambda: run(services.standings, "bench"))

    def page():
        from mighty_cli.render.html import render_league_page

        return render_league_page(run(services.league_page, "bench"))

    html = timed("HTML page", page)
    timed("amend hand 1 (+ resettle)", lambda: run(services.amend_hand, "bench", 1, who="bench",
                                                    why="benchmark", note="amended"))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'peak memory (max RSS)':<28} {peak:7.0f} MB")
    print(f"{len(table.rows)} players, page {len(html) / 1024:.0f} KB")
    engine.dispose()


if __name__ == "__main__":
    main()
