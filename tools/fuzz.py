"""A longer fuzz run of the ``mighty`` command line than CI's minute (issue 9).

    python tools/fuzz.py [--cases 20000] [--from 0] [--subprocess 50] [--limit 10]

Runs the numbered cases of ``tests/hardening/fuzzing.py`` (mutated rulesets, hand records and
argument lists) in-process, then ``--subprocess`` of them as real processes, and prints the
figures: runs, exit codes, promise breaks (each with its case number, to reproduce with
``--from N --cases 1``), and run times. Exit status 1 when any run broke the promise.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "hardening"))

import fuzzing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--from", dest="first", type=int, default=0)
    parser.add_argument("--subprocess", type=int, default=50)
    parser.add_argument("--limit", type=float, default=10.0, help="seconds one run may take")
    args = parser.parse_args()
    broken = []

    def progress(outcome):
        if outcome.problem:
            broken.append(outcome)
            print(
                f"case {outcome.case.number}: mighty {' '.join(outcome.case.args)[:150]}: "
                f"{outcome.problem}",
                flush=True,
            )

    with tempfile.TemporaryDirectory(prefix="mighty-fuzz-") as folder:
        start = time.monotonic()
        outcomes = fuzzing.fuzz(
            args.first, args.cases, Path(folder) / "in-process", limit=args.limit, progress=progress
        )
        in_process = time.monotonic() - start
        start = time.monotonic()
        spawned = []
        step = max(1, args.cases // max(1, args.subprocess))
        for number in range(args.first, args.first + args.cases, step)[: args.subprocess]:
            spawned += fuzzing.fuzz(
                number,
                1,
                Path(folder) / f"process{number}",
                limit=args.limit + 20,
                runner=fuzzing.run_subprocess,
                progress=progress,
            )
        as_processes = time.monotonic() - start

    for label, runs, seconds in (
        ("in-process", outcomes, in_process),
        ("subprocess", spawned, as_processes),
    ):
        if not runs:
            continue
        times = sorted(o.seconds for o in runs)
        codes = collections.Counter(o.exit_code for o in runs)
        kinds = collections.Counter(o.case.args[0] for o in runs)
        print(
            f"{label}: {len(runs)} runs in {seconds:.1f} s ({len(runs) / seconds:.0f}/s); "
            f"exit codes {dict(sorted(codes.items()))}; broken {sum(1 for o in runs if o.problem)}"
        )
        print(
            f"  run time: median {statistics.median(times) * 1000:.0f} ms, "
            f"p99 {times[int(len(times) * 0.99) - 1] * 1000:.0f} ms, max {times[-1]:.2f} s"
        )
        print(f"  commands: {dict(kinds.most_common())}")
        inputs = collections.Counter(_input_format(o.case) for o in runs)
        print(f"  input files: {dict(inputs.most_common())}")
    return 1 if broken else 0


def _input_format(case) -> str:
    """The kind of file a case feeds the tool: a ruleset, a hand record, a JSON or CSV export,
    a backup, a template, or none."""
    names = " ".join(case.files)
    for suffix, label in (
        (".jsonl", "backup"),
        (".json", "json export"),
        (".csv", "csv export"),
        ("record.toml", "hand record"),
        (".html", "template"),
        (".toml", "ruleset"),
    ):
        if suffix in names:
            return label
    return "arguments only"


if __name__ == "__main__":
    sys.exit(main())
