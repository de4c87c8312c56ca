"""Issue 9, item 2: a ruleset that passes ``ruleset check`` is safe to use. Its formula is
bounded in size, nesting and magnitude, and check evaluates it over every contract and every
number of point cards it can meet, so a later score, record or import cannot fail on it."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest

from mighty_cli.engine.cards import parse_bid
from mighty_cli.engine.errors import RulesetError, ScoringError
from mighty_cli.engine.limits import FORMULA_MAX_DEPTH, FORMULA_VALUE_LIMIT, POINTS_LIMIT
from mighty_cli.engine.ruleset import ruleset_from_toml
from mighty_cli.engine.ruleset.formulas import compile_expression
from mighty_cli.engine.scoring import score_hand
from promises import error_line, invoke, ruleset_file

CUSTOM = '[scoring]\nformula = "custom"\nsuccess = "{success}"\nfailure = "{failure}"\n'


def custom(success: str, failure: str = "bid - taken", extra: str = "") -> str:
    return extra + CUSTOM.format(success=success, failure=failure)


@pytest.mark.serial  # timed: alone on the machine
def test_a_megabyte_formula_fails_check_at_once(tmp_path):
    path = ruleset_file(tmp_path, custom("+".join(["taken"] * 170_000)))  # about 1 MB
    start = time.monotonic()
    message = error_line(invoke("ruleset", "check", path))
    assert time.monotonic() - start < 2
    assert "characters long: at most 1000 are allowed" in message


def test_a_formula_as_deep_as_allowed_compiles_and_evaluates():
    depth = FORMULA_MAX_DEPTH
    formula = "(" * depth + "taken" + ")" * depth
    assert compile_expression(formula)({"taken": 7}) == 7
    with pytest.raises(ValueError, match="nests more than"):
        compile_expression("(" + formula + ")")


def test_long_sums_evaluate_without_deepening_the_stack():
    formula = "+".join(["taken"] * 100)  # 199 tokens: within the bound
    assert compile_expression(formula)({"taken": 3}) == 300


def test_the_value_bound_holds_for_every_intermediate_result():
    # 10**6 * 10**6 is exactly the bound; one more factor of ten is beyond it.
    assert compile_expression("1000000 * 1000000")({}) == FORMULA_VALUE_LIMIT
    with pytest.raises(ScoringError, match="reached a number of 14 digits"):
        compile_expression("1000000 * 1000000 * 10 / 10")({})
    with pytest.raises(ScoringError, match="denominator"):
        compile_expression("1 / 1000000 / 1000000 / 7")({})


def test_the_issues_overflowing_constant_fails_check(tmp_path):
    message = error_line(
        invoke("ruleset", "check", ruleset_file(tmp_path, custom("1152921504606846976")))
    )
    assert message.startswith(
        "club.toml: scoring.success: the number 1152921504606846976 is too large"
    )


def test_scores_beyond_the_stored_range_fail_check(tmp_path):
    # Within the formula's bounds, but 2 * 10**9 base points beyond what a league stores.
    message = error_line(
        invoke("ruleset", "check", ruleset_file(tmp_path, custom("taken * 100000000")))
    )
    assert message.startswith("club.toml: scoring could give one player ")
    assert f"a hand's points must stay within ±{POINTS_LIMIT:,}" in message


def test_scores_just_within_the_stored_range_pass_check(tmp_path):
    # No doublings: 20 * 12,000,000 base, the declarer takes four opponents' share: 960,000,000.
    off = "".join(
        f"[scoring.{d}]\nenabled = false\n" for d in ("run", "back_run", "no_trump", "no_friend")
    )
    text = custom("taken * 12000000") + off
    result = invoke("ruleset", "check", ruleset_file(tmp_path, text))
    assert result.exit_code == 0, result.output
    rules = ruleset_from_toml(text, label="club").ruleset
    assert score_hand(rules, parse_bid("20S"), 20, has_friend=False).declarer == 960_000_000


def test_check_evaluates_every_reachable_contract_and_count(tmp_path):
    # Divides by zero only when the ruling party takes exactly 17 (a made 13-17 contract).
    message = error_line(
        invoke("ruleset", "check", ruleset_file(tmp_path, custom("taken / (taken - 17)")))
    )
    assert message == (
        "club.toml: scoring.success fails for a 13S contract with 17 point cards "
        "taken: division by zero in a scoring formula"
    )


def test_check_evaluates_no_trump_contracts_below_the_suit_minimum(tmp_path):
    # With a no-trump discount of 1, a 12NT contract exists; minimum is 12 for it.
    text = custom("taken / (minimum - 12)", extra="[election]\nno_trump_discount = 1\n")
    message = error_line(invoke("ruleset", "check", ruleset_file(tmp_path, text)))
    assert message.startswith(
        "club.toml: scoring.success fails for a 12NT contract with 12 point cards taken"
    )


def test_a_failure_formula_is_only_evaluated_where_a_contract_fails(tmp_path):
    # bid - taken is never zero when the contract failed: the ruleset is sound.
    result = invoke(
        "ruleset",
        "check",
        ruleset_file(tmp_path, custom("taken - 10", failure="10 / (bid - taken)")),
    )
    assert result.exit_code == 0, result.output


def test_bids_beyond_the_checked_range_still_fail_in_one_line(tmp_path):
    # No maximum bid: bids above the 20 point cards are scored from what the record says.
    text = custom(
        "taken - bid", failure="max(0, bid - 20) * 100000000000", extra="[election]\nmax_bid = 0\n"
    )
    path = ruleset_file(tmp_path, text)
    assert invoke("ruleset", "check", path).exit_code == 0
    message = error_line(invoke("score", "-r", path, "--bid", "99", "--trump", "D", "--taken", "5"))
    assert message == (
        "a scoring formula reached a number of 13 digits: its numbers must stay "
        "within ±1,000,000,000,000 with at most 12 decimals"
    )
    rules = ruleset_from_toml(text, label="club").ruleset
    with pytest.raises(ScoringError):
        score_hand(rules, parse_bid("40S"), 5)
    assert score_hand(rules, parse_bid("21S"), 5).base == Fraction(10**11)


def test_an_embedded_ruleset_is_held_to_the_same_bounds():
    with pytest.raises(RulesetError, match="too large or too fine"):
        ruleset_from_toml(custom("1152921504606846976"), label="league 'x' ruleset")


def test_a_ruleset_name_longer_than_a_league_stores_fails_check(tmp_path):
    message = error_line(
        invoke("ruleset", "check", ruleset_file(tmp_path, f'[meta]\nname = "{"x" * 150}"\n'))
    )
    assert message == "club.toml: meta.name is 150 characters long: at most 100 are allowed"
