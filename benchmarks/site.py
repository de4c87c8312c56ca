"""The league site at scale: build a league of a million hands, write its site, print the
largest page; or, with ``--refereed``, time a full build and an incremental one.

    python benchmarks/site.py [--hands 1000000] [--db URL] [--keep DIR] [--build-only]
    python benchmarks/site.py --refereed 3000 [--hands 100000]

``--refereed N`` makes the first N hands refereed (each stored with one of the examples'
records, so each has its page), then measures, each in a fresh process (so peak memory is the
build's own): a full build; an incremental build with nothing new; the league's next evening (30
refereed hands) recorded, then an incremental build. Each line gives the build's wall time
(start-up excluded), its CPU time (with its worker processes': ``mighty site`` renders on every
core when it has many pages), the process's peak memory (its own resident high-water mark; each
worker's max RSS, when there were workers) and the pages written. The full build writes into a
folder of its own, as a club's first build does; ``mighty site --full`` over an existing site
replaces every file instead, which costs the file system more (on ext4 each replacement starts
the new file's write-back), and a build just after many files were deleted waits on the file
system too: compare runs that write alike.
Targets (issue 24): after one evening on 3,000 refereed hands at most 1 s; a full build at
3,000 refereed hands at most 3 s; at 100k hands at most 40 s and 200 MB.

The league is built fast through the store's bulk path (the rows ``mighty import`` writes,
``store.interchange``) from a seeded skill-model season
(:mod:`mighty_cli.league.model_seasons`: ten players, sessions of 50 hands with six present), each
hand scored by the engine's scoring (``engine.record.score_outcome``); the five refereed
examples are then imported the ordinary way, so hand pages exist. Target: every page at most
300 KB (``mighty site`` pages long lists).
"""

from __future__ import annotations

import argparse
import inspect
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import insert

from mighty_cli.engine.cards import parse_bid
from mighty_cli.engine.records import load_record, score_outcome
from mighty_cli.league.model_seasons import skill_season
from mighty_cli.store.db import make_engine, transaction
from mighty_cli.store.interchange.import_batch import BATCH
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.hands import hand_columns, member_row_dicts
from mighty_cli.store.ledger.leagues import create_league, league_summaries
from mighty_cli.store.ledger.lookups import ensure_players, get_league, league_rules
from mighty_cli.store.models import LeagueSession, SessionSeat, utc_now

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "김철수", "이영희", "박민수"]
PER_SESSION = 50
LIMIT_KB = 300


def timed(label: str, function):
    start = time.perf_counter()
    result = function()
    print(f"{label:<34} {time.perf_counter() - start:8.1f} s", flush=True)
    return result


def example_records() -> list[str]:
    """The refereed examples' hands as the store keeps them (``record_toml``): imported into
    a scratch league in memory and read back."""
    from sqlmodel import select

    from mighty_cli.store.models import Hand

    scratch = make_engine("sqlite://")
    with transaction(scratch) as s:
        create_league(s, "scratch", "standard")
    for example in ("run", "joker-call", "back-run", "no-trump", "trump-change"):
        with transaction(scratch) as s:
            import_record(s, "scratch", load_record(ROOT / "examples" / f"{example}.toml"))
    with transaction(scratch) as s:
        records = [
            x
            for x in s.exec(
                select(Hand.record_toml)
                .where(Hand.full == True)  # noqa
                .order_by(Hand.number)
            ).all()
            if x
        ]
    scratch.dispose()
    return records


def build(
    engine, hands: int, chunk: int = 50_000, refereed: int = 0, seed: int = 0, examples: bool = True
) -> None:
    """The league ``bench`` with ``hands`` more recorded hands (the first ``refereed`` of them
    stored with a refereed example's record), written in bulk: the import's rows
    (``store.ledger.hands.hand_columns``, ``member_row_dicts``) inserted with Core table inserts,
    one executemany per batch, hand ids given so no id is read back."""
    from sqlalchemy import func
    from sqlmodel import select

    from mighty_cli.store.models import Hand, HandPlayer

    records = example_records() if refereed else []
    with transaction(engine) as s:
        if not any(x.name == "bench" for x in league_summaries(s)):
            create_league(s, "bench", "standard")
    with transaction(engine) as s:
        league = get_league(s, "bench")
        rules = league_rules(league)
        ids = ensure_players(s, PLAYERS)
        connection = s.connection()
        hand_id = s.exec(select(func.max(Hand.id))).one() or 0
        session_id = s.exec(select(func.max(LeagueSession.id))).one() or 0
        number = s.exec(select(func.max(Hand.number)).where(Hand.league_id == league.id)).one() or 0
        session_number = (
            s.exec(
                select(func.max(LeagueSession.number)).where(LeagueSession.league_id == league.id)
            ).one()
            or 0
        )
        added = 0
        skills = None
        now = utc_now()
        for start in range(0, hands, chunk):
            season = skill_season(
                PLAYERS,
                min(chunk, hands - start),
                seed=seed + start + 1,
                per_session=PER_SESSION,
                skills=skills,
            )
            skills = season.skills  # the same players' strengths in every chunk
            sessions: dict[int, tuple[int, list[str]]] = {}
            present: dict[int, list[str]] = {}
            for hand in season.record.hands:
                seen = present.setdefault(hand["session"], [])
                seen.extend(name for name in hand["players"] if name not in seen)
            hand_rows, member_rows = [], []
            for hand in season.record.hands:
                if hand["session"] not in sessions:
                    session_id += 1
                    session_number += 1
                    sessions[hand["session"]] = (session_id, present[hand["session"]])
                    connection.execute(
                        insert(LeagueSession.__table__),
                        [
                            dict(
                                id=session_id,
                                league_id=league.id,
                                number=session_number,
                                day=now.date(),
                                first_dealer_id=None,
                                started_at=now,
                                ended_at=now,
                            )
                        ],
                    )
                current, seen = sessions[hand["session"]]
                number += 1
                hand_id += 1
                friend = None if hand["friend"] == "none" else hand["friend"]
                outcome = score_outcome(
                    rules,
                    hand["players"],
                    hand["declarer"],
                    parse_bid(hand["contract"]),
                    friend,
                    hand["taken"],
                    friend_call=hand["friend_call"],
                )
                outcome.dealer, outcome.friend_call = hand["dealer"], hand["friend_call"]
                row = dict(
                    id=hand_id,
                    league_id=league.id,
                    session_id=current,
                    number=number,
                    voided=False,
                    pot_after=0,
                    record_toml=None,
                    note=None,
                    created_at=now,
                    **hand_columns(rules, outcome, ids),
                )
                if added < refereed:  # a refereed hand: its record, so its page
                    row.update(full=True, record_toml=records[added % len(records)])
                added += 1
                hand_rows.append(row)
                member_rows.extend(
                    dict(row, hand_id=hand_id)
                    for row in member_row_dicts(outcome, seen, outcome.deltas, {}, ids, league.id)
                )  # type: ignore[arg-type]
                if len(hand_rows) >= BATCH:
                    connection.execute(insert(Hand.__table__), hand_rows)
                    connection.execute(insert(HandPlayer.__table__), member_rows)
                    hand_rows, member_rows = [], []
            if hand_rows:
                connection.execute(insert(Hand.__table__), hand_rows)
                connection.execute(insert(HandPlayer.__table__), member_rows)
            connection.execute(
                insert(SessionSeat.__table__),
                [
                    dict(session_id=sid, seat=seat, player_id=ids[name])
                    for sid, names in sessions.values()
                    for seat, name in enumerate(names)
                ],
            )
            print(f"  {number:>9,} hands stored", flush=True)
    if not examples:
        return
    for example in ("run", "joker-call", "back-run", "no-trump", "trump-change"):
        with transaction(engine) as s:
            import_record(
                s, "bench", load_record(ROOT / "examples" / f"{example}.toml"), again=True
            )


def measure(url: str, out: str, full: bool, render_only: bool = False) -> None:
    """One build of the site (in this process, just started), its figures as JSON; with
    ``render_only``, a full build whose pages are rendered but not written (the CPU of the
    pages themselves, without the file system's)."""
    from mighty_cli.site import page_files as site_pages
    from mighty_cli.site.build import build_site

    if render_only:
        site_pages.replace_bytes = lambda path, data: SimpleNamespace(st_mtime_ns=0, st_ino=0)
    engine = make_engine(url)
    options = {"full": full} if "full" in inspect.signature(build_site).parameters else {}
    with transaction(engine) as s:
        wall, cpu = time.perf_counter(), time.process_time()
        report = build_site(s, "bench", out, timezone_name="Asia/Seoul", **options)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)  # the build's worker processes
    print(
        json.dumps(
            {
                "wall": wall,
                "cpu": cpu + workers.ru_utime + workers.ru_stime,
                "pages": report.pages,
                "written": getattr(report, "written", report.pages),
                "peak": own_peak_mb(),
                "worker_peak": workers.ru_maxrss / 1024,
            }
        )
    )
    engine.dispose()


def own_peak_mb() -> float:
    """This process's peak memory (RSS) in MB. On Linux its own high-water mark
    (``VmHWM``): ``ru_maxrss`` of a process started by ``subprocess`` also counts its
    parent's memory at the moment it started (the benchmark's own, with a 100k-hand league
    just built: 170 MB reported for a build that peaks under 100 MB)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measured(label: str, url: str, out: Path, full: bool, mode: str = "") -> None:
    mode = mode or ("full" if full else "incremental")
    result = subprocess.run(
        [sys.executable, __file__, "--measure", mode, "--db", url, "--keep", str(out)],
        capture_output=True,
        text=True,
    )
    if result.returncode:
        sys.exit(result.stderr)
    x = json.loads(result.stdout.strip().splitlines()[-1])
    per_page = (
        f"  {x['cpu'] / x['written'] * 1000:5.2f} ms CPU per page written" if x["written"] else ""
    )
    workers = f" (workers {x['worker_peak']:.0f} MB each)" if x.get("worker_peak") else ""
    print(
        f"{label:<32} wall {x['wall']:6.2f} s  cpu {x['cpu']:6.2f} s  peak {x['peak']:5.0f} MB"
        f"{workers}  {x['written']:,} of {x['pages']:,} pages written{per_page}",
        flush=True,
    )


def refereed_run(args, url: str, engine, out: Path) -> None:
    """Full build, incremental with nothing new, one evening later (30 refereed hands)."""
    timed(
        f"build {args.hands:,} hands, {args.refereed:,} refereed",
        lambda: build(engine, args.hands, refereed=args.refereed),
    )
    engine.dispose()
    measured("full build, rendered only", url, Path(str(out) + "-render"), True, "render")
    measured("full build", url, out, True)
    measured("incremental, nothing new", url, out, False)
    timed(
        "record one evening (30 refereed hands)",
        lambda: build(engine, 30, refereed=30, seed=10**7, examples=False),
    )
    engine.dispose()
    measured("incremental after one evening", url, out, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--hands",
        type=int,
        default=None,
        help="hands in the league (default: 1,000,000; with --refereed, as many)",
    )
    parser.add_argument(
        "--refereed",
        type=int,
        default=0,
        help="time full and incremental builds over this many refereed hands",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="database URL (default: a temporary SQLite "
        "file); an existing league 'bench' is reused",
    )
    parser.add_argument("--keep", default=None, help="write the site here (default: temporary)")
    parser.add_argument(
        "--build-only",
        action="store_true",
        help="only build the league (with --db, to write the site in a later run)",
    )
    parser.add_argument(
        "--measure", choices=("full", "incremental", "render"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.measure:
        return measure(args.db, args.keep, args.measure != "incremental", args.measure == "render")
    folder = tempfile.TemporaryDirectory()
    url = args.db or f"sqlite:///{Path(folder.name) / 'bench.db'}"
    engine = make_engine(url)
    out = Path(args.keep) if args.keep else Path(folder.name) / "site"
    if args.refereed:
        args.hands = args.hands or args.refereed
        return refereed_run(args, url, engine, out)
    args.hands = args.hands or 1_000_000
    with transaction(engine) as s:
        exists = bool(league_summaries(s)) and any(x.name == "bench" for x in league_summaries(s))
    if not exists:
        timed(f"build {args.hands:,} hands (bulk)", lambda: build(engine, args.hands))
    if args.build_only:
        return

    def write():
        from mighty_cli.site.build import build_site

        with transaction(engine) as s:
            return build_site(s, "bench", out, timezone_name="Asia/Seoul")

    report = timed("write the site", write)
    sizes = sorted(
        ((p.stat().st_size, str(p.relative_to(out))) for p in out.rglob("*.html")), reverse=True
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{report.hands:,} hands, {report.sessions:,} sessions, {report.players} players: "
        f"{report.pages:,} pages, {report.bytes / 2**20:.0f} MB"
    )
    for size, name in sizes[:5]:
        print(f"  {size / 1024:7.1f} KB  {name}")
    print(
        f"largest page {sizes[0][0] / 1024:.1f} KB ({sizes[0][1]}); limit {LIMIT_KB} KB: "
        f"{'OK' if sizes[0][0] <= LIMIT_KB * 1024 else 'EXCEEDED'}"
    )
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(
        f"peak memory (max RSS) {peak:.0f} MB"
        + (f"; each worker process at most {workers:.0f} MB" if workers else "")
    )
    engine.dispose()


if __name__ == "__main__":
    main()
