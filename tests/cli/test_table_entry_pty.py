"""A score-keeper at a terminal (issue 35, items 3 and 7), through a pseudo-terminal (pexpect):
Ctrl-C in ``record --evening`` keeps the half-typed hand in the league and the next ``record``
takes it up at the next question; an outcome equal to the table's previous hand is asked about
(y/N), no by default."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest

from mighty_cli.cli import cli

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.serial

TEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jon"]


def spawn(args, tmp_path):
    script = Path(sys.executable).with_name("mighty")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "mighty_cli"]
    env = dict(
        os.environ,
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        HOME=str(tmp_path),
        MIGHTY_USER="kim",
        TERM="xterm",
    )
    return pexpect.spawn(
        command[0],
        command[1:] + args,
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 250),
        cwd=str(tmp_path),
        preexec_fn=_interruptible,
    )


def _interruptible() -> None:
    """Ctrl-C reaches the command as at a keeper's terminal: a suite started in the
    background by a shell without job control inherits SIGINT ignored, and Python keeps a
    signal ignored at its start (the command would wait at its question for ever)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def table(runner, tmp_path) -> tuple[str, list[str]]:
    """A round of ten at two tables; table 1's database and its players."""
    db = f"sqlite:///{tmp_path / 'club.db'}"
    assert (
        runner.invoke(cli, ["league", "create", "L", "-r", "standard", "--db", db]).exit_code == 0
    )
    plan = runner.invoke(
        cli, ["round", "start", "-l", "L", "-p", ",".join(TEN), "--seed", "1", "--json", "--db", db]
    )
    return db, json.loads(plan.output)["tables"][0]["players"]


def test_ctrl_c_in_record_evening_keeps_the_hand_and_the_next_record_takes_it_up(
    runner, tmp_path, table
):
    db, players = table
    declarer, friend = players[1], players[2]
    child = spawn(["record", "-l", "L", "--table", "1", "--evening", "--db", db], tmp_path)
    child.expect("standings or quit: ")
    child.sendline(declarer)
    child.expect(r"Contract [^\r\n]*: ")
    child.sendline("15D")
    child.expect(r"or none \[none\]: ")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    said = child.before.replace("\r\n", "\n").strip()
    assert said == (
        f"(Ctrl-C) the hand half entered (declarer {declarer}, contract 15D) is "
        f"kept in league L: 'mighty record --evening --league L --table 1 --db "
        f"{db}' takes it up where it was left"
    )
    shown = json.loads(
        runner.invoke(cli, ["round", "show", "-l", "L", "--json", "--db", db]).output
    )
    assert shown["tables"][0]["hand_in_progress"] is True  # round end would say so

    child = spawn(["record", "--evening", "--league", "L", "--table", "1", "--db", db], tmp_path)
    child.expect(f"— taken up where it was left: declarer {declarer}, contract 15D\r\n")
    child.expect(r"or none \[none\]: ")  # the question Ctrl-C left
    child.sendline(friend)
    child.expect("ruling party: ")
    child.sendline("16")
    child.expect(r"Table 1, hand 1 \(league hand 1, session 1\): ([^\r\n]*)")
    assert child.match[1] == f"{declarer} 15D with {friend}, took 16: made"
    child.expect("standings or quit: ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    hands = json.loads(
        runner.invoke(cli, ["hand", "list", "-l", "L", "--json", "--db", db]).output
    )["hands"]
    assert [(h["declarer"], h["contract"], h["friend"]) for h in hands] == [
        (declarer, "15D", friend)
    ]


def test_the_same_outcome_at_a_terminal_is_asked_and_no_records_nothing(runner, tmp_path, table):
    db, players = table
    hand = [
        "record",
        "-l",
        "L",
        "--table",
        "1",
        "-d",
        players[1],
        "-c",
        "15D",
        "-f",
        players[2],
        "-t",
        "16",
        "--db",
        db,
    ]
    assert runner.invoke(cli, hand).exit_code == 0
    for answer, code, count in (("", 1, 1), ("n", 1, 1), ("y", 0, 2)):
        child = spawn(hand, tmp_path)
        child.expect(r"Record it all the same \(the table played it twice alike\)\? \[y/N\]: ")
        assert re.search(
            r"✗ the same outcome as table 1's hand 1 \(declarer \S+ 15D, by \S+ "
            r"at \d\d:\d\d\): entered twice\?",
            child.before,
        )
        child.sendline(answer)
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == code
        if code:
            assert child.before.strip().splitlines()[-1] == "Error: nothing recorded"
        else:
            assert "Table 1, hand 2 (league hand 2, session 1)" in child.before
        listed = runner.invoke(cli, ["hand", "list", "-l", "L", "--json", "--db", db]).output
        assert len(json.loads(listed)["hands"]) == count
