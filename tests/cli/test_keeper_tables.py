"""A keeper thinks in tables, not sessions (issue 35, item 4), and plans count only what was
played (item 6): eleven at two tables, a latecomer's false start; on SQLite and (when
configured) PostgreSQL."""

from __future__ import annotations

import json

import pytest

from league_calls import mighty, ok, refused

ELEVEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gil", "Hu", "Ida", "Jo", "Ki"]


@pytest.fixture
def cup(db):
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    return db


def start(db, players=ELEVEN, seed=1, league="cup") -> dict:
    return json.loads(
        ok(
            db,
            "round",
            "start",
            "-l",
            league,
            "-p",
            ",".join(players),
            "--seed",
            str(seed),
            "--json",
        )
    )


def record(db, table, league="cup") -> str:
    """A hand at ``table``: the second proposed player declares, the third is friend."""
    players = json.loads(ok(db, "session", "show", "-l", league, "--table", str(table), "--json"))[
        "next"
    ]["players"]
    return ok(
        db,
        "record",
        "-l",
        league,
        "--table",
        str(table),
        "-d",
        players[1],
        "-c",
        "14H",
        "-f",
        players[2],
        "-t",
        "16",
        "--again",
    )  # filler hands: the same outcome may come twice


def test_with_several_tables_open_record_asks_for_the_table_and_lists_them(cup):
    plan = start(cup)
    one, two = plan["tables"]
    message = refused(cup, "record", "-l", "cup", "-d", "Ana", "-c", "15D", "-f", "Bo", "-t", "16")
    assert message == (
        f"Error: league 'cup' has 2 open tables (table 1: "
        f"{', '.join(one['players'])}; table 2: {', '.join(two['players'])}): "
        f"say which with --table\n"
    )
    assert "say which with --table" in refused(cup, "session", "show", "-l", "cup")
    shown = json.loads(ok(cup, "session", "show", "-l", "cup", "--table", "2", "--json"))
    assert shown["session"] == two["session"] and shown["players"] == two["players"]


def test_every_hand_says_its_round_table_and_number_at_the_table(cup):
    """Hands stored at two tables in turns: each keeps its table's own count, the league's
    numbers interleave; a hand of a session outside any round has no table (null)."""
    ok(cup, "session", "start", "-l", "cup", "-p", "Vivian,Walter,Xavier,Yolanda,Zachary")
    ok(cup, "record", "-l", "cup", "-d", "Vivian", "-c", "14H", "-f", "Walter", "-t", "16")
    ok(cup, "session", "end", "-l", "cup")
    start(cup)
    for table in (2, 1, 2):
        record(cup, table)
    hands = json.loads(ok(cup, "hand", "list", "-l", "cup", "--json"))["hands"]
    assert [(h["number"], h["round"], h["table"], h["table_hand"]) for h in hands] == [
        (1, None, None, None),
        (2, 1, 2, 1),
        (3, 1, 1, 1),
        (4, 1, 2, 2),
    ]
    text = ok(cup, "hand", "list", "-l", "cup").splitlines()
    assert text[0].split()[:6] == ["hand", "session", "round", "table", "table", "hand"]
    assert text[5].split()[:5] == ["4", "3", "1", "2", "2"]
    shown = json.loads(ok(cup, "hand", "show", "-l", "cup", "--table", "2", "2", "--json"))
    assert shown == json.loads(ok(cup, "hand", "show", "-l", "cup", "4", "--json"))
    assert ok(cup, "hand", "show", "-l", "cup", "--table", "2", "2").startswith(
        f"Hand 4, session {shown['session']} ({shown['day']}) (round 1, table 2, hand 2)\n"
    )


def test_hand_amend_void_and_unvoid_take_the_tables_number(cup):
    start(cup)
    for table in (2, 1, 2):
        record(cup, table)
    amended = json.loads(
        ok(
            cup,
            "hand",
            "amend",
            "-l",
            "cup",
            "--table",
            "2",
            "2",
            "-t",
            "12",
            "--reason",
            "miscounted",
            "--json",
        )
    )
    assert amended["after"]["number"] == 3 and amended["after"]["taken"] == 12
    said = ok(cup, "hand", "void", "-l", "cup", "--table", "1", "1", "--reason", "twice")
    assert said.startswith("Hand 2 (round 1, table 1, hand 1): ")
    assert json.loads(ok(cup, "hand", "show", "-l", "cup", "2", "--json"))["voided"] is True
    ok(cup, "hand", "unvoid", "-l", "cup", "--table", "1", "1", "--reason", "played after all")
    # a voided hand keeps its number at the table: the next is the table's hand 3
    ok(cup, "hand", "void", "-l", "cup", "--table", "2", "1", "--reason", "twice")
    assert "Table 2, hand 3 (league hand 4," in record(cup, 2)
    assert (
        json.loads(ok(cup, "hand", "show", "-l", "cup", "--table", "2", "3", "--json"))["number"]
        == 4
    )
    ok(cup, "round", "end", "-l", "cup")
    assert "has no open round; say which with --round" in refused(
        cup, "hand", "show", "-l", "cup", "--table", "2", "3"
    )
    assert (
        json.loads(
            ok(cup, "hand", "show", "-l", "cup", "--table", "2", "3", "--round", "1", "--json")
        )["number"]
        == 4
    )


@pytest.mark.parametrize(
    "args, said, code",
    [
        (["--table", "2", "3"], "table 2 of round 1 has no hand 3 (its hands: 1)", 1),
        (["--table", "5", "1"], "--table 5: round 1 has tables 1 to 2", 1),
        (["--table", "1", "1", "--round", "4"], "league 'cup' has no round 4", 1),
        (["--round", "1", "1"], "--round is said of a table: give --table T too", 2),
    ],
)
def test_a_tables_hand_that_is_not_there_is_one_line(cup, args, said, code):
    start(cup)
    record(cup, 2)
    assert said in refused(cup, "hand", "show", "-l", "cup", *args, code=code)


def played(db, plan, league) -> None:
    """A hand at each table of the round, then its end."""
    for table in plan["tables"]:
        record(db, table["table"], league)
    ok(db, "round", "end", "-l", league)


def test_a_false_start_is_no_meeting_in_the_next_plan(db):
    """Eleven play round 1; round 2 starts, a latecomer arrives, and the round ends before
    anything counts (table 1 stored a hand and voided it, table 2 none), as does a session
    started and ended with no hand; round 2 starts again with twelve. Its plan is the plan of a
    league that never had the false start: the same tables, repeats and bound."""
    twelve = ELEVEN + ["Mallory"]
    plans = {}
    for league in ("cup", "control"):
        ok(db, "league", "create", league, "--ruleset", "standard")
        played(db, start(db, ELEVEN, 1, league), league)
        if league == "cup":
            start(db, ELEVEN, 2, league)
            record(db, 1, league)
            ok(db, "hand", "void", "-l", league, "--table", "1", "1", "--reason", "latecomer")
            ok(db, "round", "end", "-l", league)
            ok(db, "session", "start", "-l", league, "-p", ",".join(ELEVEN[:5]))
            ok(db, "session", "end", "-l", league)
        plans[league] = start(db, twelve, 2, league)
        ok(db, "round", "end", "-l", league)
    cup, control = plans["cup"], plans["control"]
    assert [t["players"] for t in cup["tables"]] == [t["players"] for t in control["tables"]]
    assert (cup["repeated_pairs"], cup["lower_bound"]) == (
        control["repeated_pairs"],
        control["lower_bound"],
    )
    assert cup["round"] == 3 and control["round"] == 2
    assert mighty(db, "round", "show", "-l", "cup", "--round", "2").exit_code == 0
