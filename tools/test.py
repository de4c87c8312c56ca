"""Run the test suite as CI does: the tests that may share the machine on every core
(pytest-xdist, one process per core), then the ``serial`` ones alone, one at a time (races,
pseudo-terminals, subprocess timings, the browser); then the ten slowest tests and one line of
totals.

    python tools/test.py [pytest arguments]

The arguments go to both runs (paths, ``-x``, ``-k``, ``--cov=mighty_cli``...), except ``-m``,
which the two runs set. ``MIGHTY_TEST_WORKERS`` sets the number of processes of the first run
(default: ``auto``, one per core). ``python -m pytest`` still runs any test or all of them in
one process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLOWEST = 10
#: pytest's exit status when it collected no test (a run of only serial tests, say)
NO_TESTS = 5


def main(arguments: list[str]) -> int:
    if any(
        argument == "-m" or argument.startswith("-m") and not argument.startswith("--")
        for argument in arguments
    ):
        print(
            "tools/test.py: -m is set by the two runs; use python -m pytest -m ...", file=sys.stderr
        )
        return 2
    workers = os.environ.get("MIGHTY_TEST_WORKERS", "auto")
    with tempfile.TemporaryDirectory(prefix="mighty-test-") as scratch:
        reports = [Path(scratch) / "parallel.xml", Path(scratch) / "serial.xml"]
        runs = [
            ["-n", workers, "--dist", "worksteal", "-m", "not serial"],
            ["-p", "no:xdist", "-m", "serial"],
        ]
        if any(argument.startswith("--cov") for argument in arguments):
            runs[1].append("--cov-append")  # the serial run adds to the first run's figures
        statuses = []
        for run, report in zip(runs, reports):
            print(f"\n== python -m pytest {' '.join(run)}", flush=True)
            statuses.append(
                subprocess.call(
                    [sys.executable, "-m", "pytest", *run, f"--junitxml={report}", *arguments],
                    cwd=ROOT,
                )
            )
        summary = totals([report for report in reports if report.exists()])
    if all(status == NO_TESTS for status in statuses):
        return NO_TESTS
    failed = [status for status in statuses if status not in (0, NO_TESTS)]
    print(summary)
    return failed[0] if failed else 0


def totals(reports: list[Path]) -> str:
    """The slowest tests of both runs and the line of totals (``N passed, N failed, N
    skipped``), read from their JUnit reports."""
    cases = []
    for report in reports:
        cases += ElementTree.parse(report).getroot().iter("testcase")
    failed = sum(
        1 for case in cases if case.find("failure") is not None or case.find("error") is not None
    )
    skipped = sum(1 for case in cases if case.find("skipped") is not None)
    passed = len(cases) - failed - skipped
    slowest = sorted(cases, key=lambda case: -float(case.get("time", 0)))[:SLOWEST]
    lines = [f"\n== the {len(slowest)} slowest tests (set-up, call and tear-down)"]
    lines += [
        f"{float(case.get('time', 0)):8.2f}s  {case.get('classname')}::{case.get('name')}"
        for case in slowest
    ]
    lines.append(f"\ntests: {passed} passed, {failed} failed, {skipped} skipped")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
