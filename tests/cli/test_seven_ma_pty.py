"""7마 at the referee through a pseudo-terminal (pexpect): a seven-player league under
standard-7 with seeded deals, two hands refereed card by card (the declarer's two elimination
calls, who leaves, the pile dealt out by the tool), the process killed half-way through the
second hand and resumed at the same card, and the league's standings equal to the engine's
scores of the two hands."""

from __future__ import annotations

import json
import random
import signal

import pytest

from evening_script import parse_proposal
from mighty_cli.cli import cli
from mighty_cli.engine import hand as engine
from mighty_cli.engine.cards import parse_cards
from mighty_cli.engine.ruleset import load_ruleset
from sizes_script import line_for, names, play_out, seeded_deal, typed_lines
from test_evening_pty import enter, spawn

pexpect = pytest.importorskip("pexpect")
#: A terminal session answered within timeouts: alone on the machine (tools/test.py).
pytestmark = pytest.mark.serial

SEVEN = names(7)


def test_seven_ma_through_a_terminal(runner, tmp_path):
    db = f"sqlite:///{tmp_path / 'club.db'}"
    rules = load_ruleset("standard-7")
    assert (
        runner.invoke(cli, ["league", "create", "club", "-r", "standard-7", "--db", db]).exit_code
        == 0
    )
    assert (
        runner.invoke(
            cli, ["session", "start", "-l", "club", "-p", ",".join(SEVEN), "--db", db]
        ).exit_code
        == 0
    )
    args = ["referee", "--league", "club", "--db", db, "--seed", "8"]
    child = spawn(args, tmp_path)
    child.expect("type 'help'")
    number, dealer, opener, out, playing = parse_proposal(child.before)
    assert (number, out, playing) == (1, [], SEVEN)  # 7마: all seven are dealt in
    totals = dict.fromkeys(SEVEN, 0)

    first = play_out(rules, playing, dealer, opener, seeded_deal(rules, playing, 8, 1))
    for line in typed_lines(first):
        enter(child, line)
    for name in first.eliminated:
        assert name in SEVEN
    child.expect("saved to league club as hand 1")
    for player, delta in engine.hand_result(first).deltas.items():
        totals[player] += delta
    child.expect(r"— hand 2: [^\r\n]+")
    number, dealer, opener, out, playing = parse_proposal(child.after)
    assert (number, out) == (2, [])

    # hand 2: the election and the eliminations, the tool dealing the pile; then killed
    second = play_out(rules, playing, dealer, opener, seeded_deal(rules, playing, 8, 2))
    lines = typed_lines(second)
    bids = sum(1 for action in second.history if isinstance(action, engine.BidCall))
    for line in lines[:bids]:
        enter(child, line)
    child.expect_exact(
        f"[elimination 1 of 2] {second.declarer} calls a card: its holder is eliminated (탈락): "
    )
    calls = [
        line
        for line, action in zip(lines[bids:], second.history[bids:])
        if isinstance(action, engine.Eliminate)
    ]
    for line in calls:
        enter(child, line)
    child.expect_exact(f"eliminated (탈락): {', '.join(second.eliminated)}")
    child.expect_exact("[redistribution] 'deal' (the tool deals), or NAME CARDS; NAME CARDS ...: ")
    enter(child, "deal")
    child.expect(r"dealt out: ([^\r\n]+)")
    shares = {share.split()[0]: share.split()[1:] for share in child.match.group(1).split("; ")}
    assert sorted(len(cards) for cards in shares.values()) == [3, 3, 3, 3, 6]
    child.expect(r"\[exchange\] \S+ discards 3 \(contract ")
    child.kill(signal.SIGKILL)
    child.close()

    child = spawn(args, tmp_path)
    child.expect("hand 2 resumed at the same card")
    child.expect_exact(f"eliminated (탈락): {', '.join(second.eliminated)}")
    child.expect(r"\[exchange\] \S+ discards 3 \(contract [^\r\n]+: ")
    # the rest of the hand from the pile the tool dealt: a random legal play of that state
    state = engine.new_hand(
        rules, playing, dealer, seeded_deal(rules, playing, 8, 2), opener=opener
    )
    for action in second.history:
        if isinstance(action, engine.Redistribute):
            break
        state = engine.apply(state, action)
    state = engine.apply(
        state,
        engine.Redistribute(
            tuple(
                (who, tuple(parse_cards(" ".join(cards).replace("joker", "JK"))))
                for who, cards in shares.items()
            )
        ),
    )
    rng = random.Random(3)
    while state.phase != "done":
        action = engine.random_legal_action(state, rng)
        enter(child, line_for(action, open_cards=False))
        state = engine.apply(state, action)
    child.expect("saved to league club as hand 2")
    for player, delta in engine.hand_result(state).deltas.items():
        totals[player] += delta
    child.expect(": ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    standings = runner.invoke(cli, ["standings", "-l", "club", "--db", db, "--json"])
    league = {p["name"]: p["score"] for p in json.loads(standings.output)["players"]}
    assert {p: league.get(p, 0) for p in SEVEN} == totals
    assert sum(totals.values()) == 0 and any(totals.values())
