"""Restore helpers: the test league, a store with something in every table (three leagues,
rounds open and ended, a duplicate round with a plan ahead, a substitute, a merged player, a
voided, an amended and a refereed hand, a hand in progress, settings, running totals), its
backup as lines, and a restore target of each kind, with what a refused restore must leave."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner, Result

from mighty_cli.cli import cli

ROOT = Path(__file__).resolve().parents[2]
TEN = ["Ana", "Bo", "Cy", "Di", "Ed", "Fay", "Gil", "Hu", "Ida", "Jo"]


def invoke(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=input)


def ok(*args: str, input: str | None = None) -> str:
    result = invoke(*args, input=input)
    assert result.exit_code == 0, (args, result.output)
    return result.output


@dataclass
class Backup:
    """The backup's lines (the header first), and the players of the open round's first table
    in seat order."""

    lines: list[dict]
    table_one: list[str]

    def text(self, lines: list[dict] | None = None) -> str:
        return "".join(
            json.dumps(line, ensure_ascii=False) + "\n"
            for line in (self.lines if lines is None else lines)
        )


def build_league(db: str) -> list[str]:
    """Fill the store behind ``db``; the first table of cup's open round, in seat order."""
    ok("league", "create", "cup", "-r", "standard", "--db", db)
    ok("player", "add", "Quinn", "--db", db)
    ok("player", "add", "Quin", "--db", db)
    ok("player", "merge", "Quin", "Quinn", "--reason", "one person", "--db", db)
    ok("league", "create", "old", "-r", "standard", "--db", db)
    ok("round", "start", "-l", "old", "-p", "Ana,Bo,Cy,Di,Ed", "--db", db)
    ok("record", "-l", "old", "-d", "Ana", "-c", "14S", "-f", "Bo", "-t", "15", "--db", db)
    ok("record", "-l", "old", "-d", "Cy", "-c", "15H", "-f", "none", "-t", "10", "--db", db)
    ok("round", "end", "-l", "old", "--db", db)
    ok(
        "round",
        "start",
        "-l",
        "old",
        "-p",
        "Ana,Bo,Cy,Di,Quinn",
        "--substitute",
        "Quinn/Ed",
        "--credit",
        "--db",
        db,
    )
    ok("record", "-l", "old", "-d", "Quinn", "-c", "13C", "-f", "Ana", "-t", "14", "--db", db)
    ok("hand", "void", "-l", "old", "2", "--reason", "wrong table", "--db", db)
    ok("round", "end", "-l", "old", "--db", db)
    ok("standings", "-l", "old", "--db", db)  # running totals kept
    plan = json.loads(
        ok(
            "round",
            "start",
            "-l",
            "cup",
            "-p",
            ",".join(TEN),
            "--rounds",
            "2",
            "--duplicate",
            "--seed",
            "7",
            "--json",
            "--db",
            db,
        )
    )
    for table in plan["tables"]:
        first = table["players"][0]
        ok(
            "record",
            "-l",
            "cup",
            "--table",
            str(table["table"]),
            "-d",
            first,
            "-c",
            "14S",
            "-f",
            "none",
            "-t",
            "15",
            "--db",
            db,
        )  # the deal decides a friend: none called
    ok("hand", "amend", "-l", "cup", "1", "--taken", "16", "--reason", "miscounted", "--db", db)
    ok("league", "set", "cup", "--timezone", "Asia/Seoul", "--lang", "ko", "--db", db)
    ok("standings", "-l", "cup", "--db", db)
    ok("referee", "--league", "cup", "--table", "2", "--db", db, input="pass\nquit\n")
    ok("import", str(ROOT / "examples" / "run.toml"), "--league", "run", "--db", db)
    return plan["tables"][0]["players"]


@dataclass
class Target:
    """An empty database to restore into, and how to see that a refused restore left it as it
    was."""

    kind: str
    url: str
    path: Path | None = None

    def state(self):
        """The file's bytes and its journals (SQLite), or the tables there are (PostgreSQL)."""
        if self.path is not None:
            folder = self.path.parent
            return sorted(
                (p.name, p.read_bytes())
                for p in folder.iterdir()
                if p.name.startswith(self.path.name)
            )
        from sqlalchemy import create_engine, inspect

        engine = create_engine(self.url)
        try:
            return sorted(inspect(engine).get_table_names())
        finally:
            engine.dispose()
