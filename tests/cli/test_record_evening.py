"""`mighty record` asking its questions: each answer checked as given, names by case and
prefix, who plays shown, and `--evening` for a whole session in one process."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from mighty_cli.cli import cli
from mighty_cli.table.name_lookup import UnknownName, match_name

PLAYERS = "Ana,Bo,Cy,Di,Ed,김철수"


def mighty(db, *args, input=None):
    return CliRunner().invoke(cli, [*args, "--db", db], input=input)


@pytest.fixture
def league(db):
    assert mighty(db, "league", "create", "tue", "--ruleset", "standard").exit_code == 0
    assert mighty(db, "session", "start", "-l", "tue", "-p", PLAYERS).exit_code == 0
    return db


def hands(db) -> list:
    return json.loads(mighty(db, "hand", "list", "-l", "tue", "--json").output)["hands"]


def test_each_answer_is_checked_as_given_and_asked_again(league):
    """Bug: `di` as declarer and `Cy` as contract were refused only after the last prompt,
    losing every answer."""
    answers = ["Ana", "bo", "Cy", "12D", "15d", "zed", "bo", "c", "21", "16"]
    result = mighty(league, "record", "-l", "tue", input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("✗") == 6, result.output
    assert "Bo 15D with Cy, took 16: made" in result.output
    stored = hands(league)
    assert len(stored) == 1 and stored[0]["declarer"] == "Bo" and stored[0]["friend"] == "Cy"


def test_record_shows_who_plays_and_the_proposed_dealer(league):
    """Bug: interactive record never showed who plays."""
    result = mighty(league, "record", "-l", "tue", input="Bo\n15D\nCy\n16\n")
    first = result.output.splitlines()[0]
    assert first.startswith("Hand 1: dealer Ana") and "sitting out Ana" in first
    assert "playing Bo, Cy, Di, Ed, 김철수" in first


def test_names_match_case_insensitively_and_by_unique_prefix(league):
    """Bug: names were case-sensitive."""
    result = mighty(league, "record", "-l", "tue", "-d", "bo", "-c", "15d", "-f", "김", "-t", "16")
    assert result.exit_code == 0, result.output
    assert hands(league)[0]["friend"] == "김철수"
    result = mighty(league, "record", "-l", "tue", "--deal-miss", "di")
    assert result.exit_code == 0, result.output


def test_a_name_of_nobody_playing_is_one_line_exit_1(league):
    result = mighty(league, "record", "-l", "tue", "-d", "Ana", "-c", "15D", "-f", "Cy", "-t", "16")
    assert result.exit_code == 1 and result.output.startswith("Error: ")
    assert result.output.count("\n") == 1 and hands(league) == []


def test_prefix_matching_refuses_an_ambiguous_prefix():
    with pytest.raises(UnknownName, match="could be"):
        match_name("j", ["지현", "Jo", "Jin"])
    assert match_name("지", ["지현", "Jo", "Jin"]) == "지현"
    assert match_name("JO", ["지현", "Jo", "Jin"]) == "Jo"


def test_record_evening_keeps_one_process_for_the_session(league):
    script = [
        "bo",
        "15d",
        "cy",
        "16",  # hand 1
        "standings",
        "miss di",  # hand 2: a deal miss
        "nobody",  # a typo: asked again
        "bo",
        "14h",
        "none",
        "9",  # hand 3
        "quit",
    ]
    result = mighty(league, "record", "-l", "tue", "--evening", input="\n".join(script) + "\n")
    assert result.exit_code == 0, result.output
    stored = hands(league)
    assert [h["status"] for h in stored] == ["scored", "deal_miss", "scored"]
    assert "Session totals after 1 hand" in result.output
    assert result.output.count("Hand 2:") >= 1 and "✗" in result.output


def test_record_evening_ends_at_end_of_input(league):
    result = mighty(league, "record", "-l", "tue", "--evening", input="bo\n15d\ncy\n16\n")
    assert result.exit_code == 0, result.output
    assert len(hands(league)) == 1


def test_interactive_record_that_runs_out_of_input_records_nothing(league):
    result = mighty(league, "record", "-l", "tue", input="bo\n15d\n")
    assert result.exit_code == 1 and "nothing recorded" in result.output
    assert hands(league) == []
