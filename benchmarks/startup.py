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
"""

from __future__ import annotations

import argparse
import os
import random
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
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def once(command: list[str], language: str = "en") -> float:
    env = dict(os.environ, MIGHTY_LANG=language)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=env)
    return time.perf_counter() - start


def mighty_command() -> list[str]:
    script = Path(sys.executable).with_name("mighty")
    return [str(script)] if script.exists() else (
        [shutil.which("mighty")] if shutil.which("mighty") else
        [sys.executable, "-m", "mighty_cli"])


def league_of(hands: int, db: str) -> None:
    """A league 'bench' with ``hands`` recorded hands and an open session of five."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from league import PLAYERS, season  # type: ignore[import-not-found]

    from mighty_cli.engine.records import Record
    from mighty_cli.store.interchange.imports import import_record
    from mighty_cli.store.ledger.leagues import create_league
    from mighty_cli.store.ledger.sessions import start_session
    from mighty_cli.store.db import make_engine, transaction

    engine = make_engine(db)
    with transaction(engine) as s:
        create_league(s, "bench", "club-requirements")
        import_record(s, "bench", Record(ruleset="club-requirements",
                                                  players=list(PLAYERS),
                                                  hands=list(season(hands))))
        start_session(s, "bench", ["Ana", "Bo", "Cy", "Di", "Ed"])
    engine.dispose()


class Piped:
    """A process fed line by line; ``until`` reads its output up to a marker."""

    def __init__(self, command: list[str], env: dict):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, env=env)
        self.buffer = b""

    def until(self, marker: str, timeout: float = 30.0) -> str:
        wanted = marker.encode()
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()  # type: ignore[union-attr]
        while wanted not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None and not select.select([fd], [], [], 0)[0]:
                raise RuntimeError(f"no {marker!r} in: {self.buffer[-500:].decode(errors='replace')}")
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
        for text, marker in ((declarer, "14): "), (f"{rng.randrange(13, 18)}S", "[none]: "),
                             (friend, "party: ")):
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
        text = text[text.rfind("— hand"):]
    piped.send("quit")
    piped.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--hands", type=int, default=30, help="hands per evening run")
    parser.add_argument("--league-hands", type=int, default=1000)
    args = parser.parse_args()
    mighty = mighty_command()
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "mighty --help": mighty + ["--help"],
        "mighty ruleset list": mighty + ["ruleset", "list"],
        "mighty score": mighty + ["score", "--ruleset", "standard", "--bid", "15", "--trump", "D",
                                  "--taken", "16"],
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
    print(f"  {'mighty --help (Korean)':<34} {korean:7.1f} ms   "
          f"{(korean / english - 1) * 100:+.1f}% (budget: +10%)")

    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'bench.db'}"
        league_of(args.league_hands, db)
        env = dict(os.environ, MIGHTY_DB=db, MIGHTY_USER="bench",
                   XDG_CONFIG_HOME=str(Path(folder) / "config"))
        record = mighty + ["record", "-l", "bench", "-d", "Bo", "-c", "15D", "-f", "Cy",
                           "-t", "16"]
        label = f"mighty record ({args.league_hands:,} hands)"
        print(f"  {label:<34} {median_ms(record, args.runs, env):7.1f} ms")
        answers, stored = record_evening(mighty, env, args.hands)
        print(f"record --evening, {args.hands} hands in one process:")
        print(f"  per answer (median / max)          {statistics.median(answers):7.1f} / "
              f"{max(answers):.1f} ms")
        print(f"  per hand stored (median / max)     {statistics.median(stored):7.1f} / "
              f"{max(stored):.1f} ms")
        times = referee_evening(mighty, env, max(1, args.hands // 10))
        print(f"referee --league, {len(times)} entries (hand in progress kept after each):")
        print(f"  per entry (median / p95 / max)     {statistics.median(times):7.1f} / "
              f"{sorted(times)[int(len(times) * 0.95)]:.1f} / {max(times):.1f} ms")


if __name__ == "__main__":
    main()
