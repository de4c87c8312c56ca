"""``mighty record`` reads the table's one vocabulary (mighty_cli.table.words), as the referee
does: every word the referee takes for "no friend" at the friend call (``nf``, ``노프렌드``,
``-``) is no friend on ``record``'s command line and at its friend question."""

from __future__ import annotations

import json

import pytest

from mighty_cli.cli import cli
from mighty_cli.table.words import WORDS

FIVE = "Ana,Bo,Cy,Di,Ed"


def run(runner, *args, input=None):
    result = runner.invoke(cli, list(args), input=input)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def league(runner):
    run(runner, "league", "create", "L", "-r", "standard")
    run(runner, "session", "start", "-l", "L", "-p", FIVE)
    return runner


def friends_stored(runner) -> list:
    hands = json.loads(run(runner, "hand", "list", "-l", "L", "--json"))["hands"]
    return [hand["friend"] for hand in hands]


@pytest.mark.parametrize("word", WORDS["none"])
def test_record_friend_takes_every_word_the_referee_takes_for_no_friend(league, word):
    out = run(league, "record", "-l", "L", "-d", "Ana", "-c", "14S", "--friend", word,
              "-t", "16")
    assert "Ana 14S alone" in out
    assert friends_stored(league) == [None]


@pytest.mark.parametrize("word", ["nf", "노프렌드", "-"])
def test_record_friend_question_takes_the_referees_words_for_no_friend(league, word):
    run(league, "record", "-l", "L", input=f"Ana\n14S\n{word}\n16\n")
    assert friends_stored(league) == [None]
