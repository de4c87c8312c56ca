"""Issue 35, items 7 and 16: a failed restore leaves its target exactly as it was (its bytes
and whether it is there), and a backup travels from SQLite to PostgreSQL and back to SQLite
into a league every command uses."""

from __future__ import annotations

import json
import sqlite3

import pytest

from databases import POSTGRES_URL
from restoring import invoke, ok
from test_restore_mutations import every_command_works

CUT = '{"format": "mighty-backup/1", "tables": {"player": 2}}\n{"table": "player"}\n'


def without_totals(text: str) -> list:
    """A backup's lines without the running totals (a restore counts them again)."""
    lines = [json.loads(line) for line in text.splitlines()]
    lines[0]["tables"] = {
        t: n for t, n in lines[0]["tables"].items() if t not in ("player_total", "totals_mark")
    }
    return [line for line in lines if line.get("table") not in ("player_total", "totals_mark")]


def test_a_refused_restore_into_an_empty_store_leaves_it_byte_for_byte(tmp_path):
    store = tmp_path / "empty.db"
    ok("player", "add", "Zed", "--db", str(store))
    connection = sqlite3.connect(store)  # a store with its tables and no row
    with connection:
        connection.execute("DELETE FROM change_log")
        connection.execute("DELETE FROM player")
    connection.close()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    cut = tmp_path / "cut.jsonl"
    cut.write_text(CUT, encoding="utf-8")
    assert invoke("restore", str(cut), "--db", str(store)).exit_code == 1
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p != cut} == before


@pytest.mark.parametrize(
    "args",
    [
        ["restore", "{cut}"],
        ["league", "create", "L", "-r", "nope"],
        ["import", "{cut}", "--league", "L"],
    ],
)
def test_a_failed_creating_command_leaves_an_empty_file_empty(tmp_path, args):
    empty = tmp_path / "club.db"
    empty.touch()
    cut = tmp_path / "cut.jsonl"
    cut.write_text(CUT, encoding="utf-8")
    result = invoke(*[a.format(cut=cut) for a in args], "--db", str(empty))
    assert result.exit_code == 1, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.db", "cut.jsonl"]
    assert empty.read_bytes() == b""


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="MIGHTY_TEST_POSTGRES_URL not set")
def test_a_refused_restore_leaves_no_table_in_postgresql(target, tmp_path):
    if target.kind != "postgres":
        pytest.skip("PostgreSQL only")
    cut = tmp_path / "cut.jsonl"
    cut.write_text(CUT, encoding="utf-8")
    assert invoke("restore", str(cut), "--db", target.url).exit_code == 1
    assert target.state() == []


@pytest.mark.postgres
@pytest.mark.skipif(not POSTGRES_URL, reason="MIGHTY_TEST_POSTGRES_URL not set")
def test_a_backup_goes_from_sqlite_to_postgresql_and_back(backup, target, tmp_path):
    if target.kind != "postgres":
        pytest.skip("PostgreSQL only")
    first = tmp_path / "from-sqlite.jsonl"
    first.write_text(backup.text(), encoding="utf-8")
    ok("restore", str(first), "--db", target.url)
    second = tmp_path / "from-postgresql.jsonl"
    ok("backup", "-o", str(second), "--db", target.url)
    back = f"sqlite:///{tmp_path / 'back.db'}"
    ok("restore", str(second), "--db", back)
    third = tmp_path / "back.jsonl"
    ok("backup", "-o", str(third), "--db", back)
    text = first.read_text(encoding="utf-8")
    assert without_totals(second.read_text(encoding="utf-8")) == without_totals(text)
    assert without_totals(third.read_text(encoding="utf-8")) == without_totals(text)
    every_command_works(back, tmp_path, backup.table_one)
