"""``mighty hand amend`` reads names as ``mighty record`` reads them: the keeper who typed
``bo`` for Bo, or ``김`` for 김철수, when he recorded a hand types the same when he corrects it
(without regard to case, or by a unique beginning, among the hand's players); a name that
matches nobody, or more than one, is refused with the store's line and changes nothing. And
``record`` refuses ``--deal-miss`` with ``--eliminated`` instead of dropping the eliminated.
Each on SQLite and PostgreSQL."""

from __future__ import annotations

import json

from click.testing import CliRunner

from mighty_cli.cli import cli

PLAYERS = ["Ana", "Bo", "Cy", "Di", "김철수", "김민준"]


def run(db, *args):
    return CliRunner().invoke(cli, [*args, "--db", db])


def ok(db, *args) -> str:
    result = run(db, *args)
    assert result.exit_code == 0, result.output
    return result.output


def refused(db, *args, code: int = 1) -> str:
    result = run(db, *args)
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output.splitlines()[-1]


def club(db, name: str = "club", ruleset: str = "standard", players=PLAYERS[:5]) -> None:
    ok(db, "league", "create", name, "-r", ruleset)
    ok(db, "session", "start", "-l", name, "-p", ",".join(players))
    ok(db, "record", "-l", name, "-d", players[0], "-c", "14S", "-f", players[1], "-t", "16")
    ok(db, "record", "-l", name, "-d", players[2], "-c", "15H", "-f", players[3], "-t", "12")


def hand(db, number: int, name: str = "club") -> dict:
    hands = json.loads(ok(db, "hand", "list", "-l", name, "--json"))["hands"]
    return next(h for h in hands if h["number"] == number)


def test_amend_matches_a_name_without_regard_to_case(db):
    club(db)
    ok(
        db,
        "hand",
        "amend",
        "-l",
        "club",
        "1",
        "--declarer",
        "bo",
        "--friend",
        "ANA",
        "--reason",
        "the other way round",
    )
    amended = hand(db, 1)
    assert (amended["declarer"], amended["friend"]) == ("Bo", "Ana")


def test_amend_matches_a_unique_beginning_of_a_korean_name(db):
    club(db)
    ok(db, "hand", "amend", "-l", "club", "2", "--friend", "김철", "--reason", "misheard")
    assert hand(db, 2)["friend"] == "김철수"


def test_amend_refuses_a_beginning_two_players_share_and_changes_nothing(db):
    club(db, players=["Ana", "Bo", "Cy", "김철수", "김민준"])
    before = ok(db, "hand", "list", "-l", "club", "--json")
    line = refused(db, "hand", "amend", "-l", "club", "1", "--friend", "김", "--reason", "x")
    assert line == (
        "Error: hand 1: friend = '김' is not one of the players of this hand "
        "(Ana, Bo, Cy, 김철수, 김민준)"
    )
    assert ok(db, "hand", "list", "-l", "club", "--json") == before


def test_amend_refuses_a_name_of_nobody_at_the_hand(db):
    club(db)
    line = refused(db, "hand", "amend", "-l", "club", "1", "--declarer", "zed", "--reason", "x")
    assert line == (
        "Error: hand 1: declarer = 'zed' is not one of the players of this hand "
        "(Ana, Bo, Cy, Di, 김철수)"
    )


def test_amend_friend_none_and_a_deal_miss_by_a_lowercase_name(db):
    club(db)
    ok(db, "hand", "amend", "-l", "club", "1", "--friend", "none", "--reason", "alone")
    assert hand(db, 1)["friend"] is None
    ok(db, "hand", "amend", "-l", "club", "2", "--deal-miss", "di", "--reason", "a deal miss")
    assert hand(db, 2)["deal_miss"] == "Di"


def test_amend_matches_among_the_amended_players(db):
    """Six at the session: ``--players`` names who played, and ``--declarer`` is matched among
    them (김민준 sat this hand out before the amendment)."""
    ok(db, "league", "create", "six", "-r", "standard")
    ok(db, "session", "start", "-l", "six", "-p", ",".join(PLAYERS))
    ok(
        db,
        "record",
        "-l",
        "six",
        "-p",
        "Ana,Bo,Cy,Di,김철수",
        "-d",
        "Ana",
        "-c",
        "14S",
        "-f",
        "Bo",
        "-t",
        "16",
    )
    ok(
        db,
        "hand",
        "amend",
        "-l",
        "six",
        "1",
        "-p",
        "Ana,Bo,Cy,Di,김민준",
        "--declarer",
        "김",
        "--reason",
        "김민준 played, not 김철수",
    )
    amended = hand(db, 1, "six")
    assert amended["declarer"] == "김민준" and "김철수" not in amended["players"]


def test_record_refuses_a_deal_miss_with_an_eliminated_player(db):
    ok(db, "league", "create", "six", "-r", "daejeon-6")
    ok(db, "session", "start", "-l", "six", "-p", ",".join(PLAYERS))
    line = refused(db, "record", "-l", "six", "--deal-miss", "Ana", "-e", "Bo", code=2)
    assert line == (
        "Error: give --deal-miss or --eliminated, not both: a deal miss (딜 미스) eliminates nobody"
    )
    assert json.loads(ok(db, "hand", "list", "-l", "six", "--json"))["hands"] == []
