"""The recorded outcome's fast path (records/summary.py, issue 12: import speed) gives what the
general path gives: every field of every outcome, the totals and the pot, and the same error
word for word, on every bundled ruleset, for good hands and bad ones."""

from __future__ import annotations

import random

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mighty_cli.engine.errors import RecordError
from mighty_cli.engine.records import Record, iter_replay
from mighty_cli.engine.records.summary import SummaryReplay
from mighty_cli.engine.ruleset import bundled_names, load_ruleset, ruleset_from_toml

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy"]
CONTRACTS = [
    "13S",
    "14D",
    "15H",
    "16C",
    "17NT",
    "20S",
    "13NT",
    "12H",
    "99X",
    13,
    "26C",
    "9H",
    "10D",
]
CALLS = [
    None,
    None,
    None,
    "SA",
    "first-trick",
    "초구",
    "last_trick",
    "mighty",
    "joker",
    "Z9",
    5,
    "SA+DK",
    "x" * 41,
    "player:Bo",
]
#: Variants whose options the bundled rulesets leave at one value.
VARIANTS = {
    "alone-refused": {
        "friend": {"no_friend": False, "fake": False, "first_trick": False, "last_trick": False}
    },
    "trick-call-undoubled": {
        "scoring": {"no_friend_by_trick_call": False},
        "friend": {"last_trick": True},
    },
    "winning-team-pot": {
        "deposit": {"per_deal_miss": 3, "won_by": "winning_team", "paid_by": "dealer"}
    },
    "ruling-party-pot": {"deposit": {"per_deal_miss": 5, "won_by": "ruling_party"}},
}
RULESETS = bundled_names() + sorted(VARIANTS)


def load(name: str):
    if name not in VARIANTS:
        return load_ruleset(name)
    return ruleset_from_toml(
        tomli_w.dumps({"extends": "standard", "meta": {"name": name}} | VARIANTS[name]), label=name
    ).ruleset


def random_hand(rng: random.Random, players: list[str], count: int) -> dict:
    """A recorded outcome, a deal miss or something broken, as a record may hold it."""
    seated = rng.sample(players, count)
    hand: dict = {
        "session": rng.choice((1, 1, 1, 2)),
        "players": seated,
        "dealer": rng.choice(seated),
    }
    if rng.random() < 0.05:
        hand["players"] = seated[:-1] if rng.random() < 0.5 else seated[:-1] + seated[:1]
    if rng.random() < 0.05:
        del hand["dealer"]
    if rng.random() < 0.03:
        hand["dealer"] = "Zed"
    if rng.random() < 0.12:
        hand["deal_miss"] = rng.choice(seated)
        return hand
    declarer = rng.choice(seated)
    others = [p for p in seated if p != declarer]
    hand |= {
        "declarer": declarer if rng.random() > 0.03 else "Zed",
        "contract": rng.choice(CONTRACTS),
        "friend": rng.choice(
            others + ["none", "none", declarer, "SA", "ghost", declarer + "'s friend"]
        )
        if others
        else "none",
        "taken": rng.choice([rng.randrange(0, 21)] * 8 + [-1, 21, 22, 40, "16", True]),
    }
    if rng.random() < 0.05:
        hand["opposition"] = hand.pop("taken") if rng.random() < 0.7 else 3
    call = rng.choice(CALLS)
    if call is not None:
        hand["friend_call"] = call
    if rng.random() < 0.15:
        hand["eliminated"] = rng.sample(others or seated, 1)
    if rng.random() < 0.05 and len(others) > 1:
        hand["friend2"] = others[-1]
    if rng.random() < 0.05:
        hand["note"] = "a note"
    if rng.random() < 0.02:
        hand["opener"] = seated[0]
    return hand


def replayed(record: Record, rules, fast: bool):
    totals = dict.fromkeys(record.players, 0)
    try:
        outcomes = [
            vars(outcome).copy() for _, outcome in iter_replay(record, rules, totals, fast=fast)
        ]
    except RecordError as exc:
        return "error", str(exc)
    return outcomes, totals


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), ruleset=st.sampled_from(RULESETS))
def test_the_fast_path_gives_the_general_paths_outcomes_and_errors(seed, ruleset):
    rules = load(ruleset)
    rng = random.Random(seed)
    count = rules.table.players
    players = NAMES[: count + rng.choice((0, 1))]
    hands = [random_hand(rng, players, count) for _ in range(rng.randrange(1, 30))]
    record = Record(ruleset=ruleset, players=players, hands=hands)
    fast = replayed(record, rules, True)
    assert fast == replayed(record, rules, False)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_records_replay_the_same_both_ways_on_every_ruleset(ruleset):
    rules = load(ruleset)
    for seed in range(40):
        rng = random.Random(f"{ruleset} {seed}")
        count = rules.table.players
        players = NAMES[: count + seed % 2]
        record = Record(
            ruleset=ruleset,
            players=players,
            hands=[random_hand(rng, players, count) for _ in range(12)],
        )
        assert replayed(record, rules, True) == replayed(record, rules, False), seed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_long_good_season_replays_the_same_both_ways(ruleset):
    rules = load(ruleset)
    rng = random.Random(ruleset)
    players = NAMES[: rules.table.players + 1]
    hands = []
    while len(hands) < 60:
        hand = random_hand(rng, players, rules.table.players)
        record = Record(ruleset=ruleset, players=players, hands=hands + [hand])
        if replayed(record, rules, False)[0] != "error":
            hands.append(hand)
    record = Record(ruleset=ruleset, players=players, hands=hands)
    assert replayed(record, rules, True) == replayed(record, rules, False)


def test_the_usual_hand_is_taken_by_the_fast_path_and_the_rest_is_not():
    rules = load_ruleset("club-requirements")
    summary = SummaryReplay(rules, NAMES[:6])
    seated = NAMES[:5]
    usual = {
        "players": seated,
        "dealer": "Ana",
        "declarer": "Bo",
        "contract": "15S",
        "friend": "Cy",
        "taken": 16,
        "session": 1,
    }
    assert summary.replay(usual, 1, 0) is not None
    assert summary.replay(usual | {"friend": "none", "friend_call": "SA"}, 1, 3) is not None
    for other in (
        {"deal_miss": "Bo"},
        {"opposition": 4},
        {"friend2": "Di"},
        {"eliminated": ["Di"]},
        {"taken": 21},
        {"contract": "12S"},
        {"friend": "Bo"},
        {"dealer": "Zed"},
        {"friend_call": "Z9"},
    ):
        assert summary.replay(usual | other, 1, 0) is None
    assert (
        SummaryReplay(load_ruleset("ghost-4"), NAMES[:5]).replay(
            usual | {"players": NAMES[:4]}, 1, 0
        )
        is None
    )
