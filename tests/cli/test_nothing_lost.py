"""Nothing a table entered comes back or goes missing (issue 21, items 1, 3 and 4): a hand
recorded after the referee was left mid-hand is not dealt again, a closed pipe does not roll a
command's work back, and a league session's deal seed survives a resumed evening."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mighty_cli.cli import cli

FIVE = ["지훈", "서연", "민수", "Bo", "Cy"]


def _league(runner, db, name="L"):
    assert (
        runner.invoke(cli, ["league", "create", name, "-r", "standard", "--db", db]).exit_code == 0
    )
    started = runner.invoke(cli, ["session", "start", "-l", name, "-p", ",".join(FIVE), "--db", db])
    assert started.exit_code == 0, started.output


def _hands(runner, db, name="L") -> list:
    out = runner.invoke(cli, ["hand", "list", "-l", name, "--db", db, "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)["hands"]


def test_a_recorded_hand_replaces_the_referees_unfinished_hand(runner, db):
    _league(runner, db)
    quit_midhand = runner.invoke(
        cli, ["referee", "--league", "L", "--db", db, "--seed", "3"], input="14s\nq\n"
    )
    assert quit_midhand.exit_code == 0, quit_midhand.output
    recorded = runner.invoke(
        cli, ["record", "-l", "L", "--db", db, "-d", "지훈", "-c", "15D", "-f", "서연", "-t", "16"]
    )
    assert recorded.exit_code == 0, recorded.output
    assert "unfinished hand (dealer 지훈) is dropped" in recorded.output
    resumed = runner.invoke(cli, ["referee", "--league", "L", "--db", db], input="q\n")
    assert resumed.exit_code == 0, resumed.output
    assert "resumed" not in resumed.output
    assert "14♠" not in resumed.output  # the old hand's bid is not shown again
    assert "dealer 서연" in resumed.output  # the next hand after hand 1, not hand 1 again
    assert [h["number"] for h in _hands(runner, db)] == [1]


def test_record_json_names_the_unfinished_hand_it_replaced(runner, db):
    _league(runner, db)
    runner.invoke(cli, ["referee", "--league", "L", "--db", db, "--seed", "3"], input="14s\nq\n")
    recorded = runner.invoke(
        cli,
        [
            "record",
            "-l",
            "L",
            "--db",
            db,
            "-d",
            "지훈",
            "-c",
            "15D",
            "-f",
            "서연",
            "-t",
            "16",
            "--json",
        ],
    )
    assert recorded.exit_code == 0, recorded.output
    assert json.loads(recorded.output)["replaced_live_hand"] == {"dealer": "지훈"}
    again = runner.invoke(
        cli,
        [
            "record",
            "-l",
            "L",
            "--db",
            db,
            "-d",
            "서연",
            "-c",
            "14S",
            "-f",
            "지훈",
            "-t",
            "15",
            "--json",
        ],
    )
    assert json.loads(again.output)["replaced_live_hand"] is None


def test_a_resumed_league_evening_deals_from_the_sessions_seed(runner, db):
    _league(runner, db)
    first = runner.invoke(
        cli, ["referee", "--league", "L", "--db", db, "--seed", "3"], input="table\nq\n"
    )
    resumed = runner.invoke(cli, ["referee", "--league", "L", "--db", db], input="table\nq\n")
    assert resumed.exit_code == 0, resumed.output
    assert "dealing from seed 3" in resumed.output

    def cards_of(output):  # the table view's hand of the bidder, which only a known deal shows
        return [line for line in output.splitlines() if line.startswith("지훈 holds")]

    assert cards_of(first.output) and cards_of(first.output) == cards_of(resumed.output)


def test_table_shows_the_bidders_hand_during_the_election(runner, db):
    _league(runner, db)
    shown = runner.invoke(
        cli, ["referee", "--league", "L", "--db", db, "--seed", "3"], input="14s\ntable\nq\n"
    )
    assert "서연 holds ♠8 ◆A ◆J ◆4 ♥A ♥7 ♥3 ♥2 ♣10 ♣8" in shown.output


def test_a_different_seed_for_a_seeded_session_is_refused(runner, db):
    _league(runner, db)
    runner.invoke(cli, ["referee", "--league", "L", "--db", db, "--seed", "3"], input="q\n")
    refused = runner.invoke(
        cli, ["referee", "--league", "L", "--db", db, "--seed", "4"], input="q\n"
    )
    assert refused.exit_code == 2
    assert "session 1 deals from seed 3" in refused.output


def _mighty(args, db, env=None):
    """Run the entry point with its standard output a pipe whose reader has gone (as with
    ``mighty ... | head -1`` once head has its line): every write fails with EPIPE."""
    code = (
        "import sys; from mighty_cli.cli import main; sys.argv = ['mighty'] + sys.argv[1:]; main()"
    )
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        process = subprocess.run(
            [sys.executable, "-c", code, *args, "--db", db],
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=120,
            env={**os.environ, **(env or {})},
        )
    finally:
        os.close(write_end)
    return process.returncode, process.stderr.decode()


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_closed_pipe_after_a_success_line_keeps_the_work(runner, db, language):
    assert (
        runner.invoke(cli, ["league", "create", "L", "-r", "standard", "--db", db]).exit_code == 0
    )
    for _number in (1, 2, 3):
        code, err = _mighty(
            ["session", "start", "-l", "L", "-p", ",".join(FIVE)], db, {"MIGHTY_LANG": language}
        )
        assert (code, err) == (0, "")
        code, err = _mighty(
            ["record", "-l", "L", "-d", "지훈", "-c", "15D", "-f", "서연", "-t", "16"], db
        )
        assert (code, err) == (0, "")
        code, err = _mighty(["session", "end", "-l", "L"], db)
        assert (code, err) == (0, "")
    assert [h["session"] for h in _hands(runner, db)] == [1, 2, 3]
