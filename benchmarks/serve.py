"""mighty serve under a club night's load: every table's phones entering hands at once.

    python benchmarks/serve.py [--db URL] [--tables 20] [--phones 3] [--hands 30]
                               [--typos 0.1] [--drops 0.1] [--workers N] [--pace S]
                               [--watchers N]

A league of ``--tables`` × 5 players starts a round (standard rules, a table of five each) in a
temporary folder (SQLite there; or the PostgreSQL database ``--db`` names, whose tables are
dropped and made again: give the benchmark a database of its own). ``mighty serve --port 0``
serves it on 127.0.0.1 from a process of its own (``--workers`` on PostgreSQL). Then every
table's ``--phones`` phones enter its ``--hands`` hands at once through ``POST
/api/tables/T/hands`` (asyncio and httpx, one connection per phone): each phone enters the
table's hand k as the table played it, or, now and then (``--typos``), with a count one off (the
first of a table's entries of hand k is stored; an entry that differs is refused, 409, the
stored hand shown; the same one is answered 200); a phone that lost its answer (``--drops``)
sends the entry again (answered 200, stored once). ``--pace S``: a table plays a hand every
S seconds, the tables out of step, a table's phones within a few seconds of each other (0: as
fast as the server answers, the default: the load a server can take). ``--watchers N``: N
phones a table also look at the table's page, each fetching it again on every change as the
page's script does (the room's phones between their entries).

Printed: entries per second (every request, and hands stored), the latency of an entry (p50,
p99, max), the board's delay (a client on the live events, ``/events``, fetching ``GET
/api/round`` on each change, as the board does: the time from a phone's 201 to the board
showing that hand), the server's peak memory (resident set, its processes together), and the
database compared with what was answered: ``lost`` (an entry answered 201 or 200 that the
database does not hold as answered), ``doubled`` (a table hand stored twice, or answered 201
twice). Goal (issue 37) on the 2-core machine: p99 of an entry < 250 ms on SQLite, the board
within 2 s, 0 lost, 0 doubled.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONTRACTS = ("13S", "14D", "15H", "13NT", "14C")


def mighty(*args: str) -> str:
    """A command run in this process (the league's setting up); its output."""
    from click.testing import CliRunner

    from mighty_cli.cli import cli

    result = CliRunner().invoke(cli, ["--lang", "en", *args], catch_exceptions=False)
    if result.exit_code != 0:
        raise SystemExit(f"mighty {' '.join(args)}: {result.output}")
    return result.output


def empty_postgres(url: str) -> None:
    from sqlmodel import SQLModel

    from mighty_cli.store import models  # noqa: F401  (registers the tables)
    from mighty_cli.store.db import make_engine

    engine = make_engine(url, create=True)
    SQLModel.metadata.drop_all(engine)
    engine.dispose()
    make_engine(url, create=True).dispose()


def set_up(url: str, tables: int) -> dict[int, dict]:
    """The league ``bench`` and its round: each table's players and entry code."""
    players = [f"P{n:03d}" for n in range(1, tables * 5 + 1)]
    mighty("league", "create", "bench", "--ruleset", "standard", "--db", url)
    mighty("round", "start", "-l", "bench", "--players", ",".join(players), "--db", url)
    shown = json.loads(mighty("round", "show", "-l", "bench", "--json", "--db", url))
    found = {t["table"]: t for t in shown["tables"]}
    if len(found) != tables or any(len(t["players"]) != 5 for t in found.values()):
        raise SystemExit(f"the round has {len(found)} tables, not {tables} of five")
    return found


# --- the server, its memory -------------------------------------------------------------------


def start_server(url: str, folder: Path, workers: int) -> tuple[subprocess.Popen, str]:
    environment = dict(os.environ, TMPDIR=str(folder), HOME=str(folder), PYTHONUNBUFFERED="1")
    command = [
        sys.executable,
        "-m",
        "mighty_cli",
        "--lang",
        "en",
        "serve",
        "--league",
        "bench",
        "--port",
        "0",
        "--db",
        url,
    ]
    if workers > 1:
        command += ["--workers", str(workers)]
    server = subprocess.Popen(
        command,
        cwd=folder,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    first = server.stdout.readline()  # type: ignore[union-attr]
    found = re.search(r"http://127\.0\.0\.1:[0-9]+", first)
    if found is None:
        server.kill()
        raise SystemExit(f"the server said {first!r}: {server.stderr.read()}")  # type: ignore
    threading.Thread(target=server.stdout.read, daemon=True).start()  # type: ignore[union-attr]
    return server, found.group(0)


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(n) for n in task.read_text().split()]
        except OSError:
            pass
    return found


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class Memory:
    """The server's processes' resident memory together, sampled every 50 ms: its peak; and
    the CPU time they used (what the night cost the server, whatever else the machine ran)."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self._stop = pid, 0, threading.Event()
        self.cpu: dict[int, float] = {}
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.is_set():
            pids, todo = [], [self.pid]
            while todo:
                pid = todo.pop()
                pids.append(pid)
                todo += _children(pid)
            self.peak = max(self.peak, sum(_rss_kib(pid) for pid in pids))
            for pid in pids:
                self.cpu[pid] = max(self.cpu.get(pid, 0.0), _cpu_seconds(pid))
            time.sleep(0.05)

    def stop(self) -> int:
        self._stop.set()
        self._thread.join()
        return self.peak


# --- the board: a client on the live events ----------------------------------------------------


class Board:
    """A board on ``/events``: on each change it fetches ``GET /api/round`` and notes when it
    first saw each table with k hands."""

    def __init__(self, address: str, watchers: Watchers | None = None) -> None:
        self.address = address
        self.watchers = watchers
        self.seen: dict[tuple[int, int], float] = {}
        self.changes = 0
        self._stop = threading.Event()
        self.ready = threading.Event()
        self._thread = threading.Thread(target=self._listen, daemon=True)
        self._thread.start()

    def _look(self, client) -> None:
        now_round = client.get(self.address + "/api/round").json()
        now = time.monotonic()
        for table in now_round["tables"]:
            for hand in range(1, table["hands"] + 1):
                self.seen.setdefault((table["table"], hand), now)

    def _listen(self) -> None:
        import httpx2 as httpx

        with httpx.Client(timeout=httpx.Timeout(30.0, read=None)) as client:
            with client.stream("GET", self.address + "/events") as stream:
                self.ready.set()
                for line in stream.iter_lines():
                    if self._stop.is_set():
                        break
                    if line.startswith("event: change"):
                        self.changes += 1
                        if self.watchers is not None:
                            self.watchers.changed()
                        self._look(client)

    def stop(self) -> None:
        self._stop.set()


class Watchers:
    """The phones looking at their table's page (``--watchers`` a table): on each change each
    fetches its table's page again, as serve.js does (one fetch at a time per phone, a change
    seen meanwhile fetched after it). Notes each fetch's time."""

    def __init__(self, address: str, tables: list[int], per_table: int) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.address = address
        self.pages = [f"/tables/{table}" for table in tables for _ in range(per_table)]
        self.latencies: list[float] = []
        self.failed = 0
        self._busy = [False] * len(self.pages)
        self._again = [False] * len(self.pages)
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=max(1, min(len(self.pages), 32)))
        self._local = threading.local()

    def changed(self) -> None:
        for k in range(len(self.pages)):
            with self._lock:
                if self._busy[k]:
                    self._again[k] = True
                    continue
                self._busy[k] = True
            self._pool.submit(self._fetch, k)

    def _client(self):
        import httpx2 as httpx

        client = getattr(self._local, "client", None)
        if client is None:
            client = self._local.client = httpx.Client(timeout=60.0)
        return client

    def _fetch(self, k: int) -> None:
        while True:
            start = time.monotonic()
            try:
                answer = self._client().get(self.address + self.pages[k])
                if answer.status_code != 200:
                    self.failed += 1
            except Exception:  # noqa: BLE001 (counted: the benchmark reports it)
                self.failed += 1
            self.latencies.append(time.monotonic() - start)
            with self._lock:
                if not self._again[k]:
                    self._busy[k] = False
                    return
                self._again[k] = False

    def stop(self) -> None:
        self._pool.shutdown(wait=True)


# --- the phones ------------------------------------------------------------------------------


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    #: (table, hand) -> what each 201 and 200 answered, and when (monotonic)
    answered: dict[tuple[int, int], list[tuple[int, dict, float]]] = field(default_factory=dict)
    retries: int = 0
    errors: list[str] = field(default_factory=list)


def truth(players: list[str], hand: int) -> dict:
    """The table's hand ``hand`` as it was played: its declarer and friend move round the
    table, so no two hands in a row are alike."""
    return {
        "declarer": players[hand % 5],
        "contract": CONTRACTS[hand % len(CONTRACTS)],
        "friend": players[(hand + 2) % 5],
        "taken": 10 + (hand * 7) % 11,
    }


async def phone(
    client,
    address: str,
    table: int,
    info: dict,
    hands: int,
    chance: random.Random,
    typos: float,
    drops: float,
    pace: float,
    started: float,
    results: Results,
) -> None:
    for hand in range(1, hands + 1):
        if pace:  # the table ends its hand k at started + k × pace (tables out of step), its
            # phones enter it within a few seconds
            await asyncio.sleep(
                max(0.0, started + hand * pace - time.monotonic())
                + chance.uniform(0, min(pace / 4, 5.0))
            )
        body = {"code": info["code"], "hand": hand, **truth(info["players"], hand)}
        if chance.random() < typos:
            body["taken"] = body["taken"] + (1 if body["taken"] < 20 else -1)
        sends = 2 if chance.random() < drops else 1  # the first answer lost: sent again
        for send in range(sends):
            begun = time.perf_counter()
            try:
                answer = await client.post(f"{address}/api/tables/{table}/hands", json=body)
            except Exception as exc:  # noqa: BLE001 - counted, the benchmark goes on
                results.errors.append(f"table {table} hand {hand}: {exc!r}")
                break
            results.latencies.append(time.perf_counter() - begun)
            results.statuses[answer.status_code] = results.statuses.get(answer.status_code, 0) + 1
            if send:
                results.retries += 1
            if answer.status_code in (200, 201):
                results.answered.setdefault((table, hand), []).append(
                    (answer.status_code, answer.json(), time.monotonic())
                )
            elif answer.status_code != 409:
                results.errors.append(
                    f"table {table} hand {hand}: {answer.status_code} {answer.text[:200]}"
                )
                break
            else:
                break  # another phone's entry holds it: this phone moves on


async def night(address: str, tables: dict[int, dict], args) -> tuple[Results, float]:
    import httpx2 as httpx

    results = Results()
    limits = httpx.Limits(
        max_connections=len(tables) * args.phones + 4,
        max_keepalive_connections=len(tables) * args.phones + 4,
    )
    async with httpx.AsyncClient(limits=limits, timeout=60.0) as client:
        started = time.monotonic()
        chance = random.Random(args.seed)
        phases = {table: chance.uniform(0, args.pace) for table in tables}
        await asyncio.gather(
            *(
                phone(
                    client,
                    address,
                    table,
                    info,
                    args.hands,
                    random.Random(chance.random()),
                    args.typos,
                    args.drops,
                    args.pace,
                    started + phases[table],
                    results,
                )
                for table, info in tables.items()
                for _phone in range(args.phones)
            )
        )
        return results, time.monotonic() - started


# --- the database against the answers ----------------------------------------------------------


def compare(url: str, tables: int, hands: int, results: Results) -> dict:
    from mighty_cli.store.db import make_engine, reading
    from mighty_cli.store.ledger.hand_reads import list_hands

    engine = make_engine(url)
    try:
        with reading(engine) as s:
            stored = list_hands(s, "bench")
    finally:
        engine.dispose()
    by_place: dict[tuple[int, int], list] = {}
    for hand in stored:
        by_place.setdefault((hand.table, hand.table_hand), []).append(hand)
    by_number = {hand.number: hand for hand in stored}
    lost = doubled = 0
    for place, answers in results.answered.items():
        if sum(1 for status, _body, _at in answers if status == 201) > 1:
            doubled += 1
        for _status, body, _at in answers:
            found = by_number.get(body["league_hand"])
            if (
                found is None
                or (found.table, found.table_hand) != place
                or body["table_hand"] != place[1]
                or dict(found.deltas) != body["deltas"]
            ):
                lost += 1
    doubled += sum(len(found) - 1 for found in by_place.values() if len(found) > 1)
    missing = sum(
        1
        for table in range(1, tables + 1)
        for hand in range(1, hands + 1)
        if (table, hand) not in by_place
    )
    return {"stored": len(stored), "lost": lost, "doubled": doubled, "missing": missing}


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--db",
        help="a PostgreSQL URL (its tables are dropped and made "
        "again); default: SQLite in a temporary folder",
    )
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--phones", type=int, default=3)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--typos", type=float, default=0.1)
    parser.add_argument("--drops", type=float, default=0.1)
    parser.add_argument("--pace", type=float, default=0.0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--watchers",
        type=int,
        default=0,
        help="phones a table looking at its page (fetched again on each change)",
    )
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mighty-bench-serve-") as name:
        folder = Path(name)
        url = args.db or f"sqlite:///{folder / 'night.db'}"
        if args.db:
            empty_postgres(url)
        kind = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
        tables = set_up(url, args.tables)
        print(
            f"{kind}: {args.tables} tables x {args.phones} phones x {args.hands} hands, "
            f"typos {args.typos:.0%}, answers lost {args.drops:.0%}, pace {args.pace} s, "
            f"workers {args.workers}; load {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        server, address = start_server(url, folder, args.workers)
        memory = Memory(server.pid)
        watchers = Watchers(address, sorted(tables), args.watchers) if args.watchers else None
        board = Board(address, watchers)
        board.ready.wait(10)
        try:
            results, seconds = asyncio.run(night(address, tables, args))
            time.sleep(2.5)  # the board's last look
        finally:
            board.stop()
            if watchers is not None:
                watchers.stop()
            peak = memory.stop()
            server.send_signal(signal.SIGTERM)
            try:
                stopped = server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                stopped = "killed"
        checked = compare(url, args.tables, args.hands, results)
    requests = len(results.latencies)
    delays = []
    for place, answers in results.answered.items():
        stored_at = min(at for status, _body, at in answers if status in (200, 201))
        seen = board.seen.get(place)
        delays.append(max(0.0, seen - stored_at) if seen is not None else float("inf"))
    unseen = sum(1 for delay in delays if delay == float("inf"))
    shown = [delay for delay in delays if delay != float("inf")]
    statuses = ", ".join(f"{status}: {count}" for status, count in sorted(results.statuses.items()))
    print(
        f"entries: {requests} in {seconds:.1f} s = {requests / seconds:.1f} entries/s "
        f"({checked['stored'] / seconds:.1f} hands stored/s); answers {statuses}; "
        f"{results.retries} sent again after a lost answer"
    )
    print(
        f"latency of an entry: p50 {percentile(results.latencies, 0.5) * 1000:.0f} ms, "
        f"p99 {percentile(results.latencies, 0.99) * 1000:.0f} ms, "
        f"max {max(results.latencies) * 1000:.0f} ms"
    )
    print(
        f"board's delay (201 to the board showing it): p50 "
        f"{percentile(shown, 0.5) * 1000:.0f} ms, p99 {percentile(shown, 0.99) * 1000:.0f} ms, "
        f"max {max(shown, default=0) * 1000:.0f} ms; {unseen} never shown; "
        f"{board.changes} change events"
    )
    if watchers is not None:
        print(
            f"table pages ({args.watchers} phones a table, fetched again on each change): "
            f"{len(watchers.latencies)} fetches, p50 "
            f"{percentile(watchers.latencies, 0.5) * 1000:.0f} ms, p99 "
            f"{percentile(watchers.latencies, 0.99) * 1000:.0f} ms; {watchers.failed} failed"
        )
    cpu = sum(memory.cpu.values())
    print(
        f"server's peak memory (resident, its processes together): {peak / 1024:.0f} MiB; "
        f"CPU {cpu:.1f} s ({cpu / max(requests, 1) * 1000:.0f} ms an entry); stopped by "
        f"SIGTERM with status {stopped}"
    )
    print(
        f"database: {checked['stored']} hands stored; lost {checked['lost']}, doubled "
        f"{checked['doubled']}, table hands missing {checked['missing']}; "
        f"{len(results.errors)} errors; load {os.getloadavg()[0]:.2f}"
    )
    for error in results.errors[:5]:
        print("  " + error)
    p99 = percentile(results.latencies, 0.99)
    goal = (
        (p99 < 0.25 or kind != "SQLite")
        and max(shown, default=0) < 2
        and unseen == 0
        and checked["lost"] == 0
        and checked["doubled"] == 0
    )
    print(
        "goal (p99 < 250 ms on SQLite, board within 2 s, 0 lost, 0 doubled): "
        + ("met" if goal else "NOT met")
    )


if __name__ == "__main__":
    main()
