"""Substitutes between rounds (issue 23): ``round start --substitute S/X`` seats S in X's
place, planned with X's opponents so far; S's results are kept apart under S's name, or with
``--credit`` counted for X in the tournament table. On SQLite and (when configured)
PostgreSQL."""

from __future__ import annotations

import json

import pytest

from league_calls import ok, refused

TEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gil", "Hu", "Ida", "Jo"]
PLACE_RULES = (
    'extends = "standard"\n[meta]\nname = "placecup"\ntitle = "Place cup"\n'
    '[tournament]\nscore = "place"\n'
)


def play_round(db, players, *extra) -> dict:
    """Start a round, one hand at each table (seat 1 declares 14S with seat 2, takes 16)."""
    plan = json.loads(
        ok(db, "round", "start", "-l", "cup", "-p", ",".join(players), "--json", *extra)
    )
    for table in plan["tables"]:
        seats = table["players"]
        ok(
            db,
            "record",
            "-l",
            "cup",
            "--table",
            str(table["table"]),
            "-d",
            seats[1],
            "-c",
            "14S",
            "-f",
            seats[2],
            "-t",
            "16",
        )
    return plan


@pytest.fixture
def cup(db, tmp_path):
    rules = tmp_path / "place.toml"
    rules.write_text(PLACE_RULES)
    ok(db, "league", "create", "cup", "--ruleset", str(rules))
    play_round(db, TEN)
    ok(db, "round", "end", "-l", "cup")
    return db


def tournament(db) -> dict:
    data = json.loads(ok(db, "standings", "-l", "cup", "--json"))
    return {row["name"]: row for row in data["tournament"]["players"]}


def place_points(plan, name) -> float:
    """At a table where seat 1 made +8, seat 2 +4 and the rest -4 each: 60, 48 and the
    last three places' 36 + 24 + 12 shared (24 each)."""
    for table in plan["tables"]:
        if name in table["players"]:
            return {1: 60, 2: 48}.get(table["players"].index(name), 24)
    raise AssertionError(name)


def test_substitute_credited_counts_for_the_player_replaced(cup):
    before = tournament(cup)["Jo"]
    present = [name for name in TEN if name != "Jo"] + ["Zed"]
    plan = play_round(cup, present, "--substitute", "Zed/Jo", "--credit")
    assert plan["substitutes"] == [{"player": "Zed", "for": "Jo", "credited": True}]
    rows = tournament(cup)
    assert "Zed" not in rows  # his round is Jo's
    assert rows["Jo"]["rounds"] == 2
    assert rows["Jo"]["place"] == before["place"] + place_points(plan, "Zed")
    league = {
        row["name"]: row
        for row in json.loads(ok(cup, "standings", "-l", "cup", "--json"))["players"]
    }
    assert league["Zed"]["hands"] == 1 and league["Jo"]["hands"] == 1  # who really played
    text = ok(cup, "round", "show", "-l", "cup")
    table = next(t["table"] for t in plan["tables"] if "Zed" in t["players"])
    assert (
        f"Zed sits in for Jo at table {table} from hand 1: the results count for Jo in the "
        f"tournament table."
    ) in text


def test_substitute_kept_apart_by_default(cup):
    present = [name for name in TEN if name != "Jo"] + ["Zed"]
    plan = play_round(cup, present, "--substitute", "Zed/Jo")
    assert plan["substitutes"] == [{"player": "Zed", "for": "Jo", "credited": False}]
    rows = tournament(cup)
    assert rows["Zed"]["rounds"] == 1 and rows["Zed"]["place"] == place_points(plan, "Zed")
    assert rows["Jo"]["rounds"] == 1


def test_a_substitute_is_planned_in_the_place_of_the_player_replaced(cup, tmp_path):
    """The same seed seats Zed (for Jo) exactly where it would have seated Jo."""
    twin = f"sqlite:///{tmp_path / 'twin.db'}"
    ok(twin, "league", "create", "cup", "--ruleset", str(tmp_path / "place.toml"))
    play_round(twin, TEN)
    ok(twin, "round", "end", "-l", "cup")
    with_jo = json.loads(
        ok(twin, "round", "start", "-l", "cup", "-p", ",".join(TEN), "--seed", "3", "--json")
    )
    present = [name for name in TEN if name != "Jo"] + ["Zed"]
    with_zed = json.loads(
        ok(
            cup,
            "round",
            "start",
            "-l",
            "cup",
            "-p",
            ",".join(present),
            "--seed",
            "3",
            "--substitute",
            "Zed/Jo",
            "--json",
        )
    )
    as_jo = [
        [("Jo" if name == "Zed" else name) for name in table["players"]]
        for table in with_zed["tables"]
    ]
    assert [sorted(t) for t in as_jo] == [sorted(t["players"]) for t in with_jo["tables"]]
    assert with_zed["repeated_pairs"] == with_jo["repeated_pairs"]


def test_a_reseat_keeps_the_substitute_who_stays_and_forgets_one_who_left(cup):
    present = [name for name in TEN if name != "Jo"] + ["Zed"]
    ok(
        cup,
        "round",
        "start",
        "-l",
        "cup",
        "-p",
        ",".join(present),
        "--substitute",
        "Zed/Jo",
        "--credit",
    )
    shown = json.loads(ok(cup, "round", "reseat", "-l", "cup", "--seed", "5", "--json"))
    assert shown["substitutes"] == [{"player": "Zed", "for": "Jo", "credited": True}]
    shown = json.loads(ok(cup, "round", "reseat", "-l", "cup", "-p", ",".join(TEN), "--json"))
    assert "substitutes" not in shown


@pytest.mark.parametrize(
    "args, said",
    [
        (["--substitute", "Zed/Jo"], "Zed is not one of the players present"),
        (["--substitute", "Ana/Bo"], "Bo is present; a substitute sits in for a player who is not"),
        (["--substitute", "Ana/Nobody"], "no player named Nobody in this store"),
    ],
)
def test_a_substitute_that_cannot_be_is_refused(cup, args, said):
    output = refused(cup, "round", "start", "-l", "cup", "-p", ",".join(TEN), *args)
    assert said in output


def test_two_substitutes_for_one_player_are_refused(cup):
    present = [name for name in TEN if name not in ("Jo", "Ida")] + ["Zed", "Yul"]
    output = refused(
        cup,
        "round",
        "start",
        "-l",
        "cup",
        "-p",
        ",".join(present),
        "--substitute",
        "Zed/Jo",
        "--substitute",
        "Yul/Jo",
    )
    assert "one substitute for one player" in output


def test_credit_without_a_substitute_is_a_usage_error(cup):
    output = refused(cup, "round", "start", "-l", "cup", "-p", ",".join(TEN), "--credit", code=2)
    assert "--credit is said of substitutes" in output
