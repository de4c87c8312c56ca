"""시흥 은마 (000 §7.21, table.dummy) at the referee (full and open cards), the score-keeper's
record and the league: the dummy is named ``dummy`` (더미, 은실), an eliminated player plays the
dummy's hand and scores like anyone."""

from __future__ import annotations

import json

import pytest

from evening_script import parse_proposal
from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.ruleset import load_ruleset
from sizes_script import names, play_out, seeded_deal, typed_lines

FIVE = names(5)


def _hand(runner, dummy_out: bool):
    """A random legal hand of --seed 5's first deal whose elimination takes the dummy (or a
    player), with the referee's dealer and opener."""
    rules = load_ruleset("siheung-6")
    probe = runner.invoke(
        cli, ["referee", "-r", "siheung-6", "--players", ",".join(FIVE), "--seed", "5"], input=""
    )
    _number, dealer, opener, _out, playing = parse_proposal(probe.output)
    deal = seeded_deal(rules, playing, 5, 1)
    for attempt in range(0, 3000, 300):
        state = play_out(rules, playing, dealer, opener, deal, seed=attempt)
        if (state.eliminated == (engine.DUMMY,)) is dummy_out:
            return rules, state
    raise AssertionError("no such hand")


@pytest.mark.parametrize("open_cards", [False, True], ids=["full-cards", "open-cards"])
@pytest.mark.parametrize("dummy_out", [True, False], ids=["dummy-eliminated", "player-eliminated"])
def test_siheung_referee_names_the_dummy_and_scores_the_five(
    runner, tmp_path, dummy_out, open_cards
):
    rules, state = _hand(runner, dummy_out)
    lines = typed_lines(state, open_cards=open_cards)
    if open_cards:  # the referee may type the dummy in Korean too
        lines = [line.replace(" dummy", " 은실") for line in lines]
    saved = tmp_path / "hand.toml"
    args = ["referee", "-r", "siheung-6", "--players", ",".join(FIVE), "--save", str(saved)]
    result = runner.invoke(
        cli, args + ([] if open_cards else ["--seed", "5"]), input="\n".join(lines) + "\nquit\n"
    )
    assert result.exit_code == 0, result.output
    assert "✗" not in result.output, result.output
    out = state.eliminated[0]
    assert f"eliminated (탈락): {out}" in result.output.splitlines()
    expected = engine.hand_result(state).deltas
    assert sorted(expected) == sorted(FIVE)  # the dummy never scores; the eliminated does
    if not dummy_out:
        assert expected[out] != 0 or expected[state.declarer] == 0
    replayed = json.loads(runner.invoke(cli, ["replay", str(saved), "--json"]).output)
    assert replayed["hands"][0]["deltas"] == expected


def test_siheung_referee_legal_hint_says_the_dummy_leaves(runner):
    _rules, state = _hand(runner, True)
    count = sum(1 for a in state.history if isinstance(a, engine.BidCall))
    result = runner.invoke(
        cli,
        ["referee", "-r", "siheung-6", "--players", ",".join(FIVE), "--seed", "5"],
        input="\n".join(typed_lines(state)[:count]) + "\nlegal\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert (
        f"legal: any card in play but {state.declarer}'s own; one nobody holds (in the "
        "kitty or the dummy's hand) eliminates the dummy" in result.output
    ), result.output


def league(runner, db):
    assert (
        runner.invoke(cli, ["league", "create", "sh", "-r", "siheung-6", "--db", db]).exit_code == 0
    )
    result = runner.invoke(cli, ["session", "start", "-l", "sh", "-p", ",".join(FIVE), "--db", db])
    assert result.exit_code == 0, result.output


def test_siheung_record_names_who_was_eliminated_and_the_five_score(runner, db):
    league(runner, db)
    # Ed's own hand left; he played the dummy's, which held the called card: the friend
    result = runner.invoke(
        cli,
        [
            "record",
            "-l",
            "sh",
            "-d",
            "Bo",
            "-c",
            "14S",
            "-f",
            "Ed",
            "-t",
            "16",
            "-e",
            "Ed",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:2] == [
        "Hand 1 (session 1): Bo 14S with Ed, took 16: made",
        "  Ana -2  Bo +4  Cy -2  Di -2  Ed +2",
    ]
    result = runner.invoke(
        cli,
        [
            "record",
            "-l",
            "sh",
            "-d",
            "Bo",
            "-c",
            "14S",
            "-f",
            "Cy",
            "-t",
            "16",
            "-e",
            "은실",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        cli,
        [
            "record",
            "-l",
            "sh",
            "-d",
            "Bo",
            "-c",
            "14S",
            "-f",
            "Cy",
            "-t",
            "16",
            "-e",
            "Bo",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "Error: Bo is the declarer and cannot be eliminated"
    hands = json.loads(
        runner.invoke(cli, ["hand", "list", "-l", "sh", "--db", db, "--json"]).output
    )["hands"]
    assert len(hands) == 2
    assert hands[0]["deltas"]["Ed"] == 2 and hands[1]["deltas"]["Ed"] == -2


def test_siheung_record_evening_asks_for_a_player_or_the_dummy(runner, db):
    league(runner, db)
    answers = ["Cy", "15s", "Cy", "dummy", "Ed", "16", "quit"]
    result = runner.invoke(
        cli, ["record", "-l", "sh", "--evening", "--db", db], input="\n".join(answers) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert (
        "Eliminated (탈락) by the declarer: a player, or dummy (은실): ✗ Cy is the declarer "
        "and cannot be eliminated" in result.output
    )
    assert "Hand 1 (session 1): Cy 15S with Ed, took 16: made" in result.output


@pytest.mark.parametrize(
    "ruleset, present",
    [("siheung-6", 5), ("siheung-6", 6), ("seoul-science-57", 6), ("seoul-science-57", 7)],
)
def test_siheung_and_57_card_leagues_follow_seating_and_succession(runner, db, ruleset, present):
    """The referee's evening at the league, three hands: seating, sit-outs and succession as
    proposed, the stored deltas as the engine scores them (the dummy and the 57 cards)."""
    from mighty_cli.engine.session import PreviousHand, propose
    from test_league_sizes import league as start
    from test_league_sizes import referee_league_hand

    rules = load_ruleset(ruleset)
    start(runner, db, "club", ruleset, names(present))
    totals = dict.fromkeys(names(present), 0)
    previous = None
    for _ in range(3):
        number, out, playing, state = referee_league_hand(runner, db, "club", rules)
        expected = propose(rules, names(present), previous)
        assert (list(expected.players), expected.sitting_out) == (playing, tuple(out))
        result = engine.hand_result(state)
        assert sorted(result.deltas) == sorted(playing)  # the dummy never scores
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
    stored = dict.fromkeys(names(present), 0)
    for hand in hands:
        for player, delta in hand["deltas"].items():
            stored[player] += delta
    assert len(hands) == 3 and stored == totals
    standings = runner.invoke(cli, ["standings", "-l", "club", "--db", db])
    assert standings.exit_code == 0, standings.output


def test_siheung_deals_from_a_file_keep_the_dummys_hand(runner, tmp_path):
    """--deal FILE under other names: the players' hands are given in order, the dummy's stays
    the dummy's (it is not a player's)."""
    dealt = tmp_path / "deals.toml"
    assert (
        runner.invoke(
            cli,
            [
                "deal",
                "-r",
                "siheung-6",
                "--seed",
                "3",
                "--players",
                "P1,P2,P3,P4,P5",
                "-o",
                str(dealt),
            ],
        ).exit_code
        == 0
    )
    result = runner.invoke(
        cli,
        ["referee", "-r", "siheung-6", "--players", ",".join(FIVE), "--deal", str(dealt)],
        input="hand\nquit\n",
    )
    assert result.exit_code == 0, result.output
    from mighty_cli.engine.records import load_record

    first = load_record(dealt).hands[0]["deal"]
    shown = first["P1"].replace("S", "♠").replace("D", "◆").replace("H", "♥").replace("C", "♣")
    assert f"{FIVE[0]}: {shown}" in result.output, result.output
