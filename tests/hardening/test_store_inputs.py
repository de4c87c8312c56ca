"""Issue 21, items 5, 8 and 9: every file the store reads is bounded and checked before anything
is written, every refusal is one line with exit 1, and no command leaves a database file where
nothing succeeded."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from databases import database_params, made_once
from promises import ROOT, error_line, invoke, snapshot

RUN = str(ROOT / "examples" / "run.toml")
SEASON = str(ROOT / "examples" / "season.toml")


FILES = {"json": "s.json", "csv": "s.csv", "backup": "b.jsonl"}


def _make_league(db: str, folder: Path) -> None:
    assert invoke("import", RUN, "--league", "R", "--db", db).exit_code == 0
    assert invoke("import", SEASON, "--league", "S", "--db", db).exit_code == 0
    for form in ("json", "csv"):
        assert (
            invoke(
                "export", "-l", "S", "--format", form, "-o", str(folder / FILES[form]), "--db", db
            ).exit_code
            == 0
        )
    assert invoke("backup", "-o", str(folder / FILES["backup"]), "--db", db).exit_code == 0


@pytest.fixture(params=database_params())
def db(request, tmp_path) -> str:
    """A league with a refereed hand and a season of recorded ones, its two exports and its
    backup beside it (made once per session on each database, then copied)."""
    url, _ = made_once(
        request.param,
        tmp_path,
        "store-inputs",
        lambda url: _make_league(url, tmp_path),
        "hardening.db",
    )
    return url


@pytest.fixture
def league(db, tmp_path):
    """The league's exports and backup."""
    return {form: tmp_path / name for form, name in FILES.items()}


def _restore_into_new(tmp_path, lines) -> tuple[str, Path]:
    path = tmp_path / "mutated.jsonl"
    path.write_text(
        "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n", encoding="utf-8"
    )
    target = tmp_path / "restored.db"
    return error_line(invoke("restore", str(path), "--db", f"sqlite:///{target}")), target


def _backup_lines(path: Path) -> list:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_a_hand_number_beyond_the_databases_in_a_json_import(db, league, tmp_path):
    data = json.loads(league["json"].read_text(encoding="utf-8"))
    data["hands"][0]["number"] = 2**63
    path = tmp_path / "big.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = snapshot(db)
    assert "number = 9223372036854775808" in error_line(
        invoke("import", str(path), "--league", "New", "--db", db)
    )
    assert snapshot(db) == before


def test_a_hand_number_beyond_the_databases_in_a_csv_import(db, league, tmp_path):
    lines = league["csv"].read_text(encoding="utf-8-sig").splitlines()
    lines[1] = str(2**63) + lines[1][lines[1].index(",") :]
    path = tmp_path / "big.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert invoke("league", "create", "New", "-r", "standard", "--db", db).exit_code == 0
    before = snapshot(db)
    assert "a league numbers from 1" in error_line(
        invoke("import", str(path), "--league", "New", "--db", db)
    )
    assert snapshot(db) == before


def test_a_hand_number_beyond_the_databases_in_a_restore(league, tmp_path):
    lines = _backup_lines(league["backup"])
    next(line for line in lines if line.get("table") == "hand")["row"]["number"] = 2**63
    said, target = _restore_into_new(tmp_path, lines)
    assert "hand.number (id 1): 9223372036854775808 is beyond what the database stores" in said
    assert not target.exists()


def test_a_restore_row_whose_table_is_not_a_name(league, tmp_path):
    lines = _backup_lines(league["backup"])
    lines[1]["table"] = []
    said, target = _restore_into_new(tmp_path, lines)
    assert "line 2: unknown table []" in said and not target.exists()


@pytest.mark.parametrize(
    "table,column,value",
    [
        ("player_total", "score", "abc"),
        ("hand_player", "seat", "x"),
        ("league", "min_hands", "abc"),
        ("hand", "record_toml", "x = ["),
        ("hand", "voided", 1),
        ("player", "name", None),
        ("league", "ruleset_toml", "[meta"),
    ],
)
def test_a_restore_refuses_a_value_of_the_wrong_kind(league, tmp_path, table, column, value):
    lines = _backup_lines(league["backup"])
    row = next(
        line["row"]
        for line in lines
        if line.get("table") == table
        and (column != "record_toml" or line["row"].get("record_toml"))
    )
    row[column] = value
    said, target = _restore_into_new(tmp_path, lines)
    assert f"{table}.{column} (" in said and not target.exists()  # the row's key named


def test_a_restore_into_an_existing_database_changes_nothing_when_refused(db, league, tmp_path):
    lines = _backup_lines(league["backup"])
    next(line for line in lines if line.get("table") == "hand_player")["row"]["seat"] = "x"
    path = tmp_path / "mutated.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    empty = tmp_path / "empty.db"
    assert invoke("player", "add", "Zed", "--db", f"sqlite:///{empty}").exit_code == 0
    assert invoke("player", "merge", "Zed", "Zed", "--db", f"sqlite:///{empty}").exit_code == 1
    before = snapshot(f"sqlite:///{empty}")
    error_line(invoke("restore", str(path), "--db", f"sqlite:///{empty}"))
    assert snapshot(f"sqlite:///{empty}") == before


def test_invalid_utf8_past_the_first_8_kib_of_a_json_export(db, league, tmp_path):
    data = league["json"].read_bytes()
    cut = data.rindex(b'"number"')
    assert cut > 8192
    path = tmp_path / "bad.json"
    path.write_bytes(data[:cut] + b"\xff" + data[cut:])
    before = snapshot(db)
    assert "not UTF-8 text" in error_line(
        invoke("import", str(path), "--league", "New", "--db", db)
    )
    assert snapshot(db) == before


def test_a_db_that_is_not_sqlite_is_one_line(tmp_path):
    path = tmp_path / "notes.db"
    path.write_text("hello\n" * 100, encoding="utf-8")
    said = error_line(invoke("league", "list", "--db", str(path)))
    assert "cannot open the database: file is not a database" in said
    assert "sqlalche.me" not in said
    assert path.read_text(encoding="utf-8") == "hello\n" * 100


def test_league_show_of_an_empty_name_on_an_empty_database(tmp_path):
    url = f"sqlite:///{tmp_path / 'empty.db'}"
    assert invoke("player", "add", "Ana", "--db", url).exit_code == 0
    assert "no league named ''" in error_line(invoke("league", "show", "", "--db", url))


@pytest.mark.parametrize(
    "args",
    [
        ["standings", "-l", "L"],
        ["export", "-l", "L"],
        ["hand", "list", "-l", "L"],
        ["league", "show", "L"],
        ["league", "list"],
        ["player", "list"],
        ["backup", "-o", "b.jsonl"],
        ["session", "show", "-l", "L"],
        ["site", "-l", "L", "-o", "site"],
        ["record", "-l", "L", "-d", "Ana", "-c", "15D", "-f", "Bo", "-t", "16"],
        ["referee", "--league", "L"],
    ],
)
def test_a_mistyped_db_creates_nothing(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    typo = tmp_path / "cluub.db"
    said = error_line(invoke(*args, "--db", str(typo)))
    assert "no database there" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["league", "create", "L", "-r", "no-such-ruleset"],
        ["import", RUN, "--league", "L", "--ruleset", "standard-7"],
    ],
)
def test_a_failed_creating_command_leaves_no_file(tmp_path, args):
    target = tmp_path / "new.db"
    error_line(invoke(*args, "--db", str(target)), codes=(1, 2))
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_failed_restore_leaves_no_database(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "mighty-backup/1", "tables": {"player": 2}}\n', encoding="utf-8")
    target = tmp_path / "new.db"
    error_line(invoke("restore", str(bad), "--db", str(target)))
    assert not target.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl"]


@pytest.mark.parametrize(
    "command",
    [
        ["import", "{fifo}", "--league", "F"],
        ["import", "{fifo}", "--format", "json", "--league", "F"],
        ["import", "{fifo}", "--format", "csv", "--league", "F"],
        ["restore", "{fifo}"],
        ["replay", "{fifo}"],
        ["referee", "--players", "Ana,Bo,Cy,Di,Ed", "--resume", "{fifo}"],
        ["referee", "--players", "Ana,Bo,Cy,Di,Ed", "--deal", "{fifo}"],
    ],
)
def test_a_named_pipe_is_refused_not_waited_on(tmp_path, command):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    args = [part.format(fifo=fifo) for part in command]
    said = error_line(
        invoke(*args, "--db", str(tmp_path / "f.db"))
        if command[0] in ("import", "restore")
        else invoke(*args),
        codes=(1, 2),
    )
    assert "named pipe (FIFO)" in said


def test_a_named_pipe_as_a_ruleset_is_not_waited_on(tmp_path):
    fifo = tmp_path / "club.toml"
    os.mkfifo(fifo)
    assert "a named pipe (FIFO), not a regular file" in error_line(
        invoke("ruleset", "check", str(fifo))
    )


def test_a_folder_as_a_ruleset_is_not_a_regular_file(tmp_path):
    folder = tmp_path / "club.toml"
    folder.mkdir()
    assert error_line(invoke("ruleset", "check", str(folder))) == (
        f"ruleset file {str(folder)!r}: not a regular file"
    )


@pytest.mark.parametrize(
    "command,suffix",
    [
        (["import", "{link}", "--league", "Z"], ".json"),
        (["import", "{link}", "--league", "Z", "--format", "csv"], ".csv"),
        (["restore", "{link}"], ".jsonl"),
    ],
)
def test_an_endless_input_is_refused_at_a_bound(tmp_path, command, suffix):
    link = tmp_path / f"zero{suffix}"
    link.symlink_to("/dev/zero")
    args = [part.format(link=link) for part in command]
    if "csv" in args:
        assert (
            invoke(
                "league", "create", "Z", "-r", "standard", "--db", str(tmp_path / "z.db")
            ).exit_code
            == 0
        )
    said = error_line(invoke(*args, "--db", str(tmp_path / "z.db")))
    assert "longer than" in said or "larger than" in said
