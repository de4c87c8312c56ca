"""Issue 35, item 16: a backup changed in one place (tests/data/restore_mutations.json, the
attack's mutations) is either refused with one line naming the table, the row and the column,
the target left exactly as it was (an existing empty SQLite file keeps its zero bytes; an empty
PostgreSQL database gains no table), or restored into a league every command can use: round
show, session show, standings, hand log, site, record and round end."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from restoring import Backup, Target, invoke, ok

MUTATIONS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "restore_mutations.json").read_text(
        encoding="utf-8"
    )
)


def mutated(backup: Backup, mutation: dict) -> list[dict]:
    """The backup's lines with the mutation made, the header's counts told again. A
    mutation's ``copy`` sets a column to its value in another row of the table (a player
    seated twice: seat 0's player, whoever the plan seated there)."""
    lines = copy.deepcopy(backup.lines)
    header, rows = lines[0], lines[1:]
    table = mutation["table"]
    if "copy" in mutation:
        mutation = dict(
            mutation,
            set={
                column: next(
                    line["row"][column]
                    for line in rows
                    if line["table"] == table
                    and all(line["row"].get(k) == v for k, v in source.items())
                )
                for column, source in mutation["copy"].items()
            },
        )

    def chosen(line: dict) -> bool:
        return line["table"] == table and all(
            line["row"].get(k) == v for k, v in mutation.get("where", {}).items()
        )

    if "add" in mutation:
        last = max(i for i, line in enumerate(rows) if line["table"] == table)
        rows.insert(last + 1, {"table": table, "row": mutation["add"]})
    else:
        assert any(chosen(line) for line in rows), mutation["case"]
        if mutation.get("delete"):
            rows = [line for line in rows if not chosen(line)]
        for line in rows:
            if chosen(line):
                line["row"].update(mutation["set"])
    header["tables"] = {
        name: sum(line["table"] == name for line in rows) for name in header["tables"]
    }
    return [header] + rows


def restored(backup: Backup, lines: list[dict], target: Target, folder: Path):
    path = folder / "mutated.jsonl"
    path.write_text(backup.text(lines), encoding="utf-8")
    return invoke("restore", str(path), "-q", "--db", target.url)


def every_command_works(db: str, folder: Path, table_one: list[str]) -> None:
    """What the attack ran after each accepted restore, each to exit 0."""
    for args in (
        ["round", "show", "-l", "cup"],
        ["session", "show", "-l", "cup", "--session", "1"],
        ["standings", "-l", "cup"],
        ["hand", "log", "-l", "cup"],
        ["site", "-l", "cup", "-o", str(folder / "site"), "-q", "-j", "1"],
        [
            "record",
            "-l",
            "cup",
            "--table",
            "1",
            "-d",
            table_one[0],
            "-c",
            "14S",
            "-f",
            "none",
            "-t",
            "15",
            "--again",
        ],
        ["round", "end", "-l", "cup", "--force"],
    ):
        ok(*args, "--db", db)


@pytest.mark.parametrize("mutation", MUTATIONS, ids=[m["case"] for m in MUTATIONS])
def test_a_mutated_backup_is_refused_in_one_line_or_restores_a_working_league(
    backup, target, tmp_path, mutation
):
    before = target.state()
    result = restored(backup, mutated(backup, mutation), target, tmp_path)
    if mutation.get("works"):
        assert result.exit_code == 0, result.output
        every_command_works(target.url, tmp_path, backup.table_one)
        return
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert mutation["refused"] in lines[0]
    assert target.state() == before


def test_the_backup_itself_restores_into_a_working_league(backup, target, tmp_path):
    result = restored(backup, backup.lines, target, tmp_path)
    assert result.output == "Restored 136 rows (6 hands, 3 leagues).\n"
    every_command_works(target.url, tmp_path, backup.table_one)


def test_cached_totals_are_counted_again_from_the_hands(backup, target, tmp_path):
    lines = mutated(
        backup,
        {"table": "player_total", "where": {}, "set": {"score": 9223372036854775807, "hands": 777}},
    )
    assert restored(backup, lines, target, tmp_path).exit_code == 0
    shown = json.loads(ok("standings", "-l", "cup", "--json", "--db", target.url))
    plain = f"sqlite:///{tmp_path / 'plain.db'}"  # the backup as it was, for the true totals
    assert restored(backup, backup.lines, Target("sqlite", plain), tmp_path).exit_code == 0
    truth = json.loads(ok("standings", "-l", "cup", "--json", "--db", plain))
    assert [(p["name"], p["hands"], p["score"]) for p in shown["players"]] == [
        (p["name"], p["hands"], p["score"]) for p in truth["players"]
    ]
    assert all(p["hands"] != 777 for p in shown["players"])
    assert "9223372036854775807" not in ok("standings", "-l", "old", "--db", target.url)


def test_a_time_without_a_zone_is_read_as_utc(backup, target, tmp_path):
    lines = mutated(
        backup,
        {"table": "player", "where": {"id": 3}, "set": {"created_at": "2026-01-02T03:04:05"}},
    )
    assert restored(backup, lines, target, tmp_path).exit_code == 0
    again = tmp_path / "again.jsonl"
    ok("backup", "-o", str(again), "--db", target.url)
    ana = next(
        json.loads(line)["row"]
        for line in again.read_text(encoding="utf-8").splitlines()
        if '"name": "Ana"' in line
    )
    assert ana["created_at"] == "2026-01-02T03:04:05+00:00"
