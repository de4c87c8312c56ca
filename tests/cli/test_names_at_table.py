"""Names a table could not tell apart (issue 35, items 15 and 19): two names one but for case
in one list, a new name the table reads as a word, a new name holding '/', a pair of one
player; an older store's names keep working. On SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

import json

import pytest

from league_calls import mighty, ok, refused

TEN = ["Anna", "Boris", "Cyril", "Dmitri", "Edgar", "Fiona", "Gwen", "Hugo", "Ingrid", "Jonas"]


@pytest.fixture
def cup(db):
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    ok(db, "round", "start", "-l", "cup", "-p", ",".join(TEN))  # the store's round to compare
    ok(db, "round", "end", "-l", "cup")
    return db


def old_store_player(db, name: str) -> None:
    """A player an older store may hold (made before the rules of new names)."""
    from mighty_cli.store.db import make_engine, transaction
    from mighty_cli.store.ledger.leagues import add_player

    engine = make_engine(db)
    with transaction(engine) as s:
        add_player(s, name) if "/" not in name else _insert(s, name)
    engine.dispose()


def _insert(s, name: str) -> None:
    from mighty_cli.store.models import Player

    s.add(Player(name=name))


@pytest.mark.parametrize("names", [["Anna", "anna"], ["Anna", "ANNA"], ["Anna", "Ａnna"]])
def test_two_names_one_but_for_case_in_one_list_are_refused(cup, names):
    players = names + ["Vi", "Wu", "Xu"]
    message = refused(cup, "round", "start", "-l", "cup", "-p", ",".join(players))
    assert f"--players: '{names[0]}' and '{names[1]}' are one name but for case" in message
    assert "one name but for case" in refused(
        cup, "session", "start", "-l", "cup", "-p", ",".join(players)
    )
    assert "one name but for case" in refused(cup, "player", "add", *names)


@pytest.mark.parametrize(
    "word, meaning",
    [
        ("None", "no friend"),
        ("NONE", "no friend"),
        ("노프렌드", "no friend"),
        ("dummy", "the dummy (은실)"),
        ("은실", "the dummy (은실)"),
        ("Joker", "the joker (조커)"),
        ("조커", "the joker (조커)"),
        ("mighty", "the mighty (마이티)"),
        ("pass", "a pass (패스)"),
        ("패스", "a pass (패스)"),
        ("first-trick", "the first trick's winner (초구)"),
        ("초구", "the first trick's winner (초구)"),
    ],
)
def test_a_new_name_the_table_reads_as_a_word_is_refused(cup, word, meaning):
    said = (
        f"player name '{word}': the table reads '{word}' as {meaning}; give the player another name"
    )
    assert said in refused(cup, "player", "add", word)
    assert said in refused(cup, "session", "start", "-l", "cup", "-p", f"{word},Vi,Wu,Xu,Yolanda")
    assert said in refused(cup, "round", "start", "-l", "cup", "-p", ",".join(TEN[:9] + [word]))
    assert said in refused(cup, "player", "rename", "Anna", word)


def test_a_player_an_older_store_named_none_keeps_playing(cup):
    old_store_player(cup, "None")
    ok(cup, "session", "start", "-l", "cup", "-p", "None,Vi,Wu,Xu,Yolanda")
    ok(cup, "record", "-l", "cup", "-d", "None", "-c", "14H", "-f", "Vi", "-t", "16")


def test_a_new_name_may_not_hold_a_slash(cup):
    said = (
        "player name 'Kim/Lee': must not contain '/' (it separates the two names of "
        "--apart A/B and --substitute S/X)"
    )
    assert said in refused(cup, "player", "add", "Kim/Lee")
    assert said in refused(
        cup, "round", "start", "-l", "cup", "-p", ",".join(TEN[:9] + ["Kim/Lee"])
    )
    assert said in refused(cup, "player", "rename", "Anna", "Kim/Lee")


def test_an_older_stores_name_with_a_slash_is_read_by_the_names_the_store_knows(cup):
    """Kim/Lee, of an older store, kept apart from Anna and sitting in for Jonas: each pair is
    read where one reading names two known players."""
    old_store_player(cup, "Kim/Lee")
    present = TEN[:9] + ["Kim/Lee"]
    plan = json.loads(
        ok(
            cup,
            "round",
            "start",
            "-l",
            "cup",
            "-p",
            ",".join(present),
            "--apart",
            "Kim/Lee/Anna",
            "--substitute",
            "Kim/Lee/Jonas",
            "--json",
        )
    )
    assert not any({"Kim/Lee", "Anna"} <= set(t["players"]) for t in plan["tables"])
    assert plan["substitutes"] == [{"player": "Kim/Lee", "for": "Jonas", "credited": False}]


@pytest.mark.parametrize("pair", ["Anna/Anna", "Anna/anna"])
def test_a_pair_of_one_player_is_refused(cup, pair):
    said = f"--apart {pair}: a pair is two different players"
    assert said in refused(
        cup, "round", "start", "-l", "cup", "-p", ",".join(TEN), "--apart", pair, code=2
    )
    assert said in refused(
        cup,
        "session",
        "start",
        "-l",
        "cup",
        "-p",
        ",".join(TEN[:5]),
        "--shuffle",
        "--apart",
        pair,
        code=2,
    )


def test_a_reseat_says_why_a_substitute_and_the_player_he_replaces_cannot_both_sit(cup):
    ok(cup, "player", "add", "Kimberly")
    present = TEN[:9] + ["Zelda"]
    ok(
        cup,
        "round",
        "start",
        "-l",
        "cup",
        "-p",
        ",".join(present),
        "--substitute",
        "Zelda/Kimberly",
    )
    message = refused(cup, "round", "reseat", "-l", "cup", "-p", ",".join(present + ["Kimberly"]))
    assert message == (
        "Error: --players: Zelda sits in for Kimberly this round (round start "
        "--substitute Zelda/Kimberly), so Kimberly cannot be seated too; leave "
        "Zelda out to seat Kimberly in his own place\n"
    )
    ok(cup, "round", "reseat", "-l", "cup", "-p", ",".join(TEN[:9] + ["Kimberly"]))
    assert mighty(cup, "round", "show", "-l", "cup", "--json").exit_code == 0
