"""The whole club evening through a pseudo-terminal, as a referee types it (pexpect).

Six players, a league under seoul-science, three hands refereed in one run (the second a deal
miss), the process killed in the middle of the third and resumed at the same card, and the
league's standings equal to replaying the saved evening record under the league's ruleset.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import pytest

from evening_script import parse_proposal, random_hand, typed_lines
from mighty_cli.cli import cli
from mighty_cli.engine.records import load_record, replay
from mighty_cli.engine.ruleset import load_ruleset
from mighty_cli.table.referee_session import RefereeSession

pexpect = pytest.importorskip("pexpect")
#: A terminal session answered within timeouts: alone on the machine (tools/test.py).
pytestmark = pytest.mark.serial

SIX = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay"]


def mighty_command() -> list[str]:
    script = Path(sys.executable).with_name("mighty")
    return [str(script)] if script.exists() else [sys.executable, "-m", "mighty_cli"]


def spawn(args, tmp_path):
    env = dict(
        os.environ,
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        HOME=str(tmp_path),
        MIGHTY_USER="referee",
        TERM="xterm",
    )
    env.pop("MIGHTY_DEBUG", None)
    command = mighty_command()
    return pexpect.spawn(
        command[0],
        command[1:] + args,
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 220),
        cwd=str(tmp_path),
    )


def enter(child, line: str) -> None:
    child.sendline(line)
    index = child.expect(["\r\n✓", "\r\n✗"])
    assert index == 0, f"{line!r} refused: {child.before}{child.after}{child.buffer}"


def test_a_club_evening_through_a_terminal(runner, tmp_path):
    db = f"sqlite:///{tmp_path / 'club.db'}"
    rules = load_ruleset("seoul-science")
    assert (
        runner.invoke(
            cli, ["league", "create", "club", "-r", "seoul-science", "--db", db]
        ).exit_code
        == 0
    )
    assert (
        runner.invoke(
            cli, ["session", "start", "-l", "club", "-p", ",".join(SIX), "--db", db]
        ).exit_code
        == 0
    )
    evening = tmp_path / "evening.toml"
    child = spawn(["referee", "--league", "club", "--db", db, "--save", str(evening)], tmp_path)
    child.expect("type 'help'")
    proposal = parse_proposal(child.before)
    child.expect("bids: ")

    # line editing: a tab completes "ta" to "table", the up arrow recalls it
    child.send("ta\t\r")
    child.expect("election: no calls yet")
    child.send("\x1b[A\r")
    child.expect("election: no calls yet")
    assert "^[[A" not in child.before

    # hand 1: a full hand, typed card by card
    _, dealer, opener, out, five = proposal
    assert out == [dealer]
    first = random_hand(rules, five, dealer, opener, 1)
    for line in typed_lines(first):
        enter(child, line)
    child.expect("saved to league club as hand 1")
    child.expect(r"— hand 2: [^\r\n]+")
    _, dealer, opener, out, five = parse_proposal(child.after)

    # hand 2: a deal miss
    enter(child, f"miss {five[2].lower()}")
    child.expect("saved to league club as hand 2")
    child.expect(r"— hand 3: [^\r\n]+")
    _, dealer, opener, out, five = parse_proposal(child.after)

    # hand 3: half-way, then the process is killed
    third = random_hand(rules, five, dealer, opener, 2)
    lines = typed_lines(third)
    half = len(lines) // 2
    for line in lines[:half]:
        enter(child, line)
    child.expect(": ")
    child.kill(signal.SIGKILL)
    child.close()

    child = spawn(["referee", "--league", "club", "--db", db, "--resume", str(evening)], tmp_path)
    child.expect("hand 3 resumed at the same card")
    probe = RefereeSession(rules, "seoul-science", five, dealer, None, opener=opener)
    for line in lines[:half]:
        assert probe.handle(line)[0].startswith("✓")
    for drawn in probe.status()[1:]:  # the table is drawn first, as it stood
        child.expect_exact(drawn)
    child.expect_exact(probe.prompt() + ": ")  # and the same card is asked for
    for line in lines[half:]:
        enter(child, line)
    child.expect("saved to league club as hand 3")
    child.expect(r"— hand 4")
    child.expect(": ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    record = load_record(evening)
    outcomes = replay(record, rules).hands
    assert [o.status for o in outcomes] == ["scored", "deal_miss", "scored"]
    totals = replay(record, rules).totals
    standings = runner.invoke(cli, ["standings", "-l", "club", "--db", db, "--json"])
    league = {p["name"]: p["score"] for p in json.loads(standings.output)["players"]}
    assert {p: league.get(p, 0) for p in SIX} == {p: totals.get(p, 0) for p in SIX}
    assert any(totals.values())


KOREAN_SIX = ["지훈", "서연", "민수", "Bo", "Cy", "Alexander 김-Johnson"]


def test_a_hand_left_recorded_and_resumed_then_a_rename_through_a_terminal(runner, tmp_path):
    """Issue 21: the referee is left mid-hand, the hand is recorded with ``record``, and the
    next ``referee --league`` starts the next hand (it used to resume the recorded one); a
    hand is refereed; then a player is renamed and the league's exports import back."""
    db = f"sqlite:///{tmp_path / 'club.db'}"
    rules = load_ruleset("seoul-science")
    assert (
        runner.invoke(
            cli, ["league", "create", "club", "-r", "seoul-science", "--db", db]
        ).exit_code
        == 0
    )
    assert (
        runner.invoke(
            cli, ["session", "start", "-l", "club", "-p", ",".join(KOREAN_SIX), "--db", db]
        ).exit_code
        == 0
    )
    child = spawn(["referee", "--league", "club", "--db", db], tmp_path)
    child.expect("type 'help'")
    _, dealer, opener, out, five = parse_proposal(child.before)
    child.expect("bids: ")
    enter(child, "14s")
    child.expect(": ")
    child.kill(signal.SIGKILL)  # the table gives up on the referee mid-hand
    child.close()
    recorded = runner.invoke(
        cli,
        ["record", "-l", "club", "--db", db, "-d", five[0], "-c", "15D", "-f", five[1], "-t", "16"],
    )
    assert recorded.exit_code == 0, recorded.output
    assert f"unfinished hand (dealer {dealer}) is dropped" in recorded.output

    child = spawn(["referee", "--league", "club", "--db", db], tmp_path)
    child.expect("type 'help'")
    assert "resumed" not in child.before  # the recorded hand is not dealt again
    assert "— hand 2: " in child.before
    _, dealer, opener, out, five = parse_proposal(child.before)
    child.expect("bids: ")
    for line in typed_lines(random_hand(rules, five, dealer, opener, 5)):
        enter(child, line)
    child.expect("saved to league club as hand 2")
    child.expect(": ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()

    assert (
        runner.invoke(
            cli, ["player", "rename", "Alexander 김-Johnson", "Alex", "--db", db]
        ).exit_code
        == 0
    )
    assert runner.invoke(cli, ["player", "rename", "지훈", "이지훈", "--db", db]).exit_code == 0
    scores = json.loads(
        runner.invoke(cli, ["standings", "-l", "club", "--db", db, "--json"]).output
    )["players"]
    for form in ("toml", "json", "csv"):
        path = tmp_path / f"club.{form}"
        exported = runner.invoke(
            cli, ["export", "-l", "club", "--format", form, "-o", str(path), "--db", db]
        )
        assert exported.exit_code == 0, exported.output
        if form == "csv":
            runner.invoke(cli, ["league", "create", "back-csv", "-r", "seoul-science", "--db", db])
        back = runner.invoke(cli, ["import", str(path), "--league", f"back-{form}", "--db", db])
        assert back.exit_code == 0, back.output
        again = json.loads(
            runner.invoke(cli, ["standings", "-l", f"back-{form}", "--db", db, "--json"]).output
        )["players"]
        assert {p["name"]: p["score"] for p in again} == {p["name"]: p["score"] for p in scores}
