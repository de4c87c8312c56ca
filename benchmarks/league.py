"""League at scale: import a season file, then standings, a correction, export in every
format, a backup and its restore, and replay, each timed with its peak memory.

    python benchmarks/league.py [--hands 100000] [--db URL] [--phases import,standings,...]
                                [--full-hands 2000]

Outcomes come from a seeded RNG (six players in 5-player sessions of 50 hands, a few deal
misses), written as a hand-record file hand by hand; the import reads that file as ``mighty
import`` does (streamed parse, replay, bulk inserts: :mod:`mighty_cli.store.interchange.bulk`). Each
phase runs in its own process, so "peak" is that phase's maximum resident set size. On a shared
machine wall time grows with the load average (printed before and after), so each phase also
prints its own CPU time ("cpu s") and its PostgreSQL backends' ("db cpu s", when the server is
local). ``backup`` writes the whole store as ``mighty backup`` does; ``restore`` restores that
file into a new SQLite file, every row and every hand checked (:mod:`mighty_cli.store.
restore_checks`). ``replay`` replays ``--full-hands`` random card-by-card hands from a record
file (parse included).

Targets (issue 12), at 1M hands on SQLite and PostgreSQL: import <= 60 µs per hand and
<= 300 MB; export <= 30 s in every format with flat memory; amend <= 1 s at any size;
standings <= 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "김철수"]
BLOCK = 10_000
PHASES = (
    "import",
    "standings",
    "page",
    "amend",
    "export-toml",
    "export-json",
    "export-csv",
    "backup",
    "restore",
    "replay",
)


def season(count: int, seed: int = 1):
    """``count`` plausible recorded hands, one at a time."""
    from mighty_cli.engine.ruleset import load_ruleset
    from mighty_cli.engine.session import PreviousHand, propose

    rng = random.Random(seed)
    rules = load_ruleset("club-requirements")
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
            yield base | {"deal_miss": miss}
            previous = PreviousHand("deal_miss", proposal.players, proposal.dealer, deal_miss=miss)
            continue
        declarer = rng.choice(proposal.players)
        bid = rng.choice((13, 13, 14, 14, 15, 16, 17, 18, 20))
        friend = (
            None
            if rng.random() < 0.1
            else rng.choice([p for p in proposal.players if p != declarer])
        )
        taken = max(0, min(20, bid + rng.choice((-5, -2, -1, 0, 0, 1, 2, 3, 7))))
        yield base | {
            "declarer": declarer,
            "contract": f"{bid}{rng.choice('SDHC')}",
            "friend": friend or "none",
            "taken": taken,
        }
        previous = PreviousHand(
            "scored", proposal.players, proposal.dealer, declarer, friend, taken >= bid
        )


def write_season(path: Path, count: int) -> None:
    import tomli_w

    from mighty_cli.store.interchange.export_text import toml_hand

    block = list(season(min(count, BLOCK)))  # a season of any size repeats one block
    sessions = block[-1]["session"]
    with open(path, "w", encoding="utf-8") as out:
        out.write(
            tomli_w.dumps(
                {
                    "format": "mighty-hand-record/1",
                    "ruleset": "club-requirements",
                    "players": PLAYERS,
                }
            )
        )
        for start in range(0, count, len(block)):
            offset = start // len(block) * sessions
            out.write(
                "".join(
                    toml_hand(hand | {"session": hand["session"] + offset})
                    for hand in block[: count - start]
                )
            )


def write_full_hands(path: Path, count: int, seed: int = 7) -> None:
    """``count`` random legal hands played card by card, as a record file."""
    import tomli_w

    from mighty_cli.engine.hand import apply, deal_cards, new_hand, random_legal_action
    from mighty_cli.engine.records import state_to_hand
    from mighty_cli.engine.ruleset import load_ruleset

    rules = load_ruleset("standard")
    five = ("Ana", "Bo", "Cy", "Di", "Ed")
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        deal = deal_cards(seed + len(hands) + rng.randrange(10**6), five)
        state = new_hand(rules, five, five[0], deal)
        while state.phase not in ("done", "deal_miss", "redeal"):
            state = apply(state, random_legal_action(state, rng))
        if state.phase == "done":
            hand = state_to_hand(state, deal)
            hand["dealer"] = five[0]
            hand["session"] = len(hands) + 1  # each hand its own succession
            hands.append(hand)
    path.write_text(
        tomli_w.dumps(
            {
                "format": "mighty-hand-record/1",
                "ruleset": "standard",
                "players": list(five),
                "hands": hands,
            }
        ),
        encoding="utf-8",
    )


def phase(name: str, url: str, folder: Path, hands: int) -> dict:
    """One phase, in this process; returns its figures."""
    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.store.interchange.exports import write_export
    from mighty_cli.store.interchange.imports import import_record
    from mighty_cli.store.ledger.corrections import amend_hand
    from mighty_cli.store.ledger.hand_reads import show_hand
    from mighty_cli.store.ledger.league_page import league_page
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.ledger.queries import standings

    engine = make_engine(url)
    backends = _watch_backends(engine)

    def run(function, *a, **k):
        with transaction(engine) as s:
            return function(s, *a, **k)

    start = time.perf_counter()
    cpu_start = time.process_time()
    extra = ""
    if name == "import":
        from mighty_cli.store.interchange.formats import open_record

        run(create_league, "bench", "club-requirements")
        done = run(import_record, "bench", open_record(folder / "season.toml"))
        extra = f"{done.hands} hands"
    elif name == "standings":
        table = run(standings, "bench")
        extra = f"{len(table.rows)} players"
    elif name == "page":
        from mighty_cli.render.html import render_league_page

        html = render_league_page(run(league_page, "bench"))
        extra = f"{len(html) / 1024:.0f} KB"
    elif name == "amend":  # the first scored hand's points taken, changed by one
        number = 1
        while (hand := run(show_hand, "bench", number)).status != "scored":
            number += 1
        start = time.perf_counter()
        cpu_start = time.process_time()
        done = run(
            amend_hand,
            "bench",
            number,
            who="bench",
            why="benchmark",
            taken=hand.taken + 1 if hand.taken < 20 else 19,
        )
        extra = (
            f"hand {number}: {done.hands_resettled} resettled, {len(done.changes)} "
            f"standings lines moved"
        )
    elif name.startswith("export-"):
        fmt = name.split("-")[1]
        with transaction(engine) as s, open(folder / f"out.{fmt}", "w", encoding="utf-8") as out:
            size = write_export(s, "bench", fmt, out)
        extra = f"{size / 2**20:.0f} MB written"
    elif name == "backup":
        from mighty_cli.store.interchange.backup import iter_backup

        rows = -1  # the header is no row
        with transaction(engine) as s, open(folder / "backup.jsonl", "w", encoding="utf-8") as out:
            for text in iter_backup(s):
                out.write(text)
                rows += text.count("\n")
        extra = f"{rows} rows"
    elif name == "restore":
        from mighty_cli.store.interchange.backup import restore

        (folder / "restored.db").unlink(missing_ok=True)
        target = make_engine(f"sqlite:///{folder / 'restored.db'}")
        with transaction(target) as s, open(folder / "backup.jsonl", encoding="utf-8") as file:
            counts = restore(s, file, "backup.jsonl")
        target.dispose()
        extra = f"{sum(counts.values())} rows"
    elif name == "replay":
        from mighty_cli.engine.records import iter_replay
        from mighty_cli.engine.records.stream import stream_record

        count = sum(1 for _ in iter_replay(stream_record(folder / "full.toml")))
        elapsed = time.perf_counter() - start
        extra = f"{count} full hands, {count / elapsed:.0f} hands/s"
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    server = sum(_cpu_of(pid) for pid in backends)
    engine.dispose()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "phase": name,
        "seconds": elapsed,
        "cpu": cpu,
        "server_cpu": server,
        "per_hand_us": elapsed / hands * 1e6,
        "peak_mb": peak,
        "note": extra,
    }


def _watch_backends(engine) -> list[int]:
    """The process ids of the PostgreSQL backends this phase's connections use (when the
    server runs on this machine, their CPU time is read from /proc at the end)."""
    pids: list[int] = []
    if engine.dialect.name != "postgresql":
        return pids
    from sqlalchemy import event

    @event.listens_for(engine, "checkout")  # the pool may hold a connection made earlier
    def _checkout(dbapi_connection, _record, _proxy):
        pid = dbapi_connection.info.backend_pid
        if pid not in pids:
            pids.append(pid)

    return pids


def _cpu_of(pid: int) -> float:
    """User and system CPU seconds of a process on this machine (0 if it is not here)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument(
        "--db",
        default=None,
        help="database URL (default: a temporary SQLite file); its tables are emptied first",
    )
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--full-hands", type=int, default=2000)
    parser.add_argument(
        "--keep",
        action="store_true",
        help="keep the temporary folder (season file, SQLite database, exports)",
    )
    parser.add_argument(
        "--one", nargs=3, metavar=("PHASE", "URL", "FOLDER"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.one:
        print(json.dumps(phase(args.one[0], args.one[1], Path(args.one[2]), args.hands)))
        return
    folder = Path(tempfile.mkdtemp(prefix="mighty-bench-"))
    try:
        run_phases(args, folder)
    finally:  # a 1M run leaves ~1.3 GB there
        if args.keep:
            print(f"kept {folder}")
        else:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)


def run_phases(args: argparse.Namespace, folder: Path) -> None:
    """Write the season file into ``folder``, then run each phase in its own process."""
    url = args.db or f"sqlite:///{folder / 'bench.db'}"
    if args.db:
        from sqlmodel import SQLModel, create_engine

        from mighty_cli.store import models  # noqa: F401

        engine = create_engine(args.db)
        SQLModel.metadata.drop_all(engine)
        engine.dispose()
    start = time.perf_counter()
    write_season(folder / "season.toml", args.hands)
    print(
        f"{'write season file':<14} {time.perf_counter() - start:8.2f} s   "
        f"({(folder / 'season.toml').stat().st_size / 2**20:.0f} MB, {args.hands} hands)",
        flush=True,
    )
    phases = args.phases.split(",")
    if "replay" in phases:
        write_full_hands(folder / "full.toml", args.full_hands)
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; 'cpu s' is the "
        f"phase's own CPU time, 'db cpu s' its PostgreSQL backends' (when local)"
    )
    print(
        f"{'phase':<14} {'seconds':>8} {'cpu s':>8} {'db cpu s':>8} {'µs/hand':>9} "
        f"{'peak MB':>8}  note"
    )
    for name in phases:
        result = subprocess.run(
            [sys.executable, __file__, "--hands", str(args.hands), "--one", name, url, str(folder)],
            capture_output=True,
            text=True,
            env=os.environ,
        )
        if result.returncode:
            print(f"{name:<14} failed: {result.stderr.strip().splitlines()[-1:]}")
            continue
        figures = json.loads(result.stdout.strip().splitlines()[-1])
        per_hand = (
            figures["per_hand_us"]
            if name in ("import",) or name.startswith("export")
            else float("nan")
        )
        print(
            f"{name:<14} {figures['seconds']:8.2f} {figures['cpu']:8.2f} "
            f"{figures['server_cpu']:8.2f} {per_hand:9.1f} "
            f"{figures['peak_mb']:8.0f}  {figures['note']}",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
