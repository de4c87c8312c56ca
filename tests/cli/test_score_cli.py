"""`mighty score`: the fixed acceptance interface (docs/record-format.md) and its errors."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli


def run(runner, *args):
    return runner.invoke(cli, list(args))


def test_score_json_acceptance_example(runner):
    result = run(
        runner,
        "score",
        "--ruleset",
        "standard",
        "--bid",
        "15",
        "--trump",
        "D",
        "--taken",
        "16",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {
        k: data[k]
        for k in ("success", "base", "multiplier", "doublings", "declarer", "friend", "opponent")
    } == {
        "success": True,
        "base": 5,
        "multiplier": 1,
        "doublings": [],
        "declarer": 10,
        "friend": 5,
        "opponent": -5,
    }


def test_score_no_friend_reports_null_friend_and_doubling(runner):
    result = run(
        runner,
        "score",
        "-r",
        "standard",
        "--bid",
        "14",
        "--trump",
        "S",
        "--taken",
        "16",
        "--no-friend",
        "--json",
    )
    data = json.loads(result.output)
    assert data["friend"] is None
    assert data["doublings"] == ["no_friend"]
    assert data["declarer"] == -4 * data["opponent"]


@pytest.mark.parametrize("trump", ["NT", "nt", "Nt"])
def test_score_trump_is_case_insensitive(runner, trump):
    result = run(
        runner,
        "score",
        "-r",
        "standard",
        "--bid",
        "16",
        "--trump",
        trump,
        "--taken",
        "18",
        "--json",
    )
    assert json.loads(result.output)["doublings"] == ["no_trump"]


def test_score_opposition_is_the_complement_of_taken(runner):
    a = run(
        runner, "score", "-r", "standard", "--bid", "15", "--trump", "H", "--taken", "13", "--json"
    )
    b = run(
        runner,
        "score",
        "-r",
        "standard",
        "--bid",
        "15",
        "--trump",
        "H",
        "--opposition",
        "7",
        "--json",
    )
    assert json.loads(a.output) == json.loads(b.output)


def test_score_readable_output(runner):
    result = run(runner, "score", "-r", "standard", "--bid", "17", "--trump", "H", "--taken", "20")
    assert result.exit_code == 0
    assert "run" in result.output and "declarer +44" in result.output


def test_score_bid_below_minimum_is_a_rule_error(runner):
    result = run(runner, "score", "-r", "standard", "--bid", "11", "--trump", "S", "--taken", "12")
    assert result.exit_code == 1
    assert result.output.strip() == "Error: contract 11S is below the minimum bid of standard (13)"


@pytest.mark.parametrize(
    "args",
    [
        ["--bid", "15", "--trump", "X", "--taken", "16"],  # not a trump
        ["--bid", "15", "--trump", "D"],  # neither taken nor opposition
        ["--bid", "15", "--trump", "D", "--taken", "3", "--opposition", "17"],
        ["--trump", "D", "--taken", "16"],  # no bid
    ],
)
def test_score_usage_errors_exit_2(runner, args):
    result = run(runner, "score", "-r", "standard", *args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_score_unknown_ruleset_is_one_line(runner):
    result = run(runner, "score", "-r", "nowhere", "--bid", "15", "--trump", "D", "--taken", "16")
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1
    assert "unknown ruleset 'nowhere'" in result.output


def test_score_taken_above_cards_in_play(runner):
    result = run(runner, "score", "-r", "standard", "--bid", "15", "--trump", "D", "--taken", "21")
    assert result.exit_code == 1
    assert "from 0 to 20" in result.output
