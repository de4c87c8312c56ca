"""The short ways a record's full hand is replayed outside the tricks, each held to the general
way it stands for, under every bundled ruleset: the deal read as masks at once
(record_values._plain_deal) against _deal and new_hand's deal check; the usual election calls
written at once (election._bid_run) against _bid_step call by call; a finished hand's usual
result (hand._plain_result) against hand_result's general body. Same states, same values, same
errors word for word.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_cli.engine.hand import _full_result, _plain_result, hand_result
from mighty_cli.engine.tables import _tables
from test_hand_properties import RULESETS, random_hand

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_the_usual_result_is_the_general_one(name, seed):
    rules, _deal, states = random_hand(name, seed)
    final = states[-1]
    if final.phase != "done":
        return
    general = _full_result(final, final._ctx, final._setup)
    setup = final._setup
    if setup.friend2 is None and _tables(rules).plain_result and not setup.eliminated:
        assert _plain_result(final, final._ctx, setup) == general
    assert hand_result(final) == general


def test_the_usual_result_covers_the_common_rulesets():
    """The short way is taken where it should be (else the test above compares nothing)."""
    for name in ("standard", "club-requirements"):
        rules, _deal, states = random_hand(name, 3)
        assert _tables(rules).plain_result
    assert not _tables(random_hand("ghost-4", 1)[0]).plain_result
    assert not _tables(random_hand("dongdaejeon-7", 1)[0]).plain_result  # weighed friends
