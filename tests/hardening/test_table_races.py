"""Issue 35, items 1 and 2, as the club found them: real processes at one table, on SQLite and
(with MIGHTY_TEST_POSTGRES_URL) PostgreSQL.

* A referee left open while a keeper records the table's hand (``record --table 1`` between
  two of its lines) refuses its next entry in one line, says what happened and how to go on,
  and stores nothing: the league keeps one hand 1, not a second dealt by the same dealer.
* Two referee windows at one table: the one opened last holds the hand; the first is refused.
* A keeper whose ``record --evening`` shows hand 1 while another stores hand 1 is told which
  hand was entered, by whom and when, and his is not stored as a second hand 1.
* Six keepers recording at one table at the same moment are each told the table's number his
  hand really got (the number is counted under the league's lock)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import threading
import time

import pytest

from promises import ROOT, invoke
from test_races import together

pytestmark = pytest.mark.serial

TEN = ["권나래", "김민수", "박서준", "이지은", "최유나", "Ana", "Bo", "Cy", "Di", "Ed"]


class Window:
    """``mighty referee`` (or another command) in its own process, fed one line at a time
    through a pipe; what it prints is collected as it comes."""

    def __init__(self, *args: str, command: str = "referee"):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "mighty_cli", command, *args],
            cwd=ROOT,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**__import__("os").environ, "MIGHTY_USER": "referee"},
        )
        self.output = ""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for chunk in iter(lambda: self.process.stdout.read(1), ""):  # type: ignore[union-attr]
            self.output += chunk

    def wait_for(self, text: str, after: int = 0) -> None:
        deadline = time.monotonic() + 60
        while text not in self.output[after:]:
            assert self.process.poll() is None or text in self.output[after:], self.output
            assert time.monotonic() < deadline, f"{text!r} never came: {self.output}"
            time.sleep(0.02)

    def enter(self, line: str, answer: str) -> str:
        """Type a line and wait for the line it answers with (``✓``, ``✗``): that line."""
        start = len(self.output)
        self.process.stdin.write(line + "\n")  # type: ignore[union-attr]
        self.process.stdin.flush()  # type: ignore[union-attr]
        self.wait_for(answer, start)
        tail = self.output[start:]
        return tail[tail.index(answer) :].splitlines()[0]

    def finish(self) -> tuple[int, str]:
        try:
            self.process.stdin.close()  # type: ignore[union-attr]
        except BrokenPipeError:
            pass
        code = self.process.wait(timeout=60)
        self._reader.join(timeout=10)
        return code, self.output


def mighty(db: str, *args: str) -> str:
    result = invoke(*args, "--db", db)
    assert result.exit_code == 0, result.output
    return result.output


def round_of_ten(db: str) -> list[dict]:
    mighty(db, "league", "create", "L", "-r", "standard")
    plan = json.loads(
        mighty(db, "round", "start", "-l", "L", "-p", ",".join(TEN), "--seed", "1", "--json")
    )
    return plan["tables"]


def hands(db: str) -> list[dict]:
    return json.loads(mighty(db, "hand", "list", "-l", "L", "--json"))["hands"]


def test_a_referee_left_open_refuses_the_hand_a_record_replaced(db):
    table = round_of_ten(db)[0]
    dealer, declarer = table["players"][0], table["players"][2]
    window = Window("--league", "L", "--table", "1", "--db", db)
    window.wait_for("bids: ")
    assert window.enter("스페이드 14", "✓") == f"✓ {dealer} 14♠"
    recorded = invoke(
        "record",
        "-l",
        "L",
        "--table",
        "1",
        "-d",
        declarer,
        "-c",
        "15D",
        "-f",
        "none",
        "-t",
        "16",
        "--db",
        db,
    )
    assert recorded.exit_code == 0, recorded.output
    assert recorded.output.startswith(f"The referee's unfinished hand (dealer {dealer}) is dropped")
    refused = window.enter("패스", "✗")
    code, output = window.finish()
    assert code == 1, output
    assert re.fullmatch(
        rf"✗ table 1's hand 1 was entered meanwhile elsewhere \(declarer {declarer} 15D, by "
        r"\S+ at \d\d:\d\d\): the entries made here are not kept; 'mighty referee --league L "
        r"--table 1 --db \S+' goes on from what the league holds",
        refused,
    ), refused
    assert output.rstrip().endswith(refused)  # nothing after the refusal: the window ended
    assert [(h["number"], h["declarer"]) for h in hands(db)] == [(1, declarer)]
    command = shlex.split(re.search(r"'(mighty referee .*)' goes on", refused)[1])  # type: ignore
    assert command[:6] == ["mighty", "referee", "--league", "L", "--table", "1"]
    assert command[6] == "--db"  # the URL, its password (PostgreSQL's) masked: given again
    resumed = invoke(*command[1:6], "--db", db, input="q\n")
    assert resumed.exit_code == 0, resumed.output
    assert "— table 1, hand 2: dealer" in resumed.output and "resumed" not in resumed.output


def test_a_deal_miss_after_the_record_is_not_stored_as_a_second_hand_1(db):
    """The entry that ends the hand (a deal miss) is the one refused: the hand is never
    stored, so the same dealer's hand is not the table's hand 1 twice."""
    table = round_of_ten(db)[0]
    window = Window("--league", "L", "--table", "1", "--db", db)
    window.wait_for("bids: ")
    window.enter("스페이드 14", "✓")
    invoke(
        "record",
        "-l",
        "L",
        "--table",
        "1",
        "-d",
        table["players"][2],
        "-c",
        "15D",
        "-f",
        "none",
        "-t",
        "16",
        "--db",
        db,
    )
    refused = window.enter(f"miss {table['players'][3]}", "✗")
    assert window.finish()[0] == 1
    assert refused.startswith("✗ table 1's hand 1 was entered meanwhile elsewhere")
    assert len(hands(db)) == 1


def test_of_two_referee_windows_at_one_table_the_last_opened_holds_the_hand(db):
    round_of_ten(db)
    first = Window("--league", "L", "--table", "1", "--db", db)
    first.wait_for("bids: ")
    first.enter("pass", "✓")
    second = Window("--league", "L", "--table", "1", "--db", db)
    second.wait_for("resumed at the same card")
    second.wait_for("bids: ")
    refused = first.enter("pass", "✗")
    assert re.fullmatch(
        r"✗ table 1's hand 1 was taken up in another window at \d\d:\d\d: the "
        r"entries made here are not kept; 'mighty referee --league L --table 1 "
        r"--db \S+' goes on from what the league holds",
        refused,
    ), refused
    assert first.finish()[0] == 1
    assert second.enter("pass", "✓").startswith("✓ ")
    second.enter("q", "resumes it at the same card")
    assert second.finish()[0] == 0
    assert hands(db) == []


def test_a_keeper_behind_the_table_is_told_which_hand_another_entered(db):
    players = round_of_ten(db)[0]["players"]
    keeper = Window("-l", "L", "--table", "1", "--evening", "--db", db, command="record")
    keeper.wait_for("standings or quit: ")
    keeper.enter(players[1], "Contract")
    keeper.enter("15D", "Friend")
    other = invoke(
        "record",
        "-l",
        "L",
        "--table",
        "1",
        "-d",
        players[2],
        "-c",
        "14S",
        "-f",
        "none",
        "-t",
        "16",
        "--by",
        "lee",
        "--db",
        db,
    )
    assert other.exit_code == 0, other.output
    keeper.enter("none", "ruling party")
    refused = keeper.enter("16", "✗")
    assert re.fullmatch(
        rf"✗ table 1's hand 1 is already entered \(declarer {players[2]} 14S, "
        r"by lee at \d\d:\d\d\); this hand is not stored",
        refused,
    ), refused
    keeper.wait_for("Table 1, hand 2: dealer")  # the evening goes on with the table's next
    keeper.process.stdin.write("q\n")  # type: ignore[union-attr]
    assert keeper.finish()[0] == 0
    assert [(h["number"], h["declarer"]) for h in hands(db)] == [(1, players[2])]


def test_six_keepers_at_once_are_each_told_the_number_their_hand_got(db, tmp_path):
    table = round_of_ten(db)[0]
    declarer = table["players"][1]
    results = together(
        tmp_path,
        [
            [
                "record",
                "-l",
                "L",
                "--table",
                "1",
                "-d",
                declarer,
                "-c",
                "15D",
                "-f",
                "none",
                "-t",
                str(10 + k),
                "--db",
                db,
            ]
            for k in range(6)
        ],
    )
    told = {}
    for result in results:
        assert result.returncode == 0, result.stderr
        found = re.match(
            r"Table 1, hand (\d+) \(league hand (\d+), session 1\): \S+ 15D "
            r"alone, took (\d+)",
            result.stdout,
        )
        assert found, result.stdout
        told[int(found[3])] = (int(found[1]), int(found[2]))
    stored = {h["taken"]: h["number"] for h in hands(db)}
    assert sorted(told.values()) == [(n, n) for n in range(1, 7)]  # each number once
    assert {taken: league for taken, (_local, league) in told.items()} == stored
