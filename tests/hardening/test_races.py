"""Issue 9, item 4: eight processes writing at once. On PostgreSQL, creating players and
leagues is insert-or-get and rolled-back transactions run again, so concurrent ``session start``
in eight leagues naming the same new players create each player once (and seat him at one of
them: one person, one open table), and concurrent ``import --create`` into one new league all
succeed and create the league once. SQLite runs the same tests.
PostgreSQL's run needs MIGHTY_TEST_POSTGRES_URL (CI sets it)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from databases import database_params, fresh_url
from promises import ROOT, invoke

WRITERS = 8
NEW_PLAYERS = ["민수", "Bo", "Cy", "Di", "Ed", "Fay", "Gil"]
#: Eight writers at once need the machine to themselves (tools/test.py runs them alone).
pytestmark = pytest.mark.serial
# One interpreter imports everything, then forks a process per command; each waits for the
# starting gun, so the eight commands really run together (Python's start-up would otherwise
# spread them out), and the interpreter's start-up is paid once, not eight times. Each child is
# a process of its own, with its own connections, its output in files of its own.
RUNNER = """
import json, os, sys, time
from mighty_cli.cli import main
import sqlalchemy, sqlmodel
import mighty_cli.store.ledger.corrections, mighty_cli.store.interchange.imports
gun, folder, commands = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
children = []
for n, command in enumerate(commands):
    pid = os.fork()
    if pid:
        children.append(pid)
        continue
    for fd, name in ((1, "out"), (2, "err")):
        os.dup2(os.open(f"{folder}/{name}{n}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
    open(f"{gun}.ready.{os.getpid()}", "w").close()
    while not os.path.exists(gun):
        time.sleep(0.002)
    sys.argv = ["mighty"] + command
    main()  # its SystemExit ends this child as it ends an interpreter (streams flushed at exit)
    sys.exit(0)
print(json.dumps([os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in children]))
"""


@pytest.fixture(params=database_params())
def db(request, tmp_path) -> str:
    """An empty database (PostgreSQL: without its tables, so the writers that create a league
    also race to make them, one at a time)."""
    return fresh_url(request.param, tmp_path, "races.db", tables=False)


def together(tmp_path: Path, commands: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """Run the commands at the same moment, each in its own process."""
    gun = tmp_path / "go"
    forker = subprocess.Popen(
        [sys.executable, "-c", RUNNER, str(gun), str(tmp_path), json.dumps(commands)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 120
    while (
        len(list(tmp_path.glob("go.ready.*"))) < len(commands)
        and time.monotonic() < deadline
        and forker.poll() is None
    ):
        time.sleep(0.01)  # until every process has imported and waits
    gun.touch()
    out, err = forker.communicate(timeout=180)
    assert forker.returncode == 0, err
    codes = json.loads(out)
    return [
        subprocess.CompletedProcess(
            command,
            code,
            (tmp_path / f"out{n}").read_text(encoding="utf-8"),
            (tmp_path / f"err{n}").read_text(encoding="utf-8"),
        )
        for n, (command, code) in enumerate(zip(commands, codes))
    ]


def players(db: str) -> list[str]:
    result = invoke("player", "list", "--json", "--db", db)
    assert result.exit_code == 0, result.output
    return sorted(p["name"] for p in json.loads(result.output)["players"])


def test_concurrent_session_starts_create_each_new_player_once_and_seat_him_once(db, tmp_path):
    """Eight leagues start a session at once, each naming the same seven new players: each
    player is created once, and one session seats them (one person, one open table, in any
    league): the seven others are refused in one line, having made nothing."""
    for n in range(WRITERS):
        assert invoke("league", "create", f"league{n}", "-r", "standard", "--db", db).exit_code == 0
    commands = []
    for n in range(WRITERS):
        order = NEW_PLAYERS[n % 7 :] + NEW_PLAYERS[: n % 7]  # every process its own seating
        commands.append(["session", "start", "-l", f"league{n}", "-p", ",".join(order), "--db", db])
    results = together(tmp_path, commands)
    assert sorted(result.returncode for result in results) == [0] + [1] * (WRITERS - 1)
    for result in results:
        if result.returncode:
            assert "is already seated at session 1 of league 'league" in result.stderr
            assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert players(db) == sorted(NEW_PLAYERS)
    opened = [
        n
        for n in range(WRITERS)
        if json.loads(invoke("league", "show", f"league{n}", "--json", "--db", db).output)[
            "open_sessions"
        ]
    ]
    assert len(opened) == 1


def season(tmp_path: Path, n: int) -> str:
    """A one-hand record of its own date, so no import is taken for another's repeat."""
    path = tmp_path / f"night{n}.toml"
    path.write_text(
        'format = "mighty-hand-record/1"\nruleset = "standard"\n'
        f"players = {json.dumps(NEW_PLAYERS[:5], ensure_ascii=False)}\n"
        f"date = 2024-03-{n + 1:02d}\n"
        '[[hands]]\ndeclarer = "민수"\ncontract = "15D"\nfriend = "Bo"\n'
        f"taken = {15 + n % 5}\n",
        encoding="utf-8",
    )
    return str(path)


def test_concurrent_imports_create_one_league(db, tmp_path):
    commands = [
        ["import", season(tmp_path, n), "-l", "shared", "--create", "--db", db]
        for n in range(WRITERS)
    ]
    results = together(tmp_path, commands)
    for result in results:
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("Imported 1 hand into shared")
    listed = json.loads(invoke("league", "list", "--json", "--db", db).output)["leagues"]
    assert [(x["name"], x["sessions"], x["hands"]) for x in listed] == [
        ("shared", WRITERS, WRITERS)
    ]
    assert players(db) == sorted(NEW_PLAYERS[:5])
    log = json.loads(invoke("hand", "log", "-l", "shared", "--json", "--db", db).output)
    actions = [entry["action"] for entry in log["changes"] if entry["action"] == "league create"]
    assert actions == ["league create"]


@pytest.mark.parametrize(
    "command", [["player", "add", "Hana"], ["league", "create", "same", "-r", "standard"]]
)
def test_concurrent_creation_of_one_name_succeeds_once(db, tmp_path, command):
    if db.startswith("sqlite"):
        pytest.skip("SQLite queues its writers: only PostgreSQL races here")
    results = together(tmp_path, [command + ["--db", db]] * WRITERS)
    codes = sorted(r.returncode for r in results)
    assert codes == [0] + [1] * (WRITERS - 1)
    for result in results:
        if result.returncode:
            assert result.stderr.count("\n") == 1 and "already exists" in result.stderr
