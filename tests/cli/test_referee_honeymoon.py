"""허니문 마이티 (rulesets/honeymoon.toml) at the referee, the league and the score-keeper: the
only friend call (his own friend hand) accepted in short form or made by the tool, the friend
hands' cards entered at their turn, the table showing them, each player scored his two hands."""

from __future__ import annotations

import json
import random

from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.ruleset import load_ruleset
from sizes_script import play_out, seeded_deal, typed_lines

ARGS = ["referee", "-r", "honeymoon", "--players", "Ana,Bo", "--seed", "5"]
ASK = (
    "[friend] Bo's friend is his own friend hand Bo's friend (프렌드 패), the only call: "
    "'friend' or his first card, or a new contract (now 20♣): "
)
CALLED = (
    "✓ friend call: Bo's friend, his own friend hand (프렌드 패), the only call under honeymoon"
)


def seeded_hand():
    """Seed 5's hand 1 played out: Bo declares 20♣ (the lines typed, and where the call is)."""
    rules = load_ruleset("honeymoon")
    state = play_out(rules, ["Ana", "Bo"], "Ana", "Ana", seeded_deal(rules, ["Ana", "Bo"], 5, 1))
    lines = typed_lines(state)
    return state, lines, lines.index("player:Bo's friend")


def referee(runner, lines):
    result = runner.invoke(cli, ARGS, input="\n".join(lines) + "\nquit\n")
    assert result.exit_code == 0, result.output
    return result.output.splitlines()


def test_honeymoon_friend_call_in_short_form(runner):
    _state, lines, call = seeded_hand()
    for short in ("friend", "프렌드 패", "프렌드", "Bo's friend"):
        out = referee(runner, lines[:call] + [short])
        assert ASK + CALLED in out


def test_honeymoon_friend_call_of_anyone_else_is_refused(runner):
    _state, lines, call = seeded_hand()
    out = referee(runner, lines[:call] + ["player:Ana's friend"])
    assert (
        ASK + "✗ exchange: Bo called player:Ana's friend as friend: the declarer's friend "
        "is his friend hand Bo's friend (table.partner_hands)" in out
    )


def test_honeymoon_first_card_makes_the_friend_call(runner):
    _state, lines, call = seeded_hand()
    out = referee(runner, lines[:call] + lines[call + 1 : call + 2])
    index = out.index(ASK + CALLED)
    assert out[index + 1] == "✓ Bo ♥8"


def test_honeymoon_friend_hand_plays_at_its_turn_and_the_table_shows_it(runner):
    _state, lines, call = seeded_hand()
    out = referee(runner, lines[: call + 2] + ["table"])
    assert (
        "friend hands (프렌드 패): Ana's friend (played by Ana), Bo's friend (played by Bo)" in out
    )
    assert "trick 1: ♥ led; on the table Bo ♥8; Bo winning; Bo's friend to play" in out
    assert "Bo's friend holds ♠K ♠9 ◆10 ◆9 ♥7 ♥5 ♣Q ♣J ♣9 ♣5" in out
    assert "Bo holds joker ♠Q ♠8 ◆5 ♥A ♥Q ♥J ♣A ♣K" in out  # he plays both: both shown
    assert "cards left: Ana 10, Ana's friend 10, Bo 9, Bo's friend 10" in out
    out = referee(runner, lines[: call + 3])
    assert "[trick 1, ♥ led, Bo's ♥8 winning] Bo's friend plays: ✓ Bo's friend ♥5" in out


def test_honeymoon_each_player_scores_his_two_hands(runner):
    state, lines, _call = seeded_hand()
    result = engine.hand_result(state)
    assert result.deltas == {"Ana": 18, "Bo": -18}
    out = referee(runner, lines)
    assert "declarer -9, friend -9, each opponent +9" in out
    assert (
        "each player takes his two hands (프렌드 패): Ana +9 + Ana's friend +9 = +18; "
        "Bo -9 + Bo's friend -9 = -18"
    ) in out


def start_league(runner, db):
    assert (
        runner.invoke(cli, ["league", "create", "hm", "-r", "honeymoon", "--db", db]).exit_code == 0
    )
    assert (
        runner.invoke(cli, ["session", "start", "-l", "hm", "-p", "Ana,Bo", "--db", db]).exit_code
        == 0
    )


def test_honeymoon_referee_league_stores_each_player_his_two_hands(runner, db):
    start_league(runner, db)
    _state, lines, _call = seeded_hand()
    result = runner.invoke(
        cli,
        ["referee", "--league", "hm", "--db", db, "--seed", "5"],
        input="\n".join(lines) + "\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "saved to league hm as hand 1 (session 1)" in result.output
    hands = json.loads(
        runner.invoke(cli, ["hand", "list", "-l", "hm", "--db", db, "--json"]).output
    )["hands"]
    assert hands[0]["deltas"] == {"Ana": 18, "Bo": -18}


def test_honeymoon_record_evening_calls_the_friend_hand_itself(runner, db):
    start_league(runner, db)
    result = runner.invoke(
        cli, ["record", "-l", "hm", "--evening", "--db", db], input="Bo\n14s\n16\nquit\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert (
        "Declarer (주공), miss NAME, standings or quit: Contract (e.g. 15D, 16NT, 스페이드 "
        "14): Friend (프렌드): Bo's friend, Bo's own friend hand (프렌드 패), the only call "
        "under honeymoon"
    ) in out
    assert "  Ana -8  Bo +8" in out
    assert "Friend (프렌드) or none" not in result.output


def test_honeymoon_record_takes_the_friend_hand_in_short_form_or_refuses_another(runner, db):
    start_league(runner, db)
    result = runner.invoke(
        cli, ["record", "-l", "hm", "-d", "Ana", "-c", "14S", "-t", "12", "--db", db], input=""
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:3] == [
        "Friend (프렌드): Ana's friend, Ana's own friend hand (프렌드 패), the only call under "
        "honeymoon",
        "Hand 1 (session 1): Ana 14S with Ana's friend, took 12: failed",
    ]
    # (before issue 11's league fix this hand was stored friendless and listed as "alone")
    hands = json.loads(
        runner.invoke(cli, ["hand", "list", "-l", "hm", "--db", db, "--json"]).output
    )["hands"]
    assert hands[0]["deltas"] == {"Ana": -4, "Bo": 4}


def test_honeymoon_record_friend_option_is_the_friend_hand_in_short_form(runner, db):
    start_league(runner, db)
    for friend in ("friend", "ana's friend"):
        result = runner.invoke(
            cli,
            [
                "record",
                "-l",
                "hm",
                "-d",
                "Ana",
                "-c",
                "14S",
                "-f",
                friend,
                "-t",
                "12",
                "--again",
                "--db",
                db,
            ],
        )
        assert result.exit_code == 0, result.output
        assert result.output.splitlines()[1] == "  Ana -4  Bo +4"
    result = runner.invoke(
        cli, ["record", "-l", "hm", "-d", "Ana", "-c", "14S", "-f", "Bo", "-t", "12", "--db", db]
    )
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: the declarer's friend is his friend hand Ana's friend (프렌드 패) under "
        "honeymoon: friend, or nothing at all"
    )
    hands = json.loads(
        runner.invoke(cli, ["hand", "list", "-l", "hm", "--db", db, "--json"]).output
    )["hands"]
    assert len(hands) == 2  # the refused record stored nothing


def test_honeymoon_completion_offers_the_friend_hand_not_none():
    """The evening's tab completion at a 허니문 friend call offers the only call (``friend``,
    ``프렌드``), never ``none`` (노프렌드), which the referee refuses."""
    from mighty_cli.table.evening import Evening
    from mighty_cli.table.words import WORDS

    evening = Evening(load_ruleset("honeymoon"), "honeymoon", ["Ana", "Bo"], seed=5)
    evening.start_hand()
    session, rng = evening.hand, random.Random(1)
    while session.state.phase != "friend":  # the hand played to the friend call
        session.states.append(
            engine.apply(session.state, engine.random_legal_action(session.state, rng))
        )
    words = evening.completions()
    assert "friend" in words and "프렌드" in words
    refused = set(WORDS["none"])
    assert not refused & set(words)
