"""The league at every table size: seating, sit-outs and succession (engine/session.py) at 4,
6 and 7, and the league commands (session start, referee --league, record, record --evening)
under 4마, 6마 and 7마 and under 5마 with seven present."""

from __future__ import annotations

import json

import pytest

from evening_script import parse_proposal
from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.engine.session import PreviousHand, propose
from sizes_script import names, play_out, seeded_deal, typed_lines

SEVEN = names(7)


# --- seating and succession (engine/session.py) ---------------------------------------------


def scored(players, dealer, declarer, friend, success=True):
    return PreviousHand("scored", tuple(players), dealer, declarer, friend, success)


@pytest.mark.parametrize(
    "ruleset, present, out",
    [
        ("standard-4", 4, ()),
        ("standard-4", 5, ("Ana",)),
        ("standard-4", 6, ("Ana", "Bo")),
        ("standard-6", 6, ()),
        ("standard-6", 7, ("Ana",)),
        ("standard-6", 8, ("Ana", "Bo")),
        ("standard-7", 7, ()),
        ("standard", 7, ("Ana", "Bo")),
    ],
)
def test_first_hand_seats_the_table_and_sits_the_rest_out_from_the_dealer(ruleset, present, out):
    rules = load_ruleset(ruleset)
    proposal = propose(rules, names(present), None)
    assert proposal.dealer == "Ana"
    assert proposal.sitting_out == out
    assert len(proposal.players) == rules.table.players
    assert proposal.opener in proposal.players


def test_four_ma_with_five_present_the_dealer_sits_out_and_the_friend_deals_next():
    rules = load_ruleset("standard-4")
    present = names(5)
    previous = scored(["Bo", "Cy", "Di", "Ed"], "Ana", "Cy", "Ed")
    proposal = propose(rules, present, previous)
    assert (proposal.dealer, proposal.sitting_out) == ("Ed", ("Ed",))
    assert proposal.players == ("Ana", "Bo", "Cy", "Di")


def test_four_ma_with_six_present_the_declarer_and_friend_sit_out():
    rules = load_ruleset("standard-4")
    previous = scored(["Cy", "Di", "Ed", "Fay"], "Ana", "Di", "Fay")
    proposal = propose(rules, names(6), previous)
    assert proposal.sitting_out == ("Di", "Fay")
    assert proposal.players == ("Ana", "Bo", "Cy", "Ed")
    assert proposal.dealer == "Fay"  # the friend deals (session.next_dealer), sitting out


def test_six_ma_seats_all_six_and_the_friend_deals_next():
    rules = load_ruleset("standard-6")
    previous = scored(names(6), "Ana", "Bo", "Cy")
    proposal = propose(rules, names(6), previous)
    assert (proposal.dealer, proposal.sitting_out, proposal.players) == ("Cy", (), tuple(names(6)))


def test_seven_club_plays_seven_ma_with_nobody_out_or_five_ma_sitting_two_out():
    previous = scored(SEVEN, "Ana", "Di", "Gus")
    seven = propose(load_ruleset("standard-7"), SEVEN, previous)
    assert (seven.dealer, seven.sitting_out, len(seven.players)) == ("Gus", (), 7)
    five = propose(
        load_ruleset("standard"),
        SEVEN,
        scored(["Cy", "Di", "Ed", "Fay", "Gus"], "Ana", "Di", "Gus"),
    )
    assert five.sitting_out == ("Di", "Gus")
    assert five.players == ("Ana", "Bo", "Cy", "Ed", "Fay")


# --- the league commands --------------------------------------------------------------------


def league(runner, db, name, ruleset, present):
    assert runner.invoke(cli, ["league", "create", name, "-r", ruleset, "--db", db]).exit_code == 0
    result = runner.invoke(
        cli, ["session", "start", "-l", name, "-p", ",".join(present), "--db", db]
    )
    assert result.exit_code == 0, result.output
    return result


def test_session_start_outside_the_table_size_is_refused_in_one_line(runner, db):
    assert (
        runner.invoke(cli, ["league", "create", "club", "-r", "standard-7", "--db", db]).exit_code
        == 0
    )
    result = runner.invoke(
        cli, ["session", "start", "-l", "club", "-p", ",".join(names(6)), "--db", db]
    )
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: --players: 6 players; standard-7 seats 7 at the table (table.players), and one "
        "or two more may take turns to sit out: 7 to 9 present"
    )
    started = runner.invoke(
        cli, ["session", "start", "-l", "club", "-p", ",".join(SEVEN), "--db", db]
    )
    assert "Session 1 of club started" in started.output  # the refused start left nothing


def referee_league_hand(runner, db, name, rules):
    """One random legal hand refereed at the league's open session (seed 5): the proposal
    followed, the final state played."""
    probe = runner.invoke(cli, ["referee", "--league", name, "--db", db, "--seed", "5"], input="")
    assert probe.exit_code == 0, probe.output
    number, dealer, opener, out, playing = parse_proposal(probe.output)
    state = play_out(rules, playing, dealer, opener, seeded_deal(rules, playing, 5, number))
    result = runner.invoke(
        cli,
        ["referee", "--league", name, "--db", db, "--seed", "5"],
        input="\n".join(typed_lines(state)) + "\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert f"saved to league {name} as hand {number} (session 1)" in result.output, result.output
    return number, out, playing, state


@pytest.mark.parametrize(
    "ruleset, present", [("standard-7", 7), ("standard-6", 6), ("standard-4", 6), ("standard", 7)]
)
def test_referee_league_follows_seating_and_succession(runner, db, ruleset, present):
    rules = load_ruleset(ruleset)
    league(runner, db, "club", ruleset, names(present))
    totals = dict.fromkeys(names(present), 0)
    previous = None
    for _ in range(3):
        number, out, playing, state = referee_league_hand(runner, db, "club", rules)
        assert len(playing) == rules.table.players
        assert sorted(playing + out) == sorted(names(present))
        expected = propose(rules, names(present), previous)
        assert (list(expected.players), expected.sitting_out) == (playing, tuple(out))
        result = engine.hand_result(state)
        for player, delta in result.deltas.items():
            totals[player] += delta
        previous = PreviousHand(
            "scored",
            tuple(playing),
            expected.dealer,
            result.declarer,
            result.friend,
            result.score.success,
        )
    hands = json.loads(
        runner.invoke(cli, ["hand", "list", "-l", "club", "--db", db, "--json"]).output
    )["hands"]
    assert len(hands) == 3
    stored = dict.fromkeys(names(present), 0)
    for hand in hands:
        for player, delta in hand["deltas"].items():
            stored[player] += delta
        assert len(hand.get("eliminated", [])) == rules.table.eliminated
    assert stored == totals


def test_record_six_ma_names_the_eliminated(runner, db):
    league(runner, db, "six", "standard-6", names(6))
    result = runner.invoke(
        cli, ["record", "-l", "six", "-d", "Bo", "-c", "14S", "-f", "Cy", "-t", "16", "--db", db]
    )
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        "Error: --eliminated: standard-6 eliminates 1 player (table.eliminated): name him"
    )
    result = runner.invoke(
        cli,
        [
            "record",
            "-l",
            "six",
            "-d",
            "Bo",
            "-c",
            "14S",
            "-f",
            "Cy",
            "-t",
            "16",
            "-e",
            "Di",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:3] == [
        "Hand 1 (session 1): Bo 14S with Cy, took 16: made",
        "  Ana -2  Bo +4  Cy +2  Di 0  Ed -2  Fay -2",
        "Next hand: dealer Cy, opener Bo; playing Ana, Bo, Cy, Di, Ed, Fay",
    ]
    shown = json.loads(
        runner.invoke(cli, ["hand", "show", "-l", "six", "1", "--db", db, "--json"]).output
    )
    assert shown["eliminated"] == ["Di"]
    text = runner.invoke(cli, ["hand", "show", "-l", "six", "1", "--db", db]).output
    assert "  players: Ana, Bo, Cy, Di, Ed, Fay; dealer Ana" in text.splitlines()
    assert "  eliminated (탈락): Di" in text.splitlines()


def test_record_evening_asks_who_was_eliminated_at_seven_ma(runner, db):
    league(runner, db, "seven", "standard-7", SEVEN)
    answers = ["Cy", "15s", "Cy Ed", "Ed", "ed, gus", "Ana", "16", "quit"]
    result = runner.invoke(
        cli, ["record", "-l", "seven", "--evening", "--db", db], input="\n".join(answers) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "✗ Cy is the declarer and cannot be eliminated" in result.output
    assert "✗ name the 2 players the declarer eliminated (탈락)" in result.output
    assert "Hand 1 (session 1): Cy 15S with Ana, took 16: made" in result.output
    hands = json.loads(
        runner.invoke(cli, ["hand", "list", "-l", "seven", "--db", db, "--json"]).output
    )["hands"]
    assert hands[0]["eliminated"] == ["Ed", "Gus"]
    assert hands[0]["deltas"]["Ed"] == hands[0]["deltas"]["Gus"] == 0
    assert sum(hands[0]["deltas"].values()) == 0


def test_record_at_three_ma_asks_no_friend(runner, db):
    league(runner, db, "three", "standard-3", names(4))
    result = runner.invoke(cli, ["record", "-l", "three", "--db", db], input="Bo\n14s\n12\n")
    assert result.exit_code == 0, result.output
    assert "Friend" not in result.output
    assert "Hand 1 (session 1): Bo 14S alone, took 12: failed" in result.output
    result = runner.invoke(
        cli, ["record", "-l", "three", "-d", "Cy", "-c", "14S", "-f", "Ana", "-t", "16", "--db", db]
    )
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: hand 2: friend = 'Ana', but the declarer always plays alone under standard-3 "
        '(friend = "none")'
    )


def test_record_players_of_a_four_ma_hand_must_be_four(runner, db):
    league(runner, db, "four", "standard-4", names(6))
    result = runner.invoke(
        cli,
        [
            "record",
            "-l",
            "four",
            "-d",
            "Ana",
            "-c",
            "14S",
            "-f",
            "Bo",
            "-t",
            "16",
            "-p",
            "Ana,Bo,Cy,Di,Ed",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: --players: expected the 4 who played this hand (table.players), got 5"
    )
    result = runner.invoke(
        cli,
        [
            "record",
            "-l",
            "four",
            "-d",
            "Ana",
            "-c",
            "14S",
            "-f",
            "Bo",
            "-t",
            "16",
            "-p",
            "Ana,Bo,Cy,Di",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("suffix", ["toml", "json"])
def test_six_ma_outcomes_export_and_import_with_the_eliminated(runner, db, tmp_path, suffix):
    league(runner, db, "six", "standard-6", names(6))
    for args in (
        ["-d", "Bo", "-c", "14S", "-f", "Cy", "-t", "16", "-e", "Di"],
        ["-d", "Cy", "-c", "15H", "-f", "none", "-t", "9", "-e", "Ana"],
    ):
        assert runner.invoke(cli, ["record", "-l", "six", *args, "--db", db]).exit_code == 0
    path = tmp_path / f"six.{suffix}"
    assert runner.invoke(cli, ["export", "-l", "six", "-o", str(path), "--db", db]).exit_code == 0
    other = f"sqlite:///{tmp_path / 'other.db'}"
    result = runner.invoke(cli, ["import", "-l", "six", str(path), "--db", other])
    assert result.exit_code == 0, result.output
    before, after = (
        json.loads(runner.invoke(cli, ["standings", "-l", "six", "--db", url, "--json"]).output)
        for url in (db, other)
    )
    assert before == after
    hands = json.loads(
        runner.invoke(cli, ["hand", "list", "-l", "six", "--db", other, "--json"]).output
    )["hands"]
    assert [h["eliminated"] for h in hands] == [["Di"], ["Ana"]]


def test_amending_a_six_ma_outcome_keeps_the_eliminated(runner, db):
    league(runner, db, "six", "standard-6", names(6))
    assert (
        runner.invoke(
            cli,
            [
                "record",
                "-l",
                "six",
                "-d",
                "Bo",
                "-c",
                "14S",
                "-f",
                "Cy",
                "-t",
                "16",
                "-e",
                "Di",
                "--db",
                db,
            ],
        ).exit_code
        == 0
    )
    result = runner.invoke(
        cli,
        ["hand", "amend", "-l", "six", "1", "--taken", "15", "--reason", "miscounted", "--db", db],
    )
    assert result.exit_code == 0, result.output
    shown = json.loads(
        runner.invoke(cli, ["hand", "show", "-l", "six", "1", "--db", db, "--json"]).output
    )
    assert shown["eliminated"] == ["Di"]
    assert shown["deltas"] == {"Ana": -1, "Bo": 2, "Cy": 1, "Di": 0, "Ed": -1, "Fay": -1}
