"""One person, one open table, in any league of the database (issue 35, items 14 and 19): a
merge of two records seated at two open tables is refused (it made one player score at both
tables of one round), a merge carries the rounds' substitutes, and another league's session
cannot seat a player at an open table. On SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

import json

import pytest

from league_calls import ok, refused

TEN = ["Anna", "Boris", "Cyril", "Dmitri", "Edgar", "Fiona", "Gwen", "Hugo", "Ingrid", "Jonas"]


@pytest.fixture
def cup(db):
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    return db


def test_a_merge_across_two_open_tables_is_refused(cup):
    plan = json.loads(ok(cup, "round", "start", "-l", "cup", "-p", ",".join(TEN), "--json"))
    one, two = (table["players"] for table in plan["tables"])
    message = refused(cup, "player", "merge", two[1], one[1])
    assert message == (
        f"Error: cannot merge '{two[1]}' into '{one[1]}': '{two[1]}' sits at "
        f"table 2 of round 1 (session 2) of league 'cup' and '{one[1]}' at "
        f"table 1 of round 1 (session 1) of league 'cup', both open; one person "
        f"sits at one open table (end one, or take one out with 'mighty round "
        f"seat --leave')\n"
    )
    ok(cup, "round", "end", "-l", "cup")
    ok(cup, "player", "merge", two[1], one[1])  # the tables have ended: one person after all


def test_another_leagues_table_cannot_seat_a_player_at_an_open_one(cup):
    ok(cup, "league", "create", "tue", "--ruleset", "standard")
    plan = json.loads(ok(cup, "round", "start", "-l", "cup", "-p", ",".join(TEN), "--json"))
    where = plan["tables"][0]
    seated = where["players"][0]
    message = refused(
        cup, "session", "start", "-l", "tue", "-p", f"{seated},Vivian,Walter,Xavier,Yolanda"
    )
    assert (
        f"--players: '{seated}' is already seated at table 1 of round 1 (session "
        f"{where['session']}) of league 'cup', which is still open" in message
    )
    ok(cup, "round", "end", "-l", "cup")
    ok(cup, "session", "start", "-l", "tue", "-p", f"{seated},Vivian,Walter,Xavier,Yolanda")
    assert "of league 'tue', which is still open" in refused(
        cup, "round", "start", "-l", "cup", "-p", ",".join(TEN)
    )


def test_a_merge_carries_the_rounds_substitutes(cup):
    """Zelda sat in for Kim (a second record of Kimberly): merged, she sat in for Kimberly;
    merging Zelda into Kimberly (one sat in for the other) is refused."""
    ok(cup, "player", "add", "Kim", "Kimberly")
    ok(
        cup,
        "round",
        "start",
        "-l",
        "cup",
        "-p",
        ",".join(TEN[:9] + ["Zelda"]),
        "--substitute",
        "Zelda/Kim",
        "--credit",
    )
    ok(cup, "round", "end", "-l", "cup")
    ok(cup, "player", "merge", "Kim", "Kimberly")
    shown = json.loads(ok(cup, "round", "show", "-l", "cup", "--round", "1", "--json"))
    assert shown["substitutes"] == [{"player": "Zelda", "for": "Kimberly", "credited": True}]
    assert "one sat in for the other" in refused(cup, "player", "merge", "Zelda", "Kimberly")
