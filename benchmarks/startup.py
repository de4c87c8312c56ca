"""Start-up time of the fast commands beside plain `python -c pass`, in English and Korean.

Run: python benchmarks/startup.py [--runs N]
Each figure is the median wall time of N fresh processes (the `mighty` console script of the
interpreter running this script, or `python -m mighty_cli` when the script is not installed).
`mighty --help` runs in both languages (MIGHTY_LANG=en and ko, interleaved so machine noise
falls on both); the budget is Korean within 10% of English.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def once(command: list[str], language: str = "en") -> float:
    env = dict(os.environ, MIGHTY_LANG=language)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=env)
    return time.perf_counter() - start


def median_ms(command: list[str], runs: int, language: str = "en") -> float:
    return statistics.median(once(command, language) for _ in range(runs)) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    script = Path(sys.executable).with_name("mighty")
    mighty = [str(script)] if script.exists() else (
        [shutil.which("mighty")] if shutil.which("mighty") else [sys.executable, "-m", "mighty_cli"])
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
        print(f"  {name:<28} {median_ms(command, args.runs):7.1f} ms")
    times: dict[str, list[float]] = {"en": [], "ko": []}
    for _ in range(args.runs):
        for language in times:
            times[language].append(once(mighty + ["--help"], language))
    english, korean = (statistics.median(times[k]) * 1000 for k in ("en", "ko"))
    print(f"  {'mighty --help (English)':<28} {english:7.1f} ms")
    print(f"  {'mighty --help (Korean)':<28} {korean:7.1f} ms   "
          f"{(korean / english - 1) * 100:+.1f}% (budget: +10%)")


if __name__ == "__main__":
    main()
