"""Start-up time of the fast commands beside plain `python -c pass`, one `mighty record` into a
league of 1,000 hands, and the per-entry latency of the evening modes.

Run: python benchmarks/startup.py [--runs N] [--hands 50]
Each start-up figure is the median wall time of N fresh processes (the `mighty` console script
of the interpreter running this script, or `python -m mighty_cli` when the script is not
installed). The evening figures keep one process open, feed it entries through a pipe and time
each entry from the write to the program's answer:

* `record --evening`: a hand is four answers (declarer, contract, friend, taken); the last one
  stores the hand (one transaction), so the figure per hand is what a score-keeper waits;
* `referee --league`: one call or card per entry, each one also rewriting the session's hand in
  progress in the database (so a killed process resumes at the same card).

`mighty --help` also runs in both languages (MIGHTY_LANG=en and ko, interleaved so machine
noise falls on both); the budget is Korean within 10% of English.

`mighty standings` and `mighty record` on a league of `--league-hands` hands (3,000 by default)
are measured in CPU time (user + system, ``resource.getrusage(RUSAGE_CHILDREN)``), interleaved
with `sqlite-utils query` computing the same totals (each player's hands, score, contracts and
runs) on the same database; the budget is 2.5x its CPU. ``import sqlmodel`` alone is timed
beside them: the floor under every command that opens the store. Each command's start-up is split by
``python -X importtime`` into SQLAlchemy, SQLModel and pydantic, the store's own modules
(listed: a command loads only those it uses) and the rest. sqlite-utils is a benchmark tool,
never a dependency: ``pip install -e '.[bench]'``; without it that comparison is skipped.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "cli"))


def median_ms(command: list[str], runs: int, env=None) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def once(command: list[str], language: str = "en") -> float:
    env = dict(os.environ, MIGHTY_LANG=language)
    start = time.perf_counter()
    subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env
    )
    return time.perf_counter() - start


def mighty_command() -> list[str]:
    script = Path(sys.executable).with_name("mighty")
    return (
        [str(script)]
        if script.exists()
        else (
            [shutil.which("mighty")]
            if shutil.which("mighty")
            else [sys.executable, "-m", "mighty_cli"]
        )
    )


def league_of(hands: int, db: str) -> None:
    """A league 'bench' with ``hands`` recorded hands and an open session of five."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from league import PLAYERS, season  # type: ignore[import-not-found]

    from mighty_cli.engine.records import Record
    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.store.interchange.imports import import_record
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.ledger.sessions import start_session

    engine = make_engine(db)
    with transaction(engine) as s:
        create_league(s, "bench", "club-requirements")
        import_record(
            s,
            "bench",
            Record(ruleset="club-requirements", players=list(PLAYERS), hands=list(season(hands))),
        )
        start_session(s, "bench", ["Ana", "Bo", "Cy", "Di", "Ed"])
    engine.dispose()


#: The standings' totals as one query: what `sqlite-utils query` computes beside `mighty`.
TOTALS_SQL = """
SELECT p.name, SUM(hp.role IN ('declarer', 'friend', 'opponent')) AS hands,
       SUM(hp.points + hp.pot) AS score, SUM(hp.role = 'declarer') AS declarer,
       SUM(hp.role = 'declarer' AND h.success) AS made, SUM(hp.role = 'friend') AS friend,
       SUM(h.run AND hp.role IN ('declarer', 'friend')) AS runs,
       SUM(h.back_run AND hp.role = 'opponent') AS back_runs
FROM hand_player hp JOIN hand h ON h.id = hp.hand_id JOIN player p ON p.id = hp.player_id
JOIN league l ON l.id = h.league_id
WHERE l.name = 'bench' AND NOT h.voided GROUP BY p.name ORDER BY score DESC
"""

#: What a command's imports are told apart by (``-X importtime``'s self times).
IMPORT_GROUPS = (
    ("SQLAlchemy", ("sqlalchemy",)),
    ("SQLModel", ("sqlmodel",)),
    ("pydantic", ("pydantic", "pydantic_core")),
    ("the store", ("mighty_cli.store",)),
    ("the rest of mighty_cli", ("mighty_cli",)),
)

#: Prints the store modules a command has loaded once it has run (in a fresh process).
LOADED = """
import sys
from mighty_cli.cli import cli
try:
    cli.main(args=sys.argv[1:], prog_name="mighty", standalone_mode=False)
except SystemExit:
    pass
print(" ".join(sorted(m[len("mighty_cli.store."):] for m in sys.modules
                      if m.startswith("mighty_cli.store."))), file=sys.stderr)
"""


def cpu_seconds(command: list[str], env=None) -> float:
    """The CPU time (user + system) of one run of ``command`` and its children."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=env
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def import_split(arguments: list[str], env) -> dict[str, float]:
    """A command's import time (ms, ``-X importtime``'s self times) by :data:`IMPORT_GROUPS`."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "mighty_cli", *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        check=False,
    )
    split = {name: 0.0 for name, _ in IMPORT_GROUPS}
    for line in result.stderr.splitlines():
        found = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
        if found:
            name = next(
                (group for group, prefixes in IMPORT_GROUPS if found.group(2).startswith(prefixes)),
                None,
            )
            if name:
                split[name] += int(found.group(1)) / 1000
    return split


def store_modules(arguments: list[str], env) -> str:
    """The store's modules a command loads (in a fresh process)."""
    result = subprocess.run(
        [sys.executable, "-c", LOADED, *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        check=False,
    )
    return result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "?"


def sqlite_utils() -> list[str] | None:
    """The `sqlite-utils` command, or None when it is not installed."""
    script = Path(sys.executable).with_name("sqlite-utils")
    found = str(script) if script.exists() else shutil.which("sqlite-utils")
    return [found] if found else None


def against_sqlite_utils(mighty: list[str], env: dict, db_file: Path, runs: int) -> None:
    """`standings` and `record` beside `sqlite-utils query` on the same totals, in CPU time
    (medians of interleaved runs), then where each command's start-up goes."""
    standings = mighty + ["standings", "-l", "bench"]
    record_args = [
        "record",
        "-l",
        "bench",
        "-d",
        "Bo",
        "-c",
        "15D",
        "-f",
        "Cy",
        "-t",
        "16",
        "--again",
    ]
    query = sqlite_utils()
    cases = {"mighty standings": standings, "mighty record": mighty + record_args}
    if query is None:
        print(
            "  sqlite-utils is not installed (pip install -e '.[bench]'): the comparison "
            "with `sqlite-utils query` is skipped"
        )
    else:
        cases["sqlite-utils query"] = query + ["query", str(db_file), TOTALS_SQL]
    # The floor under every league command: the store is SQLModel's (pydantic, SQLAlchemy's ORM)
    cases["python -c 'import sqlmodel'"] = [sys.executable, "-c", "import sqlmodel"]
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(runs):
        for name, command in cases.items():  # interleaved: machine noise falls on all three
            cpu[name].append(cpu_seconds(command, env))
    medians = {name: statistics.median(times) * 1000 for name, times in cpu.items()}
    print(f"CPU time (user + system), median of {runs} interleaved runs:")
    for name, value in medians.items():
        ratio = (
            f"   {value / medians['sqlite-utils query']:.2f}x sqlite-utils (budget: 2.5x)"
            if query is not None and name != "sqlite-utils query"
            else ""
        )
        print(f"  {name:<34} {value:7.1f} ms{ratio}")
    print(f"start-up by -X importtime (self times, median of {max(3, runs // 3)} runs):")
    for label, arguments in (("standings", ["standings", "-l", "bench"]), ("record", record_args)):
        splits = [import_split(arguments, env) for _ in range(max(3, runs // 3))]
        parts = ", ".join(
            f"{name} {statistics.median(split[name] for split in splits):.0f}"
            for name, _ in IMPORT_GROUPS
        )
        print(f"  {label:<10} {parts} ms")
        print(f"  {'':<10} the store's modules loaded: {store_modules(arguments, env)}")


class Piped:
    """A process fed line by line; ``until`` reads its output up to a marker."""

    def __init__(self, command: list[str], env: dict):
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
        )
        self.buffer = b""

    def until(self, marker: str, timeout: float = 30.0) -> str:
        wanted = marker.encode()
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()  # type: ignore[union-attr]
        while wanted not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None and not select.select([fd], [], [], 0)[0]:
                raise RuntimeError(
                    f"no {marker!r} in: {self.buffer[-500:].decode(errors='replace')}"
                )
            if select.select([fd], [], [], left)[0]:
                chunk = os.read(fd, 65536)
                if not chunk:
                    continue
                self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(wanted)
        return head.decode(errors="replace")

    def send(self, line: str) -> None:
        self.proc.stdin.write((line + "\n").encode())  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]

    def close(self) -> None:
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        self.proc.wait(timeout=30)


def record_evening(mighty: list[str], env: dict, hands: int) -> tuple[list[float], list[float]]:
    """Per answer (declarer, contract, friend) and per stored hand (taken), in ms."""
    rng = random.Random(7)
    piped = Piped(mighty + ["record", "-l", "bench", "--evening"], env)
    answers, stored = [], []
    piped.until("playing ")
    for _ in range(hands):
        line = piped.until("\n")
        five = [n.strip() for n in line.split(";")[0].split(",")]
        declarer, friend = rng.sample(five, 2)
        piped.until("or quit: ")
        for text, marker in (
            (declarer, "14): "),
            (f"{rng.randrange(13, 18)}S", "[none]: "),
            (friend, "party: "),
        ):
            start = time.perf_counter()
            piped.send(text)
            piped.until(marker)
            answers.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        piped.send(str(rng.randrange(8, 21)))
        piped.until("playing ")
        stored.append((time.perf_counter() - start) * 1000)
    piped.send("quit")
    piped.close()
    return answers, stored


def referee_evening(mighty: list[str], env: dict, hands: int) -> list[float]:
    """Per entry of `referee --league` (open cards), in ms."""
    from evening_script import parse_proposal, random_hand, typed_lines
    from mighty_cli.engine.ruleset import load_ruleset

    rules = load_ruleset("club-requirements")
    piped = Piped(mighty + ["referee", "--league", "bench"], env)
    text = piped.until("type 'help'")
    times = []
    for k in range(hands):
        _, dealer, opener, _, five = parse_proposal(text)
        piped.until(": ")
        for line in typed_lines(random_hand(rules, five, dealer, opener, 1000 + k)):
            start = time.perf_counter()
            piped.send(line)
            answer = piped.until("\n")
            times.append((time.perf_counter() - start) * 1000)
            if "✗" in answer:
                raise RuntimeError(f"{line!r} refused: {answer}")
            text = ""
        text = piped.until("playing ") + "playing " + piped.until("\n")
        text = text[text.rfind("— hand") :]
    piped.send("quit")
    piped.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--hands", type=int, default=30, help="hands per evening run")
    parser.add_argument("--league-hands", type=int, default=3000)
    parser.add_argument(
        "--compare-only",
        action="store_true",
        help="only standings and record beside sqlite-utils query",
    )
    args = parser.parse_args()
    mighty = mighty_command()
    if args.compare_only:
        with tempfile.TemporaryDirectory() as folder:
            db = f"sqlite:///{Path(folder) / 'bench.db'}"
            league_of(args.league_hands, db)
            env = dict(
                os.environ,
                MIGHTY_DB=db,
                MIGHTY_USER="bench",
                XDG_CONFIG_HOME=str(Path(folder) / "config"),
            )
            against_sqlite_utils(mighty, env, Path(folder) / "bench.db", args.runs)
        return
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "mighty --help": mighty + ["--help"],
        "mighty ruleset list": mighty + ["ruleset", "list"],
        "mighty score": mighty
        + ["score", "--ruleset", "standard", "--bid", "15", "--trump", "D", "--taken", "16"],
        "import sqlmodel (for scale)": [sys.executable, "-c", "import sqlmodel"],
    }
    print(f"median of {args.runs} runs, {sys.executable}")
    for name, command in cases.items():
        print(f"  {name:<34} {median_ms(command, args.runs):7.1f} ms")
    times: dict[str, list[float]] = {"en": [], "ko": []}
    for _ in range(args.runs):
        for language in times:
            times[language].append(once(mighty + ["--help"], language))
    english, korean = (statistics.median(times[k]) * 1000 for k in ("en", "ko"))
    print(f"  {'mighty --help (English)':<34} {english:7.1f} ms")
    print(
        f"  {'mighty --help (Korean)':<34} {korean:7.1f} ms   "
        f"{(korean / english - 1) * 100:+.1f}% (budget: +10%)"
    )

    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'bench.db'}"
        league_of(args.league_hands, db)
        env = dict(
            os.environ,
            MIGHTY_DB=db,
            MIGHTY_USER="bench",
            XDG_CONFIG_HOME=str(Path(folder) / "config"),
        )
        record = mighty + [
            "record",
            "-l",
            "bench",
            "-d",
            "Bo",
            "-c",
            "15D",
            "-f",
            "Cy",
            "-t",
            "16",
            "--again",
        ]  # the same hand each time: stored each time
        label = f"mighty record ({args.league_hands:,} hands)"
        print(f"  {label:<34} {median_ms(record, args.runs, env):7.1f} ms")
        against_sqlite_utils(mighty, env, Path(folder) / "bench.db", args.runs)
        answers, stored = record_evening(mighty, env, args.hands)
        print(f"record --evening, {args.hands} hands in one process:")
        print(
            f"  per answer (median / max)          {statistics.median(answers):7.1f} / "
            f"{max(answers):.1f} ms"
        )
        print(
            f"  per hand stored (median / max)     {statistics.median(stored):7.1f} / "
            f"{max(stored):.1f} ms"
        )
        times = referee_evening(mighty, env, max(1, args.hands // 10))
        print(f"referee --league, {len(times)} entries (hand in progress kept after each):")
        print(
            f"  per entry (median / p95 / max)     {statistics.median(times):7.1f} / "
            f"{sorted(times)[int(len(times) * 0.95)]:.1f} / {max(times):.1f} ms"
        )


if __name__ == "__main__":
    main()
