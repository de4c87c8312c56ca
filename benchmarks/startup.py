"""Start-up time of the fast commands beside plain `python -c pass`.

Run: python benchmarks/startup.py [--runs N]
Each figure is the median wall time of N fresh processes (the `mighty` console script of the
interpreter running this script, or `python -m mighty_cli` when the script is not installed).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def median_ms(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


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


if __name__ == "__main__":
    main()
