"""Two score-keepers writing one SQLite league at once, and an import killed half-way."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from sqlalchemy import text

from mighty_cli.store.db import make_engine, transaction
from mighty_cli.store.interchange.imports import import_record
from mighty_cli.store.ledger.leagues import create_league
from mighty_cli.store.ledger.queries import standings
from mighty_cli.store.ledger.sessions import start_session

ROOT = Path(__file__).resolve().parents[2]

RECORDER = textwrap.dedent("""
    import sys
    from mighty_cli.cli import cli
    url, session, count, declarer, friend = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
        sys.argv[4], sys.argv[5]
    for _ in range(count):
        try:
            cli.main(args=["record", "--db", url, "-l", "club", "--session", session,
                           "-d", declarer, "-c", "15D", "-f", friend, "-t", "16", "--again"],
                     prog_name="mighty", standalone_mode=False)
        except SystemExit as exc:
            if exc.code:
                raise
""")


def test_two_processes_recording_into_one_sqlite_league_lose_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    engine = make_engine(url)
    with transaction(engine) as s:
        create_league(s, "club", "standard")
        start_session(s, "club", ["Ana", "Bo", "Cy", "Di", "Ed"])
        # two tables at once: nobody sits at both (session start refuses that)
        start_session(s, "club", ["Fay", "Gus", "Hal", "Ivy", "Jon"])
    count = 15
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", RECORDER, url, str(number), str(count), declarer, friend],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for number, declarer, friend in ((1, "Bo", "Cy"), (2, "Gus", "Hal"))
    ]
    for process in processes:
        _, error = process.communicate(timeout=300)
        assert process.returncode == 0, error
    with engine.connect() as connection:
        numbers = [
            n for (n,) in connection.execute(text("SELECT number FROM hand ORDER BY number"))
        ]
    assert numbers == list(range(1, 2 * count + 1))
    with transaction(engine) as s:
        table = standings(s, "club").by_name()
    assert table["Bo"].stats.score == table["Gus"].stats.score == 10 * count


KILLED_IMPORT = textwrap.dedent("""
    import sys, time
    from mighty_cli.store.interchange import import_batch
    original = import_batch._insert_members
    def slow(session, rows):
        original(session, rows)
        print("written", flush=True)
        time.sleep(120)
    import_batch._insert_members = slow
    from mighty_cli.cli import cli
    cli.main(args=["import", sys.argv[2], "--db", sys.argv[1], "-l", "club"], prog_name="mighty")
""")


def test_import_killed_half_way_leaves_no_hands(tmp_path):
    url = f"sqlite:///{tmp_path / 'club.db'}"
    engine = make_engine(url)
    with transaction(engine) as s:
        create_league(s, "club", "standard")
    process = subprocess.Popen(
        [sys.executable, "-c", KILLED_IMPORT, url, str(ROOT / "examples" / "season.toml")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = process.stdout.readline()  # the hands and some player rows are written
        assert line.strip() == "written", process.stderr.read()
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    with engine.connect() as connection:
        counts = {
            t: connection.execute(text(f"SELECT count(*) FROM {t}")).scalar()
            for t in ("hand", "hand_player", "league_session", "player")
        }
    assert counts == {"hand": 0, "hand_player": 0, "league_session": 0, "player": 0}
    with transaction(engine) as s:  # and the league still takes the import afterwards
        from mighty_cli.engine.records import load_record

        done = import_record(s, "club", load_record(ROOT / "examples" / "season.toml"))
    assert done.hands == 30
