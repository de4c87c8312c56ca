"""The project's own fuzz test (issue 9): seeded mutations of rulesets, hand records and
argument lists, asserting the CLI's promise on each run: exit 0, 1 or 2 only; a failure is one
line, never a traceback; a failed command leaves the database unchanged; each run within a time
limit. CI runs the first cases (the same ones every run, whatever the machine's load: about ten
seconds); ``MIGHTY_TEST_LONG=1`` runs them for forty seconds, ``MIGHTY_FUZZ_SECONDS`` for as
long as it says, and ``python tools/fuzz.py`` longer still with figures."""

from __future__ import annotations

import os

from fuzzing import case, fuzz, run_subprocess

#: The in-process cases CI runs (numbered: the same ones on every run).
CASES = 600
#: Seconds of in-process cases instead, on request: as many cases as fit.
BUDGET = float(
    os.environ.get("MIGHTY_FUZZ_SECONDS") or ("40" if os.environ.get("MIGHTY_TEST_LONG") else "inf")
)
#: The most one run may take (a 1 MB formula once took 24 s of CPU to score).
LIMIT = 10.0


def report(outcomes) -> str:
    broken = [o for o in outcomes if o.problem]
    return "\n".join(
        f"case {o.case.number} (mighty {' '.join(o.case.args)[:120]}): {o.problem}"
        for o in broken[:20]
    )


def test_fuzzed_commands_keep_the_promise(tmp_path):
    import gc

    gc.collect()  # what earlier tests left is finalized now, not inside a captured run
    outcomes = fuzz(
        0, CASES if BUDGET == float("inf") else 100_000, tmp_path, budget=BUDGET, limit=LIMIT
    )
    assert len(outcomes) >= 200, "too few cases ran to mean anything"
    assert not any(o.problem for o in outcomes), report(outcomes)
    codes = {o.exit_code for o in outcomes}
    assert codes == {0, 1, 2}  # the fuzz reaches successes, rule errors and usage errors


def test_fuzzed_commands_keep_the_promise_as_real_processes(tmp_path):
    # One case of each kind, through the installed entry point and its own error handling.
    numbers, kinds = [], set()
    for number in range(200):
        kind = (
            case(number).args[0],
            case(number).args[1] if case(number).args[0] in ("ruleset", "hand", "session") else "",
        )
        if kind not in kinds:
            kinds.add(kind)
            numbers.append(number)
    outcomes = []
    for number in numbers[:8]:
        outcomes += fuzz(number, 1, tmp_path / str(number), limit=LIMIT + 20, runner=run_subprocess)
    assert not any(o.problem for o in outcomes), report(outcomes)
