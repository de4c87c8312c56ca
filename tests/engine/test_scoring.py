"""Scoring (docs/rules.md §8): the cases of tests/data/scoring_cases.toml, shares and pots,
a club's own formula, and zero-sum properties under every bundled ruleset."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from mighty_cli.engine.cards import Bid, parse_bid
from mighty_cli.engine.errors import ScoringError
from mighty_cli.engine.ruleset import BUNDLED_NAMES, load_ruleset, ruleset_from_toml
from mighty_cli.engine.scoring import describe, pot_shares, score_hand, seat_deltas

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CASES_FILE = Path(__file__).resolve().parent.parent / "data" / "scoring_cases.toml"
CASES = tomllib.loads(CASES_FILE.read_text(encoding="utf-8"))["case"]
PLAYERS = ["Ana", "Bo", "Cy", "Di", "Ed"]


def case_rules(case: dict):
    """The ruleset a case names, with its options merged over it as a club file would."""
    if "options" not in case:
        return load_ruleset(case["ruleset"])
    text = tomli_w.dumps({"extends": case["ruleset"], **case["options"]})
    return ruleset_from_toml(text, label=case["name"]).ruleset


def test_case_names_are_unique():
    names = [case["name"] for case in CASES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", [c for c in CASES if "error" not in c], ids=lambda c: c["name"])
def test_scoring_case(case):
    rules = case_rules(case)
    alone = case.get("alone", False)
    score = score_hand(rules, parse_bid(case["contract"]), case["taken"], has_friend=not alone)
    assert score.success is case["success"]
    assert score.base_value == case["base"]
    assert score.multiplier == case["multiplier"]
    assert list(score.doublings) == case["doublings"]
    assert score.declarer == case["declarer"]
    assert score.friend == (None if alone else case["friend"])
    assert score.opponent == case["opponent"]
    opponents = 4 if alone else 3
    assert score.declarer + (score.friend or 0) + opponents * score.opponent == 0


@pytest.mark.parametrize("case", [c for c in CASES if "error" in c], ids=lambda c: c["name"])
def test_scoring_error_case(case):
    rules = case_rules(case)
    with pytest.raises(ScoringError) as caught:
        score_hand(rules, parse_bid(case["contract"]), case["taken"])
    assert case["error"] in str(caught.value)


# --- docs/rules.md §8 worked examples for `standard`, by name ------------------------------------


def test_standard_15_diamonds_taking_16_scores_5():
    score = score_hand(load_ruleset("standard"), parse_bid("15D"), 16)
    assert (score.base, score.unit, score.declarer, score.friend, score.opponent) == (
        5,
        5,
        10,
        5,
        -5,
    )


def test_standard_16_no_trump_taking_18_scores_16():
    score = score_hand(load_ruleset("standard"), parse_bid("16NT"), 18)
    assert (score.base, score.multiplier, score.unit) == (8, 2, 16)


def test_standard_17_hearts_taking_20_scores_22():
    score = score_hand(load_ruleset("standard"), parse_bid("17H"), 20)
    assert (score.base, score.doublings, score.unit) == (11, ("run",), 22)


def test_club_requirements_formula_is_001_section_6():
    """001 §6: success (B - 13)·2 + (P - B), failure B - P; declarer ×2, friend ×1."""
    rules = load_ruleset("club-requirements")
    made = score_hand(rules, parse_bid("15D"), 16)
    failed = score_hand(rules, parse_bid("15D"), 12)
    assert (made.declarer, made.friend, made.opponent) == (10, 5, -5)
    assert (failed.declarer, failed.friend, failed.opponent) == (-6, -3, 3)


# --- a club's own formula needs no new code -------------------------------------------------


def test_custom_club_formula_unit_per_point_with_scale_and_cap(tmp_path):
    """ "A unit per point over ten, 100 won a unit, at most 1000 won a hand": a ruleset file."""
    club = tmp_path / "our-club.toml"
    club.write_text(
        "# Our club: 100 won per point over ten, at most 1000 won per opponent.\n"
        'extends = "standard"\n'
        '[meta]\ntitle = "우리 동아리"\n'
        '[scoring]\nformula = "custom"\nsuccess = "taken - 10"\nfailure = "bid - taken"\n'
        "scale = 100.0\ncap = 1000\n",
        encoding="utf-8",
    )
    rules = load_ruleset(club)
    assert score_hand(rules, parse_bid("14S"), 16).opponent == -600
    assert score_hand(rules, parse_bid("14S"), 12).opponent == 200
    capped = score_hand(rules, parse_bid("16NT"), 20, has_friend=False)
    assert capped.multiplier == 8 and capped.unit == 1000 and capped.declarer == 4000


# --- seat deltas, the pot, presentation -------------------------------------------------------


def test_seat_deltas_give_each_player_his_share():
    score = score_hand(load_ruleset("standard"), parse_bid("15D"), 16)
    assert seat_deltas(score, PLAYERS, "Cy", "Ed") == {
        "Ana": -5,
        "Bo": -5,
        "Cy": 10,
        "Di": -5,
        "Ed": 5,
    }


def test_seat_deltas_alone():
    score = score_hand(load_ruleset("standard"), parse_bid("13C"), 14, has_friend=False)
    deltas = seat_deltas(score, PLAYERS, "Ana", None)
    assert deltas == {"Ana": 8, "Bo": -2, "Cy": -2, "Di": -2, "Ed": -2}
    assert sum(deltas.values()) == 0


@pytest.mark.parametrize(
    "declarer, friend, problem",
    [
        ("Zed", "Bo", "declarer 'Zed' is not one of the players"),
        ("Ana", "Zed", "friend 'Zed' is not one of the players"),
        ("Ana", "Ana", "Ana cannot be his own friend"),
        ("Ana", None, "different friend situation"),
    ],
)
def test_seat_deltas_errors(declarer, friend, problem):
    score = score_hand(load_ruleset("standard"), parse_bid("15D"), 16)
    with pytest.raises(ScoringError, match=problem):
        seat_deltas(score, PLAYERS, declarer, friend)


def test_pot_goes_to_the_declarer_by_default():
    assert pot_shares(15, load_ruleset("club-requirements"), "Ana", "Bo") == {"Ana": 15}


def test_pot_shared_by_the_ruling_party():
    rules = ruleset_from_toml(
        'extends = "club-requirements"\n[deposit]\nwon_by = "ruling_party"\n'
    ).ruleset
    assert pot_shares(15, rules, "Ana", "Bo") == {"Ana": 10, "Bo": 5}
    assert pot_shares(15, rules, "Ana", None) == {"Ana": 15}
    assert pot_shares(0, rules, "Ana", "Bo") == {}


def test_score_json_matches_the_acceptance_interface():
    score = score_hand(load_ruleset("standard"), parse_bid("16NT"), 18)
    assert score.to_json() == {
        "success": True,
        "contract": "16NT",
        "taken": 18,
        "base": 8,
        "multiplier": 2,
        "doublings": ["no_trump"],
        "declarer": 32,
        "friend": 16,
        "opponent": -16,
    }


def test_fractional_base_is_a_float_in_json():
    rules = ruleset_from_toml(
        '[scoring]\nformula = "custom"\nsuccess = "(taken - 10) / 2"\nfailure = "bid - taken"\n'
    ).ruleset
    assert score_hand(rules, parse_bid("15S"), 17).to_json()["base"] == 3.5


def test_describe_names_the_doublings():
    rules = load_ruleset("standard")
    text = describe(score_hand(rules, parse_bid("20NT"), 20, has_friend=False), rules)
    assert "run, no trump, no friend" in text and "alone" in text


def test_division_by_zero_in_a_club_formula_is_a_scoring_error():
    # Loading evaluates the formula for every contract a hand can reach (issue 9), so the
    # division by zero is left for a contract beyond the point cards (no maximum bid).
    rules = ruleset_from_toml(
        '[election]\nmax_bid = 0\n[scoring]\nformula = "custom"\n'
        'success = "taken - bid"\nfailure = "taken / (bid - 25)"\n',
        label="club",
    ).ruleset
    with pytest.raises(ScoringError, match="division by zero"):
        score_hand(rules, parse_bid("25S"), 16)


@pytest.mark.parametrize("taken", [True, 15.0, "15"])
def test_taken_must_be_a_whole_number(taken):
    with pytest.raises(ScoringError, match="taken = "):
        score_hand(load_ruleset("standard"), parse_bid("15S"), taken)


# --- properties under every bundled ruleset ---------------------------------------------------


@st.composite
def outcomes(draw):
    """A ruleset and any valid outcome under it: contract in range, taken 0..total."""
    name = draw(st.sampled_from(BUNDLED_NAMES))
    rules = load_ruleset(name)
    e = rules.election
    no_trump = e.no_trump_allowed and draw(st.booleans())
    lowest = rules.no_trump_minimum if no_trump else e.min_bid
    highest = e.max_bid or 25
    number = draw(st.integers(min_value=lowest, max_value=highest))
    trump = None if no_trump else draw(st.integers(min_value=0, max_value=3))
    taken = draw(st.integers(min_value=0, max_value=rules.count_total))  # tricks in 변형 2마
    return rules, Bid(number, trump), taken, draw(st.booleans())


@settings(max_examples=200, deadline=None)
@given(outcomes())
def test_every_valid_outcome_scores_to_zero(outcome):
    rules, contract, taken, has_friend = outcome
    score = score_hand(rules, contract, taken, has_friend)
    opponents = rules.playing - (2 if has_friend else 1)  # 5마: 3 or 4 (6마, 7마: five play)
    assert score.declarer + (score.friend or 0) + opponents * score.opponent == 0
    assert (score.friend is None) is (not has_friend)
    assert score.success is (taken >= rules.contract_target(contract.number))


@settings(max_examples=200, deadline=None)
@given(outcomes())
def test_multiplier_is_the_product_of_the_applied_factors(outcome):
    rules, contract, taken, has_friend = outcome
    score = score_hand(rules, contract, taken, has_friend)
    product = 1
    for name in score.doublings:
        product *= rules.get(f"scoring.{name}.factor")
    assert rules.scoring.cumulative
    assert score.multiplier == product
    assert len(set(score.doublings)) == len(score.doublings)
    assert not {"run", "declared_run"} <= set(score.doublings)
