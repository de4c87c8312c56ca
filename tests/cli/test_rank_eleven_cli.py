"""서울과고's 57-card 6마 (table.rank_eleven) at the CLI: the 11 typed as S11 or 스페이드 11 at the
referee, dealt by `mighty deal`, counted in `mighty record`'s point cards (24)."""

from __future__ import annotations

import json

from evening_script import parse_proposal
from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import ELEVENS
from mighty_cli.engine.ruleset import load_ruleset
from sizes_script import line_for, names, play_out, seeded_deal, typed_lines

SIX = names(6)
KOREAN = {"s": "스페이드", "d": "다이아", "h": "하트", "c": "클로버"}


def test_rank_eleven_typed_in_korean_at_the_referee(runner, tmp_path):
    rules = load_ruleset("seoul-science-57")
    args = ["referee", "-r", "seoul-science-57", "--players", ",".join(SIX), "--seed", "5"]
    _number, dealer, opener, _out, playing = parse_proposal(
        runner.invoke(cli, args, input="").output
    )
    state = play_out(rules, playing, dealer, opener, seeded_deal(rules, playing, 5, 1))
    assert any(
        card in ELEVENS
        for trick in state.tricks
        for _p, play in trick.plays
        for card in [play.card]
    )
    lines = [f"{KOREAN[line[0]]} 11" if line[1:] == "11" else line for line in typed_lines(state)]
    assert any(line.endswith(" 11") and " " in line for line in lines)
    saved = tmp_path / "hand.toml"
    result = runner.invoke(cli, args + ["--save", str(saved)], input="\n".join(lines) + "\nquit\n")
    assert result.exit_code == 0, result.output
    assert "✗" not in result.output, result.output
    replayed = json.loads(runner.invoke(cli, ["replay", str(saved), "--json"]).output)
    assert replayed["hands"][0]["deltas"] == engine.hand_result(state).deltas


def test_rank_eleven_dealt_and_counted_by_the_score_keeper(runner, db):
    dealt = runner.invoke(
        cli, ["deal", "-r", "seoul-science-57", "--seed", "1", "--players", ",".join(SIX)]
    )
    assert dealt.exit_code == 0, dealt.output
    assert "S11" in dealt.output or "D11" in dealt.output
    assert (
        runner.invoke(
            cli, ["league", "create", "k", "-r", "seoul-science-57", "--db", db]
        ).exit_code
        == 0
    )
    assert (
        runner.invoke(
            cli, ["session", "start", "-l", "k", "-p", ",".join(SIX), "--db", db]
        ).exit_code
        == 0
    )
    result = runner.invoke(
        cli, ["record", "-l", "k", "-d", "Bo", "-c", "16S", "-f", "Cy", "-t", "24", "--db", db]
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "Hand 1 (session 1): Bo 16S with Cy, took 24: made ×2"
    result = runner.invoke(
        cli, ["record", "-l", "k", "-d", "Bo", "-c", "16S", "-f", "Cy", "-t", "25", "--db", db]
    )
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == (
        "Error: hand 2: taken = 25 is impossible: from 0 to 24 point cards are in play under "
        "seoul-science-57"
    )


def test_rank_eleven_called_in_korean_at_the_friend_call(runner, tmp_path):
    """At the friend call ``하트 11`` is the card H11, not a contract of 11 (below 16)."""
    rules = load_ruleset("seoul-science-57")
    args = ["referee", "-r", "seoul-science-57", "--players", ",".join(SIX), "--seed", "5"]
    _number, dealer, opener, _out, playing = parse_proposal(
        runner.invoke(cli, args, input="").output
    )
    deal = seeded_deal(rules, playing, 5, 1)
    state = play_out(rules, playing, dealer, opener, deal)
    at = next(i for i, action in enumerate(state.history) if isinstance(action, engine.CallFriend))
    # an 11 another player holds: a real friend
    called = next(
        card
        for card in ELEVENS
        for player, cards in deal.items()
        if player not in (state.declarer, "kitty") and card in cards
    )
    suit = "SDHC"[called >> 4]
    lines = [line for line in (line_for(action, False) for action in state.history[:at]) if line]
    saved = tmp_path / "hand.toml"
    result = runner.invoke(
        cli,
        args + ["--save", str(saved)],
        input="\n".join(lines + [f"{KOREAN[suit.lower()]} 11", "quit"]) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "✗" not in result.output, result.output
    assert f'friend = "{suit}11"' in saved.read_text(encoding="utf-8")
