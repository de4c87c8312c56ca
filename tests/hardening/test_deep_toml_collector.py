"""A deeply nested TOML file makes tomllib recurse to the interpreter's limit, which
safe_toml turns into one line. The cyclic garbage collector is paused while it recurses: a
collection started down there ran other objects' finalizers with no stack left, and their
failures reached standard error beside the one line (seen in the fuzz test, whose in-process
runs share the heap with earlier tests)."""

from __future__ import annotations

import gc

import pytest

from mighty_cli.engine import safe_toml
from mighty_cli.engine.errors import RulesetError


class _Finalized:
    """An object in a reference cycle whose finalizer needs some stack (records whether it
    had it)."""

    outcomes: list[str] = []

    def __init__(self):
        self.me = self

    def __del__(self):
        def down(n):
            return 0 if n == 0 else down(n - 1)

        try:
            down(60)
            _Finalized.outcomes.append("ran")
        except RecursionError:
            _Finalized.outcomes.append("no stack")


def test_deep_toml_is_one_error_with_the_collector_paused():
    deep = "x = " + "[" * 5000 + "]" * 5000 + "\n"
    threshold = gc.get_threshold()
    # What earlier tests left on the heap is set aside (gc.freeze): each of the 266 collections
    # below then looks at this test's objects only, not at the whole suite's (six minutes).
    gc.collect()
    gc.freeze()
    try:
        # garbage waiting, and a collection due after so many allocations: some of these
        # thresholds fall near the bottom of the parser's recursion (484-640 here, unpaused)
        for allocations in range(400, 800, 3):
            _Finalized.outcomes.clear()
            gc.collect()
            gc.disable()
            for _ in range(5):
                _Finalized()
            gc.set_threshold(allocations)
            gc.enable()
            with pytest.raises(RulesetError, match="nested"):
                safe_toml.parse(deep, "club.toml", RulesetError)
            gc.set_threshold(*threshold)
            gc.collect()
            assert _Finalized.outcomes == ["ran"] * 5, allocations
            assert gc.isenabled()
    finally:
        gc.set_threshold(*threshold)
        gc.enable()
        gc.unfreeze()
