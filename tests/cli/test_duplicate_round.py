"""Duplicate Mighty through the command line (issue 23): ``round start --duplicate --seed S``
gives every table of one size the same deals in the same seats, the hands stored are checked
against them, and the matchpoints (each seat against the others who held the same cards) are
checked by hand on a small case, on SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from league_calls import mighty, ok, refused
from mighty_cli.cli import cli
from mighty_cli.engine.cards import format_cards
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.store.ledger.duplicate_deals import expected_deal

FIFTEEN = [f"P{i:02d}" for i in range(1, 16)]


@pytest.fixture
def cup(db):
    ok(db, "league", "create", "cup", "--ruleset", "standard")
    return db


def duplicate(db, players, seed=7) -> list[list[str]]:
    plan = json.loads(
        ok(
            db,
            "round",
            "start",
            "-l",
            "cup",
            "-p",
            ",".join(players),
            "--duplicate",
            "--seed",
            str(seed),
            "--json",
        )
    )
    assert plan["duplicate"]["seed"] == seed
    return [t["players"] for t in plan["tables"]]


def holder(seed, deal, seat, card="SA", size=5) -> int:
    """The seat dealt ``card`` in a duplicate round's deal (every table alike)."""
    seats = [f"s{i}" for i in range(size)]
    cards = expected_deal(load_ruleset("standard"), seed, deal, seats)
    return next(i for i, who in enumerate(seats) if card in format_cards(cards[who]).split())


def test_matchpoints_of_a_duplicate_round_checked_by_hand(cup):
    """Three tables of five, seed 7 (the ace of spades dealt to seat 4 on deal 1, seat 1 on
    deal 2). Deal 1 at all three tables, 14S by seat 2 calling the ace: made with 16 at tables
    1 and 3 (+8 +4 / -4 each), failed with 12 at table 2 (-4 -2 / +2 each). Deal 2 at tables 1
    and 2, 14H by seat 0 calling the ace: made with 14 (+4 +2 / -2), failed with 10 (-8 -4 /
    +4). By hand, per seat of deal 1 (top 2): the seat that scored more beats, equal seats
    tie; per seat of deal 2 (top 1): the better result takes the point."""
    assert holder(7, 1, 4) == 4 and holder(7, 2, 1) == 1
    t1, t2, t3 = duplicate(cup, FIFTEEN)
    for table, seats, taken in ((1, t1, 16), (2, t2, 12), (3, t3, 16)):
        ok(
            cup,
            "record",
            "-l",
            "cup",
            "--table",
            str(table),
            "-d",
            seats[2],
            "-c",
            "14S",
            "-f",
            seats[4],
            "--friend-call",
            "SA",
            "-t",
            str(taken),
        )
    for table, seats, taken in ((1, t1, 14), (2, t2, 10)):
        ok(
            cup,
            "record",
            "-l",
            "cup",
            "--table",
            str(table),
            "-d",
            seats[0],
            "-c",
            "14H",
            "-f",
            seats[1],
            "--friend-call",
            "SA",
            "-t",
            str(taken),
        )
    by_seat = {  # (matchpoints, top) for seats 0-4 at each table, worked out above
        1: [(0.5 + 1, 3), (0.5 + 1, 3), (1.5 + 0, 3), (0.5 + 0, 3), (1.5 + 0, 3)],
        2: [(2 + 0, 3), (2 + 0, 3), (0 + 1, 3), (2 + 1, 3), (0 + 1, 3)],
        3: [(0.5, 2), (0.5, 2), (1.5, 2), (0.5, 2), (1.5, 2)],
    }
    expected = {
        seats[i]: by_seat[table][i]
        for table, seats in ((1, t1), (2, t2), (3, t3))
        for i in range(5)
    }
    shown = json.loads(ok(cup, "round", "show", "-l", "cup", "--json"))["duplicate"]
    assert {
        row["player"]: (row["matchpoints"], row["top"]) for row in shown["matchpoints"]
    } == expected
    best = shown["matchpoints"][0]
    assert (best["player"], best["percent"], best["deals"]) == (t2[3], 100.0, 2)
    standings = json.loads(ok(cup, "standings", "-l", "cup", "--round", "1", "--json"))
    assert standings["matchpoints"] == shown["matchpoints"]
    assert {"players", "tournament", "min_hands"} <= set(standings)  # today's keys kept
    text = ok(cup, "round", "show", "-l", "cup")
    assert f"1. {t2[3]}: 3 of 3 (100.0%), 2 deals compared" in text


def test_every_table_deals_each_deal_from_the_same_seat(cup):
    tables = duplicate(cup, FIFTEEN)
    for deal in (1, 2, 3):
        for number, seats in enumerate(tables, start=1):
            proposed = json.loads(
                ok(cup, "session", "show", "-l", "cup", "--session", str(number), "--json")
            )["next"]
            assert proposed["dealer"] == seats[(deal - 1) % 5]
        for number, seats in enumerate(tables, start=1):  # whatever the last deal's result
            ok(
                cup,
                "record",
                "-l",
                "cup",
                "--table",
                str(number),
                "-d",
                seats[number % 5],
                "-c",
                "14H",
                "-f",
                "none",
                "-t",
                str(10 + 3 * number),
                "--again",
            )


def test_a_duplicate_table_refuses_another_dealer_or_another_friend(cup):
    t1, _t2, _t3 = duplicate(cup, FIFTEEN)
    said = refused(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "--dealer",
        t1[1],
        "-d",
        t1[2],
        "-c",
        "14S",
        "-f",
        t1[4],
        "-t",
        "16",
    )
    assert f"table 1, deal 1 of duplicate round 1: {t1[0]} deals it at every table" in said
    said = refused(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "-d",
        t1[2],
        "-c",
        "14S",
        "-f",
        t1[3],
        "--friend-call",
        "SA",
        "-t",
        "16",
    )
    assert f"SA was dealt to {t1[4]}, so the friend is {t1[4]}" in said
    said = refused(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "-d",
        t1[4],
        "-c",
        "14S",
        "-f",
        t1[3],
        "--friend-call",
        "SA",
        "-t",
        "16",
    )
    assert "so the friend is none" in said  # the declarer called his own ace


def test_a_duplicate_table_asks_for_the_called_card_with_a_friend(cup):
    """The deal decides who the friend is, so a friend named without the card called is
    refused (nothing stored); no friend without a call is the declarer playing alone."""
    t1, _t2, _t3 = duplicate(cup, FIFTEEN)
    said = refused(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "-d",
        t1[2],
        "-c",
        "14S",
        "-f",
        t1[4],
        "-t",
        "16",
    )
    assert (
        "the deal decides who the friend is: give the card the declarer called "
        "(--friend-call" in said
    )
    ok(
        cup,
        "record",
        "-l",
        "cup",
        "--table",
        "1",
        "-d",
        t1[2],
        "-c",
        "14S",
        "-f",
        "none",
        "-t",
        "16",
    )


def test_the_referee_deals_every_table_the_same_cards(cup):
    tables = duplicate(cup, FIFTEEN, seed=11)
    held = []
    for number, seats in enumerate(tables, start=1):
        result = mighty(cup, "referee", "--league", "cup", "--table", str(number), stdin="q\n")
        assert result.exit_code == 0, result.output
        assert "dealing from seed 11" in result.output
        assert "(a duplicate deal: as at every table of the round)" in result.output
        line = next(line for line in result.output.splitlines() if " holds " in line)
        who, cards = line.split(" holds ")
        held.append((seats.index(who), cards))
    assert len(set(held)) == 1  # the same seat opens, with the same cards, at every table
    result = mighty(
        cup, "referee", "--league", "cup", "--table", "1", stdin=f"dealer {tables[0][2]}\nq\n"
    )
    assert "a duplicate round deals each deal from the same seat" in result.output


def test_a_duplicate_table_refuses_another_deal_file(cup, tmp_path):
    duplicate(cup, FIFTEEN)
    deal = tmp_path / "deal.toml"
    dealt = CliRunner().invoke(cli, ["deal", "--seed", "3", "--players", ",".join(FIFTEEN[:5])])
    deal.write_text(dealt.output)
    said = refused(cup, "referee", "--league", "cup", "--table", "1", "--deal", str(deal), code=2)
    assert "deals the round's cards" in said


def test_at_six_the_same_seat_sits_out_each_deal_at_every_table(cup):
    tables = duplicate(cup, FIFTEEN[:12])
    assert [len(t) for t in tables] == [6, 6]
    for number, seats in enumerate(tables, start=1):
        proposed = json.loads(
            ok(cup, "session", "show", "-l", "cup", "--session", str(number), "--json")
        )["next"]
        assert [seats.index(p) for p in proposed["players"]] == [1, 2, 3, 4, 5]


def test_eleven_at_six_and_five_say_which_table_has_nothing_to_compare(cup):
    text = ok(
        cup,
        "round",
        "start",
        "-l",
        "cup",
        "-p",
        ",".join(FIFTEEN[:11]),
        "--duplicate",
        "--seed",
        "3",
    )
    assert re.search(r"Table \d is the one table of 6: its deals are compared with none", text)
    assert re.search(r"Table \d is the one table of 5: its deals are compared with none", text)


def test_drafted_hands_cannot_be_duplicated(db):
    ok(db, "league", "create", "duo", "--ruleset", "mn4-2")
    result = mighty(db, "round", "start", "-l", "duo", "-p", "A,B,C,D", "--duplicate")
    assert result.exit_code == 1 and "table.deal = draft" in result.output
    assert "Traceback" not in result.output


def test_a_duplicate_deal_sits_out_its_own_players_under_a_losing_team_rule(db):
    """세종 (session.sit_out = losing_team) seats the last hand's losers out; a duplicate
    deal's sitter-out is the deal's own (its dealer), at every table alike."""
    ok(db, "league", "create", "cup", "--ruleset", "sejong")
    tables = duplicate(db, FIFTEEN[:12])
    for deal in (1, 2, 3):
        for number, seats in enumerate(tables, start=1):
            proposed = json.loads(
                ok(db, "session", "show", "-l", "cup", "--session", str(number), "--json")
            )["next"]
            assert proposed["dealer"] == seats[(deal - 1) % 6]
            playing = proposed["players"]
            ok(
                db,
                "record",
                "-l",
                "cup",
                "--table",
                str(number),
                "-d",
                playing[0],
                "-c",
                "14H",
                "-f",
                "none",
                "-t",
                str(8 + 4 * number),
                "--again",
            )
