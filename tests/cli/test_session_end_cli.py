"""Session ends and ``hand unvoid`` through click, on SQLite and (when configured) PostgreSQL:
the line saying a session ended and why, the one-line refusal of a hand after the end, what
``session show`` and ``mighty replay`` say, and unvoid's standings change."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from club_files import club_file
from mighty_cli.cli import cli
from mighty_cli.engine.records import Record, dump_record

FIVE = ["Ana", "Bo", "Cy", "Di", "Ed"]
BO_MADE = ["-d", "Bo", "-c", "14S", "-f", "Cy", "-t", "16"]
ANA_MADE = ["-d", "Ana", "-c", "14S", "-f", "Bo", "-t", "16"]


def mighty(db, *args):
    return CliRunner().invoke(cli, [*args, "--db", db])


def ok(db, *args):
    result = mighty(db, *args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def short(db, tmp_path):
    """A league whose sessions last two hands."""
    ok(db, "league", "create", "tue", "-r", club_file(tmp_path, hands_per_session=2))
    ok(db, "session", "start", "-l", "tue", "-p", ",".join(FIVE))
    return db


def test_hands_per_session_record_prints_that_the_session_ended_and_why(short):
    first = ok(short, "record", "-l", "tue", *BO_MADE)
    assert "Next hand" in first and "ended" not in first
    last = ok(short, "record", "-l", "tue", *ANA_MADE).splitlines()
    assert last[-1] == (
        "Session 1 ended by the ruleset (session.hands_per_session = 2: 2 hands "
        "played); start a new one to play on."
    )
    data = json.loads(ok(short, "session", "show", "-l", "tue", "--session", "1", "--json"))
    assert data["open"] is False
    assert data["ended_by"] == "session.hands_per_session = 2: 2 hands played"


def test_hands_per_session_refuses_a_hand_after_the_end_in_one_line(short):
    ok(short, "record", "-l", "tue", *BO_MADE)
    ok(short, "record", "-l", "tue", *ANA_MADE)
    before = ok(short, "export", "-l", "tue", "--format", "json")
    result = mighty(short, "record", "-l", "tue", *BO_MADE)
    assert result.exit_code == 1
    assert result.output.startswith(
        "Error: league 'tue' has no open session (session 1 ended "
        "by its ruleset: session.hands_per_session = 2"
    )
    assert result.output.count("\n") == 1
    assert ok(short, "export", "-l", "tue", "--format", "json") == before


def test_starting_points_session_show_counts_down_the_stacks(db, tmp_path):
    ok(db, "league", "create", "tue", "-r", club_file(tmp_path, starting_points=8))
    ok(db, "session", "start", "-l", "tue", "-p", ",".join(FIVE))
    ok(db, "record", "-l", "tue", *BO_MADE)
    assert "Session end rules: stacks of 8, lowest Ana at 4." in ok(
        db, "session", "show", "-l", "tue"
    )
    out = ok(db, "record", "-l", "tue", *ANA_MADE)
    assert "Session 1 ended by the ruleset (session.starting_points = 8: Di is at 0" in out


def test_void_of_an_ended_session_hand_notes_that_corrections_never_reopen(short):
    ok(short, "record", "-l", "tue", *BO_MADE)
    ok(short, "record", "-l", "tue", *ANA_MADE)
    out = ok(short, "hand", "void", "-l", "tue", "2", "--reason", "never played")
    assert "Note: by its hands as corrected, session 1 would not have ended yet" in out
    shown = ok(short, "session", "show", "-l", "tue", "--session", "1")
    assert "Ended by the ruleset: session.hands_per_session = 2: 2 hands played." in shown
    assert "corrections never reopen a session" in shown


def test_hand_unvoid_prints_the_standings_change_and_logs_it(short):
    ok(short, "record", "-l", "tue", *BO_MADE)
    ok(short, "hand", "void", "-l", "tue", "1", "--why", "wrong league")
    out = ok(
        short,
        "hand",
        "unvoid",
        "-l",
        "tue",
        "1",
        "--why",
        "right league after all",
        "--by",
        "김철수",
    )
    assert "Standings changed" in out and "Bo" in out
    assert "VOID" not in ok(short, "hand", "show", "-l", "tue", "1")
    log = json.loads(ok(short, "hand", "log", "-l", "tue", "--json"))["changes"][-1]
    assert (log["who"], log["action"], log["why"]) == (
        "김철수",
        "hand unvoid",
        "right league after all",
    )


def test_hand_unvoid_of_a_live_hand_exits_1(short):
    ok(short, "record", "-l", "tue", *BO_MADE)
    result = mighty(short, "hand", "unvoid", "-l", "tue", "1", "--why", "x")
    assert result.exit_code == 1 and "hand 1 is not void" in result.output


def test_replay_notes_hands_after_a_session_end(tmp_path):
    club_file(tmp_path, hands_per_session=2)
    hands = [
        {"declarer": "Bo", "contract": "14S", "friend": "Cy", "taken": 16},
        {"declarer": "Ana", "contract": "14S", "friend": "Bo", "taken": 16},
        {"declarer": "Di", "contract": "14S", "friend": "Ed", "taken": 16},
    ]
    path = tmp_path / "evening.toml"
    path.write_text(
        dump_record(Record(ruleset="club-session-end.toml", players=FIVE, hands=hands)),
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == (
        "note: the session ended after hand 2 (session.hands_per_session = 2: 2 hands played); "
        "hand 3 came after its end"
    )
    assert "note:" not in CliRunner().invoke(cli, ["replay", str(path), "--json"]).output
