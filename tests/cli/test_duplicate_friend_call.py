"""``mighty record`` asking its questions at a duplicate round's table (issue 35): the deal
decides who the friend is, so a keeper who names a friend is asked the card the declarer called
(the store refuses a friend without it); no friend, no question. Seed 7 deals the ace of spades
to seat 4 on deal 1 (tests/cli/test_duplicate_round.py works it out)."""

from __future__ import annotations

import json

import pytest
from league_calls import mighty, ok

FIFTEEN = [f"P{i:02d}" for i in range(1, 16)]
ASKED = "Card called (e.g. SA, 스페이드 A): the deal says who held it"


@pytest.fixture
def table_1(db) -> list[str]:
    """A duplicate round of three tables (seed 7): the players of table 1, seat by seat."""
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    plan = json.loads(ok(db, "round", "start", "-l", "cup", "-p", ",".join(FIFTEEN),
                         "--duplicate", "--seed", "7", "--json"))
    return plan["tables"][0]["players"]


def stored(db) -> list[tuple]:
    hands = json.loads(ok(db, "hand", "list", "-l", "cup", "--json"))["hands"]
    return [(hand["declarer"], hand["friend"], hand.get("friend_call")) for hand in hands]


def test_record_at_a_duplicate_table_asks_the_card_called_when_a_friend_is_named(db, table_1):
    seats = table_1
    result = mighty(db, "record", "-l", "cup", "--table", "1",
                    stdin=f"{seats[2]}\n14S\n{seats[4]}\n스페이드 A\n16\n")
    assert result.exit_code == 0, result.output
    assert ASKED in result.output
    assert stored(db) == [(seats[2], seats[4], "SA")]


def test_record_at_a_duplicate_table_asks_no_card_when_the_declarer_plays_alone(db, table_1):
    seats = table_1
    result = mighty(db, "record", "-l", "cup", "--table", "1",
                    stdin=f"{seats[2]}\n14S\nnf\n16\n")
    assert result.exit_code == 0, result.output
    assert ASKED not in result.output
    assert stored(db) == [(seats[2], None, None)]


def test_record_at_a_duplicate_table_asks_again_for_an_answer_that_is_no_card(db, table_1):
    seats = table_1
    result = mighty(db, "record", "-l", "cup", "--table", "1",
                    stdin=f"{seats[2]}\n14S\n{seats[4]}\nS15\nSA\n16\n")
    assert result.exit_code == 0, result.output
    assert "'S15': the card the declarer called, e.g. SA (or 초구, first-trick)" in result.output
    assert stored(db) == [(seats[2], seats[4], "SA")]


def test_record_evening_at_a_duplicate_table_asks_the_card_called(db, table_1):
    seats = table_1
    result = mighty(db, "record", "-l", "cup", "--table", "1", "--evening",
                    stdin=f"{seats[2]}\n14S\n{seats[4]}\nSA\n16\nquit\n")
    assert result.exit_code == 0, result.output
    assert result.output.count(ASKED) == 1
    assert stored(db) == [(seats[2], seats[4], "SA")]


def test_record_with_the_card_on_its_command_line_is_not_asked_it(db, table_1):
    seats = table_1
    result = mighty(db, "record", "-l", "cup", "--table", "1", "--friend-call", "SA",
                    stdin=f"{seats[2]}\n14S\n{seats[4]}\n16\n")
    assert result.exit_code == 0, result.output
    assert ASKED not in result.output
    assert stored(db) == [(seats[2], seats[4], "SA")]
